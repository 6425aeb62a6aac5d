import { describe, expect, it } from 'vitest';
import {
  citationText,
  countText,
  decisionTitle,
  deletedText,
  EMPTY_FILTER,
  exportFileName,
  exportMediaType,
  hashForPaper,
  importedText,
  importReportSentences,
  importSummaryText,
  placesText,
  rejectedLineTexts,
  pageWindow,
  pagesForRange,
  paperKeyFromHash,
  queryFromFilter,
  rowAt,
  savedDay,
  searchIndexText,
  shortNumber,
  displayText,
  DISPLAY_VALUE_HEADING,
  statusText,
} from '../../../../src/ui/dataset-page/dataset-view-model';
import { datasetTriplet } from '../dataset-fixtures';
import { printedValue } from '../../../../src/text/quantities/format-quantity';

describe('queryFromFilter', () => {
  it('leaves out blank and "any" controls, so the empty filter matches everything', () => {
    expect(queryFromFilter(EMPTY_FILTER)).toEqual({});
    expect(queryFromFilter({ ...EMPTY_FILTER, material: '   ', search: '\t' })).toEqual({});
  });

  it('trims text and passes the selects through', () => {
    expect(
      queryFromFilter({
        ...EMPTY_FILTER,
        material: ' TiO ',
        property: 'band_gap',
        status: 'needs_review',
        decision: 'edited',
        search: ' anatase ',
        method: 'HSE06',
        provenance: 'cited',
      }),
    ).toEqual({
      material: 'TiO',
      property: 'band_gap',
      status: 'needs_review',
      decision: 'edited',
      search: 'anatase',
    });
  });
});

describe('page loading', () => {
  it('lists the pages under the visible rows', () => {
    // 200-row pages: row 0 → page 0, 199 → 0, 200 → 1, 410 → 2 (floor(410 / 200) = 2).
    expect(pagesForRange(0, 30)).toEqual([0]);
    expect(pagesForRange(0, 199)).toEqual([0]);
    expect(pagesForRange(190, 210)).toEqual([0, 1]);
    expect(pagesForRange(190, 410)).toEqual([0, 1, 2]);
    expect(pagesForRange(25, 74, 50)).toEqual([0, 1]);
  });

  it('asks for nothing when nothing is visible', () => {
    expect(pagesForRange(0, -1)).toEqual([]);
    expect(pagesForRange(5, 4)).toEqual([]);
  });

  it('turns a page number into an offset and limit', () => {
    expect(pageWindow(0)).toEqual({ offset: 0, limit: 200 });
    expect(pageWindow(3)).toEqual({ offset: 600, limit: 200 });
    expect(pageWindow(2, 50)).toEqual({ offset: 100, limit: 50 });
  });

  it('finds a row by overall index in the loaded pages', () => {
    const pages = new Map([
      [0, ['a', 'b', 'c']],
      [2, ['g', 'h']],
    ]);
    // Page size 3: index 7 is page 2 (floor(7 / 3)), position 1 (7 mod 3) → "h".
    expect(rowAt(pages, 1, 3)).toBe('b');
    expect(rowAt(pages, 7, 3)).toBe('h');
    expect(rowAt(pages, 4, 3)).toBeUndefined(); // page 1 not loaded
    expect(rowAt(pages, 8, 3)).toBeUndefined(); // past the end of page 2
  });
});

