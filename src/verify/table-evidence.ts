/**
 * Quantities of an anchored quote, table cells included. In prose a bare number is no quantity
 * (parseQuantities returns none), but in a captured table the unit of a column is printed once,
 * in its header ("K0 (GPa)"), and the cells below hold bare numbers ("146(5)"). A quote that
 * takes in a table's header row and a data row shows both, so those cells count — with their
 * header's unit — and nowhere else: a bare number in a sentence still does not.
 */
import type { Article } from '../contracts/article';
import { buildArticleIndex, type ArticleIndex } from '../text/article-index';
import type { QuoteQuantity } from './value-in-quote';
import { headerInside } from '../text/article-table';

/** A quantity with offsets into the text given (see `parseTableQuantities`). */
export type LocatedQuoteQuantity = QuoteQuantity & { start: number; end: number };

/** `parseTableQuantities` of `src/text/quantities`: cells of a tab-separated table, offsets + `offset`. */
export type FindTableQuantities = (tableText: string, offset: number) => LocatedQuoteQuantity[];

/**
 * The quantities in `article.text[start, end)`: those `findQuantities` sees in the quote text
 * (offsets not needed), plus, for every table block (`Block.kind === 'table'`) whose header row
 * lies inside the span, the table cells inside the span as read by `findTableQuantities` (a bare
 * cell under "Eg (eV)" is a quantity in eV), in rows aligned with the header. A cell with its
 * own unit can appear twice; that is harmless, the caller only asks whether some quantity shows
 * the value. Without `findTableQuantities`, just the quote's quantities. Rows, header and
 * alignment are those of `index` (the article's `ArticleIndex`; one is built when not given):
 * a data row is aligned when it has as many cells as the header — a row with a merged cell or a
 * cell left out ("Earlier work\t166" under five headers) shifts its cells under other headers,
 * so a header's unit cannot be trusted there (the scan skips such rows too); cells there with
 * their own unit ("39 K") are still seen by the quote's own quantity parse. A header "inside"
 * the span is its printed cells, an empty corner cell aside (`headerInside`).
 */
export function quantitiesInSpan(
  article: Article,
  start: number,
  end: number,
  findQuantities: (text: string) => QuoteQuantity[],
  findTableQuantities?: FindTableQuantities,
  index: ArticleIndex = buildArticleIndex(article, []),
): QuoteQuantity[] {
  const quantities = [...findQuantities(article.text.slice(start, end))];
  if (!findTableQuantities) return quantities;
  for (const table of index.tables()) {
    const { block } = table;
    if (block.end <= start || block.start >= end || !headerInside(table, start, end)) continue;
    const rows = table.rows.filter((row) => row.aligned);
    for (const cell of findTableQuantities(block.text, block.start)) {
      const inAlignedRow = rows.some((row) => cell.start >= row.start && cell.end <= row.end);
      if (cell.start >= start && cell.end <= end && inAlignedRow) quantities.push(cell);
    }
  }
  return quantities;
}
