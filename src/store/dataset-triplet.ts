/**
 * Pure functions on a saved triplet (`DatasetTriplet`): its duplicate key, its SI value, and how
 * two saves of the same fact merge. Building rows from a run's verdicts is dataset-rows.ts. No
 * database here (that is `dataset-repository.ts`).
 */
import { conditionsKey, ConditionListSchema, type Condition } from '../contracts/conditions';
import type { DatasetTriplet } from '../contracts/dataset';
import { TEXT_LIMITS } from '../contracts/text-limits';
import type { ReportedValue } from '../contracts/triplet';
import { normalizeFormula } from '../text/materials';
import { toSI } from '../text/units';
import { formatReportedValue, reportedValueToSI } from '../verify/value-in-quote';

/** Significant figures of a value in a merge key: enough to tell measured values apart, few enough that float noise from unit conversion (1.1299999999999999) does not. */
const MERGE_KEY_SIGNIFICANT_FIGURES = 6;

function roundForKey(value: number): string {
  // `toPrecision` then `Number` drops trailing zeros; `String(-0)` is "0".
  return String(Number(value.toPrecision(MERGE_KEY_SIGNIFICANT_FIGURES)));
}

function valueForKey(value: ReportedValue): string {
  // Uncertainty and "~" are left out: 3.2 ± 0.1 eV and ~3.2 eV are the same reported fact.
  return value.kind === 'number' ? roundForKey(value.value) : `${roundForKey(value.low)}–${roundForKey(value.high)}`;
}

