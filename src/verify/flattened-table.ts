/**
 * Cells of a table that text extraction flattened into plain text. A PDF-to-text table loses its
 * rows and columns: a table with the columns "Compound | Eg (PBE) [eV] | Eg (Exp) [eV]" and a row
 * "Si | 0.61 | 1.12" comes out one cell per line, "Compound / Eg (PBE) [eV] / Eg (Exp) [eV] / Si /
 * 0.61 / 1.12 / …", and capture joins the lines with spaces. The unit of a column is printed once, in its header ("Eg [eV]"), and the
 * cells are bare numbers, which the quantity parser rightly ignores (a bare number in prose is no
 * quantity). This module gives those cells their header's unit, but only where the text has the
 * shape of a table, so that prose keeps grounding only numbers printed with their unit.
 *
 * The rule, on the whitespace-separated tokens of the text:
 * - A header is a short label followed by a bracketed unit, "Eg [eV]", "Eg (eV)",
 *   "Eg (PBE) [eV]" (qualifiers in parentheses between), the bracket holding nothing but a
 *   unit that `normalizeUnit` knows. A header group is a run of adjacent headers with THE SAME
 *   unit; adjacent headers with different units (column-major "Eg (eV) Tc (K)") make a group whose
 *   cells cannot be assigned to a column once flattened, and give nothing.
 * - Row-major (a transposed table, one material per column: "Eg [eV] 1.12 [12] 1.42 [13]
 *   3.39 [14] ε 11.7 12.9 8.9"): the run of numeric cells right after the group belongs to it;
 *   the first token that is not a cell ends it ("ε").
 * - Column-major (the table above): when no cell follows the group directly, rows of one label
 *   token and exactly as many cells as the group has headers ("Si 0.61 1.12") belong to it, until
 *   a row breaks the pattern ("The gaps of …").
 * - A region must hold at least `MIN_CELLS` cells: one bare number after a bracketed unit is as
 *   likely a sentence ("the gap (eV) 2 …" is not English, but OCR is not either) as a table.
 * A cell is a number with what tables print beside it: an uncertainty "146(5)", a footnote mark
 * "(1.52)b", "8.93**", a citation "1.12 [12]". Anything else — a word, "of", a unit — is no cell.
 *
 * The column of a row-major cell (`columnsOfRow`). A transposed table prints its column names
 * (one material each) once, before its first row: "Parameter Monolayers Heterostructures H-MoSe2
 * T-MoSe2 … b-P/T-MoSe2 a, b (Å) 3.4, 5.9 3.4, 6.1 … Eg (eV) 1.13 (2.26)a 0 0 …". When the row of
 * a header ("Eg (eV)") holds as many cells as such a header names columns, its k-th cell stands in
 * the k-th column; `misplacedInColumn` then tells a fact whose value stands only in another
 * material's column. The reading, and where it claims nothing:
 * - A row's cells are counted as the table prints them: "3.4, 5.9" (a cell ending in a comma and
 *   the number after it) and "1.13 (2.26)a" (a value with a second one in parentheses) are one
 *   cell each, a dash or "n/a" is an empty cell, "0.04–0.08" a range cell. The same row counted
 *   number by number is tried too; a row whose count matches no header has no columns.
 * - The header is found from the table's first row: a row label (a few tokens starting with a
 *   letter) and exactly as many cells, right after the column names. Names split by PDF text at a
 *   slash or hyphen ("α-P / H-MoSe2", "Spiro- OMeTAD") are joined. A column name carries a capital,
 *   a digit or a Greek letter ("c-TiO2", "Perovskite", "5CAC"); plain words before the names are a
 *   stub or spanning heading ("Parameter", "Monolayers"), printed before or after each other.
 *   Where two readings of the first row's label give different headers ("Silicon Germanium
 *   Lattice constant (Å)" could be two columns and the label "Lattice constant", or "Germanium
 *   Lattice" and "constant"), or the names are preceded by one more name-like token, nothing is
 *   claimed.
 * - The search looks back `COLUMN_LOOKBACK` characters and stops at the table's caption ("Table
 *   1", "FIG. 2"), so that a row never takes the header of a table before its own.
 */
import { namesMaterial } from './material-named';
import type { QuoteQuantity, ToSI } from './value-in-quote';

/** Fewest cells a header's region must hold to count as a table (see the module comment). */
export const MIN_CELLS = 2;

