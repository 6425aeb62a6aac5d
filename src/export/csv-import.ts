/**
 * Reading an Assay CSV export (`toCsv`) back as import entries, so a spreadsheet the reader kept
 * (or edited) imports like a JSON export: each record becomes the `DatasetTriplet` it describes,
 * which `checkImportEntries` then validates and keys like any other line.
 *
 * CSV is the lossy export: what it does not hold comes back empty — the value as printed
 * ("~1.45"), the review's time and the model's original answer, the quote's prefix and suffix,
 * the Chain-of-Verification answers and the conditions' spans (the paper's authors, volume and
 * pages come back from files written since issue 28, which have those columns). What the
 * merge key reads (paper, material, property, value, unit, conditions) it holds, so a CSV of
 * saved rows merges into them instead of doubling.
 *
 * Both CSV layouts import: today's, with a column per condition kind (`CONDITION_COLUMNS`) and
 * `provenance`, and the one written before issue 26, whose free-text `conditions` column becomes
 * one `other` condition. The file is recognized by its header, whose first columns both share.
 */
// The browser build, as the CSV export's: the default one needs Node's Buffer.
import { parse } from 'csv-parse/browser/esm/sync';
import type { Condition, ConditionKind, Provenance } from '../contracts/conditions';
import { CONDITION_COLUMNS, CONDITION_SEPARATOR, REASON_SEPARATOR } from './dataset-export';
import type { ImportEntry } from './import-entry';

/** How every Assay CSV export's header starts (after its byte-order mark). */
const HEADER_START = 'id,material,property,';

/** Whether `text` (a file's first characters) is an Assay CSV export: its header's first columns, after a byte-order mark. */
export function isAssayCsv(text: string): boolean {
  return text.replace(/^\uFEFF/, '').startsWith(HEADER_START);
}

/** A cell's first characters after which `spreadsheetCell` puts an apostrophe (its `FORMULA_START`). */
const DEFUSED = /^'[=+\-@\t\r\n\0＝＋－＠]/;

/**
 * A cell as it was before the export made it safe for spreadsheets: the apostrophe `spreadsheetCell`
 * put before a formula character is taken off. A text that itself began with an apostrophe and a
 * formula character ("'=x") loses its apostrophe too: the export wrote it unchanged, and the two
 * cannot be told apart.
 */
function undefused(cell: string): string {
  return DEFUSED.test(cell) ? cell.slice(1) : cell;
}

type Cells = (column: string) => string;

function optionalNumber(text: string): number | undefined {
  return text === '' ? undefined : Number(text);
}

/** The value of the record: `value` (with `uncertainty`) for a number, `value_low`/`value_high` for a range. Not a number → NaN, which the schema refuses. */
function valueOf(cell: Cells): unknown {
  if (cell('value') === '' && (cell('value_low') !== '' || cell('value_high') !== ''))
    return { kind: 'range', low: Number(cell('value_low')), high: Number(cell('value_high')) };
  const uncertainty = optionalNumber(cell('uncertainty'));
  return {
    kind: 'number',
    value: cell('value') === '' ? Number.NaN : Number(cell('value')),
    ...(uncertainty !== undefined && { uncertainty }),
  };
}

/** Conditions from the columns per kind (cells split on `CONDITION_SEPARATOR`), then a legacy `conditions` column as one `other` condition. */
function conditionsOf(cell: Cells, header: ReadonlySet<string>): Condition[] {
  const conditions: Condition[] = [];
  for (const [kind, column] of Object.entries(CONDITION_COLUMNS) as Array<[ConditionKind, string]>) {
    for (const value of cell(column).split(CONDITION_SEPARATOR)) if (value.trim() !== '') conditions.push({ kind, value });
  }
  const legacy = header.has('conditions') ? cell('conditions').trim() : '';
  if (legacy !== '') conditions.push({ kind: 'other', value: legacy, text: legacy });
  return conditions;
}

/** "computed", "measured", "unknown", "cited" or "cited [19]" as a provenance; '' → none; anything else as a kind the schema refuses, naming it. */
function provenanceOf(text: string): Provenance | { kind: string } | undefined {
  if (text === '') return undefined;
  const cited = /^cited(?:\s+(.+))?$/s.exec(text);
  if (cited) return { kind: 'cited', ...(cited[1] !== undefined && { reference: cited[1].trim() }) };
  return { kind: text };
}

