/**
 * Quantities of an anchored quote, table cells included. In prose a bare number is no quantity
 * (parseQuantities returns none), but in a captured table the unit of a column is printed once,
 * in its header ("K0 (GPa)"), and the cells below hold bare numbers ("146(5)"). A quote that
 * takes in a table's header row and a data row shows both, so those cells count — with their
 * header's unit — and nowhere else: a bare number in a sentence still does not.
 */
import type { Article, Block } from '../contracts/article';
import type { QuoteQuantity } from './value-in-quote';

/** A quantity with offsets into the text given (see `parseTableQuantities`). */
export type LocatedQuoteQuantity = QuoteQuantity & { start: number; end: number };

/** `parseTableQuantities` of `src/text/quantities`: cells of a tab-separated table, offsets + `offset`. */
export type FindTableQuantities = (tableText: string, offset: number) => LocatedQuoteQuantity[];

/**
 * Is the table's header row — its printed cells, without leading or trailing blanks (a header
 * may start with an empty corner cell "\tV0 (Å3)…") — inside [start, end) of `Article.text`?
 */
function headerQuoted(block: Block, start: number, end: number): boolean {
  const newline = block.text.indexOf('\n');
  const header = newline === -1 ? block.text : block.text.slice(0, newline);
  const printed = header.trim();
  if (printed === '') return false;
  const headerStart = block.start + header.indexOf(printed);
  return headerStart >= start && headerStart + printed.length <= end;
}

/**
 * Spans (offsets into `Article.text`) of the block's data rows with as many cells as the header.
 * A row with a merged cell or a cell left out (a row "Earlier work\t166" under five headers)
 * shifts its cells under other headers, so a header's unit cannot be trusted there; the scan skips
 * such rows too (src/text/scan-table.ts). Cells there with their own unit ("39 K") are still
 * seen by the quote's own quantity parse.
 */
function alignedRows(block: Block): { start: number; end: number }[] {
  const rows = block.text.split('\n');
  const columns = rows[0]!.split('\t').length;
  const aligned: { start: number; end: number }[] = [];
  let rowStart = block.start + rows[0]!.length + 1;
  for (const row of rows.slice(1)) {
    if (row.split('\t').length === columns) aligned.push({ start: rowStart, end: rowStart + row.length });
    rowStart += row.length + 1;
  }
  return aligned;
}

/**
 * The quantities in `article.text[start, end)`: those `findQuantities` sees in the quote text
 * (offsets not needed), plus, for every table block (`Block.kind === 'table'`) whose header row
 * lies inside the span, the table cells inside the span as read by `findTableQuantities` (a bare
 * cell under "Eg (eV)" is a quantity in eV), in rows aligned with the header. A cell with its
 * own unit can appear twice; that is harmless, the caller only asks whether some quantity shows
 * the value. Without `findTableQuantities`, just the quote's quantities.
 */
export function quantitiesInSpan(
  article: Article,
  start: number,
  end: number,
  findQuantities: (text: string) => QuoteQuantity[],
  findTableQuantities?: FindTableQuantities,
): QuoteQuantity[] {
  const quantities = [...findQuantities(article.text.slice(start, end))];
  if (!findTableQuantities) return quantities;
  // Blocks are few per article (hundreds); a scan is simpler than a search and costs nothing.
  for (const block of article.blocks) {
    if (block.kind !== 'table' || block.end <= start || block.start >= end || !headerQuoted(block, start, end)) continue;
    const rows = alignedRows(block);
    for (const cell of findTableQuantities(block.text, block.start)) {
      const inAlignedRow = rows.some((row) => cell.start >= row.start && cell.end <= row.end);
      if (cell.start >= start && cell.end <= end && inAlignedRow) quantities.push(cell);
    }
  }
  return quantities;
}
