import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PrecedentCheck } from '../../../src/precedent/check-precedent';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { queryTriplets, saveTriplets } from '../../../src/store/dataset-repository';
import { getPaper } from '../../../src/store/paper-repository';
import { toPaperRecord } from '../../../src/store/paper-record';
import { importReferenceTable } from '../../../src/precedent/cached-precedent-check';
import {
  deleteReferenceTable,
  getCachedPrecedent,
  listReferenceTables,
  precedentKey,
  putCachedPrecedent,
  referenceTableTexts,
} from '../../../src/store/precedent-repository';
import { datasetRows } from '../export/dataset-fixtures';
import { makeArticle } from './article-fixture';

// Three rows: two readable (B2Mg Tc 39 K, Nb Tcn 1.5 K) and one with an unreadable value (skipped).
const CSV = [
  'refno,material,property_name,property_value,property_unit',
  'PRB063220501,B2Mg,tc,39,K',
  'JLTP000001,Nb,tcn,1.5,K',
  'X1,Pb,tc,n/a,K',
  '',
].join('\n');
const NOW = () => new Date('2026-11-22T06:00:00.000Z');

const UNKNOWN: PrecedentCheck = {
  answer: 'Unknown',
  values: [],
  sources: [],
  searched: [{ source: 'supercon.csv', found: 0, note: 'no row for Nb3Sn among 2 rows' }],
  unknownBecause: 'nothing answered',
  dropped: [],
  related: [],
  phases: [],
};

