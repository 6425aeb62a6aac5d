/**
 * Quantities in a table block: captured tables are rows separated by "\n" and cells by "\t",
 * the first row the header (src/capture). A header cell ending in a unit ("Eg (eV)", "Tc [K]",
 * "a / Å", "σ, S cm−1") gives the unit of its column, so a bare cell "3.4" becomes 3.4 eV; a
 * cell with its own unit ("39 K") keeps it. Offsets are into `text` plus `offset` (pass the
 * block's `start` to get offsets into `Article.text`).
 */
import { formatFactors, parseUnit } from '../units/match-unit';
import { parseNumber } from './number';
import { makeQuantity, parseQuantities } from './parse-quantities';
import type { Quantity } from './quantity';

/** The unit written at the end of a header cell: "(eV)", "[K]", "/ Å", ", GPa"; null if none. */
export function headerUnit(cell: string): { unit: string; unitText: string } | null {
  const written = /[([]\s*([^()[\]]+?)\s*[)\]]\s*$/u.exec(cell)?.[1] ?? /(?:\s\/|,)\s*([^,/]+?)\s*$/u.exec(cell)?.[1];
  if (!written) return null;
  const factors = parseUnit(written);
  return factors ? { unit: formatFactors(factors), unitText: written } : null;
}

/** Quantities of every cell of a tab-separated table block (header row first). Never throws. */
export function parseTableQuantities(text: string, offset = 0): Quantity[] {
  const rows = text.split('\n');
  const header = (rows[0] ?? '').split('\t').map(headerUnit);
  const quantities: Quantity[] = [];
  let rowStart = rows[0]!.length + 1;
  for (const row of rows.slice(1)) {
    let cellStart = rowStart;
    row.split('\t').forEach((cell, column) => {
      const own = parseQuantities(cell).filter((quantity) => quantity.unit);
      const unit = header[column];
      const trimmed = cell.trim();
      const bare = own.length === 0 && unit ? bareCell(trimmed) : null;
      if (own.length) {
        for (const quantity of own)
          quantities.push({ ...quantity, start: quantity.start + cellStart + offset, end: quantity.end + cellStart + offset });
      } else if (bare && unit) {
        const start = cellStart + cell.indexOf(trimmed);
        const quantity = makeQuantity(text, start, start + trimmed.length, start + trimmed.length, bare, undefined, unit);
        quantities.push({ ...quantity, start: start + offset, end: start + trimmed.length + offset });
      }
      cellStart += cell.length + 1;
    });
    rowStart += row.length + 1;
  }
  return quantities;
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
