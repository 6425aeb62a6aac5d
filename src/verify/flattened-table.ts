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
 */
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

/** A cell of a column-major row, with its row label and its column (0-based). */
interface PlacedCell extends Cell {
  column?: number;
  label?: Token;
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
 * row-major one, "Eg [eV]"), and for a column-major table the row's label ("wz-AlN"). Offsets
 * index the text given (`Article.text`).
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
 * its unit, header and (column-major) row label. Headers are looked for from `HEADER_LOOKBACK`
 * characters before `start`. The quantities of `flattenedTableQuantities` are these cells.
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
    const cells: PlacedCell[] = direct.length > 0 ? direct : labelledRows(tokens, group.next, group.spans.length, normalizeUnit);
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
