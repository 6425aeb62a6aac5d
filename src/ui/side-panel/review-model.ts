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
import { factEntries, type FactEntry } from '../../matrix/fact-entries';
import { describeValue } from '../../text/quantities/format-quantity';
import { statusLabel } from '../shared/run-view-model';

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
 * The indices (into `row.records`) of the adjudication queue: facts (`factEntries`) whose status
 * is `needs_review` and that the reader has not decided yet (their primary record's decision is
 * `pending`), by each fact's primary record, in run order. A fact one record of which is verified
 * is verified, so it is never in the queue, whatever its other records say.
 */
export function adjudicationQueue(
  row: Pick<MatrixRunRow, 'records' | 'reviews'>,
  entries: readonly FactEntry[] = factEntries(row.records),
): number[] {
  return entries
    .filter((entry) => entry.status === 'needs_review' && decisionOf(row, entry.primary) === 'pending')
    .map((entry) => entry.primary)
    .sort((a, b) => a - b);
}

/** "MoA and search", "MoA", "search", or the votes as given (replayed tool names): who stated a record's triplet, in words. */
function votersText(votes: readonly string[]): string {
  const moa = votes.includes('moa');
  const gd = votes.includes('gd');
  if (moa && gd && votes.length === 2) return 'MoA and search agreed';
  if (moa && votes.length === 1) return 'MoA alone';
  if (gd && votes.length === 1) return 'Search alone';
  return votes.length === 0 ? 'No vote' : votes.join(' + ');
}

/**
 * One line per record of a merged fact, for the list under its entry: who stated it, that
 * record's own verdict and its first reason — "MoA and search agreed: verified",
 * "MoA alone: needs review (only the MoA path gave this triplet)". `entry.members` order (run order).
 */
export function factVoteLines(records: readonly VerificationRecord[], entry: FactEntry): { index: number; text: string }[] {
  return entry.members.map((index) => {
    const record = records[index]!;
    const reason = record.status === 'verified' ? undefined : record.reasons[0];
    return { index, text: `${votersText(record.votes)}: ${statusLabel(record.status).toLowerCase()}${reason ? ` (${reason})` : ''}` };
  });
}

/**
 * The decision a `needs_review` record asks of the reader, in plain words: "The models disagree:
 * 1.6 eV or no value?" when the two paths gave different answers (a path that gave none is "no
 * value"; the MoA answer is named first), else null (the paths agreed and a check sent it to review).
 */
export function disagreementText(record: VerificationRecord): string | null {
  const adjudication = record.adjudication;
  if (!adjudication) return null;
  const say = (triplet: Triplet | undefined) => (triplet ? describeValue(triplet) : 'no value');
  const [moa, gd] = [say(adjudication.moa), say(adjudication.gd)];
  // Same value, different materials ("Eu S" and "EuS" that the comparison did not pair): say the materials.
  if (moa === gd && adjudication.moa && adjudication.gd)
    return `The models disagree: ${answerText(adjudication.moa)} or ${answerText(adjudication.gd)}?`;
  return `The models disagree: ${moa} or ${gd}?`;
}

/** "Saved 3 triplets (1 merged with ones already in your dataset)"; "Saved 1 triplet (0 merged …)". */
export function saveStatusText({ added, merged }: { added: number; merged: number }): string {
  const saved = added + merged;
  return `Saved ${saved} triplet${saved === 1 ? '' : 's'} (${merged} merged with ones already in your dataset)`;
}
