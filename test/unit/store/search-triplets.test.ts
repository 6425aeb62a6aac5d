import 'fake-indexeddb/auto';
import { liveQuery } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { queryTriplets, saveTriplets, updateTripletReview } from '../../../src/store/dataset-repository';
import { searchTriplets, type TripletIdSearch } from '../../../src/store/search-triplets';
import { datasetTriplet } from '../ui/dataset-fixtures';

/**
 * 100 rows: r00…r99, saved one minute apart in pairs (r00 and r01 share a time, …), so ties are
 * broken by id; even rows are TiO2 and verified, odd rows ZnO and needing review.
 */
const ROWS: DatasetTriplet[] = Array.from({ length: 100 }, (_, index) =>
  datasetTriplet({
    id: `r${String(index).padStart(2, '0')}`,
    mergeKey: `key-${index}`,
    material: index % 2 === 0 ? 'TiO2' : 'ZnO',
    status: index % 2 === 0 ? 'verified' : 'needs_review',
    savedAt: new Date(Date.UTC(2026, 0, 1, 0, Math.floor(index / 2))).toISOString(),
  }),
);
/** Newest first: savedAt descending, then id descending. */
const NEWEST_FIRST = ROWS.map((row) => row.id).reverse();

let database: AssayDatabase;
let databaseCount = 0;

beforeEach(async () => {
  databaseCount += 1;
  database = createAssayDatabase(`search-triplets-test-${databaseCount}`);
  await saveTriplets(database, ROWS);
});

afterEach(async () => {
  await database.delete();
});

const ids = (rows: readonly DatasetTriplet[]) => rows.map((row) => row.id);

/** A catalog answering `answer` for any query from a later task (as the worker's reply), recording the queries. */
function fixedOrder(answer: readonly string[] | undefined): TripletIdSearch & { queries: unknown[] } {
  const queries: unknown[] = [];
  return {
    queries,
    ids: async () => undefined,
    order: async (query) => {
      queries.push(query);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return answer;
    },
  };
}

/**
 * A search answering `answer` for any text from a later task, as a worker's reply arrives, with
 * a native promise (an async function's, never Dexie's), recording its calls.
 */
function fixedSearch(answer: readonly string[] | undefined): TripletIdSearch & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    ids: async (text) => {
      calls.push(text);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return answer && new Set(answer);
    },
  };
}

describe('searchTriplets', () => {
  it('pages the index’s newest-first ids reading only the page’s rows, when there is no other filter', async () => {
    const result = await searchTriplets(database, new Set(NEWEST_FIRST.slice(10, 70)), {}, { offset: 5, limit: 10 });
    expect(result.total).toBe(60);
    expect(ids(result.rows)).toEqual(NEWEST_FIRST.slice(15, 25));
  });

  it('applies the other filters to the matches only, newest first (id for ties) whatever the ids’ order', async () => {
    const found = await searchTriplets(database, new Set(['r10', 'r11', 'r12', 'r13', 'gone']), { material: 'tio', status: 'verified' });
    expect(ids(found.rows)).toEqual(['r12', 'r10']);
    expect(found.total).toBe(2);
    const ties = await searchTriplets(database, new Set(['r00', 'r51', 'r01', 'r50']), { decision: 'pending' }, { offset: 1, limit: 2 });
    expect(ids(ties.rows)).toEqual(['r50', 'r01']);
    expect(ties.total).toBe(4);
    expect((await searchTriplets(database, new Set(NEWEST_FIRST), { material: 'zn' })).total).toBe(50);
  });

  it('skips an id no longer stored (with no other filter it counts until the index follows the delete)', async () => {
    expect(await searchTriplets(database, new Set(['gone', 'r99']), {})).toMatchObject({ total: 2, rows: [{ id: 'r99' }] });
    expect(await searchTriplets(database, new Set(['gone', 'r99']), { status: 'needs_review' })).toMatchObject({
      total: 1,
      rows: [{ id: 'r99' }],
    });
  });
});

describe('queryTriplets with a search index', () => {
  it('answers a search from the ids the index gives, not by substring', async () => {
    // "anatase" is in no row; the index's answer decides.
    const search = fixedSearch(['r03', 'r04']);
    const result = await queryTriplets(database, { search: '  anatase ', material: 'tio' }, undefined, { search });
    expect(ids(result.rows)).toEqual(['r04']);
    expect(search.calls).toEqual(['anatase']);
  });

  it('scans by substring while the index has no answer', async () => {
    const result = await queryTriplets(database, { search: 'gan has' }, { offset: 0, limit: 3 }, { search: fixedSearch(undefined) });
    expect(ids(result.rows)).toEqual(NEWEST_FIRST.slice(0, 3));
    expect(result.total).toBe(100);
  });

  it('does not ask the index without a search', async () => {
    const search = fixedSearch([]);
    expect((await queryTriplets(database, { material: 'ZnO' }, undefined, { search })).total).toBe(50);
    expect(search.calls).toEqual([]);
  });

  it.each([
    ['the index (a search)', { search: 'x' }, () => fixedSearch(['r07'])],
    ['the catalog (a filter)', { material: 'zn' }, () => fixedOrder(['r07'])],
  ] as const)('keeps a live query live after awaiting %s: a shown row’s change re-runs it', async (_, query, answering) => {
    const search = answering();
    const results: Array<DatasetTriplet['review']['decision'] | undefined> = [];
    const subscription = liveQuery(() => queryTriplets(database, query, undefined, { search })).subscribe((result) =>
      results.push(result.rows[0]?.review.decision),
    );
    try {
      await expect.poll(() => results).toEqual(['pending']);
      await updateTripletReview(database, 'r07', { decision: 'rejected', at: '2026-02-01T00:00:00.000Z' });
      await expect.poll(() => results).toEqual(['pending', 'rejected']);
    } finally {
      subscription.unsubscribe();
    }
  });
});

describe('queryTriplets with a catalog that orders', () => {
  it('reads only the page’s rows of the catalog’s ids, and falls back to the indexes when it cannot answer', async () => {
    const answering = fixedOrder(['r09', 'r03', 'r01']);
    const page = await queryTriplets(database, { material: 'zn' }, { offset: 1, limit: 1 }, { search: answering });
    expect(ids(page.rows)).toEqual(['r03']);
    expect(page.total).toBe(3);
    expect(answering.queries).toEqual([{ material: 'zn' }]);
    // No filter: the table's own order from the savedAt index, without asking.
    await queryTriplets(database, {}, { offset: 0, limit: 1 }, { search: answering });
    expect(answering.queries).toHaveLength(1);
    const silent = fixedOrder(undefined);
    expect((await queryTriplets(database, { material: 'zn' }, undefined, { search: silent })).total).toBe(50);
  });
});