/** The material part of a merge key: the Hill-order formula when it parses, else the lower-cased name with collapsed spaces. */
function materialForKey(material: string): string {
  return normalizeFormula(material) ?? material.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * A row's conditions as a list, whatever it holds: the structured list as it is, a legacy
 * free-text string (a row saved before issue 26 that no upgrade has rewritten yet, or any other
 * unchecked object) read through `ConditionListSchema` as one `other` condition ('' → none).
 * Conditions that do not fit the schema give none rather than throwing: a key or a cell is
 * still worked out for the row.
 */
export function conditionsOf(row: { conditions?: unknown }): Condition[] {
  if (row.conditions === undefined) return [];
  if (Array.isArray(row.conditions)) return row.conditions as Condition[];
  const parsed = ConditionListSchema.safeParse(row.conditions);
  return parsed.success ? parsed.data : [];
}

/**
 * The duplicate key of a saved triplet: `paper | material | property | value`, then `| conditions`
 * when it has any, where paper is `doi:<DOI lower-cased>` (DOIs are case-insensitive, DOI
 * Handbook §2.4) else the paper key; material is `normalizeFormula` (Hill order, so "TiO2",
 * "TiO₂" and "O2Ti" all give "O2Ti") else the lower-cased trimmed name; value is the SI value
 * rounded to 6 significant figures with the SI unit when `si` is set (so 1.5 eV and 1500 meV
 * agree), else the reported number(s) rounded the same way with the unit as written; conditions
 * are `conditionsKey` (sorted `kind=value` pairs, lower-cased, ";"-joined: "method=hse06"), so
 * one value under two methods is two facts, and a row without conditions keeps the four-part key
 * it had before issue 26. Uncertainty, "approximately", provenance and the conditions' spans do
 * not enter the key. A legacy string in `conditions` is read as one `other` condition (`conditionsOf`).
 * The key is at most `TEXT_LIMITS.mergeKey.max` characters (the conditions part is cut).
 */
export function mergeKeyOf(
  t: Pick<DatasetTriplet, 'paper' | 'material' | 'property' | 'value' | 'valueText' | 'unit' | 'si'> & { conditions?: unknown },
): string {
  const paper = t.paper.doi ? `doi:${t.paper.doi.trim().toLowerCase()}` : t.paper.key;
  const value = t.si ? `${valueForKey(t.si.value)} ${t.si.unit}` : `${valueForKey(t.value)} ${t.unit.trim()}`;
  const key = [paper, materialForKey(t.material), t.property, value.trim()].join('|');
  const conditions = conditionsKey(conditionsOf(t));
  // Cut to the schema's bound: only a file's pathological row (32 conditions of 2,000 characters)
  // reaches it, and two such rows then merge only when their conditions agree for thousands of characters.
  return conditions === '' ? key : `${key}|${conditions}`.slice(0, TEXT_LIMITS.mergeKey.max);
}

/** `reportedValueToSI` with `toSI` of src/text/units: null when the unit does not convert. */
export function siOf(value: ReportedValue, unit: string): DatasetTriplet['si'] {
  return unit.trim() === '' ? null : reportedValueToSI(value, unit.trim(), toSI);
}

/**
 * `row` with its `si` and `mergeKey` worked out from its own value, unit, paper, material,
 * property and conditions (`siOf`, `mergeKeyOf`), whatever it carried: what an import does to every row, so a
 * row can neither claim another fact's merge key nor an SI value its value and unit do not give.
 * A row that was saved by Assay comes back unchanged.
 */
export function withOwnKeys(row: DatasetTriplet): DatasetTriplet {
  const si = siOf(row.value, row.unit);
  return { ...row, si, mergeKey: mergeKeyOf({ ...row, si }) };
}

function union(first: readonly string[], second: readonly string[]): string[] {
  return [...new Set([...first, ...second])];
}

/**
 * Merge a newly saved `incoming` row into the `existing` row with the same merge key (or id):
 * the existing id and savedAt stay; votes and models are unions (existing order first); a
 * reader's review wins over `pending`, and between two reviews the newer one (`review.at`) wins
 * — the reader changed their mind — while equal or missing times keep the existing one; the side
 * whose review is kept also supplies the fact (material, value, unit, si, conditions, provenance
 * — the other side's when it has none —, status) and its merge key, so an edit keeps its values; evidence and runId come from the new row when it
 * has them, else stay; the Chain-of-Verification answers come with the evidence they are about
 * (the new row's when it has evidence); the paper is the new row's (newer metadata); an
 * `imported` note stays with the existing row. Imports do not merge this way (an import never
 * changes a saved row: src/export/import-triplets.ts).
 */
export function mergeTriplets(existing: DatasetTriplet, incoming: DatasetTriplet): DatasetTriplet {
  const newerReview =
    existing.review.decision !== 'pending' &&
    incoming.review.decision !== 'pending' &&
    (incoming.review.at ?? '') > (existing.review.at ?? '');
  const incomingReviewWins = (existing.review.decision === 'pending' && incoming.review.decision !== 'pending') || newerReview;
  const kept = incomingReviewWins ? incoming : existing;
  const {
    valueText: _valueText,
    conditions: _conditions,
    evidence: _evidence,
    runId: _runId,
    verificationAnswers: _verificationAnswers,
    ...base
  } = kept;
  const evidence = incoming.evidence ?? existing.evidence;
  // The answers are about the evidence, so they come from the same side as it.
  const verificationAnswers = incoming.evidence ? incoming.verificationAnswers : existing.verificationAnswers;
  const runId = incoming.runId ?? existing.runId;
  // Where the value comes from is part of the kept fact; a side saved without it takes the other's.
  const provenance = kept.provenance ?? (kept === incoming ? existing : incoming).provenance;
  return {
    ...base,
    ...(kept.valueText !== undefined && { valueText: kept.valueText }),
    ...(kept.conditions !== undefined && { conditions: kept.conditions }),
    ...(provenance !== undefined && { provenance }),
    ...(evidence !== undefined && { evidence }),
    ...(verificationAnswers !== undefined && { verificationAnswers }),
    ...(runId !== undefined && { runId }),
    id: existing.id,
    savedAt: existing.savedAt,
    // Like savedAt, where the row first came from: an imported row stays marked after a run saves the same fact.
    ...(existing.imported !== undefined && { imported: existing.imported }),
    mergeKey: kept.mergeKey,
    paper: incoming.paper,
    votes: union(existing.votes, incoming.votes),
    models: union(existing.models, incoming.models),
  };
}

/** The value as written for people: "~1.45", "1.2–1.5" (the printed text when known). */
export function valueTextOf(row: Pick<DatasetTriplet, 'value' | 'valueText'>): string {
  return row.valueText ?? formatReportedValue(row.value);
}

/**
 * Newest first: savedAt descending, then id descending — the order of the `savedAt` index walked
 * backwards (IndexedDB orders equal keys by primary key, and compares strings by UTF-16 code
 * units, as `<` does), so the table, the extension's export and `assay export` list rows alike.
 */
export function newestFirst(a: { savedAt: string; id: string }, b: { savedAt: string; id: string }): number {
  if (a.savedAt !== b.savedAt) return a.savedAt < b.savedAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}
