/**
 * Scoring one precedent answer (docs/EVAL.md, "Precedent (0/1/2)"): 2 = right class and a
 * reported value of the class's kind matches the truth (Tc for Yes, Tcn for No); 1 = right class
 * only; 0 = wrong class, "Unknown", or an answer that is not a well-formed `PrecedentAnswer`.
 * Values match at a relative tolerance after SI (all in K here): 0.1% by default, and the
 * report adds 1% and 10% as the reliability-gap paper does.
 */
import { parse } from 'csv-parse/sync';
import { precedentAnswerSchema, type PrecedentAnswer, type PrecedentValue } from '../../precedent/precedent-answer';
import { withinTolerance } from '../value-match';
import type { CornellTcQuestion } from './cornell-tc-dataset';

export type PrecedentScore = 0 | 1 | 2;

/** Tolerances reported side by side (fractions); the first is the headline one. */
export const CORNELL_TC_TOLERANCES = [0.001, 0.01, 0.1] as const;

/** The answer if it is well-formed, else null (scored 0). */
export function readPrecedentAnswer(answer: unknown): PrecedentAnswer | null {
  const parsed = precedentAnswerSchema.safeParse(answer);
  return parsed.success ? parsed.data : null;
}

/**
 * Score `answer` (any value; malformed → 0) against `question` at `tolerance` (a fraction).
 * With `headlineOnly`, only the first value of the class's kind counts (the one that answers
 * "highest Tc" / "lowest Tcn"); otherwise any reported value of that kind may match.
 */
export function scorePrecedent(
  answer: unknown,
  question: CornellTcQuestion,
  tolerance: number = CORNELL_TC_TOLERANCES[0],
  headlineOnly = false,
): PrecedentScore {
  const read = readPrecedentAnswer(answer);
  if (!read || read.answer !== question.truth) return 0;
  const values = read.values.filter((value) => value.kind === question.kind);
  const candidates = headlineOnly ? values.slice(0, 1) : values;
  return candidates.some((value) => withinTolerance(value.value, question.value, tolerance)) ? 2 : 1;
}

/**
 * True when `value` is grounded in the table: its quote is a whole line of the table text
 * (`lines`, from `tableLines`), and that line, read with the table's `header`, reports the same
 * kind, the same number (to 1e-9 relative) and the same reference code.
 */
export function valueGrounded(value: PrecedentValue, lines: ReadonlySet<string>, header: readonly string[]): boolean {
  if (!lines.has(value.quote)) return false;
  let record: Record<string, string> | undefined;
  try {
    record = (parse(value.quote, { columns: [...header], relax_column_count: true }) as Array<Record<string, string>>)[0];
  } catch {
    return false;
  }
  if (!record) return false;
  const kind = ({ tc: 'Tc', tcn: 'Tcn' } as Record<string, string>)[(record.property_name ?? '').trim().toLowerCase()];
  const number = Number((record.property_value ?? '').trim());
  const code = (record.refno ?? '').trim();
  return (
    kind === value.kind &&
    withinTolerance(value.value, number, 1e-9) &&
    (value.reference.code ?? '') === code &&
    (code !== '' || value.reference.doi !== undefined)
  );
}

/** A Yes/No answer is grounded when it has values and every one of them is grounded. */
export function answerGrounded(answer: PrecedentAnswer, lines: ReadonlySet<string>, header: readonly string[]): boolean {
  return answer.values.length > 0 && answer.values.every((value) => valueGrounded(value, lines, header));
}
