/**
 * What the scan reads about each candidate value beside its material and property (issue 26):
 * its role in the sentence, the conditions that hold for it and where it comes from. The same
 * readers, on the same text, as the gate's fact check (src/verify/fact-check.ts), so that what
 * the quick scan offers, the gate would not reject:
 * - prose: the value's sentence (`ArticleIndex.sentencesOf` its block); `valueRole` + `roleVerdict`,
 *   `conditionsOfValue`, `provenanceOf`; a `rejected` role is no candidate;
 * - table: the cell's column header, row label and the table's caption (`conditionsOfTableCell`;
 *   the caption is `ArticleIndex.captionOf`, the one the gate reads);
 *   the role is `value` and the provenance `unknown` (a cell has no sentence to read them from).
 */
import type { Block } from '../contracts/article';
import type { Condition, Provenance } from '../contracts/conditions';
import type { PropertyDefinition } from '../contracts/property';
import type { TextSpan } from '../contracts/text-span';
import { conditionsOfTableCell, conditionsOfValue, findConditionMentions, type ConditionMention } from './conditions';
import { materialSubjectProblem } from './conditions/material-subject';
import { provenanceOf } from './conditions/provenance';
import { roleVerdict, valueRole } from './conditions/value-role';
import type { CandidateRole } from './scan-types';

/** What a candidate carries besides its material, property and value (see `Candidate`). */
export interface CandidateFacts {
  role: CandidateRole;
  conditions: Condition[];
  provenance: Provenance;
  doubts: string[];
}

/** A mention read in a piece of text that starts at `offset` in `Article.text`, as a contract `Condition`. */
function asCondition(mention: ConditionMention, offset: number): Condition {
  return {
    kind: mention.kind,
    value: mention.value,
    text: mention.text,
    position: { type: 'TextPositionSelector', start: offset + mention.start, end: offset + mention.end },
  };
}

/** One condition per kind and value, in the order read (the fact check's de-duplication). */
function unique(conditions: Condition[]): Condition[] {
  return conditions.filter(
    (condition, index) => conditions.findIndex((other) => other.kind === condition.kind && other.value === condition.value) === index,
  );
}

/** The doubt the gate states for a cited value (src/verify/fact-check.ts, rule 4), in the same words. */
function citedDoubt(provenance: Provenance): string {
  return `cited${provenance.reference ? ` ${provenance.reference}` : ''}: a value the paper quotes from elsewhere, not its own result`;
}

/**
 * The facts of a value in prose. `sentence` is the sentence's text, starting at `sentenceStart`
 * in `Article.text`; `value` the quantity's span in the sentence (number, approximator and unit
 * as `parseQuantities` gives it). `catalogue` is the property catalogue the role reads rival
 * properties from (a same-unit property that heads the number); `conditionsOfSentence` gives the
 * sentence's condition mentions (the scan reads them once per sentence). Returns null when the role is
 * `rejected`: the number is not a value of the property, so it is not offered.
 */
export function sentenceValueFacts(
  sentence: string,
  sentenceStart: number,
  value: TextSpan,
  property: PropertyDefinition,
  catalogue: readonly PropertyDefinition[],
  material: string | null,
  conditionsOfSentence: () => readonly ConditionMention[] = () => findConditionMentions(sentence),
): CandidateFacts | null {
  const reading = valueRole(sentence, value, property, catalogue);
  const verdict = roleVerdict(reading);
  if (verdict === 'rejected') return null;
  const role: CandidateRole = { role: reading.role, verdict, ...(reading.reason ? { reason: reading.reason } : {}) };
  const doubts: string[] = [];
  if (verdict === 'needs_review') doubts.push(reading.reason ?? `the number is not the ${property.label.toLowerCase()} itself`);
  const read = conditionsOfValue(sentence, value, undefined, conditionsOfSentence());
  doubts.push(...read.ambiguous);
  const found = provenanceOf(sentence, value);
  const provenance: Provenance = {
    kind: found.kind,
    ...(found.reference ? { reference: found.reference } : {}),
    ...(found.cue
      ? {
          text: found.cue.text,
          position: { type: 'TextPositionSelector' as const, start: sentenceStart + found.cue.start, end: sentenceStart + found.cue.end },
        }
      : {}),
  };
  if (provenance.kind === 'cited') doubts.push(citedDoubt(provenance));
  const subject = material === null ? undefined : materialSubjectProblem(material);
  if (subject) doubts.push(subject);
  return { role, conditions: unique(read.conditions.map((mention) => asCondition(mention, sentenceStart))), provenance, doubts };
}

/** A piece of a table and where it starts in `Article.text`. */
export interface TablePiece {
  text: string;
  start: number;
}

/**
 * The facts of a table cell: the conditions of its column `header`, its `row` label (the row's
 * first cell) and the table's `caption` block (`ArticleIndex.captionOf`), each mapped to `Article.text`.
 */
export function tableCellFacts(header: TablePiece, row: TablePiece, caption: Block | undefined, material: string | null): CandidateFacts {
  const base = { header: header.start, row: row.start, caption: caption?.start ?? 0 } as const;
  const conditions = conditionsOfTableCell(header.text, row.text, caption?.text ?? '').map((mention) =>
    asCondition(mention, base[mention.from]),
  );
  const subject = material === null ? undefined : materialSubjectProblem(material);
  return {
    role: { role: 'value', verdict: 'ok' },
    conditions: unique(conditions),
    provenance: { kind: 'unknown' },
    doubts: subject ? [subject] : [],
  };
}
