import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ZodError } from 'zod';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import type { MatrixRunSettings } from '../../../src/contracts/matrix-run';
import type { VerificationRecord } from '../../../src/contracts/verification';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import {
  countTriplets,
  caseSpellings,
  eachTripletChunk,
  datasetProperties,
  deleteTriplets,
  queryTriplets,
  restoreTriplets,
  saveTriplets,
  updateTripletReview,
} from '../../../src/store/dataset-repository';
import { toJsonl } from '../../../src/export/dataset-export';
import { parseAssayImport } from '../../../src/export/dataset-import';
import { mergeTriplets, mergeKeyOf } from '../../../src/store/dataset-triplet';
import { toPaperRecord } from '../../../src/store/paper-record';
import { getPaper } from '../../../src/store/paper-repository';
import { createRun, finishRun, getRun, markRunSaved, recordReview } from '../../../src/store/run-repository';
import { bandGapRow, datasetRows, editedRow, noDoiRow, tcRangeRow, TIO2_PAPER } from '../export/dataset-fixtures';
import { makeArticle } from './article-fixture';
import { applyEdit, toDatasetTriplet } from '../../../src/store/dataset-rows';

let database: AssayDatabase;
let databaseCount = 0;

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-dataset-test-${databaseCount}`);
});

afterEach(async () => {
  await database.delete();
});

const NOW = new Date('2025-03-05T12:00:00.000Z');

function bandGapRecord(material = 'TiO2', value = 3.2): VerificationRecord {
  return {
    status: 'verified',
    triplet: {
      material,
      property: 'band_gap',
      value: { kind: 'number', value },
      valueText: String(value),
      unit: 'eV',
      engine: 'moa',
      evidence: { quote: { type: 'TextQuoteSelector', exact: `band gap of ${value} eV`, prefix: '', suffix: '' } },
    },
    votes: ['moa', 'gd'],
    reasons: [],
  };
}

describe('mergeKeyOf', () => {
  it('joins DOI, Hill-order formula, property, the SI value to 6 significant figures and the conditions', () => {
    // 3.2 eV = 5.1269652288e-19 J → 6 s.f. 5.12697e-19; "TiO₂" → Hill order "O2Ti".
    // Its one condition ends the key (`conditionsKey`: kind=value, lower-cased).
    expect(bandGapRow.mergeKey).toBe('doi:10.1021/acs.jpcc.9b01234|O2Ti|band_gap|5.12697e-19 kg m^2 s^-2|other=anatase, room temperature');
    // The DOI is lower-cased: "10.1103/PhysRevLett.58.908".
    expect(tcRangeRow.mergeKey).toBe('doi:10.1103/physrevlett.58.908|Ba2Cu3O7Y|tc|92–93 K');
    expect(noDoiRow.mergeKey).toBe(
      'url:https://example.org/notes/lfp-cathodes|FeLiO4P|voltage|3.45 kg m^2 s^-3 A^-1|other=vs. li/li+, c/10',
    );
  });

  it('agrees for TiO2, TiO₂ and O2Ti, and for 1.5 eV and 1500 meV', () => {
    const base = { paper: TIO2_PAPER, property: 'band_gap', value: { kind: 'number' as const, value: 1.5 }, unit: 'eV', si: null };
    const keys = ['TiO2', 'TiO₂', 'O2Ti'].map((material) => mergeKeyOf({ ...base, material }));
    expect(new Set(keys).size).toBe(1);
    const inEv = toDatasetTriplet(bandGapRecord('TiO2', 1.5), { paper: TIO2_PAPER, models: [], id: 'a', now: NOW });
    const record = bandGapRecord('TiO2', 1500);
    record.triplet.unit = 'meV';
    const inMeV = toDatasetTriplet(record, { paper: TIO2_PAPER, models: [], id: 'b', now: NOW });
    // 1.5 eV = 2.4032649509999997e-19 J → 2.40326e-19 either way.
    expect(inMeV.mergeKey).toBe(inEv.mergeKey);
    expect(inEv.mergeKey).toBe('doi:10.1021/acs.jpcc.9b01234|O2Ti|band_gap|2.40326e-19 kg m^2 s^-2');
  });

  it('falls back to the lower-cased name and the value as reported when there is no formula or SI unit', () => {
    const key = mergeKeyOf({
      paper: { ...TIO2_PAPER, doi: null },
      material: '  Reduced  Graphene Oxide ',
      property: 'absorbance',
      value: { kind: 'number', value: 0.1234567 },
      unit: 'a.u.',
      si: null,
    });
    // No DOI → paper key; 0.1234567 → 6 s.f. 0.123457.
    expect(key).toBe('doi:10.1021/acs.jpcc.9b01234|reduced graphene oxide|absorbance|0.123457 a.u.');
  });
});

describe('toDatasetTriplet', () => {
  it('builds a pending row with SI value, votes, models and provenance', () => {
    const row = toDatasetTriplet(bandGapRecord(), { paper: TIO2_PAPER, models: ['m1', 'm2'], runId: 'run-1', id: 'id-1', now: NOW });
    expect(row).toEqual({
      id: 'id-1',
      mergeKey: 'doi:10.1021/acs.jpcc.9b01234|O2Ti|band_gap|5.12697e-19 kg m^2 s^-2',
      paper: TIO2_PAPER,
      material: 'TiO2',
      property: 'band_gap',
      value: { kind: 'number', value: 3.2 },
      valueText: '3.2',
      unit: 'eV',
      si: { value: { kind: 'number', value: 5.1269652288e-19 }, unit: 'kg m^2 s^-2' },
      evidence: { quote: { type: 'TextQuoteSelector', exact: 'band gap of 3.2 eV', prefix: '', suffix: '' } },
      status: 'verified',
      review: { decision: 'pending' },
      votes: ['moa', 'gd'],
      models: ['m1', 'm2'],
      runId: 'run-1',
      savedAt: '2025-03-05T12:00:00.000Z',
    });
  });
});

describe('Chain-of-Verification answers in the dataset', () => {
  const answers = [
    { questionId: 'phase', question: 'Which phase?', answer: 'anatase', quote: 'anatase TiO2' },
    { questionId: 'property_match', question: 'Is it the band gap?', answer: 'yes', quote: 'band gap', expected: ['yes'], contrary: false },
  ];

  it('are carried from the verdict into its row, and exported and imported with it in JSONL', () => {
    const row = toDatasetTriplet(
      { ...bandGapRecord(), verificationAnswers: answers },
      { paper: TIO2_PAPER, models: [], id: 'id-1', now: NOW },
    );
    expect(row.verificationAnswers).toEqual(answers);
    const line = toJsonl([row]);
    expect(JSON.parse(line).verificationAnswers).toEqual(answers);
    expect(parseAssayImport(line).rows).toEqual([row]);
    // A verdict stored before Chain-of-Verification has none, and its row neither.
    expect('verificationAnswers' in toDatasetTriplet(bandGapRecord(), { paper: TIO2_PAPER, models: [], id: 'id-2', now: NOW })).toBe(false);
  });

  it('follow the evidence they are about when a row is saved again', () => {
    const first = toDatasetTriplet(
      { ...bandGapRecord(), verificationAnswers: answers },
      { paper: TIO2_PAPER, models: [], id: 'a', now: NOW },
    );
    const again = toDatasetTriplet(bandGapRecord(), { paper: TIO2_PAPER, models: [], id: 'b', now: NOW });
    const { evidence: _evidence, ...withoutEvidence } = again;
    expect(mergeTriplets(first, withoutEvidence).verificationAnswers).toEqual(answers);
    expect(mergeTriplets(first, again).verificationAnswers).toBeUndefined();
  });
});

describe('applyEdit', () => {
  it('keeps the model answer the first time only, marks the row edited and recomputes si and mergeKey', () => {
    const row = toDatasetTriplet(bandGapRecord(), { paper: TIO2_PAPER, models: [], id: 'id-1', now: NOW });
    const first = applyEdit(row, { valueText: ' ~3.0 ' }, new Date('2025-03-06T00:00:00.000Z'));
    expect(first.value).toEqual({ kind: 'number', value: 3, approximate: true });
    expect(first.valueText).toBe('~3.0');
    // 3.0 eV = 4.806529902e-19 J → 4.80653e-19.
    expect(first.si?.value).toEqual({ kind: 'number', value: 3 * 1.602176634e-19 });
    expect(first.mergeKey).toBe('doi:10.1021/acs.jpcc.9b01234|O2Ti|band_gap|4.80653e-19 kg m^2 s^-2');
    expect(first.review).toEqual({
      decision: 'edited',
      at: '2025-03-06T00:00:00.000Z',
      original: { material: 'TiO2', value: { kind: 'number', value: 3.2 }, valueText: '3.2', unit: 'eV' },
    });
    const second = applyEdit(first, { material: 'anatase TiO2', valueText: '1.2–1.5', unit: 'meV' }, new Date('2025-03-07T00:00:00.000Z'));
    expect(second.review.original).toEqual(first.review.original);
    expect(second.material).toBe('anatase TiO2');
    expect(second.value).toEqual({ kind: 'range', low: 1.2, high: 1.5 });
    // 1.2 meV = 1.9226119608e-22 J → 1.92261e-22; 1.5 meV → 2.40326e-22.
    expect(second.mergeKey).toBe('doi:10.1021/acs.jpcc.9b01234|O2Ti|band_gap|1.92261e-22–2.40326e-22 kg m^2 s^-2');
    expect(row.review).toEqual({ decision: 'pending' });
  });

  it('reads ± and digit uncertainty, and drops si for a unit that does not convert', () => {
    const edited = applyEdit(noDoiRow, { valueText: '3.41(2)', unit: 'a.u.' }, NOW);
    expect(edited.value).toEqual({ kind: 'number', value: 3.41, uncertainty: 0.02 });
    expect(edited.si).toBeNull();
    expect(applyEdit(noDoiRow, { valueText: '3.4 ± 0.1' }, NOW).value).toEqual({ kind: 'number', value: 3.4, uncertainty: 0.1 });
  });

  it('throws a message for the reader on text that is not one value', () => {
    for (const text of ['', 'abc', '<1.5', '3.4 eV', '1, 2 and 3']) {
      expect(() => applyEdit(noDoiRow, { valueText: text }, NOW), text).toThrow(/value/);
    }
    expect(() => applyEdit(noDoiRow, { material: ' ' }, NOW)).toThrow('Enter the material');
  });
});

describe('saveTriplets', () => {
  it('adds new rows and merges a second save of the same facts instead of doubling', async () => {
    expect(await saveTriplets(database, datasetRows)).toEqual({ added: 4, merged: 0 });
    const again = datasetRows.map((row, index) => ({ ...row, id: `other-${index}`, savedAt: '2026-01-01T00:00:00.000Z' }));
    expect(await saveTriplets(database, again)).toEqual({ added: 0, merged: 4 });
    expect(await countTriplets(database)).toBe(4);
    expect((await database.triplets.get(bandGapRow.id))?.savedAt).toBe(bandGapRow.savedAt);
    expect(await database.triplets.get('other-0')).toBeUndefined();
  });

  it('unions votes and models, lets a review win over pending, keeps evidence the new row lacks', async () => {
    await saveTriplets(database, [tcRangeRow]);
    const { evidence: _evidence, ...withoutEvidence } = tcRangeRow;
    const incoming: DatasetTriplet = {
      ...withoutEvidence,
      id: 'new-id',
      status: 'verified',
      review: { decision: 'accepted', at: '2025-04-01T00:00:00.000Z' },
      votes: ['gd', 'moa'],
      models: ['Llama-3.2-1B-Instruct-q4f16_1-MLC'],
      runId: 'run-2',
      savedAt: '2025-04-01T00:00:00.000Z',
    };
    expect(await saveTriplets(database, [incoming])).toEqual({ added: 0, merged: 1 });
    expect(await database.triplets.get(tcRangeRow.id)).toEqual({
      ...tcRangeRow,
      status: 'verified',
      review: { decision: 'accepted', at: '2025-04-01T00:00:00.000Z' },
      votes: ['moa', 'gd'],
      models: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC', 'Llama-3.2-1B-Instruct-q4f16_1-MLC'],
      runId: 'run-2',
    });
    // A later pending save does not undo the reader's decision.
    await saveTriplets(database, [{ ...tcRangeRow, id: 'third' }]);
    expect((await database.triplets.get(tcRangeRow.id))?.review.decision).toBe('accepted');
  });

  it('merges rows of one call that share a key, and an older copy of an edited row by id', async () => {
    const twin = { ...bandGapRow, id: 'twin', votes: ['proposers'] };
    expect(await saveTriplets(database, [bandGapRow, twin])).toEqual({ added: 1, merged: 1 });
    expect((await database.triplets.get(bandGapRow.id))?.votes).toEqual(['moa', 'gd', 'proposers']);

    const edited = applyEdit(bandGapRow, { valueText: '3.0' }, NOW);
    await database.triplets.put(edited);
    // Importing the old export of that row again: same id, old key → merges into the edit.
    expect(await saveTriplets(database, [bandGapRow])).toEqual({ added: 0, merged: 1 });
    const stored = await database.triplets.get(bandGapRow.id);
    expect(stored?.value).toEqual({ kind: 'number', value: 3 });
    expect(stored?.mergeKey).toBe(edited.mergeKey);
    expect(await countTriplets(database)).toBe(1);
  });

  it('keeps an imported row’s import note when a run saves the same fact into it', async () => {
    const imported = { ...tcRangeRow, imported: { file: 'colleague.jsonl', at: '2026-11-25T10:00:00.000Z', sourceId: 'x' } };
    await saveTriplets(database, [imported]);
    const fromRun = { ...tcRangeRow, id: 'run-2:0', review: { decision: 'accepted' as const, at: '2026-11-26T00:00:00.000Z' } };
    expect(await saveTriplets(database, [fromRun])).toEqual({ added: 0, merged: 1 });
    expect((await database.triplets.get(tcRangeRow.id))?.imported).toEqual(imported.imported);
  });

  it('writes chunkSize rows per transaction and reports progress after each', async () => {
    const rows = [...datasetRows, { ...bandGapRow, id: 'dup', votes: ['x'] }];
    const transaction = vi.spyOn(database, 'transaction');
    const progress: [number, number][] = [];
    // 5 rows in chunks of 2 → 3 transactions (2 + 2 + 1); the fifth merges into the first.
    const counts = await saveTriplets(database, rows, { chunkSize: 2, onProgress: (done, total) => progress.push([done, total]) });
    expect(counts).toEqual({ added: 4, merged: 1 });
    expect(progress).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
    expect(transaction).toHaveBeenCalledTimes(3);
    await expect(saveTriplets(database, rows, { chunkSize: 0 })).rejects.toThrow(RangeError);
  });
});

describe('queryTriplets', () => {
  beforeEach(async () => {
    await saveTriplets(database, datasetRows);
  });

  it('returns everything newest first, paged, with the total', async () => {
    // savedAt: edited 03-04, tc 03-03, band gap 03-02, no DOI 03-01.
    expect(ids((await queryTriplets(database, {})).rows)).toEqual(['3', '2', '1', '4']);
    const page = await queryTriplets(database, {}, { offset: 1, limit: 2 });
    expect(ids(page.rows)).toEqual(['2', '1']);
    expect(page.total).toBe(4);
  });

  it('filters by material prefix (any case), property, status, decision, paper and search', async () => {
    expect(ids((await queryTriplets(database, { material: 'lifep' })).rows)).toEqual(['3', '4']);
    expect(ids((await queryTriplets(database, { material: 'TI' })).rows)).toEqual(['1']);
    expect(ids((await queryTriplets(database, { material: 'lifep', property: 'voltage' })).rows)).toEqual(['4']);
    expect(ids((await queryTriplets(database, { property: 'tc' })).rows)).toEqual(['2']);
    expect(ids((await queryTriplets(database, { status: 'needs_review' })).rows)).toEqual(['2', '4']);
    expect(ids((await queryTriplets(database, { decision: 'pending' })).rows)).toEqual(['2', '4']);
    expect(ids((await queryTriplets(database, { paperKey: TIO2_PAPER.key })).rows)).toEqual(['3', '1']);
    // Search: quote ("uv–vis"), DOI ("physrevlett", stored as PhysRevLett), title ("notes on").
    expect(ids((await queryTriplets(database, { search: 'UV–VIS' })).rows)).toEqual(['1']);
    expect(ids((await queryTriplets(database, { search: 'physrevlett' })).rows)).toEqual(['2']);
    expect(ids((await queryTriplets(database, { search: 'notes on' })).rows)).toEqual(['4']);
    const paged = await queryTriplets(database, { material: 'LiFePO4' }, { offset: 1, limit: 5 });
    expect(ids(paged.rows)).toEqual(['4']);
    expect(paged.total).toBe(2);
  });

  it('answers a material prefix from the index on many rows', async () => {
    const many: DatasetTriplet[] = Array.from({ length: 20_000 }, (_, index) => ({
      ...noDoiRow,
      id: `bulk-${index}`,
      material: index % 1000 === 0 ? `ZnO-${index}` : `Material${index}`,
      mergeKey: `bulk|${index}`,
      savedAt: new Date(Date.UTC(2024, 0, 1) + index * 1000).toISOString(),
    }));
    await database.triplets.bulkAdd(many);
    // A full scan would walk the savedAt order (`orderBy`); the material index must be used instead.
    const orderBy = vi.spyOn(database.triplets, 'orderBy');
    const started = performance.now();
    const result = await queryTriplets(database, { material: 'zno' }, { offset: 0, limit: 10 });
    const elapsed = performance.now() - started;
    // Every 1000th of 20 000 rows: 20 matches, newest (index 19 000) first.
    expect(result.total).toBe(20);
    expect(result.rows[0]?.material).toBe('ZnO-19000');
    expect(orderBy).not.toHaveBeenCalled();
    expect(elapsed).toBeLessThan(2000);
  }, 60_000);
});

describe('queryTriplets on the version-7 indexes', () => {
  /** 3 000 rows over 3 properties and 2 statuses, one second apart, material "Mat<i>", "TIO2" every 100th. */
  const many = (): DatasetTriplet[] =>
    Array.from({ length: 3000 }, (_, index) => ({
      ...noDoiRow,
      id: `row-${String(index).padStart(5, '0')}`,
      material: index % 100 === 0 ? 'TIO2' : `Mat${index}`,
      property: ['band_gap', 'tc', 'density'][index % 3]!,
      status: index % 2 === 0 ? 'verified' : 'needs_review',
      mergeKey: `many|${index}`,
      savedAt: new Date(Date.UTC(2024, 0, 1) + index * 1000).toISOString(),
    }));

  const fullIds = (rows: DatasetTriplet[]) => rows.map((row) => row.id);

  it('pages a property or a status straight from its compound index, newest first, with the count', async () => {
    await database.triplets.bulkAdd(many());
    const where = vi.spyOn(database.triplets, 'where');
    const tc = await queryTriplets(database, { property: 'tc' }, { offset: 10, limit: 3 });
    expect(where).toHaveBeenCalledWith('[property+savedAt]');
    expect(tc.total).toBe(1000);
    // tc rows are indexes 1, 4, 7, …, 2998; newest first, skip 10: 2968, 2965, 2962.
    expect(fullIds(tc.rows)).toEqual(['row-02968', 'row-02965', 'row-02962']);
    const review = await queryTriplets(database, { status: 'needs_review' }, { offset: 0, limit: 2 });
    expect(where).toHaveBeenCalledWith('[status+savedAt]');
    expect([review.total, ...fullIds(review.rows)]).toEqual([1500, 'row-02999', 'row-02997']);
    // Property and status together: the property's range, tested for the status as it walks.
    const both = await queryTriplets(database, { property: 'tc', status: 'verified' }, { offset: 0, limit: 2 });
    expect([both.total, ...fullIds(both.rows)]).toEqual([500, 'row-02998', 'row-02992']);
  });

  it('answers a material prefix in any case from the keys, and with another filter from the rows it names', async () => {
    await database.triplets.bulkAdd(many());
    const page = await queryTriplets(database, { material: 'tio' }, { offset: 1, limit: 2 });
    expect([page.total, ...fullIds(page.rows)]).toEqual([30, 'row-02800', 'row-02700']);
    const tc = await queryTriplets(database, { material: 'TiO2', property: 'tc' });
    // Every 100th row is TIO2; of those, the tc ones are index ≡ 1 (mod 3): 100, 400, …, 2800.
    expect(fullIds(tc.rows)).toEqual([
      'row-02800',
      'row-02500',
      'row-02200',
      'row-01900',
      'row-01600',
      'row-01300',
      'row-01000',
      'row-00700',
      'row-00400',
      'row-00100',
    ]);
  });

  it('reads every matching row newest first in chunks, as queryTriplets orders them, with or without a filter', async () => {
    await database.triplets.bulkAdd(many());
    for (const query of [{}, { property: 'tc' }, { material: 'tio' }]) {
      const chunks: string[][] = [];
      const count = await eachTripletChunk(database, query, (rows) => void chunks.push(fullIds(rows)), 700);
      const all = fullIds((await queryTriplets(database, query)).rows);
      expect(chunks.flat()).toEqual(all);
      expect(count).toBe(all.length);
      expect(
        chunks.every((chunk, index) => chunk.length === (index < chunks.length - 1 ? 700 : all.length - 700 * (chunks.length - 1))),
      ).toBe(true);
    }
  });

  it('lists the properties by skipping from one to the next in the index', async () => {
    await database.triplets.bulkAdd(many());
    expect(await datasetProperties(database)).toEqual(['band_gap', 'density', 'tc']);
  });

  it('spells a prefix in every case, letter by letter, up to eight letters', () => {
    expect(caseSpellings('ti')).toEqual(['ti', 'tI', 'Ti', 'TI']);
    expect(caseSpellings('2-b')).toEqual(['2-b', '2-B']);
    expect(caseSpellings('straße')).toHaveLength(2 ** 5);
    expect(caseSpellings('abcdefghij')).toHaveLength(2 ** 8);
    expect(caseSpellings('abcdefghij').every((spelling) => spelling.endsWith('ij'))).toBe(true);
  });

  it('keeps the rows of a version-6 database and finds them through the new indexes', async () => {
    const name = `assay-v6-upgrade-${Math.random()}`;
    const old = new Dexie(name);
    old.version(3).stores({
      papers: 'key, capturedAt, doi',
      runs: 'id, [paperKey+startedAt], status',
      triplets: 'id, &mergeKey, paper.key, material, property, status, savedAt',
    });
    old.version(6).stores({
      papers: 'key, capturedAt, doi, url',
      referenceTables: 'id, importedAt',
      precedents: 'key',
      paperVersions: '++id, [paperKey+capturedAt]',
    });
    await old.open();
    await old.table('triplets').bulkAdd(datasetRows);
    old.close();
    const upgraded = createAssayDatabase(name);
    try {
      // Upgraded through v7 (indexes) and v8 (structured conditions).
      expect(upgraded.verno).toBe(8);
      expect(ids((await queryTriplets(upgraded, { material: 'lifep' })).rows)).toEqual(['3', '4']);
      expect(ids((await queryTriplets(upgraded, { property: 'tc' })).rows)).toEqual(['2']);
      expect(ids((await queryTriplets(upgraded, { status: 'needs_review' })).rows)).toEqual(['2', '4']);
      expect(await upgraded.importJobs.count()).toBe(0);
    } finally {
      await upgraded.delete();
    }
  });
});

describe('delete, restore, review, properties', () => {
  beforeEach(async () => {
    await saveTriplets(database, datasetRows);
  });

  it('deletes rows and restores them unchanged', async () => {
    const deleted = await deleteTriplets(database, [tcRangeRow.id, 'missing', editedRow.id]);
    expect(deleted).toEqual([tcRangeRow, editedRow]);
    expect(await countTriplets(database)).toBe(2);
    await restoreTriplets(database, deleted);
    expect(await countTriplets(database)).toBe(4);
    expect(await database.triplets.get(editedRow.id)).toEqual(editedRow);
  });

  it('updates a review and says false for a missing row', async () => {
    const review = { decision: 'rejected' as const, at: '2025-03-09T00:00:00.000Z' };
    expect(await updateTripletReview(database, tcRangeRow.id, review)).toBe(true);
    expect((await database.triplets.get(tcRangeRow.id))?.review).toEqual(review);
    expect(await updateTripletReview(database, 'missing', review)).toBe(false);
    await expect(updateTripletReview(database, tcRangeRow.id, { decision: 'maybe' } as never)).rejects.toThrow(ZodError);
    expect((await database.triplets.get(tcRangeRow.id))?.review).toEqual(review);
  });

  it('lists distinct properties from the index', async () => {
    expect(await datasetProperties(database)).toEqual(['band_gap', 'specific_capacity', 'tc', 'voltage']);
  });
});

describe('run reviews', () => {
  const settings: MatrixRunSettings = {
    paperKey: TIO2_PAPER.key,
    properties: ['band_gap'],
    preset: 'browser',
    engine: { kind: 'webllm' },
    seed: 1,
  };

  it('records a review on a finished run, rejects bad indexes and invalid reviews, marks the run saved', async () => {
    await createRun(database, settings, { id: 'run-1', now: NOW });
    await finishRun(database, 'run-1', { status: 'done', records: [bandGapRecord(), bandGapRecord('ZnO')] }, NOW);
    const review = { decision: 'edited' as const, edit: { valueText: '3.0' }, at: '2025-03-05T12:01:00.000Z' };
    expect(await recordReview(database, 'run-1', 1, review)).toBe(true);
    expect(await recordReview(database, 'run-1', 0, { decision: 'accepted', at: '2025-03-05T12:02:00.000Z' })).toBe(true);
    expect(await recordReview(database, 'run-1', 2, review)).toBe(false);
    expect(await recordReview(database, 'run-1', -1, review)).toBe(false);
    expect(await recordReview(database, 'missing', 0, review)).toBe(false);
    await expect(recordReview(database, 'run-1', 0, { decision: 'maybe', at: 'x' } as never)).rejects.toThrow(ZodError);
    const row = await getRun(database, 'run-1');
    expect(row?.reviews).toEqual({ 0: { decision: 'accepted', at: '2025-03-05T12:02:00.000Z' }, 1: review });
    expect(row?.status).toBe('done');

    expect(await markRunSaved(database, 'run-1', new Date('2025-03-05T13:00:00.000Z'))).toBe(true);
    expect((await getRun(database, 'run-1'))?.savedAt).toBe('2025-03-05T13:00:00.000Z');
    expect(await markRunSaved(database, 'missing')).toBe(false);
  });
});

describe('schema version 3', () => {
  it('keeps the papers and runs of a version-2 database and adds a working triplets table', async () => {
    const name = `assay-dataset-migration-${databaseCount}`;
    const version2 = new Dexie(name);
    version2.version(1).stores({ papers: 'key, capturedAt, doi' });
    version2.version(2).stores({ runs: 'id, [paperKey+startedAt], status' });
    const paper = toPaperRecord(makeArticle(), '2025-01-02T03:04:05.000Z');
    await version2.table('papers').put(paper);
    const settings: MatrixRunSettings = {
      paperKey: paper.key,
      properties: ['band_gap'],
      preset: 'browser',
      engine: { kind: 'webllm' },
      seed: 1,
    };
    const run = await createRun(version2 as AssayDatabase, settings, { id: 'run-v2', now: NOW });
    version2.close();

    const upgraded = createAssayDatabase(name);
    try {
      expect(upgraded.verno).toBeGreaterThanOrEqual(3);
      expect(await getPaper(upgraded, paper.key)).toEqual(paper);
      expect(await getRun(upgraded, 'run-v2')).toEqual(run);
      expect(await saveTriplets(upgraded, datasetRows)).toEqual({ added: 4, merged: 0 });
      expect(ids((await queryTriplets(upgraded, { paperKey: TIO2_PAPER.key })).rows)).toEqual(['3', '1']);
    } finally {
      await upgraded.delete();
    }
  });
});

function ids(rows: DatasetTriplet[]): string[] {
  return rows.map((row) => row.id.slice(-1));
}