/**
 * How far before the quote (characters of `Article.text`) a header is looked for when the quote
 * starts inside the table, below its header. Trade-off: a wider window finds the header of a long
 * table, but the cells it reaches are still only those of an unbroken run of cells or rows from
 * the header into the quote, so the window cannot join a header to a table further down the page;
 * it only bounds the work. 600 characters hold the header and a dozen rows of a flattened table.
 */
export const HEADER_LOOKBACK = 600;

/**
 * How far before a row-major row (characters) its table's column names are looked for. Trade-off:
 * a transposed table's header is printed once above all its rows, so the window must reach over a
 * dozen rows of up to a dozen cells (the bandgap-200 paper 14 table's Eg row starts 420 characters
 * after its header); the caption stop, not the window, keeps a row from taking an earlier table's
 * header, so the window only bounds the work.
 */
export const COLUMN_LOOKBACK = 1500;

/** Most tokens of a row label ("Aluminum salt of 2-hydroxypropanoic acid (AS)" is six). */
const ROW_LABEL_TOKENS = 8;

interface Token {
  text: string;
  start: number;
  end: number;
}

interface Cell {
  value: number;
  uncertainty?: number;
  start: number;
  end: number;
}

interface Header {
  unit: string;
  /** Index of the first token after the header. */
  next: number;
}