/** The paper's key as capture makes it (src/store/paper-record.ts): `doi:`, else `url:` without the fragment, else `title:`. */
function paperKeyOf(doi: string, url: string, title: string): string {
  if (doi !== '') return `doi:${doi.toLowerCase()}`;
  if (url !== '') return `url:${url.replace(/#.*$/, '')}`;
  return `title:${title.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

function evidenceOf(cell: Cells): unknown {
  if (cell('quote') === '') return undefined;
  const start = optionalNumber(cell('position_start'));
  const end = optionalNumber(cell('position_end'));
  const page = optionalNumber(cell('page'));
  return {
    quote: { type: 'TextQuoteSelector', exact: cell('quote'), prefix: '', suffix: '' },
    ...(start !== undefined && end !== undefined && { position: { type: 'TextPositionSelector', start, end } }),
    ...(page !== undefined && { page }),
    ...(cell('block_id') !== '' && { blockId: cell('block_id') }),
  };
}

const list = (text: string) => text.split(';').filter((item) => item !== '');

/**
 * The row a CSV record describes (before validation): every column read back as `csvRecord`
 * wrote it, and a placeholder merge key (`checkImportEntries` recomputes it and the SI value).
 */
function rowOf(cell: Cells, header: ReadonlySet<string>): Record<string, unknown> {
  const doi = cell('doi');
  const url = header.has('url') ? cell('url') : '';
  const conditions = conditionsOf(cell, header);
  const provenance = provenanceOf(header.has('provenance') ? cell('provenance') : '');
  const evidence = evidenceOf(cell);
  const year = optionalNumber(cell('year'));
  return {
    id: cell('id'),
    mergeKey: 'csv',
    paper: {
      key: paperKeyOf(doi, url, cell('title')),
      doi: doi === '' ? null : doi,
      url: url === '' ? null : url,
      title: cell('title'),
      authors: header.has('authors')
        ? cell('authors')
            .split(';')
            .map((name) => name.trim())
            .filter((name) => name !== '')
        : [],
      journal: cell('journal') === '' ? null : cell('journal'),
      ...(header.has('volume') && cell('volume') !== '' && { volume: cell('volume') }),
      ...(header.has('pages') && cell('pages') !== '' && { pages: cell('pages') }),
      year: year ?? null,
    },
    material: cell('material'),
    property: cell('property'),
    value: valueOf(cell),
    unit: cell('unit'),
    si: null,
    ...(conditions.length > 0 && { conditions }),
    ...(provenance !== undefined && { provenance }),
    ...(evidence !== undefined && { evidence }),
    status: cell('status'),
    ...(header.has('reasons') && cell('reasons') !== '' && { reasons: cell('reasons').split(REASON_SEPARATOR) }),
    review: { decision: cell('decision') },
    votes: list(cell('votes')),
    models: list(cell('models')),
    ...(cell('run_id') !== '' && { runId: cell('run_id') }),
    savedAt: cell('saved_at'),
  };
}

/**
 * The records of an Assay CSV export (`isAssayCsv`) as import entries ("row N", 1-based, the
 * header not counted), each the row it describes, in file order. A record with fewer cells than
 * the header reads the missing ones as empty (the schema then names what is missing); blank
 * lines are skipped. Gives `fileProblem` when the text is not CSV at all (an unclosed quote), or
 * when its header names a column twice.
 * Never throws.
 */
export function csvImportEntries(text: string): { entries: ImportEntry[] } | { fileProblem: string } {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch (error) {
    return { fileProblem: `This CSV file could not be read (${error instanceof Error ? error.message : String(error)}).` };
  }
  const [columns = [], ...body] = records;
  const header = new Set(columns);
  // A column named twice is a CSV's key written twice: each record would keep one cell silently (issue 27, item 10).
  const repeated = [...new Set(columns.filter((column, position) => columns.indexOf(column) !== position))];
  if (repeated.length > 0)
    return {
      fileProblem: `This CSV file names the column${repeated.length > 1 ? 's' : ''} ${repeated.map((column) => `"${column}"`).join(', ')} twice: which cell holds the value cannot be told.`,
    };
  const entries = body.map((record, index) => {
    const cells = new Map(columns.map((column, position) => [column, undefused(record[position] ?? '')]));
    return { where: `row ${index + 1}`, value: rowOf((column) => cells.get(column) ?? '', header) };
  });
  return { entries };
}
