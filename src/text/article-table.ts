/**
 * A table block read as rows of cells, for the article index (`article-index.ts`). Captured
 * tables (src/capture) are rows separated by "\n" and cells by "\t", the first row being the
 * header; every offset here is into `Article.text` (UTF-16, end exclusive).
 *
 * Alignment: a data row is aligned when it has as many cells as the header. A row with a merged
 * cell or a cell left out ("Earlier work\t166" under five headers) shifts its cells under other
 * headers, so neither a header's unit nor its property can be trusted for that row's cells.
 */
import type { Article, Block } from '../contracts/article';

/** One cell: its text as captured (not trimmed) and where it lies; `column` counts from 0. */
export interface TableCell {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly column: number;
}

/** One row of a table block: 0 is the header row; `aligned` is false for the header itself. */
export interface TableRow {
  readonly index: number;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly cells: readonly TableCell[];
  /** A data row with as many cells as the header (see the module comment). */
  readonly aligned: boolean;
  /** Only tabs or spaces: a blank line a capture left between rows. */
  readonly blank: boolean;
}

/** A table block read as rows: `header` is row 0, `rows` the data rows after it (blank ones included). */
export interface IndexedTable {
  readonly block: Block;
  readonly header: TableRow;
  readonly rows: readonly TableRow[];
  /** The table's caption block (`tableCaption`), or undefined when it has none. */
  readonly caption: Block | undefined;
}

function cellsOf(text: string, start: number): TableCell[] {
  const cells: TableCell[] = [];
  let cellStart = start;
  for (const [column, cell] of text.split('\t').entries()) {
    cells.push({ text: cell, start: cellStart, end: cellStart + cell.length, column });
    cellStart += cell.length + 1;
  }
  return cells;
}

/**
 * THE caption of the table block at `index` of `article.blocks`: the caption block printed right
 * before it, else none.
 *
 * Why this rule: every capture path that produces table blocks (publisher HTML and XML, JATS)
 * puts a table's caption block first, as journals print it. In the 234 captures of ../shared
 * (fixtures, SuperMat and bandgap-200 papers), 76 of 83 table blocks have a caption right before
 * them and none has one only after; of the 22 with a caption on both sides, the one after is
 * always another item's: the next table's ("TABLE I … [T] TABLE II", APS), a figure's ("Table 2
 * … [T] Fig. 4", Elsevier) or a JATS table footnote ("aIn some cases, …"). So a caption after a
 * table is taken for none: "before, else after" (as attribution and the fact check read it)
 * would give a captionless table the next figure's caption, and "before" alone is what
 * `chunkArticle` already did.
 */
export function tableCaption(article: Article, index: number): Block | undefined {
  const before = article.blocks[index - 1];
  return before?.kind === 'caption' ? before : undefined;
}

/**
 * The rows of a captured table's `text` (rows split at "\n", cells at "\t"), header row first,
 * with offsets `offset` plus their place in `text` (pass a block's `start` for offsets into
 * `Article.text`). The one reading of rows and cells: the article index's tables and the table
 * quantities of a quote (`parseTableQuantities`) both come from it. Never throws; "" is one
 * blank header row.
 */
export function readRows(text: string, offset = 0): TableRow[] {
  const lines = text.split('\n');
  let start = offset;
  const rows: TableRow[] = [];
  let headerColumns = 0;
  for (const [row, line] of lines.entries()) {
    const cells = cellsOf(line, start);
    if (row === 0) headerColumns = cells.length;
    rows.push({
      index: row,
      text: line,
      start,
      end: start + line.length,
      cells,
      aligned: row > 0 && cells.length === headerColumns,
      blank: line.trim() === '',
    });
    start += line.length + 1;
  }
  return rows;
}

/** `block` (a table block at `index` of `article.blocks`) read as header, rows and caption. */
export function readTable(article: Article, block: Block, index: number): IndexedTable {
  const [header, ...rows] = readRows(block.text, block.start);
  return { block, header: header!, rows, caption: tableCaption(article, index) };
}

/**
 * Is the header row's printed text — its cells without leading or trailing blanks (a header may
 * start with an empty corner cell "\tV0 (Å3)…") — inside [start, end) of `Article.text`? False
 * for a header that prints nothing.
 */
export function headerInside(table: IndexedTable, start: number, end: number): boolean {
  const printed = table.header.text.trim();
  if (printed === '') return false;
  const headerStart = table.header.start + table.header.text.indexOf(printed);
  return headerStart >= start && headerStart + printed.length <= end;
}