const NUMBER = String.raw`[-−–]?\d+(?:\.\d+)?`;
/** "1.12", "146(5)", "(1.52)b", "8.93**", "−0.3†" — a citation "[12]" is a token of its own. */
const CELL = new RegExp(String.raw`^(?:(${NUMBER})(?:\((\d+)\))?|\((${NUMBER})\))(?:[a-z]|\*{1,2}|[†‡§])?[,;]?$`, 'u');
/** A citation after a cell: "[38]", "[38,39]", "[3–5]". */
const CITATION = /^\[\d+(?:\s*[,–-]\s*\d+)*\][,;]?$/u;
/** A header label: one short token that starts with a letter ("Eg", "χ", "gap", "m+"). */
const LABEL = /^\p{L}[\p{L}\p{N}_+⋆*'’/-]{0,24}$/u;
/** A qualifier between label and unit: "(PBE)", "(HSE06)", "(Exp)". */
const QUALIFIER = /^\([^()[\]]{1,30}\)$/u;
/** A bracketed unit: "[eV]", "(eV)", "(N/m)" — the unit starts with a non-digit. */
const BRACKETED_UNIT = /^(?:\[([^\d\s[\]()][^[\]()]{0,11})\]|\(([^\d\s[\]()][^[\]()]{0,11})\))[,;]?$/u;

function tokenize(text: string, offset: number): Token[] {
  return [...text.matchAll(/\S+/gu)].map((match) => ({
    text: match[0],
    start: offset + match.index,
    end: offset + match.index + match[0].length,
  }));
}

function parseNumber(text: string): number {
  return Number(text.replace(/[−–]/u, '-'));
}

/** The cell token `tokens[index]` (and its citation, if the next token is one), or undefined. */
function cellAt(tokens: Token[], index: number): { cell: Cell; next: number } | undefined {
  const token = tokens[index];
  const match = token ? CELL.exec(token.text) : null;
  if (!token || !match) return undefined;
  const cell: Cell = {
    value: parseNumber(match[1] ?? match[3]!),
    start: token.start,
    end: token.end,
    ...(match[2] ? { uncertainty: Number(match[2]) } : {}),
  };
  const citation = tokens[index + 1] && CITATION.test(tokens[index + 1]!.text);
  return { cell, next: index + (citation ? 2 : 1) };
}

/**
 * A label with its qualifier glued on, as PDF text often sets a header without the space:
 * "E𝑔(HSE06+G0W0)", "Eg(Exp)". Letters are compared after NFKC, which folds the mathematical
 * italic letters of PDF text ("𝑔" → "g"), as the attribution check does.
 */
const GLUED_QUALIFIER = /^(\p{L}[\p{L}\p{N}_+⋆*'’/-]{0,24})(\([^()[\]]{1,30}\))$/u;

/** The header starting at `tokens[index]` (label, qualifiers, bracketed known unit), or undefined. */
function headerAt(tokens: Token[], index: number, normalizeUnit: (text: string) => string | null): Header | undefined {
  const label = tokens[index]?.text.normalize('NFKC');
  if (!label || !(LABEL.test(label) || GLUED_QUALIFIER.test(label))) return undefined;
  let cursor = index + 1;
  // Up to two qualifiers; a qualifier that is itself a known unit is the unit ("Eg (eV)").
  for (let qualifiers = 0; qualifiers <= 2 && tokens[cursor]; qualifiers += 1) {
    const unitMatch = BRACKETED_UNIT.exec(tokens[cursor]!.text);
    const unit = unitMatch ? normalizeUnit((unitMatch[1] ?? unitMatch[2])!) : null;
    if (unit) return { unit, next: cursor + 1 };
    if (!QUALIFIER.test(tokens[cursor]!.text)) return undefined;
    cursor += 1;
  }
  return undefined;
}

/** Cells in a run starting at `index`; the run ends at the first token that is not a cell. */
function cellRun(tokens: Token[], index: number): Cell[] {
  const cells: Cell[] = [];
  for (let found = cellAt(tokens, index); found; found = cellAt(tokens, index)) {
    cells.push(found.cell);
    index = found.next;
  }
  return cells;
}

/** An empty cell: a dash or "n/a" (not "NA" or "na", which are also words and symbols). */
const EMPTY = /^(?:[-–—−]{1,2}|n\/a|n\.a\.)$/iu;
/** A range cell, "0.04–0.08": one cell of the row, but no single value. */
const RANGE = /^\d+(?:\.\d+)?[–—-]\d+(?:\.\d+)?[a-z*]?$/u;

/** One cell of a row as the table prints it: the numbers in it (none for an empty or range cell) and its tokens. */
interface RowCell {
  cells: Cell[];
  from: number;
  to: number;
}

/** Is `tokens[index]` part of a row's cells (a number, its citation, an empty or a range cell)? */
function inRow(tokens: Token[], index: number): boolean {
  const text = tokens[index]?.text;
  return text !== undefined && (CELL.test(text) || CITATION.test(text) || EMPTY.test(text) || RANGE.test(text));
}

/**
 * The cells of the row starting at `tokens[index]`, up to the first token that is none. `grouped`
 * reads "3.4, 5.9" and "1.13 (2.26)a" as one cell each (see the module comment); otherwise each
 * number is a cell.
 */
function rowCells(tokens: Token[], index: number, grouped: boolean): RowCell[] {
  const row: RowCell[] = [];
  for (;;) {
    const token = tokens[index];
    const found = cellAt(tokens, index);
    if (found) {
      const cell: RowCell = { cells: [found.cell], from: index, to: found.next };
      for (let next = grouped ? cellAt(tokens, cell.to) : undefined; next; next = cellAt(tokens, cell.to)) {
        const continues = tokens[cell.to - 1]!.text.endsWith(',') || tokens[cell.to]!.text.startsWith('(');
        if (!continues) break;
        cell.cells.push(next.cell);
        cell.to = next.next;
      }
      row.push(cell);
      index = cell.to;
    } else if (token && (EMPTY.test(token.text) || RANGE.test(token.text))) {
      row.push({ cells: [], from: index, to: index + 1 });
      index += 1;
    } else {
      return row;
    }
  }
}

/** Both readings of the row at `index` (grouped first), each once. */
function rowReadings(tokens: Token[], index: number): RowCell[][] {
  const grouped = rowCells(tokens, index, true);
  const single = rowCells(tokens, index, false);
  return single.length === grouped.length ? [grouped] : [grouped, single];
}

/** A column name as printed (a slash- or hyphen-split name with its spaces), with its span in the text. */
export interface ColumnName {
  text: string;
  start: number;
  end: number;
}

/** The column of a row-major cell (see the module comment): its 0-based index among the table's column names. */
export interface FlattenedColumn {
  index: number;
  /** The table's column names, in order; `names[index]` is the cell's. */
  names: ColumnName[];
  /** The table's label from its caption ("Table 1"), when the caption is printed just before. */
  table?: string;
}

/**
 * A column name: letters with a capital, a digit or a non-Latin letter; not bracketed, not ending
 * a clause, not the first half of a name split at a slash or hyphen ("β-P/").
 */
function nameLike(text: string): boolean {
  const name = text.normalize('NFKC');
  if (CELL.test(name) || EMPTY.test(name) || /^[([{]/u.test(name) || /[.,;:)\]/-]$/u.test(name) || !/\p{L}/u.test(name)) return false;
  return /[\p{Lu}\p{N}]/u.test(name) || /[^\p{Script=Latin}\P{L}]/u.test(name);
}

/**
 * A plain word of a stub or spanning heading ("Parameter", "Monolayers", "of"): lower case, or
 * capitalised with three letters or more, so that an element symbol ("Si", "Ge") is a name.
 */
const PLAIN_WORD = /^(?:\p{Lu}\p{Ll}{2,}|\p{Ll}+)$/u;

/** A caption's start: "Table 1", "TABLE I.", "Fig. 2", "FIG. 3:". */
const CAPTION = /^(?:Table|TABLE|Tab\.|Fig\.?|FIG\.?|Figure|FIGURE)$/u;
const CAPTION_NUMBER = /^(?:\d+|[IVX]+)[.:|]?$/u;

/** Does a caption start at `tokens[index]`? */
function captionAt(tokens: Token[], index: number): boolean {
  return CAPTION.test(tokens[index]?.text ?? '') && CAPTION_NUMBER.test(tokens[index + 1]?.text ?? '');
}

/**
 * The name-like unit ending at `tokens[end - 1]`: tokens that PDF text split at a slash or a
 * hyphen are one name ("α-P / H-MoSe2", "α-P/ ZT-MoSe2", "Spiro- OMeTAD"). Returns its first token.
 */
function nameStart(tokens: Token[], end: number): number {
  let start = end - 1;
  while (start > 0) {
    const before = tokens[start - 1]!.text;
    const joins = before === '/' || (before.length > 1 && /[/-]$/u.test(before)) || tokens[start]!.text.startsWith('/');
    if (!joins || EMPTY.test(before) || CELL.test(before)) break;
    start -= 1;
  }
  return start;
}

/**
 * The `count` column names printed right before `tokens[label]` (a row label), when they read as a
 * header (see the module comment); `overlong` when they are preceded by one more name-like token,
 * so that the header names more columns than `count` (or the label took a word of the header).
 * Undefined when fewer than `count` names precede the label.
 */
function namesBefore(text: string, tokens: Token[], label: number, count: number): { names: ColumnName[]; overlong: boolean } | undefined {
  const names: ColumnName[] = [];
  let end = label;
  while (names.length < count) {
    if (end <= 0) return undefined;
    const start = nameStart(tokens, end);
    const span = { text: text.slice(tokens[start]!.start, tokens[end - 1]!.end), start: tokens[start]!.start, end: tokens[end - 1]!.end };
    if (!nameLike(span.text.replace(/\s+/gu, ''))) return undefined;
    names.unshift(span);
    end = start;
  }
  // Plain words of a stub or spanning heading may precede the names; a name-like token may not.
  while (end > 0) {
    const start = nameStart(tokens, end);
    const before = text
      .slice(tokens[start]!.start, tokens[end - 1]!.end)
      .replace(/\s+/gu, '')
      .normalize('NFKC');
    if (PLAIN_WORD.test(before)) {
      end = start;
      continue;
    }
    return { names, overlong: nameLike(before) };
  }
  // The window's start: the header may go on before it, unless the window starts the text.
  return tokens[0]!.start === 0 ? { names, overlong: false } : undefined;
}

/** The table's label ("Table 1") from a caption within the 40 tokens before `index`. */
function tableLabel(tokens: Token[], index: number): string | undefined {
  for (let at = index - 1; at >= Math.max(0, index - 40); at -= 1) {
    if (!captionAt(tokens, at)) continue;
    if (!/^(?:Table|TABLE|Tab\.)$/u.test(tokens[at]!.text)) return undefined;
    return `Table ${tokens[at + 1]!.text.replace(/[.:|]$/u, '')}`;
  }
  return undefined;
}

/**
 * The column names of the row-major table whose row has `count` cells and ends at `rowEnd` (an
 * offset of `text`), found from the table's first row (see the module comment); undefined when no
 * header is found within `COLUMN_LOOKBACK` characters before `rowStart`, or when it is ambiguous.
 */
export function columnsOfRow(
  text: string,
  rowStart: number,
  rowEnd: number,
  count: number,
): { names: ColumnName[]; table?: string } | undefined {
  let windowStart = Math.max(0, rowStart - COLUMN_LOOKBACK);
  while (windowStart > 0 && windowStart < rowStart && !/\s/u.test(text[windowStart - 1]!)) windowStart += 1;
  const tokens = tokenize(text.slice(windowStart, rowEnd), windowStart);
  for (let first = tokens.length - 1; first > 0; first -= 1) {
    if (captionAt(tokens, first)) return undefined;
    // A row starts at `first`: its first cell, after a token that is no cell.
    if (!cellAt(tokens, first) && !EMPTY.test(tokens[first]!.text) && !RANGE.test(tokens[first]!.text)) continue;
    if (inRow(tokens, first - 1)) continue;
    if (!rowReadings(tokens, first).some((row) => row.length === count)) continue;
    // Each reading of the first row's label gives a header; a header with fewer capitalised plain
    // words among its names is preferred ("Heterostructures" is a spanning heading, and read as
    // a name only when the label takes a name), and two equally good ones are no header.
    // Names with no plain word among them after one more name ("Si Ge GaAs Eg (eV) 1.12 0.66")
    // are a header longer than the row, whatever label is tried: no header.
    const headers = new Map<string, { names: ColumnName[]; words: number }>();
    for (let label = first - 1; label >= Math.max(1, first - ROW_LABEL_TOKENS) && !inRow(tokens, label); label -= 1) {
      // A label starts with a letter, and not inside a name split at a slash or hyphen.
      if (!/^\p{L}/u.test(tokens[label]!.text.normalize('NFKC')) || nameStart(tokens, label + 1) !== label) continue;
      const found = namesBefore(text, tokens, label, count);
      if (!found) continue;
      const words = found.names.filter((name) => PLAIN_WORD.test(name.text.normalize('NFKC'))).length;
      if (found.overlong && words === 0) return undefined;
      if (!found.overlong) headers.set(found.names.map((name) => name.text).join('\u0000'), { names: found.names, words });
    }
    const fewest = Math.min(...[...headers.values()].map((header) => header.words));
    const best = [...headers.values()].filter((header) => header.words === fewest);
    if (best.length > 1) return undefined;
    const names = best[0]?.names;
    if (names) {
      const firstName = tokens.findIndex((token) => token.start === names[0]!.start);
      const table = tableLabel(tokens, firstName);
      return { names, ...(table ? { table } : {}) };
    }
  }
  return undefined;
}

/**
 * The cells of the row-major row whose cells start at `tokens[index]` (after its label
 * `tokens[label]`), each with its column, when a reading of the row has as many cells as a header
 * before it names columns (`columnsOfRow`); undefined otherwise.
 */
function alignedRow(text: string, tokens: Token[], label: number, index: number): PlacedCell[] | undefined {
  for (const row of rowReadings(tokens, index)) {
    const last = row.at(-1);
    if (!last || row.length < MIN_CELLS) continue;
    const columns = columnsOfRow(text, tokens[label]!.start, tokens[last.to - 1]!.end, row.length);
    if (!columns) continue;
    return row.flatMap((cell, position) => cell.cells.map((each) => ({ ...each, tableColumn: { index: position, ...columns } })));
  }
  return undefined;
}

/** A cell of a column-major row, with its row label and its column (0-based); or of a row-major row, with its column. */
interface PlacedCell extends Cell {
  column?: number;
  label?: Token;
  tableColumn?: FlattenedColumn;
}

/** Rows "label c1 … cK" starting at `index`, each with exactly `columns` cells. */
function labelledRows(tokens: Token[], index: number, columns: number, normalizeUnit: (text: string) => string | null): PlacedCell[] {
  const cells: PlacedCell[] = [];
  for (;;) {
    const label = tokens[index];
    if (!label || cellAt(tokens, index) || headerAt(tokens, index, normalizeUnit) || !/\p{L}/u.test(label.text)) return cells;
    const row: PlacedCell[] = [];
    let cursor = index + 1;
    for (let found = cellAt(tokens, cursor); found && row.length < columns; found = cellAt(tokens, cursor)) {
      row.push({ ...found.cell, column: row.length, label });
      cursor = found.next;
    }
    // A row with fewer cells, or more (the next token is a cell too), is not a row of this table.
    if (row.length !== columns || cellAt(tokens, cursor)) return cells;
    cells.push(...row);
    index = cursor;
  }
}

/**
 * A bare cell of a flattened table with where it stands: its unit, the header it falls under
 * (the column's header for a column-major table, "Eg (HSE06+G0W0) [eV]"; the row's header for a
 * row-major one, "Eg [eV]"), for a column-major table the row's label ("wz-AlN"), and for a
 * row-major row that lines up with its table's column names the cell's column ("b-P/H-MoSe2").
 * Offsets index the text given (`Article.text`).
 */
export interface FlattenedCell {
  value: number;
  uncertainty?: number;
  start: number;
  end: number;
  unit: string;
  header: { text: string; start: number; end: number };
  /** Column-major tables only: the first token of the cell's row. */
  rowLabel?: { text: string; start: number; end: number };
  /** Row-major tables only, when the row lines up with the table's column names: the cell's column. */
  column?: FlattenedColumn;
}

/** The headers of a group starting at `tokens[index]`, each with its token span. */
function headerGroup(
  tokens: Token[],
  index: number,
  normalizeUnit: (text: string) => string | null,
): { unit: string; mixed: boolean; spans: { from: number; to: number }[]; next: number } | undefined {
  const first = headerAt(tokens, index, normalizeUnit);
  if (!first) return undefined;
  const spans = [{ from: index, to: first.next }];
  let next = first.next;
  let mixed = false;
  for (let header = headerAt(tokens, next, normalizeUnit); header; header = headerAt(tokens, next, normalizeUnit)) {
    if (header.unit !== first.unit) mixed = true;
    spans.push({ from: next, to: header.next });
    next = header.next;
  }
  return { unit: first.unit, mixed, spans, next };
}

/**
 * The bare cells of flattened tables in `text[start, end)` (see the module comment), each with
 * its unit, header, (column-major) row label and (row-major) column. Headers are looked for from
 * `HEADER_LOOKBACK` characters before `start`, a row-major table's column names from
 * `COLUMN_LOOKBACK` characters before the row. A row-major row whose cells line up with its
 * column names gives all its cells, also those after an empty one ("1.12 – 1.34"); otherwise the
 * run of cells after the header, up to the first token that is no cell. The quantities of
 * `flattenedTableQuantities` are these cells.
 */
export function flattenedTableCells(
  text: string,
  start: number,
  end: number,
  normalizeUnit: (text: string) => string | null,
): FlattenedCell[] {
  // Begin the window at a whitespace so that its first token is a whole one.
  let windowStart = Math.max(0, start - HEADER_LOOKBACK);
  while (windowStart > 0 && windowStart < start && !/\s/u.test(text[windowStart - 1]!)) windowStart += 1;
  const tokens = tokenize(text.slice(windowStart, end), windowStart);
  const found: FlattenedCell[] = [];
  const spanOf = (from: number, to: number) => ({
    text: text.slice(tokens[from]!.start, tokens[to - 1]!.end),
    start: tokens[from]!.start,
    end: tokens[to - 1]!.end,
  });
  for (let index = 0; index < tokens.length; index += 1) {
    if (index > 0 && headerBefore(tokens, index, normalizeUnit)) continue;
    const group = headerGroup(tokens, index, normalizeUnit);
    if (!group || group.mixed) continue;
    const direct = cellRun(tokens, group.next);
    // A row-major row that lines up with the table's column names (its cells past an empty one included).
    const aligned = direct.length > 0 && group.spans.length === 1 ? alignedRow(text, tokens, index, group.next) : undefined;
    const cells: PlacedCell[] =
      aligned ?? (direct.length > 0 ? direct : labelledRows(tokens, group.next, group.spans.length, normalizeUnit));
    if (cells.length < MIN_CELLS) continue;
    for (const cell of cells) {
      if (cell.start < start || cell.end > end) continue;
      const span = group.spans[cell.column ?? 0]!;
      found.push({
        value: cell.value,
        ...(cell.uncertainty === undefined ? {} : { uncertainty: cell.uncertainty }),
        start: cell.start,
        end: cell.end,
        unit: group.unit,
        header: spanOf(span.from, span.to),
        ...(cell.label ? { rowLabel: { text: cell.label.text, start: cell.label.start, end: cell.label.end } } : {}),
        ...(cell.tableColumn ? { column: cell.tableColumn } : {}),
      });
    }
  }
  return found;
}

/**
 * Bare table cells in `text[start, end)` that take the unit of a flattened table's header (see
 * the module comment), as quantities in that unit (with SI values when `toSI` converts it).
 * Headers are looked for from `HEADER_LOOKBACK` characters before `start`; only cells inside
 * [start, end) are returned. Shapes: `text` is `Article.text`, offsets index it.
 */
export function flattenedTableQuantities(
  text: string,
  start: number,
  end: number,
  normalizeUnit: (text: string) => string | null,
  toSI?: ToSI,
): QuoteQuantity[] {
  return flattenedTableCells(text, start, end, normalizeUnit).map((cell) => {
    const si = toSI?.(cell.value, cell.unit);
    return {
      value: { kind: 'number', value: cell.value, ...(cell.uncertainty === undefined ? {} : { uncertainty: cell.uncertainty }) },
      unit: cell.unit,
      text: `${text.slice(cell.start, cell.end)} (column unit ${cell.unit})`,
      ...(si ? { si: { value: { kind: 'number', value: si.value }, unit: si.unit } } : {}),
    };
  });
}

/** Does a header end right before `tokens[index]` (so that this one is not the first of its group)? */
function headerBefore(tokens: Token[], index: number, normalizeUnit: (text: string) => string | null): boolean {
  // A header is 2–4 tokens (label, up to two qualifiers, unit).
  for (let length = 2; length <= 4 && index - length >= 0; length += 1) {
    if (headerAt(tokens, index - length, normalizeUnit)?.next === index) return true;
  }
  return false;
}

/** A name without spaces, NFKC-folded and lower-cased: "α-P / ZT-MoSe2" and "α-P/ ZT-MoSe2" are one name. */
const compact = (name: string) => name.normalize('NFKC').replace(/\s+/gu, '').toLowerCase();

/**
 * The columns of `names` that name the material: those printed as one of `names` (`materialNames`
 * of the fact), spaces aside; when none is, those that `namesMaterial` finds naming it. A fact
 * "H-MoSe2" thus owns the column "H-MoSe2", not "β-P/H-MoSe2" beside it.
 */
function ownColumns(columns: readonly ColumnName[], names: readonly string[]): number[] {
  const wanted = new Set(names.map(compact));
  const exact = columns.flatMap((column, index) => (wanted.has(compact(column.text)) ? [index] : []));
  if (exact.length > 0) return exact;
  return columns.flatMap((column, index) =>
    namesMaterial(column.text, names) || namesMaterial(column.text.replace(/\s+/gu, ''), names) ? [index] : [],
  );
}

/**
 * Why a fact's value is not its material's by the column it stands in, or undefined. `cells` are
 * `flattenedTableCells` of the evidence, `shows` tells the cells that print the fact's value,
 * `names` are the material's names (`materialNames`), `material` the fact's material as written.
 * A reason is given only when every cell printing the value lies in a row-major row with known
 * columns (see the module comment), the material names one or more of the table's columns, and no
 * such cell stands in one of those: "in Table 1, 1.10 eV is in the column of b-P/H-MoSe2, not
 * b-P/T-MoSe2". A value repeated in its own column ("3.05 [38] 3.05 [38]" for c-TiO2 and mp-TiO2)
 * is its own; a material that names no column is not judged.
 */
export function misplacedInColumn(
  text: string,
  cells: readonly FlattenedCell[],
  shows: (cell: FlattenedCell) => boolean,
  names: readonly string[],
  material: string,
): string | undefined {
  const showing = cells.filter(shows);
  if (showing.length === 0 || showing.some((cell) => !cell.column)) return undefined;
  // The value stands in the material's own column somewhere, or the material names no column.
  for (const cell of showing) {
    const own = ownColumns(cell.column!.names, names);
    if (own.length === 0 || own.includes(cell.column!.index)) return undefined;
  }
  const misplaced = showing[0]!;
  const column = misplaced.column!;
  // Names split by PDF text read joined again: "β-P/ H-MoSe2" → "β-P/H-MoSe2".
  const others = [
    ...new Set(showing.map((cell) => cell.column!.names[cell.column!.index]!.text.replace(/\s*\/\s*|(?<=-)\s+/gu, (gap) => gap.trim()))),
  ];
  const printed = /[-−–]?\d+(?:\.\d+)?/u.exec(text.slice(misplaced.start, misplaced.end))?.[0] ?? String(misplaced.value);
  const columns = others.length === 1 ? `the column of ${others[0]!}` : `the columns of ${others.join(' and ')}`;
  return `in ${column.table ?? 'the table'}, ${printed} ${misplaced.unit} is in ${columns}, not ${material}`;
}
