/**
 * Quantities in a table block: captured tables are rows separated by "\n" and cells by "\t",
 * the first row the header (src/capture). A header cell ending in a unit ("Eg (eV)", "Tc [K]",
 * "a / Å", "σ, S cm−1") gives the unit of its column, so a bare cell "3.4" becomes 3.4 eV; a
 * cell with its own unit ("39 K") keeps it. Rows and cells are those of `readRows` (the article
 * index's reading of a table), so a cell here is a cell there.
 */
import { formatFactors, parseUnit } from '../units/match-unit';
import { parseNumber } from './number';
import { makeQuantity, parseQuantities } from './parse-quantities';
import type { Quantity } from './quantity';
import { readRows, type TableRow } from '../article-table';

/** The unit written at the end of a header cell: "(eV)", "[K]", "/ Å", ", GPa"; null if none. */
export function headerUnit(cell: string): { unit: string; unitText: string } | null {
  const written = /[([]\s*([^()[\]]+?)\s*[)\]]\s*$/u.exec(cell)?.[1] ?? /(?:\s\/|,)\s*([^,/]+?)\s*$/u.exec(cell)?.[1];
  if (!written) return null;
  const factors = parseUnit(written);
  return factors ? { unit: formatFactors(factors), unitText: written } : null;
}

/**
 * Quantities of the cells of `rows` (data rows of a table whose header row is `header`, both as
 * `readRows` reads them; offsets into the same text as theirs). A cell with a unit of its own
 * ("39 K") gives its quantities; a bare cell ("3.4", "~1.45", "3.41(2)", "1.2–1.5") under a header
 * ending in a unit gives one quantity in that unit, spanning the number alone. Never throws.
 */
export function tableRowQuantities(header: TableRow, rows: readonly TableRow[]): Quantity[] {
  const units = header.cells.map((cell) => headerUnit(cell.text));
  const quantities: Quantity[] = [];
  for (const row of rows)
    for (const cell of row.cells) {
      const own = parseQuantities(cell.text).filter((quantity) => quantity.unit);
      const unit = units[cell.column];
      const trimmed = cell.text.trim();
      const bare = own.length === 0 && unit ? bareCell(trimmed) : null;
      if (own.length) {
        for (const quantity of own) quantities.push({ ...quantity, start: quantity.start + cell.start, end: quantity.end + cell.start });
      } else if (bare && unit) {
        const start = cell.text.indexOf(trimmed);
        const quantity = makeQuantity(cell.text, start, start + trimmed.length, start + trimmed.length, bare, undefined, unit);
        quantities.push({ ...quantity, start: start + cell.start, end: start + trimmed.length + cell.start });
      }
    }
  return quantities;
}

/** Quantities of every cell of a tab-separated table block (header row first; `tableRowQuantities`), offsets + `offset`. Never throws. */
export function parseTableQuantities(text: string, offset = 0): Quantity[] {
  const [header, ...rows] = readRows(text, offset);
  return tableRowQuantities(header!, rows);
}

/** A cell holding only a number or a range: "3.4", "~1.45", "3.41(2)", "1.2–1.5". */
function bareCell(cell: string): Quantity['value'] | null {
  const approximate = /^[~∼≈]\s*/.exec(cell);
  const body = approximate ? cell.slice(approximate[0].length) : cell;
  const range = /^(.+?)\s*[–—]\s*(.+)$/.exec(body);
  const flag = approximate ? { approximate: true } : {};
  if (range) {
    const low = parseNumber(range[1]!);
    const high = parseNumber(range[2]!);
    return low && high ? { kind: 'range', low: low.value, high: high.value, ...flag } : null;
  }
  const number = parseNumber(body.replace(/\s*±\s*.*$/, ''));
  if (!number) return null;
  const uncertainty = /±\s*(.+)$/.exec(body);
  const spread = uncertainty ? parseNumber(uncertainty[1]!)?.value : number.uncertainty;
  return { kind: 'number', value: number.value, ...(spread !== undefined ? { uncertainty: Math.abs(spread) } : {}), ...flag };
}