let database: AssayDatabase;
let databaseCount = 0;

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-precedent-test-${databaseCount}`);
});

afterEach(async () => {
  await database.delete();
});

describe('precedentKey', () => {
  it('keys a formula by its normalized form and anything else by its folded text', () => {
    expect(precedentKey('B2Mg', 'tc')).toBe(precedentKey(' MgB2 ', 'TC'));
    expect(precedentKey('MgB2', 'tc')).toBe('B2Mg|tc'); // Hill order without carbon: alphabetical, B before Mg
    expect(precedentKey('not a formula!', 'tc')).toBe('not a formula!|tc');
  });
});

describe('reference tables', () => {
  it('imports a table with its row count, lists it without its text, keeps the text for parsing', async () => {
    const summary = await importReferenceTable(database, 'supercon.csv', CSV, { now: NOW, newId: () => 'table-1' });
    // 2 readable rows; the "n/a" row is skipped.
    expect(summary).toEqual({ id: 'table-1', name: 'supercon.csv', importedAt: '2026-11-22T06:00:00.000Z', rowCount: 2 });
    expect(await listReferenceTables(database)).toEqual([summary]);
    expect((await referenceTableTexts(database))[0]?.csv).toBe(CSV);
  });

  it('refuses a CSV without the required columns, in words, and stores nothing', async () => {
    await expect(importReferenceTable(database, 'wrong.csv', 'name,value\nMgB2,39\n')).rejects.toThrow(
      'Could not import wrong.csv: reference table lacks column(s): refno, material, property_name, property_value, property_unit',
    );
    await expect(
      importReferenceTable(database, 'broken.csv', 'refno,material,property_name,property_value,property_unit\n"PRB,MgB2,tc,39,K\n'),
    ).rejects.toThrow(/^Could not import broken\.csv: /);
    await expect(
      importReferenceTable(database, 'empty.csv', 'refno,material,property_name,property_value,property_unit\nX,Pb,tc,n/a,K\n'),
    ).rejects.toThrow(/^Could not import empty\.csv: it has no row with a readable Tc or Tcn value/);
    expect(await listReferenceTables(database)).toEqual([]);
  });

  it('deletes a table; an import or a delete empties the answer cache', async () => {
    await putCachedPrecedent(database, { material: 'Nb3Sn', property: 'tc', checkedAt: '2026-11-22T05:00:00.000Z', check: UNKNOWN });
    await importReferenceTable(database, 'a.csv', CSV, { now: NOW, newId: () => 'a' });
    expect(await getCachedPrecedent(database, 'Nb3Sn', 'tc')).toBeUndefined();

    await putCachedPrecedent(database, { material: 'Nb3Sn', property: 'tc', checkedAt: '2026-11-22T05:00:00.000Z', check: UNKNOWN });
    expect(await deleteReferenceTable(database, 'missing')).toBe(false);
    expect(await getCachedPrecedent(database, 'Nb3Sn', 'tc')).toBeDefined();
    expect(await deleteReferenceTable(database, 'a')).toBe(true);
    expect(await listReferenceTables(database)).toEqual([]);
    expect(await getCachedPrecedent(database, 'Nb3Sn', 'tc')).toBeUndefined();
  });
});

describe('cached checks', () => {
  it('stores a check under the normalized key and finds it by another spelling; a put replaces it', async () => {
    const stored = await putCachedPrecedent(database, {
      material: 'MgB2',
      property: 'tc',
      checkedAt: '2026-11-22T05:00:00.000Z',
      check: UNKNOWN,
    });
    expect(stored.key).toBe('B2Mg|tc'); // Hill order without carbon: alphabetical, B before Mg
    expect(await getCachedPrecedent(database, 'B2Mg', 'tc')).toEqual(stored);
    expect(await getCachedPrecedent(database, 'MgB2', 'band_gap')).toBeUndefined();
    await putCachedPrecedent(database, {
      material: 'B2Mg',
      property: 'tc',
      checkedAt: '2026-11-22T06:00:00.000Z',
      check: { ...UNKNOWN, answer: 'No' },
    });
    expect(await getCachedPrecedent(database, 'MgB2', 'tc')).toMatchObject({
      material: 'B2Mg',
      checkedAt: '2026-11-22T06:00:00.000Z',
      check: { answer: 'No' },
    });
    expect(await database.precedents.count()).toBe(1);
  });

  it('reads a stored check that does not match the check schema as not cached, so the question is checked again', async () => {
    const stored = await putCachedPrecedent(database, {
      material: 'MgB2',
      property: 'tc',
      checkedAt: '2026-11-22T05:00:00.000Z',
      check: UNKNOWN,
    });
    await database.precedents.put({ ...stored, check: { ...UNKNOWN, answer: 'Maybe' } } as never);
    expect(await getCachedPrecedent(database, 'MgB2', 'tc')).toBeUndefined();
  });
});

describe('schema version 5', () => {
  it('keeps the papers and triplets of a version-4 database and adds working precedent tables', async () => {
    const name = `assay-precedent-migration-${databaseCount}`;
    const version4 = new Dexie(name);
    version4.version(1).stores({ papers: 'key, capturedAt, doi' });
    version4.version(2).stores({ runs: 'id, [paperKey+startedAt], status' });
    version4.version(3).stores({ triplets: 'id, &mergeKey, paper.key, material, property, status, savedAt' });
    version4.version(4).stores({ papers: 'key, capturedAt, doi, url' });
    const paper = toPaperRecord(makeArticle(), '2025-01-02T03:04:05.000Z');
    await version4.table('papers').put(paper);
    await saveTriplets(version4 as AssayDatabase, datasetRows);
    version4.close();

    const upgraded = createAssayDatabase(name);
    try {
      // 5 added these tables; later versions (6: earlier paper captures) keep them.
      expect(upgraded.verno).toBeGreaterThanOrEqual(5);
      expect(await getPaper(upgraded, paper.key)).toEqual(paper);
      expect((await queryTriplets(upgraded, {})).total).toBe(datasetRows.length);
      await importReferenceTable(upgraded, 'supercon.csv', CSV, { now: NOW, newId: () => 't' });
      await putCachedPrecedent(upgraded, { material: 'MgB2', property: 'tc', checkedAt: '2026-11-22T06:00:00.000Z', check: UNKNOWN });
      expect((await listReferenceTables(upgraded)).map((table) => table.rowCount)).toEqual([2]);
      expect(await getCachedPrecedent(upgraded, 'B2Mg', 'tc')).toBeDefined();
    } finally {
      await upgraded.delete();
    }
  });
});
