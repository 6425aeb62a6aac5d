import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../../../src/contracts/dataset';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { queryTriplets, saveTriplets } from '../../../../src/store/dataset-repository';
import { eachShownTripletChunk, everyRowKeyed, sortedTripletIds } from '../../../../src/ui/dataset-page/sorted-triplets';
import { DEFAULT_SORT, sortKey, sortKeyedIds, type TripletSort } from '../../../../src/ui/dataset-page/triplet-sort';
import { datasetTriplet } from '../dataset-fixtures';

const label = (name: string) => ({ band_gap: 'Band gap', tc: 'Tc' })[name] ?? name;
const MATERIALS = ['TiO2', 'GaN', 'zno', 'TiO10', 'Ångström', 'CdTe'];
const STATUSES = ['verified', 'needs_review', 'rejected'] as const;

/** 36 rows: band gaps (SI in J) and Tcs (SI in K), six materials, three statuses, some without an SI value, saved a second apart with some equal times. */
function seedRows(): DatasetTriplet[] {
  return Array.from({ length: 36 }, (_, index) => {
    const property = index % 2 === 0 ? 'band_gap' : 'tc';
    const si =
      index % 7 === 3
        ? null
        : { value: { kind: 'number' as const, value: ((index * 37) % 23) + 0.5 }, unit: property === 'tc' ? 'K' : 'J' };
    return datasetTriplet({
      id: `row-${String(index).padStart(2, '0')}`,
      mergeKey: `key-${index}`,
      material: MATERIALS[index % MATERIALS.length]!,
      property,
      status: STATUSES[index % 3]!,
      si,
      savedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(index / 2))).toISOString(),
    });
  });
}

let database: AssayDatabase;
let count = 0;
const rows = seedRows();

beforeEach(async () => {
  count += 1;
  database = createAssayDatabase(`sorted-triplets-test-${count}`);
  await saveTriplets(database, rows);
});

afterEach(() => database.close());

/** The order sorting the rows in memory gives. */
function inMemory(selected: DatasetTriplet[], sort: TripletSort): string[] {
  return sortKeyedIds(
    selected.map((row) => ({ id: row.id, savedAt: row.savedAt, key: sortKey(row, sort.column, label) })),
    sort,
  );
}

describe('the dataset table’s sorted ids', () => {
  it('orders the whole dataset from the indexes as sorting the rows in memory does', async () => {
    for (const column of ['material', 'property', 'status', 'saved'] as const) {
      for (const direction of ['ascending', 'descending'] as const) {
        const sort = { column, direction };
        expect(await sortedTripletIds(database, {}, sort, label), `${column} ${direction}`).toEqual(inMemory(rows, sort));
      }
    }
    // The default order is the repository's own.
    expect(await sortedTripletIds(database, {}, DEFAULT_SORT, label)).toEqual(
      (await queryTriplets(database, {})).rows.map((row) => row.id),
    );
  });

  it('sorts the whole dataset by value (every row’s key read in slices) as sorting the rows in memory does', async () => {
    for (const direction of ['ascending', 'descending'] as const) {
      const sort = { column: 'value' as const, direction };
      expect(await sortedTripletIds(database, {}, sort, label), direction).toEqual(inMemory(rows, sort));
    }
    // Slices smaller than the table, one not dividing it: every row keyed once, none twice.
    for (const sliceRows of [1, 5, 36, 100]) {
      const keyed = await everyRowKeyed(database, { column: 'value', direction: 'ascending' }, label, undefined, sliceRows);
      expect(keyed.map((entry) => entry.id).sort(), `slices of ${sliceRows}`).toEqual(rows.map((row) => row.id).sort());
    }
    const verified = await everyRowKeyed(
      database,
      { column: 'material', direction: 'ascending' },
      label,
      (row) => row.status === 'verified',
      5,
    );
    expect(verified.map((entry) => entry.id).sort()).toEqual(
      rows
        .filter((row) => row.status === 'verified')
        .map((row) => row.id)
        .sort(),
    );
    expect(verified.every((entry) => MATERIALS.includes(entry.key as string))).toBe(true);
  });

  it('sorts a filter’s rows by SI value with the rows without one last', async () => {
    const ids = await sortedTripletIds(database, { property: 'tc' }, { column: 'value', direction: 'descending' }, label);
    const tc = rows.filter((row) => row.property === 'tc');
    expect(ids).toHaveLength(tc.length);
    const values = ids.map((id) => rows.find((row) => row.id === id)!.si?.value);
    const numbers = values.filter((value) => value !== undefined).map((value) => (value.kind === 'number' ? value.value : value.low));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(values.slice(numbers.length).every((value) => value === undefined)).toBe(true);
    expect(values.slice(0, numbers.length).every((value) => value !== undefined)).toBe(true);
  });

  it('exports exactly the rows a filter shows, in the table’s order, chunk by chunk', async () => {
    const query = { material: 'tio', status: 'verified' as const };
    const sort: TripletSort = { column: 'value', direction: 'ascending' };
    const chunks: DatasetTriplet[][] = [];
    const exported = await eachShownTripletChunk(database, query, sort, label, (chunk) => chunks.push(chunk), 2);
    const expected = rows.filter((row) => row.material.toLowerCase().startsWith('tio') && row.status === 'verified');
    expect(expected.length).toBeGreaterThan(2);
    expect(exported).toBe(expected.length);
    expect(chunks.every((chunk) => chunk.length <= 2)).toBe(true);
    expect(chunks.flat().map((row) => row.id)).toEqual(inMemory(expected, sort));

    // The default order streams the filter's rows newest first, as the table shows them.
    const newest: string[] = [];
    await eachShownTripletChunk(database, query, DEFAULT_SORT, label, (chunk) => newest.push(...chunk.map((row) => row.id)), 2);
    expect(newest).toEqual((await queryTriplets(database, query)).rows.map((row) => row.id));
  });

  it('stops at the chunk whose handler throws, in either order, and reports that error', async () => {
    for (const sort of [DEFAULT_SORT, { column: 'value', direction: 'ascending' } satisfies TripletSort]) {
      let handed = 0;
      const stopped = new Error('stopped');
      const run = eachShownTripletChunk(
        database,
        {},
        sort,
        label,
        () => {
          handed += 1;
          if (handed === 2) throw stopped;
        },
        5,
      );
      await expect(run, sort.column).rejects.toBe(stopped);
      // The read under way when it threw (the next chunk) is not handed over.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(handed, sort.column).toBe(2);
    }
  });
});
