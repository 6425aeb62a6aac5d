/**
 * Precedent answers in the re-scorable shape every `assay eval … --json` run shares
 * (`src/eval/rescorable.ts`): strict and lenient precision/recall over the 0/1/2 scores, one
 * prediction per question (the answer) and one truth per question.
 *
 * The 0/1/2 score is the Cornell sci-llm precedent-search rubric (docs/EVAL.md, "Precedent
 * (0/1/2)"; `tc-precedent-search/rescore_results.py` of albertgong1/sci-llm). It has no
 * precision or recall of its own; here a question is "matched" when its score clears a bar:
 * - strict: score 2 (right class and a reported value within 0.1%);
 * - lenient: score ≥ 1 (right class).
 * precision = matched / answers that are not Unknown; recall = matched / questions.
 */
import type { PrecedentAnswer } from '../../precedent/precedent-answer';
import { prfFigures, type EvalPrediction, type EvalTruth, type StrictAndLenient } from '../rescorable';
import type { PrecedentScore } from './cornell-tc-score';

/** A precedent answer as a prediction: the headline value (or the class), plus every value it reported. */
export interface PrecedentPrediction extends EvalPrediction {
  /** Kind of the reported values (`Tc` for Yes, `Tcn` for No), null when none. */
  kind: 'Tc' | 'Tcn' | null;
  /** Every reported value of that kind, in K, headline first (the scorer accepts any of them). */
  values: number[];
}

/** A question's truth: its class and the accepted values (K), the first being `value`. */
export interface PrecedentTruth extends EvalTruth {
  answer: 'Yes' | 'No';
  kind: 'Tc' | 'Tcn';
  values: number[];
}

/**
 * Strict and lenient figures of paired `answers` and `scores` (same order): predictions =
 * answers not Unknown, truths = questions, matched = scores of 2 (strict) or ≥ 1 (lenient).
 */
export function precedentStrictAndLenient(answers: readonly PrecedentAnswer[], scores: readonly PrecedentScore[]): StrictAndLenient {
  const answered = answers.filter((answer) => answer.answer !== 'Unknown').length;
  return {
    strict: prfFigures(answered, scores.length, scores.filter((score) => score === 2).length),
    lenient: prfFigures(answered, scores.length, scores.filter((score) => score >= 1).length),
  };
}

/**
 * The prediction for question `id` about `material`: `value` is the headline value as a
 * `ReportedValue` in K (the class string when the answer has no value, "Unknown" included),
 * `quote` the headline value's evidence (null without one), `status` the class.
 */
export function precedentPrediction(id: string, material: string, answer: PrecedentAnswer): PrecedentPrediction {
  const headline = answer.values[0];
  return {
    paper: id,
    material,
    property: 'tc',
    value: headline ? { kind: 'number', value: headline.value } : answer.answer,
    unit: 'K',
    quote: headline ? headline.quote : null,
    status: answer.answer,
    kind: headline ? headline.kind : null,
    values: answer.values.filter((value) => value.kind === headline?.kind).map((value) => value.value),
  };
}

/** The truth of question `id`: class `answer`, value kind `kind`, accepted `values` in K (at least one). */
export function precedentTruth(
  id: string,
  aliases: readonly string[],
  answer: 'Yes' | 'No',
  kind: 'Tc' | 'Tcn',
  values: readonly number[],
): PrecedentTruth {
  return {
    paper: id,
    aliases: [...aliases],
    property: 'tc',
    value: values.length > 0 ? { kind: 'number', value: values[0]! } : answer,
    unit: 'K',
    answer,
    kind,
    values: [...values],
  };
}
