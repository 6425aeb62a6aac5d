/**
 * Answer a precedent question from a local reference table (no model, no network): find the
 * table's rows for the material, however it is written, and read the class and temperatures
 * off them.
 */
import { normalizeFormula, sameMaterial as defaultSameMaterial } from '../text/materials/index';
import type { PrecedentAnswer, PrecedentValue } from './precedent-answer';
import { elementKey, type ReferenceRow, type ReferenceTable } from './reference-table';

export interface ReferenceAnswerOptions {
  /**
   * Material equality. Default: `sameMaterial` with `{ rtol: 1e-3 }` — pymatgen's default rtol
   * 0.1 would let neighbouring dopings answer for each other (`As1.72P0.28` ~ `As1.74P0.26`),
   * which is a wrong precedent here.
   */
  sameMaterial?: (a: string, b: string) => boolean;
  /** Rows to ignore (held-out evaluation: leave the truth row out). */
  skipRow?: (row: ReferenceRow) => boolean;
  /** Name of the table for `sources` (default `reference table`). */
  source?: string;
}

const strictSameMaterial = (a: string, b: string): boolean => defaultSameMaterial(a, b, [], { rtol: 1e-3 });

/**
 * The rows of `table` for `material`: rows with the same normalized formula, plus rows sharing
 * its element set (or, for unparsed text, its folded spelling) that `sameMaterial` accepts.
 * Exact-formula rows come first, then the others in table order.
 */
export function findReferenceRows(material: string, table: ReferenceTable, options: ReferenceAnswerOptions = {}): ReferenceRow[] {
  const same = options.sameMaterial ?? strictSameMaterial;
  const found = new Set<ReferenceRow>();
  const formula = normalizeFormula(material);
  for (const row of (formula && table.byFormula.get(formula)) || []) found.add(row);
  for (const row of table.byElements.get(elementKey(material)) ?? []) {
    if (!found.has(row) && same(material, row.material)) found.add(row);
  }
  const skip = options.skipRow;
  return [...found].filter((row) => !skip || !skip(row));
}

function toValue(row: ReferenceRow): PrecedentValue {
  return { kind: row.kind, value: row.value, unit: 'K', reference: row.code ? { code: row.code } : {}, quote: row.quote };
}

/**
 * Answer "has `material` been reported to be superconducting, at what Tc (or down to what
 * temperature not)?" from `table`.
 * - `Yes` when some matching row is a Tc row; `values` are the Tc rows, highest first (the
 *   dev set asks for "the highest measured Tc"). The table's own class column says Yes for every
 *   tc row, including its 71 rows at Tc = 0 K, so a Tc row decides the class whatever its value.
 * - `No` when the matching rows only report Tcn; `values` are those, lowest first.
 * - `Unknown` when no row matches (`values` empty).
 * Each value's `quote` is its table row verbatim; `reference.code` is the row's `refno` (the
 * table carries no DOI). `sources` lists the distinct reference codes of the values. Never throws.
 */
export function answerFromReferenceTable(material: string, table: ReferenceTable, options: ReferenceAnswerOptions = {}): PrecedentAnswer {
  const rows = findReferenceRows(material, table, options);
  const tc = rows.filter((row) => row.kind === 'Tc').sort((a, b) => b.value - a.value);
  const tcn = rows.filter((row) => row.kind === 'Tcn').sort((a, b) => a.value - b.value);
  const chosen = tc.length > 0 ? tc : tcn;
  const answer = tc.length > 0 ? 'Yes' : tcn.length > 0 ? 'No' : 'Unknown';
  const source = options.source ?? 'reference table';
  const codes = [...new Set(chosen.map((row) => row.code).filter((code) => code !== ''))];
  return {
    answer,
    values: chosen.map(toValue),
    sources: chosen.length > 0 ? (codes.length > 0 ? codes.map((code) => `${source}: ${code}`) : [source]) : [],
  };
}
