/**
 * A reference table of reported Tc / Tcn values (the SuperCon export of the Cornell sci-llm
 * precedent-search task, `SuperCon_Tc_Tcn_no_NA.csv`), parsed once and indexed by material so
 * that a lookup touches only the rows sharing the material's elements.
 *
 * Columns read: `refno` (SuperCon's journal-coded reference, e.g. `PRB079224524` = Phys. Rev. B
 * 79, 224524; the table has no DOI column), `material`, `property_name` (`tc` | `tcn`),
 * `property_value`, `property_unit`. Other columns are kept only inside each row's quote.
 */
// The browser build: the default one needs Node's Buffer, which extension pages lack.
import { parse } from 'csv-parse/browser/esm/sync';
import { normalizeFormula, parseMaterial } from '../text/materials/index';
import { toSI } from '../text/units/index';

/** One row of the table that reports a temperature. */
export interface ReferenceRow {
  material: string;
  kind: 'Tc' | 'Tcn';
  /** Kelvin, after SI conversion of `property_value` in `property_unit`. */
  value: number;
  /** The reference code (`refno`), '' when the row has none. */
  code: string;
  /** The row exactly as written in the file (one CSV line, line ending removed). */
  quote: string;
}

/** A parsed and indexed table. Build with `parseReferenceTable`. */
export interface ReferenceTable {
  rows: readonly ReferenceRow[];
  /** Rows whose kind, value or unit could not be read (left out of `rows`). */
  skippedRows: number;
  /** Normalized formula (`normalizeFormula`) → rows. */
  byFormula: ReadonlyMap<string, readonly ReferenceRow[]>;
  /** Sorted element symbols joined by `-` (`Ba-Cu-O-Y`), or `text:` + folded text when the material does not parse → rows. */
  byElements: ReadonlyMap<string, readonly ReferenceRow[]>;
}

const REQUIRED_COLUMNS = ['refno', 'material', 'property_name', 'property_value', 'property_unit'];

/**
 * The bucket key for a material: its sorted element set when it parses as a formula, else its
 * lower-cased text without whitespace (so unparsed strings still find their own spelling).
 */
export function elementKey(material: string): string {
  const parsed = parseMaterial(material);
  const elements = parsed ? Object.keys(parsed.amounts) : [];
  if (elements.length > 0) return [...elements].sort().join('-');
  return 'text:' + material.toLowerCase().replace(/\s+/g, '');
}

function pushTo(map: Map<string, ReferenceRow[]>, key: string, row: ReferenceRow): void {
  const list = map.get(key);
  if (list) list.push(row);
  else map.set(key, [row]);
}

/**
 * Parse a Tc/Tcn table (CSV text with a header naming at least `refno, material,
 * property_name, property_value, property_unit`). Rows whose `property_name` is not `tc`/`tcn`,
 * whose value is not a finite number or whose unit does not convert to K (`toSI`) are counted in
 * `skippedRows`. Throws an Error naming the missing columns, or csv-parse's error on malformed
 * CSV. About half a second for the 16,619-row SuperCon table (formula parsing dominates).
 */
export function parseReferenceTable(csvText: string): ReferenceTable {
  const records = parse(csvText, { columns: true, raw: true, skip_empty_lines: true, relax_column_count: true }) as Array<{
    record: Record<string, string>;
    raw: string;
  }>;
  const header = records[0] ? Object.keys(records[0].record) : [];
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (records.length > 0 && missing.length > 0) throw new Error(`reference table lacks column(s): ${missing.join(', ')}`);
  const rows: ReferenceRow[] = [];
  let skippedRows = 0;
  for (const { record, raw } of records) {
    const name = (record.property_name ?? '').trim().toLowerCase();
    const kind = name === 'tc' ? 'Tc' : name === 'tcn' ? 'Tcn' : null;
    const number = Number((record.property_value ?? '').trim());
    const text = (record.property_value ?? '').trim();
    const kelvin = text !== '' && Number.isFinite(number) ? toSI(number, (record.property_unit ?? '').trim()) : null;
    const material = (record.material ?? '').trim();
    if (!kind || !kelvin || kelvin.unit !== 'K' || material === '') {
      skippedRows += 1;
      continue;
    }
    const row: ReferenceRow = {
      material,
      kind,
      value: kelvin.value,
      code: (record.refno ?? '').trim(),
      quote: raw.replace(/\r?\n?$/, '').replace(/\r$/, ''),
    };
    rows.push(row);
  }
  return indexReferenceRows(rows, skippedRows);
}

/**
 * Index rows by normalized formula and by element set, as `parseReferenceTable` does, so that
 * `findReferenceRows` can match materials in rows from any source (the reader's dataset builds
 * its rows this way). `skippedRows` is carried into the table as given (default 0). Never throws.
 */
export function indexReferenceRows(rows: readonly ReferenceRow[], skippedRows = 0): ReferenceTable {
  const byFormula = new Map<string, ReferenceRow[]>();
  const byElements = new Map<string, ReferenceRow[]>();
  for (const row of rows) {
    const formula = normalizeFormula(row.material);
    if (formula) pushTo(byFormula, formula, row);
    pushTo(byElements, elementKey(row.material), row);
  }
  return { rows, skippedRows, byFormula, byElements };
}

/** The table's text split into its lines, for re-finding a quoted row (grounding). */
export function tableLines(csvText: string): Set<string> {
  return new Set(csvText.split(/\r?\n/));
}
