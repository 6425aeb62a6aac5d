import 'fake-indexeddb/auto';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetTripletSchema } from '../../../src/contracts/dataset';
import {
  spreadsheetCell,
  toBibtex,
  toCslJson,
  csvChunk,
  toCsv,
  toJson,
  toJsonl,
  toWebAnnotations,
  CSV_COLUMNS,
} from '../../../src/export/dataset-export';
import { escapeBibtex, splitAuthorName } from '../../../src/export/citation-export';
import { parseAssayImport, readAssayImport } from '../../../src/export/dataset-import';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { countTriplets, saveTriplets } from '../../../src/store/dataset-repository';
import { bandGapRow, datasetRows, editedRow, noDoiRow, tcRangeRow } from './dataset-fixtures';

/** The records of a CSV export, read as pandas or a spreadsheet would (the byte-order mark is not part of the first column's name). */
const readCsv = (text: string) => parse(text, { columns: true, bom: true }) as Record<string, string>[];

describe('toCsv', () => {
  const records = readCsv(toCsv(datasetRows));

  it('has the fixed header and one record per row', () => {
    expect(toCsv([]).trimEnd()).toBe(`\uFEFF${CSV_COLUMNS.join(',')}`);
    expect(records).toHaveLength(4);
    expect(Object.keys(records[0]!)).toEqual([...CSV_COLUMNS]);
  });

  it('reads back the band gap row, quote with quotes, commas and a newline included', () => {
    expect(records[0]).toEqual({
      id: bandGapRow.id,
      material: 'TiO₂',
      property: 'band_gap',
      value: '3.2',
      value_low: '',
      value_high: '',
      uncertainty: '',
      unit: 'eV',
      display_value: '3.2',
      display_low: '',
      display_high: '',
      display_uncertainty: '',
      display_unit: 'eV',
      // One column per condition kind; the fixture's one free-text condition is `other`.
      method: '',
      temperature: '',
      pressure: '',
      field: '',
      strain: '',
      frequency: '',
      direction: '',
      phase: '',
      composition: '',
      environment: '',
      other_conditions: 'anatase, room temperature',
      provenance: '',
      status: 'verified',
      reasons: '',
      decision: 'accepted',
      original_value: '',
      doi: '10.1021/acs.jpcc.9b01234',
      title: 'Band gap of TiO₂ films: 50% Nb & Ta co-doping in {sol_gel} routes',
      authors: 'José García-Müller; Pierre-Gilles de Gennes; Wei Zhang',
      year: '2019',
      journal: 'J. Phys. Chem. C',
      volume: '',
      pages: '',
      url: 'https://pubs.acs.org/doi/10.1021/acs.jpcc.9b01234',
      quote: 'The optical band gap of anatase TiO₂ was "3.2 eV", measured by UV–vis,\nsee Fig. 2',
      page: '',
      block_id: 'b12',
      position_start: '1200',
      // 1200 + the quote's 81 UTF-16 units: 41 ("The … was ") + 9 ('"3.2 eV",') + 20 (" measured by UV–vis,") + 1 (newline) + 10 ("see Fig. 2").
      position_end: '1281',
      votes: 'moa;gd',
      models: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC;Llama-3.2-1B-Instruct-q4f16_1-MLC',
      run_id: 'run-tio2',
      saved_at: '2025-03-02T09:00:00.000Z',
      imported_from: '',
      imported_at: '',
    });
    expect(bandGapRow.evidence?.quote.exact.length).toBe(81);
  });

  it("writes the paper's authors, volume and pages, and reads them back from the CSV", () => {
    const tc = records.find((record) => record.id === tcRangeRow.id)!;
    expect(tc).toMatchObject({ authors: 'Wu, M. K.; Ashburn, J. R.; Chu, C. W.', volume: '58', pages: '908-910', page: '3' });
    const { rows, rejected } = readAssayImport(toCsv([bandGapRow, tcRangeRow]), new Date('2026-11-29T10:00:00.000Z'));
    expect(rejected).toEqual([]);
    const papers = rows.map(({ row }) => row.paper);
    expect(papers[0]).toMatchObject({ authors: ['José García-Müller', 'Pierre-Gilles de Gennes', 'Wei Zhang'] });
    expect(papers[0]).not.toHaveProperty('volume');
    expect(papers[1]).toMatchObject({ authors: ['Wu, M. K.', 'Ashburn, J. R.', 'Chu, C. W.'], volume: '58', pages: '908-910' });
  });

  it('writes ranges, uncertainty, the original answer and empty cells for what is missing', () => {
    const [, tc, edited, noDoi] = records;
    expect([
      tc!.value,
      tc!.value_low,
      tc!.value_high,
      tc!.display_low,
      tc!.display_high,
      tc!.display_unit,
      tc!.page,
      tc!.position_start,
    ]).toEqual(['', '92', '93', '92', '93', 'K', '3', '']);
    // A capacity: no built-in schema describes it, so no display value.
    expect([edited!.display_value, edited!.display_uncertainty, edited!.display_unit]).toEqual(['', '', '']);
    expect(tc!.doi).toBe('10.1103/PhysRevLett.58.908');
    expect([edited!.value, edited!.uncertainty, edited!.decision, edited!.original_value]).toEqual(['170', '5', 'edited', '160 mAh/g']);
    expect([noDoi!.doi, noDoi!.year, noDoi!.journal, noDoi!.quote, noDoi!.votes, noDoi!.run_id]).toEqual(['', '', '', '', '', '']);
  });

  it('writes the value in the display unit of its property at the printed precision, and no SI base value', () => {
    const rows = [
      { ...bandGapRow, value: { kind: 'number' as const, value: 40, uncertainty: 5 }, valueText: '40 ± 5', unit: 'meV' },
      {
        ...tcRangeRow,
        property: 'curie_temperature',
        value: { kind: 'range' as const, low: 120, high: 125.5 },
        valueText: '120–125.5',
        unit: '°C',
      },
    ];
    const [meV, celsius] = readCsv(toCsv(rows));
    expect(meV).toMatchObject({ value: '40', unit: 'meV', display_value: '0.040', display_uncertainty: '0.005', display_unit: 'eV' });
    expect(celsius).toMatchObject({ value_low: '120', display_low: '393', display_high: '398.7', display_unit: 'K' });
    expect(CSV_COLUMNS.some((column) => column.startsWith('si'))).toBe(false);
    expect(toCsv(rows)).not.toContain('kg m^2 s^-2');
    // A reader's property is described when the caller passes its schema.
    const capacity = new Map([['specific_capacity', { canonicalUnit: 'mAh/g', displayUnit: 'A h/kg' }]]);
    const [own] = readCsv(toCsv([{ ...editedRow, property: 'specific_capacity' }], capacity));
    expect(own).toMatchObject({ value: '170', display_value: '170', display_uncertainty: '5', display_unit: 'A h/kg' });
  });

  it('defuses text a spreadsheet would run as a formula, not negative numbers', () => {
    const [record] = readCsv(toCsv([{ ...noDoiRow, material: '=HYPERLINK("x")', value: { kind: 'number', value: -0.5 } }]));
    expect(record!.material).toBe(`'=HYPERLINK("x")`);
    expect(record!.value).toBe('-0.5');
  });

  it('defuses a leading "-" and every column an imported file sets: id, votes, models, run id, saved at', () => {
    const hostile = {
      ...noDoiRow,
      id: '=1+1',
      material: '-2+3+cmd|" /C calc"!A0',
      unit: '@SUM(A1)',
      votes: ['+moa', 'gd'],
      models: ['-model', 'x'],
      runId: '=HYPERLINK("https://evil.example")',
      savedAt: '\t=2+5',
      imported: { file: '=evil.jsonl', at: '-1+1', sourceId: 'x' },
      value: { kind: 'range' as const, low: -5, high: -3 },
      si: { value: { kind: 'range' as const, low: -5, high: -3 }, unit: 'K' },
    };
    const [record] = readCsv(toCsv([hostile]));
    expect(record).toMatchObject({
      id: "'=1+1",
      material: `'-2+3+cmd|" /C calc"!A0`,
      unit: "'@SUM(A1)",
      votes: "'+moa;gd",
      models: "'-model;x",
      run_id: `'=HYPERLINK("https://evil.example")`,
      saved_at: "'\t=2+5",
      imported_from: "'=evil.jsonl",
      imported_at: "'-1+1",
      // Numbers written as numbers stay numbers; a range of negatives in one cell is text.
      value_low: '-5',
      value_high: '-3',
      display_low: '',
      display_unit: '',
    });
  });

  it('starts with a UTF-8 byte-order mark, so spreadsheets read subscripts and Greek as UTF-8', () => {
    const bytes = Buffer.from(toCsv(datasetRows), 'utf8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8')).toContain('TiO₂');
  });

  it('leaves no cell a spreadsheet would run, and keeps every text whole behind the apostrophe (property)', () => {
    const trigger = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\0', '＝', '－', '');
    const text = fc.tuple(trigger, fc.string({ maxLength: 12 })).map(([first, rest]) => first + rest);
    const number = fc.double({ noNaN: true, noDefaultInfinity: true });
    const row = fc.record({
      id: text,
      material: text,
      property: text,
      unit: text,
      method: text,
      other: text,
      reference: text,
      doi: text,
      url: text,
      title: text,
      quote: text.filter((quote) => quote !== ''),
      blockId: text,
      votes: fc.array(text, { maxLength: 3 }),
      models: fc.array(text, { maxLength: 3 }),
      runId: text,
      savedAt: text,
      file: text,
      value: number,
      low: number,
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 5 }), (drawn) => {
        const rows = drawn.map((cells) => ({
          ...bandGapRow,
          id: cells.id,
          material: cells.material,
          property: cells.property,
          unit: cells.unit,
          conditions: [
            { kind: 'method' as const, value: cells.method },
            { kind: 'other' as const, value: cells.other },
          ].filter((condition) => condition.value !== ''),
          provenance: { kind: 'cited' as const, reference: cells.reference },
          paper: { ...bandGapRow.paper, doi: cells.doi, url: cells.url, title: cells.title },
          evidence: { ...bandGapRow.evidence!, quote: { ...bandGapRow.evidence!.quote, exact: cells.quote }, blockId: cells.blockId },
          votes: cells.votes,
          models: cells.models,
          runId: cells.runId,
          savedAt: cells.savedAt,
          imported: { file: cells.file, at: cells.savedAt, sourceId: cells.id },
          value: { kind: 'number' as const, value: cells.value },
          si: { value: { kind: 'range' as const, low: cells.low, high: cells.value }, unit: cells.unit },
        }));
        const text = toCsv(rows);
        expect(text.startsWith('\uFEFF')).toBe(true);
        const records = readCsv(text);
        expect(records).toHaveLength(rows.length);
        records.forEach((record, index) => {
          for (const cell of Object.values(record)) {
            if (/^[=+\-@\t\r\n\0＝＋－＠]/.test(cell)) expect(cell).toMatch(/^-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i);
          }
          const source = rows[index]!;
          const sources: Record<string, string> = {
            id: source.id,
            material: source.material,
            property: source.property,
            unit: source.unit,
            method: source.conditions.find((condition) => condition.kind === 'method')?.value ?? '',
            other_conditions: source.conditions.find((condition) => condition.kind === 'other')?.value ?? '',
            doi: source.paper.doi,
            url: source.paper.url,
            title: source.paper.title,
            quote: source.evidence.quote.exact,
            block_id: source.evidence.blockId,
            votes: source.votes.join(';'),
            models: source.models.join(';'),
            run_id: source.runId,
            saved_at: source.savedAt,
            imported_from: source.imported.file,
            value: String(source.value.value),
          };
          // "cited " never starts a formula; what follows it is kept whole.
          expect(record.provenance).toBe(source.provenance.reference === '' ? 'cited' : `cited ${source.provenance.reference}`);
          for (const [column, original] of Object.entries(sources)) {
            expect([original, `'${original}`]).toContain(record[column]);
            expect(record[column]).toBe(spreadsheetCell(original));
          }
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('csvChunk', () => {
  it('gives toCsv when its pieces are joined in order: the byte-order mark and header on the first piece only', () => {
    const rows = [...datasetRows, ...datasetRows.map((row) => ({ ...row, id: `${row.id}-copy` }))];
    const pieces = [csvChunk(rows.slice(0, 3), true), csvChunk(rows.slice(3, 5), false), csvChunk(rows.slice(5), false)];
    expect(pieces.join('')).toBe(toCsv(rows));
    expect(pieces[1]!.startsWith('\uFEFF')).toBe(false);
    expect(pieces[1]!.startsWith('id,')).toBe(false);
  });

  it('keeps spaces at either end of a cell, and a cell of quotes, commas and line breaks, as they were', () => {
    const title = '  "Spaced", title\r\nof two lines  ';
    const [record] = readCsv(toCsv([{ ...bandGapRow, paper: { ...bandGapRow.paper, title } }]));
    expect(record!.title).toBe(title);
    expect(toCsv([]).endsWith('\n')).toBe(true);
    expect(csvChunk([], false)).toBe('');
  });
});

describe('JSON and JSONL', () => {
  it('round-trip through parseAssayImport exactly', () => {
    expect(parseAssayImport(toJsonl(datasetRows))).toEqual({ rows: datasetRows, problems: [] });
    expect(parseAssayImport(toJson(datasetRows))).toEqual({ rows: datasetRows, problems: [] });
    expect(toJsonl(datasetRows).split('\n')).toHaveLength(5);
    expect(JSON.parse(toJson(datasetRows))).toEqual(datasetRows);
  });

  it('is byte-identical after export → import → export, whatever key order the rows were built in', () => {
    // The same rows with their keys in reverse order, as another code path might build them.
    const shuffled = datasetRows.map((row) => Object.fromEntries(Object.entries(row).reverse()) as typeof row);
    expect(JSON.stringify(shuffled[0])).not.toBe(JSON.stringify(datasetRows[0]));
    expect(toJsonl(shuffled)).toBe(toJsonl(datasetRows));
    expect(toJsonl(parseAssayImport(toJsonl(shuffled)).rows)).toBe(toJsonl(shuffled));
    expect(toJson(parseAssayImport(toJson(shuffled)).rows)).toBe(toJson(shuffled));
  });

  it('reports bad lines by number and keeps the good ones', () => {
    const { evidence: _evidence, ...noQuote } = tcRangeRow;
    const lines = [
      JSON.stringify(bandGapRow),
      '{"id": "broken"',
      JSON.stringify({ ...noQuote, status: 'maybe' }),
      '',
      JSON.stringify(editedRow),
    ].join('\r\n');
    const { rows, problems } = parseAssayImport(lines);
    expect(rows).toEqual([bandGapRow, editedRow]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^line 2: not JSON/);
    expect(problems[1]).toMatch(/^line 3: status: /);
  });

  it('reports bad rows of an array by index', () => {
    const { rows, problems } = parseAssayImport(JSON.stringify([bandGapRow, { ...tcRangeRow, material: '' }, 7]));
    expect(rows).toEqual([bandGapRow]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^row 2: material: /);
    expect(problems[1]).toMatch(/^row 3: /);
  });

  it('gives one problem for a file that is neither', () => {
    for (const text of ['', 'material,property\nTiO2,band_gap', '[1, 2', '{"not": "an array"']) {
      const result = parseAssayImport(text);
      expect(result.rows, text).toEqual([]);
      expect(result.problems, text).toHaveLength(1);
    }
  });

  it('recomputes the merge key and SI value a row claims from its own fields', () => {
    const claims = { ...bandGapRow, mergeKey: tcRangeRow.mergeKey, si: { value: { kind: 'number', value: 1 }, unit: 'K' } };
    expect(parseAssayImport(JSON.stringify(claims)).rows).toEqual([bandGapRow]);
  });

  it('refuses a row dated more than a day after the import, by line, and a savedAt that is not a time', () => {
    const now = new Date('2026-11-25T00:00:00.000Z');
    const text = [
      JSON.stringify({ ...bandGapRow, savedAt: '2026-11-25T20:00:00.000Z' }),
      JSON.stringify({ ...tcRangeRow, review: { decision: 'accepted', at: '2999-01-01T00:00:00.000Z' } }),
      JSON.stringify({ ...editedRow, savedAt: '=NOW()' }),
    ].join('\n');
    const { rows, rejected } = readAssayImport(text, now);
    expect(rows.map(({ where }) => where)).toEqual(['line 1']);
    expect(rejected).toEqual([
      { where: 'line 2', message: 'review.at: 2999-01-01T00:00:00.000Z is later than the time of this import (2026-11-25T00:00:00.000Z)' },
      { where: 'line 3', message: 'savedAt: must be an ISO 8601 date and time, such as 2025-03-02T09:00:00.000Z' },
    ]);
  });

  it('still exports a stored row that breaks a limit, and importing the file names its line and field', () => {
    const long = { ...tcRangeRow, paper: { ...tcRangeRow.paper, title: 'T'.repeat(2_001) } };
    const text = toJsonl([bandGapRow, long]);
    expect(text.split('\n')).toHaveLength(3);
    expect(parseAssayImport(text).problems).toEqual([
      'line 2: paper.title: a title is at most 2,000 characters (the longest real one measured is 189 characters); this one has 2,001',
    ]);
  });

  it('lists at most 50 problems and counts the rest', () => {
    const { problems } = parseAssayImport(Array.from({ length: 120 }, () => '{}').join('\n'));
    expect(problems).toHaveLength(51);
    expect(problems[50]).toBe('… and 70 more problems.');
  });

  it('never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.array(fc.json()).map((items) => items.join('\n')),
        ),
        (text) => {
          const result = parseAssayImport(text);
          return result.rows.every((row) => DatasetTripletSchema.safeParse(row).success);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('import then save', () => {
  let database: AssayDatabase;
  let count = 0;
  beforeEach(() => {
    count += 1;
    database = createAssayDatabase(`assay-export-test-${count}`);
  });
  afterEach(async () => {
    await database.delete();
  });

  it('merges a second import of the same file instead of doubling', async () => {
    const { rows } = parseAssayImport(toJsonl(datasetRows));
    expect(await saveTriplets(database, rows)).toEqual({ added: 4, merged: 0 });
    expect(await saveTriplets(database, parseAssayImport(toJson(datasetRows)).rows)).toEqual({ added: 0, merged: 4 });
    expect(await countTriplets(database)).toBe(4);
    expect(await database.triplets.get(editedRow.id)).toEqual(editedRow);
  });
});

describe("the verdict's reasons (issue 27)", () => {
  const doubted = {
    ...bandGapRow,
    status: 'needs_review' as const,
    reasons: ['not grounded: value 99 not in the quote', 'cited [19]: a value the paper quotes from elsewhere; see "Table 2", p. 3'],
  };

  it('are kept by the JSON and JSONL exports', () => {
    expect(parseAssayImport(toJsonl([doubted])).rows[0]?.reasons).toEqual(doubted.reasons);
    expect(parseAssayImport(toJson([doubted])).rows[0]?.reasons).toEqual(doubted.reasons);
  });

  it('are one per line of the CSV cell beside the status, and read back by the CSV import', () => {
    const [record] = readCsv(toCsv([doubted]));
    expect(record).toMatchObject({ status: 'needs_review', reasons: doubted.reasons.join('\n') });
    expect(CSV_COLUMNS.indexOf('reasons')).toBe(CSV_COLUMNS.indexOf('status') + 1);
    expect(readAssayImport(toCsv([doubted])).rows[0]?.row.reasons).toEqual(expect.arrayContaining(doubted.reasons));
  });

  it('are stated beside the status in the Web Annotation', () => {
    const [item] = JSON.parse(toWebAnnotations([doubted])).first.items;
    expect(item.body.value).toContain(`Status: needs_review (${doubted.reasons.join('; ')}); review: accepted.`);
  });
});

describe('toWebAnnotations', () => {
  const collection = JSON.parse(toWebAnnotations(datasetRows));
  const items = collection.first.items;

  it('is an AnnotationCollection with one describing annotation per row', () => {
    expect(collection['@context']).toBe('http://www.w3.org/ns/anno.jsonld');
    expect(collection.type).toBe('AnnotationCollection');
    expect(collection.total).toBe(4);
    expect(collection.first.type).toBe('AnnotationPage');
    expect(items).toHaveLength(4);
    expect(
      items.every((item: { type: string; motivation: string }) => item.type === 'Annotation' && item.motivation === 'describing'),
    ).toBe(true);
  });

  it('targets the DOI with quote and position selectors and describes the triplet', () => {
    expect(items[0]).toEqual({
      id: `urn:uuid:${bandGapRow.id}`,
      type: 'Annotation',
      motivation: 'describing',
      created: '2025-03-02T09:00:00.000Z',
      creator: [
        { type: 'Software', name: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' },
        { type: 'Software', name: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' },
      ],
      generator: { type: 'Software', name: 'Assay' },
      body: {
        type: 'TextualBody',
        value: 'TiO₂ — band gap: 3.2 eV (anatase, room temperature). Status: verified; review: accepted.',
        format: 'text/plain',
        language: 'en',
        purpose: 'describing',
      },
      target: {
        source: 'https://doi.org/10.1021/acs.jpcc.9b01234',
        selector: [bandGapRow.evidence!.quote, bandGapRow.evidence!.position],
      },
    });
  });

  it('states a value beside its display-unit conversion when the unit printed is another', () => {
    const meV = { ...bandGapRow, value: { kind: 'number' as const, value: 40 }, valueText: '40', unit: 'meV' };
    const [annotation] = JSON.parse(toWebAnnotations([meV])).first.items;
    expect(annotation.body.value).toBe(
      'TiO₂ — band gap: 40 meV = 0.040 eV (anatase, room temperature). Status: verified; review: accepted.',
    );
  });

  it('falls back to the page URL and leaves out selectors without evidence', () => {
    expect(items[1].target.selector).toEqual([tcRangeRow.evidence!.quote]);
    expect(items[3].target).toEqual({ source: 'https://example.org/notes/lfp-cathodes' });
    const noSource = JSON.parse(toWebAnnotations([{ ...noDoiRow, paper: { ...noDoiRow.paper, url: null, key: 'title:notes on lfp' } }]));
    expect(noSource.first.items[0].target.source).toBe('urn:assay:paper:title%3Anotes%20on%20lfp');
  });
});

describe('citations', () => {
  it('splits author names naively but sensibly', () => {
    expect(splitAuthorName('José García-Müller')).toEqual({ family: 'García-Müller', given: 'José' });
    expect(splitAuthorName('Pierre-Gilles de Gennes')).toEqual({ family: 'de Gennes', given: 'Pierre-Gilles' });
    expect(splitAuthorName('Wu, M. K.')).toEqual({ family: 'Wu', given: 'M. K.' });
    expect(splitAuthorName('Martin Luther King Jr.')).toEqual({ family: 'King', given: 'Martin Luther', suffix: 'Jr.' });
    expect(splitAuthorName('Plato')).toEqual({ literal: 'Plato' });
  });

  it('writes one CSL-JSON item per distinct paper', () => {
    const items = JSON.parse(toCslJson(datasetRows));
    // Four rows, three papers (band gap and edited share TIO2_PAPER).
    expect(items).toHaveLength(3);
    expect(items[0]).toEqual({
      id: 'garciamuller2019band',
      type: 'article-journal',
      title: 'Band gap of TiO₂ films: 50% Nb & Ta co-doping in {sol_gel} routes',
      author: [
        { family: 'García-Müller', given: 'José' },
        { family: 'de Gennes', given: 'Pierre-Gilles' },
        { family: 'Zhang', given: 'Wei' },
      ],
      'container-title': 'J. Phys. Chem. C',
      issued: { 'date-parts': [[2019]] },
      DOI: '10.1021/acs.jpcc.9b01234',
      URL: 'https://pubs.acs.org/doi/10.1021/acs.jpcc.9b01234',
    });
    expect(items[1].id).toBe('wu1987superconductivity');
    expect(items[1].author[0]).toEqual({ family: 'Wu', given: 'M. K.' });
    expect(items[1]).toMatchObject({ volume: '58', page: '908-910' });
    expect(items[0]).not.toHaveProperty('volume');
    // No authors, year or journal: "anon" + first title word past the stopwords.
    expect(items[2]).toEqual({
      id: 'anonnotes',
      type: 'article-journal',
      title: 'Notes on LiFePO4 cathodes',
      URL: 'https://example.org/notes/lfp-cathodes',
    });
  });

  it('escapes TeX specials and non-ASCII letters', () => {
    expect(escapeBibtex('{}&%_$#')).toBe('\\{\\}\\&\\%\\_\\$\\#');
    expect(escapeBibtex('a\\b~c^d')).toBe('a\\textbackslash{}b\\textasciitilde{}c\\textasciicircum{}d');
    expect(escapeBibtex('José Müller, Çelik, Łukasz, Straße, ì')).toBe(
      'Jos{\\\'e} M{\\"u}ller, {\\c{C}}elik, {\\L}ukasz, Stra{\\ss}e, {\\`\\i}',
    );
    expect(escapeBibtex('TiO₂ α–β Δ µ')).toBe('TiO\\textsubscript{2} $\\alpha$--$\\beta$ $\\Delta$ $\\mu$');
    expect(escapeBibtex('日本')).toBe('日本');
  });

  it('writes @article entries with escaped fields and protected formulas', () => {
    const bibtex = toBibtex([bandGapRow, editedRow, tcRangeRow, noDoiRow, { ...noDoiRow, paper: { ...noDoiRow.paper, key: 'url:other' } }]);
    const entries = bibtex.split(/\n(?=@)/);
    expect(entries).toHaveLength(4);
    expect(entries[0]).toBe(
      [
        '@article{garciamuller2019band,',
        "  author = {Garc{\\'\\i}a-M{\\\"u}ller, Jos{\\'e} and de Gennes, Pierre-Gilles and Zhang, Wei},",
        '  title = {Band gap of {TiO\\textsubscript{2}} films: 50\\% Nb \\& Ta co-doping in \\{sol\\_gel\\} routes},',
        '  journal = {J. Phys. Chem. C},',
        '  year = {2019},',
        '  doi = {10.1021/acs.jpcc.9b01234},',
        '  url = {https://pubs.acs.org/doi/10.1021/acs.jpcc.9b01234},',
        '}',
        '',
      ].join('\n'),
    );
    // Volume and pages when the paper has them, the range with BibTeX's en dash "--".
    expect(entries[1]).toContain('  journal = {Physical Review Letters},\n  volume = {58},\n  pages = {908--910},\n  year = {1987},');
    // Same key twice gets a suffix.
    expect(entries[2]).toMatch(/^@article\{anonnotes,/);
    expect(entries[3]).toMatch(/^@article\{anonnotesa,/);
  });
});
