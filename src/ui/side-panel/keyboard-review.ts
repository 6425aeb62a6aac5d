/**
 * One-key review of a run's verdicts, as pure rules: which key does what in the verdict list
 * (`j`/`k` or the arrow keys move, `a` accepts, `e` edits, `r` rejects, Enter shows the fact in
 * the page, `m` opens the record's menu of actions), when a key is the
 * reader's typing rather than a command, and the sentence a screen reader hears after each
 * decision. No React and no DOM: review-results.tsx applies the action, so every rule here is
 * unit-tested. The keys follow the j/k convention of mail and feed readers (Gmail, vi).
 */
import type { MatrixRunRow, RunReview } from '../../contracts/matrix-run';
import type { ReviewDecision } from '../../contracts/dataset';
import type { VerificationRecord } from '../../contracts/verification';
import { decisionOf, type ReviewEdit } from '../../store/dataset-rows';
import { describeValue } from '../../text/quantities/format-quantity';
import { formatConditions, formatProvenance } from '../../contracts/conditions';

/** A keydown as the verdict list sees it: the key, its modifiers, and what had focus. */
export interface ReviewKeyInput {
  /** `KeyboardEvent.key`, e.g. "j", "ArrowDown". */
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The focused element's tag name in upper case ("INPUT", "LI", "BUTTON"). */
  targetTag: string;
  /** The focused element is `contenteditable`. */
  targetEditable: boolean;
}

/**
 * What a key asks for: move focus to `position` (0-based, in list order), decide, open Edit,
 * locate the record in the page, open its menu of actions, or nothing.
 */
export type ReviewKeyAction =
  | { kind: 'move'; position: number }
  | { kind: 'decide'; decision: 'accepted' | 'rejected' }
  | { kind: 'edit' }
  | { kind: 'locate' }
  | { kind: 'menu' }
  | { kind: 'none' };

const typingTags = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/**
 * The action for `input` when the focused verdict is at `position` of `count` (count ≥ 0).
 * → `none` while the reader types (focus in an input, textarea, select or contenteditable), with
 * Ctrl, Meta or Alt held (browser and screen-reader shortcuts), for a capital letter (Shift), in
 * an empty list, and for any other key. `j`/ArrowDown and `k`/ArrowUp stop at the ends (no
 * wrap-around); Home/End go to the first/last verdict. Enter locates only on the record itself
 * (`targetTag` "LI": on a button Enter is the button's); `m` and the ContextMenu key open the
 * record's menu (WAI-ARIA's menu-button pattern reached without a Tab stop of its own).
 */
export function reviewKeyAction(input: ReviewKeyInput, position: number, count: number): ReviewKeyAction {
  if (count <= 0 || input.ctrlKey || input.metaKey || input.altKey) return { kind: 'none' };
  if (input.targetEditable || typingTags.has(input.targetTag.toUpperCase())) return { kind: 'none' };
  const at = Math.min(Math.max(position, 0), count - 1);
  switch (input.key) {
    case 'j':
    case 'ArrowDown':
      return { kind: 'move', position: Math.min(at + 1, count - 1) };
    case 'k':
    case 'ArrowUp':
      return { kind: 'move', position: Math.max(at - 1, 0) };
    case 'Home':
      return { kind: 'move', position: 0 };
    case 'End':
      return { kind: 'move', position: count - 1 };
    case 'a':
      return { kind: 'decide', decision: 'accepted' };
    case 'r':
      return { kind: 'decide', decision: 'rejected' };
    case 'e':
      return { kind: 'edit' };
    case 'Enter':
      return input.targetTag.toUpperCase() === 'LI' ? { kind: 'locate' } : { kind: 'none' };
    case 'm':
    case 'ContextMenu':
      return { kind: 'menu' };
    default:
      return { kind: 'none' };
  }
}

/**
 * How many of the run's records carry a decision (not `pending`) once record `index` has
 * `decision`: the "N of M reviewed" count, M = `row.records.length`.
 */
export function reviewedCount(row: Pick<MatrixRunRow, 'records' | 'reviews'>, index: number, decision: ReviewDecision): number {
  return row.records.reduce((count, _record, at) => count + ((at === index ? decision : decisionOf(row, at)) === 'pending' ? 0 : 1), 0);
}

const decisionVerbs: Record<ReviewDecision, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  edited: 'Edited',
  pending: 'Undecided',
};

/**
 * "SrTiO3 band gap 3.2 eV": the record's material, property label in lower case, and value as
 * stated; with the reader's `edit`, its material, value as printed and unit instead. The
 * conditions (method first) and provenance follow in parentheses when the triplet has them:
 * "BPN-GaN band gap 2.31 eV (HSE06, indirect, computed)" — a screen reader hears the whole fact.
 */
export function factText(record: VerificationRecord, label: (name: string) => string, edit?: ReviewEdit): string {
  const { triplet } = record;
  const material = edit?.material ?? triplet.material;
  const value = edit?.valueText !== undefined ? `${edit.valueText}${edit.unit ? ` ${edit.unit}` : ''}` : describeValue(triplet);
  const qualifiers = [formatConditions(triplet.conditions).replaceAll(' · ', ', '), formatProvenance(triplet.provenance)].filter(Boolean);
  return `${material} ${label(triplet.property).toLowerCase()} ${value}${qualifiers.length > 0 ? ` (${qualifiers.join(', ')})` : ''}`;
}

/**
 * The live region's sentence after a decision, e.g. "Accepted: SrTiO3 band gap 3.2 eV. 2 of 5
 * reviewed." (`reviewed` and `total` as from `reviewedCount` and `row.records.length`); an edit
 * is said with the reader's values ("Edited: SrTiO3 band gap 3.25 eV. …").
 */
export function decisionAnnouncement(
  review: Pick<RunReview, 'decision' | 'edit'>,
  record: VerificationRecord,
  label: (name: string) => string,
  reviewed: number,
  total: number,
): string {
  return `${decisionVerbs[review.decision]}: ${factText(record, label, review.edit)}. ${reviewed} of ${total} reviewed.`;
}
