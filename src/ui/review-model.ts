/**
 * The reader's review of a run's verdicts, as pure rules: the decision on each record, the
 * adjudication queue, which records "Save verified" keeps, and the dataset rows it writes.
 * No React and no database, so every rule is unit-tested; the writes are in review-actions.ts.
 */
import type { DatasetTriplet, ReviewDecision, SourcePaper } from '../contracts/dataset';
import type { MatrixRunRow, RunReview } from '../contracts/matrix-run';
import type { Triplet } from '../contracts/triplet';
import type { VerificationRecord } from '../matrix/cross-verify-refine';
import { applyEdit, parseValueText, toDatasetTriplet } from '../store/dataset-repository';
import { describeValue, printedValue } from './run-view-model';

/** The corrected fields of an `edited` review (or of a kept adjudication answer). */
export type ReviewEdit = NonNullable<RunReview['edit']>;

/** Which answer of a `needs_review` record the reader keeps: the MoA one or the generator–discriminator search's. */
export type AdjudicationPath = 'moa' | 'gd';

/** The reader's decision on record `index` of `row`: its review's, else `pending`. */
export function decisionOf(row: Pick<MatrixRunRow, 'reviews'>, index: number): ReviewDecision {
  return row.reviews?.[index]?.decision ?? 'pending';
}

export { printedValue };

/** A triplet's fields as an edit: material, value as printed, unit. What the Edit form starts from. */
export function editFromTriplet(triplet: Triplet): Required<ReviewEdit> {
  return { material: triplet.material, valueText: printedValue(triplet), unit: triplet.unit };
}

/** "GaN: 3.4 eV": a triplet (or an edit) in one line, as the panel writes "Model said: …". */
export function answerText(answer: Triplet | ReviewEdit): string {
  if ('property' in answer) return `${answer.material}: ${describeValue(answer)}`;
  const unit = answer.unit ? ` ${answer.unit}` : '';
  return `${answer.material ?? ''}: ${answer.valueText ?? ''}${unit}`;
}

function sameEdit(left: ReviewEdit, right: ReviewEdit): boolean {
  return left.material === right.material && left.valueText === right.valueText && (left.unit ?? '') === (right.unit ?? '');
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

/** Which adjudication answer (if any) a review's edit equals exactly: "Keep MoA answer" / "Keep search answer". */
export function keptAnswer(record: VerificationRecord, review: RunReview | undefined): AdjudicationPath | undefined {
  if (review?.decision !== 'accepted' || !record.adjudication) return undefined;
  const stored = review.edit ?? editFromTriplet(record.triplet);
  return (['moa', 'gd'] as const).find((path) => {
    const answer = record.adjudication?.[path];
    return answer !== undefined && sameEdit(editFromTriplet(answer), stored);
  });
}

/**
 * The indices (into `row.records`) of the adjudication queue: `needs_review` records the reader
 * has not decided yet (decision `pending`), in run order.
 */
export function adjudicationQueue(row: Pick<MatrixRunRow, 'records' | 'reviews'>): number[] {
  return row.records.flatMap((record, index) => (record.status === 'needs_review' && decisionOf(row, index) === 'pending' ? [index] : []));
}

/** A record "Save verified" keeps: its index, the record to save (triplet = the kept answer), and the edit still to apply. */
export interface KeptRecord {
  index: number;
  record: VerificationRecord;
  review: RunReview | undefined;
  /** Fields to apply with `applyEdit` (an `edited` review, or an accepted edit that is not one of the two answers). */
  edit: ReviewEdit | undefined;
}

/**
 * The records "Save verified" saves, in run order: those the reader accepted or edited, and
 * those verified by the machine that the reader did not reject (undecided `needs_review` and
 * machine-`rejected` records are left out). A kept adjudication answer is saved as that answer's
 * own triplet (its evidence too), not as an edit of the stored one.
 */
export function keptRecords(row: Pick<MatrixRunRow, 'records' | 'reviews'>): KeptRecord[] {
  const kept: KeptRecord[] = [];
  row.records.forEach((record, index) => {
    const review = row.reviews?.[index];
    const decision = review?.decision ?? 'pending';
    if (decision === 'rejected') return;
    if (decision === 'pending' && record.status !== 'verified') return;
    const path = keptAnswer(record, review);
    const answer = path ? record.adjudication?.[path] : undefined;
    if (answer) kept.push({ index, record: { ...record, triplet: answer }, review, edit: undefined });
    else kept.push({ index, record, review, edit: review?.edit });
  });
  return kept;
}

/**
 * The model ids a run used: the run record's per-role models, else the roster of its engine
 * settings (every kind that fixes its models names them in `roster`); distinct, in role order.
 */
export function runModelIds(row: Pick<MatrixRunRow, 'run' | 'settings'>): string[] {
  const models = row.run?.models ?? row.settings.engine.roster;
  if (!models) return [];
  const ids = [...(models.proposers ?? []), models.aggregator, models.generator, models.discriminator].filter(
    (id): id is string => typeof id === 'string' && id !== '',
  );
  return [...new Set(ids)];
}

/** A kept record that could not become a dataset row, with why in words. */
export interface RowProblem {
  index: number;
  message: string;
}

/**
 * The dataset rows for `row`'s kept records (`keptRecords`): `toDatasetTriplet` with the paper,
 * the run's models, its id and the reader's decision, then `applyEdit` for an edit. An edit whose
 * value text does not parse (applyEdit throws) becomes a problem instead of a row.
 * Each row's id is `newId(index)`, by default `<run id>:<record index>`: stable, so saving a
 * record again after the reader re-edits it updates its row (the newer review wins in the
 * store's merge) instead of adding a second one.
 */
export function buildDatasetRows(
  row: MatrixRunRow,
  paper: SourcePaper,
  { now, newId = (index) => `${row.id}:${index}` }: { now: Date; newId?: (index: number) => string },
): { rows: DatasetTriplet[]; problems: RowProblem[] } {
  const models = runModelIds(row);
  const rows: DatasetTriplet[] = [];
  const problems: RowProblem[] = [];
  for (const { index, record, review, edit } of keptRecords(row)) {
    const decision: ReviewDecision = review?.decision ?? 'pending';
    const base = toDatasetTriplet(record, {
      paper,
      models,
      runId: row.id,
      review: review ? { decision, at: review.at } : { decision },
      id: newId(index),
      now,
    });
    if (!edit) {
      rows.push(base);
      continue;
    }
    try {
      rows.push(applyEdit(base, edit, now));
    } catch (error) {
      problems.push({ index, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { rows, problems };
}

/** "Saved 3 triplets (1 merged with ones already in your dataset)"; "Saved 1 triplet (0 merged …)". */
export function saveStatusText({ added, merged }: { added: number; merged: number }): string {
  const saved = added + merged;
  return `Saved ${saved} triplet${saved === 1 ? '' : 's'} (${merged} merged with ones already in your dataset)`;
}

/**
 * Null when `edit` can be saved (`applyEdit` would accept it: a material that is not blank and a
 * value text `parseValueText` reads as one value), else the dataset's message in words, so the
 * Edit form says so before anything is written.
 */
export function editProblem(edit: ReviewEdit): string | null {
  if (edit.material !== undefined && edit.material.trim() === '') return 'Enter the material, for example TiO2.';
  if (edit.valueText === undefined) return null;
  try {
    parseValueText(edit.valueText);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