describe('words', () => {
  it('says while the search index is built or updated, and why it stopped, and nothing once it answers', () => {
    expect(searchIndexText(undefined)).toBe('');
    expect(searchIndexText({ status: 'building', done: 0, total: 0, generation: 0 })).toBe('Indexing quotes for search…');
    expect(searchIndexText({ status: 'building', done: 40_000, total: 100_000, generation: 0 })).toBe(
      'Indexing quotes for search: 40,000 of 100,000',
    );
    expect(searchIndexText({ status: 'updating', done: 2000, total: 100_000, generation: 3 })).toBe(
      'Updating the search index: 2,000 of 100,000',
    );
    expect(searchIndexText({ status: 'ready', rows: 5, generation: 4 })).toBe('');
    expect(searchIndexText({ status: 'ready', rows: 5, generation: 4, pending: 12_000 })).toBe(
      'Indexing 12,000 new rows for search and sorting…',
    );
    expect(searchIndexText({ status: 'ready', rows: 5, generation: 4, pending: 0 })).toBe('');
    const stopped = 'the search index would take about 2,100 MB for 900,000 rows, over 2,000 MB';
    expect(searchIndexText({ status: 'ready', rows: 900_000, generation: 6, searchStopped: stopped })).toBe(
      `Search is off for a dataset this large (${stopped}): a search looks through every row instead, slower, and finds text inside words too. Filters and sorts still answer at once.`,
    );
    expect(searchIndexText({ status: 'ready', rows: 900_000, generation: 6, pending: 5000, searchStopped: stopped })).toBe(
      `Indexing 5,000 new rows for filters and sorting… Search is off for a dataset this large (${stopped}): a search looks through every row instead, slower, and finds text inside words too. Filters and sorts still answer at once.`,
    );
    expect(searchIndexText({ status: 'failed', message: 'QuotaExceededError', generation: 5 })).toBe(
      'The search index stopped (QuotaExceededError); search reads every row instead.',
    );
  });

  it('counts matching of saved triplets', () => {
    expect(countText(12, 340)).toBe('12 of 340 triplets');
    expect(countText(1, 1)).toBe('1 of 1 triplet');
    expect(countText(0, 0)).toBe('0 of 0 triplets');
  });

  it('says what a delete removed and what an import did', () => {
    expect(deletedText(3)).toBe('Deleted 3 triplets.');
    expect(deletedText(1)).toBe('Deleted 1 triplet.');
    expect(importSummaryText({ added: 4, merged: 1 }, 2)).toBe('Added 4, merged 1; 2 problems');
    expect(importSummaryText({ added: 0, merged: 0 }, 1)).toBe('Added 0, merged 0; 1 problem');
  });

  it('lists places in a file with runs of three or more as ranges, and counts past 20 runs', () => {
    const lines = (...numbers: number[]) => numbers.map((number) => `line ${number}`);
    expect(placesText([])).toBe('');
    expect(placesText(['row 4'])).toBe('row 4');
    expect(placesText(lines(1, 2, 4))).toBe('lines 1, 2 and 4');
    expect(placesText(lines(1, 2, 3, 7, 9, 10, 11, 12))).toBe('lines 1–3, 7 and 9–12');
    expect(placesText(lines(...Array.from({ length: 25 }, (_, index) => 1 + 2 * index)))).toBe(
      'lines 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39 and 5 more',
    );
  });

  it('tells an import report in sentences: added, merged into saved rows, repeats, and what a failed write left saved', () => {
    const base = { fileName: 'f.jsonl', at: '2026-11-25T10:00:00.000Z' };
    expect(
      importReportSentences({
        ...base,
        added: ['line 1', 'line 2', 'line 4'],
        merged: [{ where: 'line 3' }, { where: 'line 5', repeats: 'line 1' }],
      }),
    ).toEqual([
      'Added 3: lines 1, 2 and 4.',
      'Merged 1 into rows already saved, which are kept as they were: line 3.',
      'Merged 1 as a repeat of an earlier line: line 5 (same fact as line 1).',
    ]);
    const unsaved = Array.from({ length: 3000 }, (_, index) => `line ${2001 + index}`);
    expect(
      importReportSentences({
        ...base,
        added: Array.from({ length: 1990 }, (_, index) => `line ${index + 1}`),
        merged: Array.from({ length: 10 }, (_, index) => ({ where: `line ${1991 + index}` })),
        failure: { message: 'QuotaExceededError: The quota has been exceeded.', unsaved },
      }),
    ).toEqual([
      'Added 1990: lines 1–1990.',
      'Merged 10 into rows already saved, which are kept as they were: lines 1991–2000.',
      'The import stopped at line 2001 because saving failed: QuotaExceededError: The quota has been exceeded.',
      'Saved before the failure: 2000 rows (1990 added, 10 merged); they stay saved.',
      'Not saved: lines 2001–5000. Import the file again to add them; the saved ones merge instead of doubling.',
    ]);
    expect(importReportSentences({ ...base, added: [], merged: [], failure: { message: 'closed', unsaved: ['row 1'] } })).toEqual([
      'The import stopped at row 1 because saving failed: closed.',
      'Nothing was saved.',
      'Not saved: row 1. Import the file again to add them; the saved ones merge instead of doubling.',
    ]);
  });

  it('lists refused lines with their reason, at most 50, and names an imported row’s file', () => {
    const refused = Array.from({ length: 52 }, (_, index) => ({ where: `line ${index + 1}`, message: 'not JSON' }));
    const texts = rejectedLineTexts(refused);
    expect(texts).toHaveLength(51);
    expect(texts[0]).toBe('line 1: not JSON');
    expect(texts[50]).toBe('… and 2 more refused.');
    expect(importedText({ file: 'colleague.jsonl', at: '2026-11-25T10:00:00.000Z', sourceId: 'x' })).toBe(
      'Imported from colleague.jsonl on 2026-11-25',
    );
  });

  it('names exports by format and local date', () => {
    const day = new Date(2026, 10, 22, 23, 59); // 22 November 2026, local time (months are 0-based)
    expect(exportFileName('csv', day)).toBe('assay-dataset-2026-11-22.csv');
    expect(exportFileName('json', day)).toBe('assay-dataset-2026-11-22.json');
    expect(exportFileName('jsonl', new Date(2026, 0, 5))).toBe('assay-dataset-2026-01-05.jsonl');
    expect(exportFileName('annotations', day)).toBe('assay-dataset-2026-11-22-annotations.jsonld');
    expect(exportFileName('bibtex', day)).toBe('assay-dataset-2026-11-22.bib');
    expect(exportFileName('csl', day)).toBe('assay-dataset-2026-11-22-csl.json');
    expect(exportMediaType('csv')).toBe('text/csv');
    expect(exportMediaType('annotations')).toBe('application/ld+json');
  });

  it('routes #paper=<key> both ways, keys with ":" and "/" included', () => {
    const key = 'doi:10.1000/x#1';
    expect(hashForPaper(key)).toBe('#paper=doi%3A10.1000%2Fx%231');
    expect(paperKeyFromHash(hashForPaper(key))).toBe(key);
    expect(paperKeyFromHash('paper=url%3Ahttps')).toBe('url:https');
    expect(paperKeyFromHash('')).toBeNull();
    expect(paperKeyFromHash('#paper=')).toBeNull();
    expect(paperKeyFromHash('#other=1')).toBeNull();
    expect(paperKeyFromHash('#paper=%E0%A4%A')).toBeNull(); // malformed escape
  });

  it('writes the cells of a triplet', () => {
    expect(shortNumber(5.4473e-19)).toBe('5.447e-19');
    expect(shortNumber(0.5)).toBe('0.5');
    expect(shortNumber(1234.56)).toBe('1235');
    const bandGap = { canonicalUnit: 'eV', displayUnit: 'eV' };
    expect(DISPLAY_VALUE_HEADING).toBe('Value (display unit)');
    expect(displayText(datasetTriplet({ value: { kind: 'number', value: 40 }, valueText: '40', unit: 'meV' }), bandGap)).toBe('0.040 eV');
    expect(displayText(datasetTriplet({ value: { kind: 'range', low: 1.2, high: 1.5 }, valueText: '1.2–1.5', unit: 'eV' }), bandGap)).toBe(
      '1.2–1.5 eV',
    );
    expect(displayText(datasetTriplet({ value: { kind: 'number', value: 300 }, unit: 'K' }), bandGap)).toBe('—');
    expect(displayText(datasetTriplet({ value: { kind: 'number', value: 0.35 }, unit: '' }), bandGap)).toBe('—');
    expect(displayText(datasetTriplet({ value: { kind: 'number', value: 40 }, unit: 'meV' }), undefined)).toBe('—');
    expect(printedValue(datasetTriplet())).toBe('3.4');
    expect(printedValue(datasetTriplet({ valueText: '3.41(2)' }))).toBe('3.41(2)');
    expect(printedValue(datasetTriplet({ value: { kind: 'range', low: 1.2, high: 1.5, approximate: true } }))).toBe('~1.2–1.5');
    expect(statusText('needs_review')).toBe('needs review');
    expect(savedDay('2026-11-22T10:00:00.000Z')).toBe('2026-11-22');
    expect(savedDay('yesterday')).toBe('yesterday');
  });

  it('shows the model’s answer on an edited decision only', () => {
    const original = { material: 'GaN', value: { kind: 'number' as const, value: 3.2 }, unit: 'eV' };
    expect(decisionTitle({ decision: 'edited', original })).toBe('Model said: GaN, 3.2 eV');
    expect(decisionTitle({ decision: 'accepted' })).toBeUndefined();
    expect(decisionTitle({ decision: 'edited' })).toBeUndefined();
  });

  it('cites a paper with at most three authors', () => {
    expect(citationText(datasetTriplet().paper)).toBe('Nakamura S, Mukai T. Band gap of GaN. Jpn. J. Appl. Phys. (1994).');
    const many = { ...datasetTriplet().paper, authors: ['A', 'B', 'C', 'D'], journal: null, year: null };
    expect(citationText(many)).toBe('A, B, C, et al. Band gap of GaN.');
    expect(citationText({ ...many, authors: [], year: 2020 })).toBe('Band gap of GaN. (2020).');
  });
});
