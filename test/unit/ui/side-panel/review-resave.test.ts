/** Saving a run's kept records twice, with the reader re-editing one in between: rows update, never double. */
import { buildDatasetRows } from '../../../../src/store/dataset-rows';
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SourcePaper } from '../../../../src/contracts/dataset';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { countTriplets, saveTriplets } from '../../../../src/store/dataset-repository';
import { record, runRow } from '../run-fixtures';

const paper: SourcePaper = { key: 'doi:10.1/x', doi: '10.1/x', url: null, title: 'GaN films', authors: [], journal: null, year: 2020 };
let database: AssayDatabase;
let count = 0;
beforeEach(() => {
  count += 1;
  database = createAssayDatabase(`review-resave-${count}`);
});
afterEach(async () => {
  await database.delete();
});

describe('saving a re-edited record again', () => {
  it('updates its row (same id, newer review wins, new value and key) instead of adding one', async () => {
    const first = runRow({
      records: [record('verified', {}, { material: 'GaN' })],
      reviews: { 0: { decision: 'edited', edit: { valueText: '3.3' }, at: '2025-02-01T09:00:00.000Z' } },
    });
    const saved = buildDatasetRows(first, paper, { now: new Date('2025-02-01T09:01:00.000Z') });
    expect(saved.rows.map((row) => row.id)).toEqual([`${first.id}:0`]);
    expect(await saveTriplets(database, saved.rows)).toEqual({ added: 1, merged: 0 });

    const second = {
      ...first,
      reviews: { 0: { decision: 'edited' as const, edit: { valueText: '3.35' }, at: '2025-02-01T09:05:00.000Z' } },
    };
    const again = buildDatasetRows(second, paper, { now: new Date('2025-02-01T09:06:00.000Z') });
    expect(await saveTriplets(database, again.rows)).toEqual({ added: 0, merged: 1 });
    expect(await countTriplets(database)).toBe(1);
    const stored = await database.triplets.get(`${first.id}:0`);
    expect(stored?.value).toEqual({ kind: 'number', value: 3.35 });
    expect(stored?.mergeKey).toBe(again.rows[0]!.mergeKey);
    expect(stored?.mergeKey).not.toBe(saved.rows[0]!.mergeKey);
    // The first save's time stays the row's savedAt.
    expect(stored?.savedAt).toBe('2025-02-01T09:01:00.000Z');
  });
});

describe('an edit that makes a record the same fact as another saved one', () => {
  it('folds the two into one row instead of failing on the unique merge key', async () => {
    const run = runRow({
      records: [
        record('verified', {}, { material: 'GaN' }),
        record('verified', {}, { material: 'GaN', valueText: '3.2', value: { kind: 'number', value: 3.2 } }),
      ],
    });
    const first = buildDatasetRows(run, paper, { now: new Date('2025-02-01T09:01:00.000Z') });
    expect(new Set(first.rows.map((row) => row.mergeKey)).size).toBe(2);
    expect(await saveTriplets(database, first.rows)).toEqual({ added: 2, merged: 0 });

    // The reader edits record 1 to the value record 0 states, then saves again.
    const edited = { ...run, reviews: { 1: { decision: 'edited' as const, edit: { valueText: '3.4' }, at: '2025-02-01T09:05:00.000Z' } } };
    const again = buildDatasetRows(edited, paper, { now: new Date('2025-02-01T09:06:00.000Z') });
    expect(again.rows[1]!.mergeKey).toBe(first.rows[0]!.mergeKey);
    expect(await saveTriplets(database, again.rows)).toEqual({ added: 0, merged: 2 });
    expect(await countTriplets(database)).toBe(1);
  });
});
