/**
 * Turning a run's verdicts into dataset rows, in one place: the reader's decision on each
 * record, which records "Save verified" keeps (and which adjudication answer), the row built from
 * a verdict (`toDatasetTriplet`), a reader's edit applied to it (`applyEdit`, with the value text
 * read by `editedValue`), and the rows of a whole run (`buildDatasetRows`). Pure: no React,
 * no database; the side panel writes the rows with `saveTriplets`.
 */
import type { DatasetTriplet, ModelAnswer, ReviewDecision, SourcePaper } from '../contracts/dataset';
import type { MatrixRunRow, RunReview } from '../contracts/matrix-run';
import { TEXT_LIMITS } from '../contracts/text-limits';
import type { ReportedValue, Triplet } from '../contracts/triplet';
import type { VerificationRecord } from '../contracts/verification';
import { absorbedRecords, factEntries } from '../matrix/fact-entries';
import { parseQuantities } from '../text/quantities';
import { printedValue } from '../text/quantities/format-quantity';
import { mergeKeyOf, siOf } from './dataset-triplet';

/** The corrected fields of an `edited` review (or of a kept adjudication answer). */
export type ReviewEdit = NonNullable<RunReview['edit']>;

/** Which answer of a `needs_review` record the reader keeps: the MoA one or the generator–discriminator search's. */
export type AdjudicationPath = 'moa' | 'gd';

/** The reader's decision on record `index` of `row`: its review's, else `pending`. */
export function decisionOf(row: Pick<MatrixRunRow, 'reviews'>, index: number): ReviewDecision {
  return row.reviews?.[index]?.decision ?? 'pending';
}

/** A triplet's fields as an edit: material, value as printed, unit. What the Edit form starts from. */
export function editFromTriplet(triplet: Triplet): Required<ReviewEdit> {
  return { material: triplet.material, valueText: printedValue(triplet), unit: triplet.unit };
}

