/**
 * The reader's review of a run's verdicts, as pure rules for the side panel: the reviews that
 * Edit and "Keep … answer" write, the adjudication queue and the save message. Which records
 * "Save verified" keeps and the dataset rows it writes are src/store/dataset-rows.ts.
 * No React and no database, so every rule is unit-tested; the writes are in review-actions.ts.
 */
import type { MatrixRunRow, RunReview } from '../../contracts/matrix-run';
import type { Triplet } from '../../contracts/triplet';
import type { VerificationRecord } from '../../contracts/verification';
import { decisionOf, editFromTriplet, sameEdit, type AdjudicationPath, type ReviewEdit } from '../../store/dataset-rows';
import { describeValue } from '../../text/quantities/format-quantity';

/** "GaN: 3.4 eV": a triplet (or an edit) in one line, as the panel writes "Model said: …". */
export function answerText(answer: Triplet | ReviewEdit): string {
  if ('property' in answer) return `${answer.material}: ${describeValue(answer)}`;
  const unit = answer.unit ? ` ${answer.unit}` : '';
  return `${answer.material ?? ''}: ${answer.valueText ?? ''}${unit}`;
}

/**
 * The review for "Edit" saved at `at`: `{ decision: 'edited', edit, at }` with the fields
 * trimmed. → `{ ok: false, message }` when the material or the value is blank (the unit may be
 * blank: dimensionless).
 */
export function editReview(
  edit: { material: string; valueText: string; unit: string },
  at: Date,
): { ok: true; review: RunReview } | { ok: false; message: string } {
  const material = edit.material.trim();
  const valueText = edit.valueText.trim();
  if (material === '') return { ok: false, message: 'Give the material.' };
  if (valueText === '') return { ok: false, message: 'Give the value as printed, e.g. 3.4 or 1.2–1.5.' };
  return { ok: true, review: { decision: 'edited', edit: { material, valueText, unit: edit.unit.trim() }, at: at.toISOString() } };
}

/**
 * The review for "Keep MoA answer" / "Keep search answer" on a `needs_review` record: decision
 * `accepted` at `at`, with `edit` = the chosen answer's fields when they differ from the stored
 * triplet's (`record.triplet`), and no edit when they are the same or the path gave no answer.
 */
export function keepAnswerReview(record: VerificationRecord, path: AdjudicationPath, at: Date): RunReview {
  const chosen = record.adjudication?.[path];
  const review: RunReview = { decision: 'accepted', at: at.toISOString() };
  if (!chosen) return review;
  const edit = editFromTriplet(chosen);
  return sameEdit(edit, editFromTriplet(record.triplet)) ? review : { ...review, edit };
}

/**
 * The indices (into `row.records`) of the adjudication queue: `needs_review` records the reader
 * has not decided yet (decision `pending`), in run order.
 */
export function adjudicationQueue(row: Pick<MatrixRunRow, 'records' | 'reviews'>): number[] {
  return row.records.flatMap((record, index) => (record.status === 'needs_review' && decisionOf(row, index) === 'pending' ? [index] : []));
}

/** "Saved 3 triplets (1 merged with ones already in your dataset)"; "Saved 1 triplet (0 merged …)". */
export function saveStatusText({ added, merged }: { added: number; merged: number }): string {
  const saved = added + merged;
  return `Saved ${saved} triplet${saved === 1 ? '' : 's'} (${merged} merged with ones already in your dataset)`;
}
