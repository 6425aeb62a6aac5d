/**
 * Answer a precedent question from the reader's own dataset (saved triplets, `DatasetTriplet`):
 * the rows for the question's property and material that the reader did not reject and that are
 * either machine-verified or accepted/edited by the reader. Each value cites the row's paper and
 * quotes the row's evidence, so every answer can be checked against the paper.
 */
import { formatConditions, formatProvenance } from '../contracts/conditions';
import type { DatasetTriplet } from '../contracts/dataset';
import { conditionsOf } from '../store/dataset-triplet';
import { findReferenceRows } from './answer-from-reference-table';
import { isSuperconductivityProperty } from './judge/judge-prompts';
import { indexReferenceRows, type ReferenceRow } from './reference-table';

/** What the dataset source cites as `origin` and in `searched`. */
export const DATASET_ORIGIN = 'your dataset';

/**
 * One value read from a saved triplet (same shape as a `CheckedValue` of `checkPrecedent`):
 * `conditions` states the row's conditions, its provenance and a range's two ends in words.
 */
export interface DatasetValue {
  kind: 'Tc' | 'value';
  value: number;
  unit: string;
  conditions?: string;
  reference: { doi?: string; title: string; year: number | null };
  quote: string;
  origin: typeof DATASET_ORIGIN;
}

export interface DatasetAnswer {
  values: DatasetValue[];
  /** Distinct DOIs (else paper keys) of the values, in `values` order. */
  sources: string[];
  /** One line for `searched`: what was found, or why nothing was. */
  note: string;
}

/** `band gap`, `Band-Gap` and `band_gap` are one property name. */
function propertyKey(property: string): string {
  return property
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** True when a saved triplet's property answers the question's property (`tc` ↔ any superconductivity name). */
function sameProperty(question: string, saved: string): boolean {
  if (isSuperconductivityProperty(question)) return isSuperconductivityProperty(saved);
  return propertyKey(question) === propertyKey(saved);
}

/** Not rejected by the reader, and verified by the machine or accepted/edited by the reader. */
export function datasetRowUsable(row: DatasetTriplet): boolean {
  if (row.review.decision === 'rejected') return false;
  return row.status === 'verified' || row.review.decision === 'accepted' || row.review.decision === 'edited';
}

function toValue(row: DatasetTriplet, superconductivity: boolean): DatasetValue {
  // Tc in kelvin when the row's SI value is a temperature; otherwise the value as printed.
  const useSi = superconductivity && row.si !== null && row.si.unit === 'K';
  const reported = useSi && row.si ? row.si.value : row.value;
  const unit = useSi ? 'K' : row.unit;
  const range = reported.kind === 'range' ? `reported as ${reported.low}–${reported.high} ${unit}`.trim() : undefined;
  // In words, each as the paper wrote it where the row kept that ("at the HSE06 level · at 300 K;
  // computed; reported as 1.2–1.5 eV"), else as normalized ("HSE06"), in formatConditions' order.
  const written = conditionsOf(row).map((condition) => ({ ...condition, value: condition.text?.trim() || condition.value }));
  const conditions = [formatConditions(written), formatProvenance(row.provenance), range]
    .filter((part): part is string => part !== undefined && part !== '')
    .join('; ');
  return {
    kind: superconductivity ? 'Tc' : 'value',
    // A range is cited by its lower end; both ends are kept in `conditions`.
    value: reported.kind === 'number' ? reported.value : reported.low,
    unit,
    ...(conditions ? { conditions } : {}),
    reference: { ...(row.paper.doi ? { doi: row.paper.doi } : {}), title: row.paper.title, year: row.paper.year },
    quote: row.evidence!.quote.exact,
    origin: DATASET_ORIGIN,
  };
}

/**
 * Values for `material` / `property` from `rows`. A row counts when its property answers the
 * question (for `tc`, any superconductivity property name; a row's conditions are not read, so
 * every such row is a Tc), `datasetRowUsable` holds, it has an evidence quote, and its material
 * matches as the reference-table matcher decides (`findReferenceRows`: same normalized formula,
 * or the same element set and `sameMaterial` at rtol 1e-3). Tc values are in K when the row's SI
 * value is in K. Values come highest first for Tc, else in dataset order. Never throws.
 */
export function answerFromDataset(material: string, property: string, rows: readonly DatasetTriplet[]): DatasetAnswer {
  const superconductivity = isSuperconductivityProperty(property);
  const forProperty = rows.filter((row) => sameProperty(property, row.property));
  const usable = forProperty.filter(datasetRowUsable);
  const quoted = usable.filter((row) => row.evidence?.quote.exact !== undefined && row.evidence.quote.exact.trim() !== '');
  const byIndexRow = new Map<ReferenceRow, DatasetTriplet>();
  const indexRows = quoted.map((row) => {
    // The index only matches materials; kind, value and code are not read from it.
    const indexRow: ReferenceRow = { material: row.material, kind: 'Tc', value: 0, code: row.id, quote: '' };
    byIndexRow.set(indexRow, row);
    return indexRow;
  });
  const matched = findReferenceRows(material, indexReferenceRows(indexRows)).map((indexRow) => byIndexRow.get(indexRow)!);
  const ordered = quoted.filter((row) => matched.includes(row));
  const pairs = ordered.map((row) => ({ row, value: toValue(row, superconductivity) }));
  if (superconductivity) pairs.sort((a, b) => b.value.value - a.value.value);
  const values = pairs.map((pair) => pair.value);
  const sources = [...new Set(pairs.map((pair) => pair.value.reference.doi ?? pair.row.paper.key))];
  const left = [
    forProperty.length - usable.length > 0 ? `${forProperty.length - usable.length} rejected or unreviewed` : '',
    usable.length - quoted.length > 0 ? `${usable.length - quoted.length} without an evidence quote` : '',
  ].filter((part) => part !== '');
  const leftNote = left.length > 0 ? ` (left out: ${left.join(', ')})` : '';
  const note =
    values.length > 0
      ? `${superconductivity ? 'Yes' : 'reported'}: ${values.length} saved triplet(s)${leftNote}`
      : `no saved triplet for ${material} among ${forProperty.length} ${superconductivity ? 'tc' : propertyKey(property)} triplet(s) of ${rows.length}${leftNote}`;
  return { values, sources, note };
}