/** True when two edits set the same material, value text and unit (a missing unit is blank). */
export function sameEdit(left: ReviewEdit, right: ReviewEdit): boolean {
  return left.material === right.material && left.valueText === right.valueText && (left.unit ?? '') === (right.unit ?? '');
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
 * own triplet (its evidence too), not as an edit of the stored one. One fact is one row: of the
 * records that state the same fact (`factEntries` of src/matrix/fact-entries.ts) only the one
 * that stands for it (its primary, which the reader's review of the fact is written to) is
 * considered; the others are never saved on their own.
 */
export function keptRecords(row: Pick<MatrixRunRow, 'records' | 'reviews'>): KeptRecord[] {
  const kept: KeptRecord[] = [];
  const absorbed = absorbedRecords(factEntries(row.records));
  row.records.forEach((record, index) => {
    if (absorbed.has(index)) return;
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

/**
 * A verdict's reasons as a row keeps them (`TEXT_LIMITS.reason`, `.reasons`): distinct, each cut
 * to the limit with "…", at most the limit's count, so a long reason never makes a row invalid.
 */
export function rowReasons(reasons: readonly string[]): string[] {
  const cut = (reason: string) => (reason.length <= TEXT_LIMITS.reason.max ? reason : `${reason.slice(0, TEXT_LIMITS.reason.max - 1)}…`);
  return [...new Set(reasons.map(cut))].slice(0, TEXT_LIMITS.reasons.max);
}

/**
 * The dataset row for one verdict of a run: the triplet's fields (its conditions and provenance
 * too, so the merge key tells two methods apart), the verdict's status and reasons (`rowReasons`), votes and
 * Chain-of-Verification answers, `si` from `toSI`, `mergeKey`, `savedAt` = `now`, review `pending` unless `context.review` is
 * given. `id` is the caller's random UUID. Does not validate (the verdict already passed the
 * contract); the repository stores it as is.
 */
export function toDatasetTriplet(
  record: VerificationRecord,
  context: { paper: SourcePaper; models: string[]; runId?: string; review?: DatasetTriplet['review']; id: string; now: Date },
): DatasetTriplet {
  const { triplet } = record;
  const fields = {
    paper: context.paper,
    material: triplet.material,
    property: triplet.property,
    value: triplet.value,
    ...(triplet.valueText !== undefined && { valueText: triplet.valueText }),
    unit: triplet.unit,
    si: siOf(triplet.value, triplet.unit),
    ...(triplet.conditions !== undefined && { conditions: triplet.conditions }),
    ...(triplet.provenance !== undefined && { provenance: triplet.provenance }),
  };
  return {
    id: context.id,
    mergeKey: mergeKeyOf(fields),
    ...fields,
    ...(triplet.evidence !== undefined && { evidence: triplet.evidence }),
    status: record.status,
    ...(record.reasons.length > 0 && { reasons: rowReasons(record.reasons) }),
    review: context.review ?? { decision: 'pending' },
    votes: [...record.votes],
    ...(record.verificationAnswers !== undefined && { verificationAnswers: record.verificationAnswers.map((answer) => ({ ...answer })) }),
    models: [...context.models],
    ...(context.runId !== undefined && { runId: context.runId }),
    savedAt: context.now.toISOString(),
  };
}

/**
 * Read a value as a reader types it: "3.4", "~1.45", "1.2–1.5", "between 1.2 and 1.5",
 * "3.4 ± 0.1", "3.41(2)", "1.5e-3", "2.6 × 10^6". Reuses `parseQuantities`, which reads value
 * grammar only next to a unit, so the text is parsed with a probe unit ("K"; the grammar does not
 * depend on which unit) and must be read whole as one value. Throws an Error for the reader
 * otherwise (bounds such as "<1.5" included: a bound is not a reported value). A value printed
 * with its unit text, as a ground-truth cell, is `parseValueText`'s (src/text/quantities/value-text.ts),
 * which reads the numbers with the same number reader.
 */
export function editedValue(valueText: string): ReportedValue {
  const text = valueText.trim();
  if (text === '') throw new Error('Enter a value, for example 3.4, ~1.45, 1.2–1.5 or 3.4 ± 0.1.');
  const quantities = parseQuantities(`${text} K`);
  const whole = quantities.length === 1 && quantities[0]!.start === 0 && quantities[0]!.valueText === text ? quantities[0] : undefined;
  if (!whole) {
    throw new Error(
      `"${text}" is not one value. Enter a number or a range without the unit, for example 3.4, ~1.45, 1.2–1.5 or 3.4 ± 0.1.`,
    );
  }
  return whole.value;
}

/**
 * Apply a reader's correction to `row`: a new material, value text (parsed with
 * `editedValue`) and/or unit. The model's answer is kept in `review.original` the first time
 * (a second edit keeps the first original); the decision becomes `edited` at `now`; `si` and
 * `mergeKey` are recomputed. Throws an Error with a message for the reader when the value text
 * is not one value or the material is empty.
 */
export function applyEdit(row: DatasetTriplet, edit: { material?: string; valueText?: string; unit?: string }, now: Date): DatasetTriplet {
  const material = edit.material === undefined ? row.material : edit.material.trim();
  if (material === '') throw new Error('Enter the material, for example TiO2.');
  const value = edit.valueText === undefined ? row.value : editedValue(edit.valueText);
  const valueText = edit.valueText === undefined ? row.valueText : edit.valueText.trim();
  const unit = edit.unit === undefined ? row.unit : edit.unit.trim();
  const original: ModelAnswer = row.review.original ?? {
    material: row.material,
    value: row.value,
    ...(row.valueText !== undefined && { valueText: row.valueText }),
    unit: row.unit,
  };
  const { valueText: _previousText, ...rest } = row;
  const fields = { ...rest, material, value, ...(valueText !== undefined && { valueText }), unit, si: siOf(value, unit) };
  return { ...fields, mergeKey: mergeKeyOf(fields), review: { decision: 'edited', at: now.toISOString(), original } };
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

/**
 * Null when `edit` can be saved (`applyEdit` would accept it: a material that is not blank and a
 * value text `editedValue` reads as one value), else the dataset's message in words, so the
 * Edit form says so before anything is written.
 */
export function editProblem(edit: ReviewEdit): string | null {
  if (edit.material !== undefined && edit.material.trim() === '') return 'Enter the material, for example TiO2.';
  if (edit.valueText === undefined) return null;
  try {
    editedValue(edit.valueText);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
