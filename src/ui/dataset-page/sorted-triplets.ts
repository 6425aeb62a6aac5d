/**
 * The dataset table's rows in a reader-chosen order, for the table and for an export of what it
 * shows. The default order (newest first) is the repository's own (`queryTriplets` pages it from
 * the `savedAt` index). Any other order is a list of ids, which the dataset worker's catalog
 * gives from memory once it is built (src/ui/dataset-page/triplet-catalog.ts: 100,000 rows in well
 * under a second, off the main thread). Until then, or with a method or provenance filter, the
 * ids come from IndexedDB:
 *
 * - no filter, by date: the `savedAt` index's primary keys (one `getAllKeys`);
 * - no filter, by property or status (a few distinct values): each value's primary keys from the
 *   `[property+savedAt]` / `[status+savedAt]` index, newest first, the groups in collated order;
 * - no filter, by any other column: every row's key, read 2,000 rows at a time with the page
 *   given a turn between reads (`everyRowKeyed`), sorted by `sortKeyedIds`;
 * - otherwise the filter's rows are read (`queryTriplets`, through the search index for a search)
 *   and sorted in memory by `sortKeyedIds`; only ids and keys are kept. Material too: it has
 *   nearly as many distinct values as rows, and walking its index keys with a cursor (Dexie's or
 *   IndexedDB's own) took longer than reading every row at once (100 000 rows, on a loaded 2-core
 *   machine: 3.3–6.7 s against 2.7–4.7 s).
 *
 * The table then reads just the rows of the pages on screen by id.
 *
 * The method and provenance filters (`RowMatcher`) have no index (the `triplets` schema belongs to
 * src/store/ and indexes neither), so with one of them the rows the other filters select are read
 * and tested in memory, in any order: a full read of the table at worst, as a sort by material
 * already costs (100 000 rows: seconds, see above); a property, status or material filter narrows it.
 */
import type { DatasetTriplet } from '../../contracts/dataset';
import type { AssayDatabase } from '../../store/assay-database';
import { Dexie } from 'dexie';
import { datasetProperties, eachTripletChunk, isFiltered, queryTriplets, type TripletQuery } from '../../store/dataset-repository';
import { orderedIds, type TripletIdSearch } from '../../store/search-triplets';
import type { PropertyLabel } from '../shared/run-view-model';
import { statusText, type TripletStatus } from './dataset-view-model';
import { compareText, isDefaultSort, sortKey, sortKeyedIds, type KeyedId, type TripletSort } from './triplet-sort';

const STATUSES: readonly TripletStatus[] = ['verified', 'needs_review', 'rejected'];

/** The columns of few distinct values, each read a value at a time from its `[field+savedAt]` index: the index, the values, and the text the column shows for one. */
const GROUPED: Partial<
  Record<
    TripletSort['column'],
    {
      index: string;
      values: (database: AssayDatabase) => Promise<readonly string[]>;
      text: (value: string, label: PropertyLabel) => string;
    }
  >
> = {
  property: { index: '[property+savedAt]', values: datasetProperties, text: (property, label) => label(property) },
  status: { index: '[status+savedAt]', values: async () => STATUSES, text: (status) => statusText(status as TripletStatus) },
};

/**
 * A test the repository's query cannot answer from an index, applied in memory to the rows it
 * reads: the method and provenance filters (`conditionMatcher`, src/ui/shared/fact-conditions.ts).
 */
export type RowMatcher = (row: DatasetTriplet) => boolean;

/**
 * The ids of every row matching `query` (and `matches`, when given), in `sort`'s order: from the
 * dataset worker's catalog (`search.order`, src/ui/dataset-page/triplet-catalog.ts) when it
 * answers and there is no `matches`, else by the reads of the module comment. `label` spells properties as the table does (the
 * property column sorts by what it shows). With `matches` the rows `query` selects are always
 * read and tested in memory, whatever the order. Rejects with the storage error.
 */
export async function sortedTripletIds(
  database: AssayDatabase,
  query: TripletQuery,
  sort: TripletSort,
  label: PropertyLabel,
  search?: TripletIdSearch,
  matches?: RowMatcher,
): Promise<string[]> {
  if (!matches && search?.order) {
    // The dataset worker's catalog answers any filter and order from memory (see its module).
    const labels =
      sort.column === 'property' ? Object.fromEntries((await datasetProperties(database)).map((name) => [name, label(name)])) : {};
    const ids = await orderedIds(search, query, sort, labels);
    if (ids) return [...ids];
  }
  const table = database.triplets;
  if (!isFiltered(query) && !matches) {
    if (sort.column === 'saved') {
      // The `savedAt` index orders ties by id, ascending: walked forward it is exactly newest-first reversed.
      const ids = (await table.orderBy('savedAt').primaryKeys()) as string[];
      return sort.direction === 'ascending' ? ids : ids.reverse();
    }
    const grouped = GROUPED[sort.column];
    if (grouped) {
      const groups = await Promise.all(
        (await grouped.values(database)).map(async (value) => ({
          text: grouped.text(value, label),
          // The index orders a value's rows by savedAt, then id: reversed, newest first.
          ids: (
            (await table.where(grouped.index).between([value, Dexie.minKey], [value, Dexie.maxKey], true, true).primaryKeys()) as string[]
          ).reverse(),
        })),
      );
      const sign = sort.direction === 'ascending' ? 1 : -1;
      return groups.sort((a, b) => sign * compareText(a.text, b.text)).flatMap((group) => group.ids);
    }
  }
  // Unfiltered, every row's key, read in slices (`everyRowKeyed`); filtered, the filter's rows.
  // Unsorted either way: `sortKeyedIds` breaks ties newest first itself.
  if (!isFiltered(query)) return sortKeyedIds(await everyRowKeyed(database, sort, label, matches), sort);
  const rows = (await queryTriplets(database, query, undefined, { search })).rows;
  const kept = matches ? rows.filter(matches) : rows;
  return sortKeyedIds(
    kept.map((row) => ({ id: row.id, savedAt: row.savedAt, key: sortKey(row, sort.column, label) })),
    sort,
  );
}

/**
 * Rows read per slice by `everyRowKeyed`: reading and keying 2,000 rows is a short task (tens of
 * milliseconds), where one `getAll` of 100,000 rows held the page for seconds (issue 31: no task
 * of the dataset page over 200 ms).
 */
export const KEY_SLICE_ROWS = 2000;

/**
 * The sort key of every stored row matching `matches` (all rows without it), read `sliceRows` at a
 * time in primary-key order (a forward read, which Chromium prefetches), the page given a turn
 * between slices; only ids, dates and keys are kept, never the rows. Rows written while it reads
 * may or may not be in the result (the live query sorts again after a write). Rejects with the
 * storage error.
 */
export async function everyRowKeyed(
  database: AssayDatabase,
  sort: TripletSort,
  label: PropertyLabel,
  matches?: RowMatcher,
  sliceRows = KEY_SLICE_ROWS,
): Promise<KeyedId[]> {
  const entries: KeyedId[] = [];
  let after: string | undefined;
  for (;;) {
    const from = after === undefined ? database.triplets.orderBy(':id') : database.triplets.where(':id').above(after);
    const slice = await from.limit(sliceRows).toArray();
    for (const row of slice)
      if (!matches || matches(row)) entries.push({ id: row.id, savedAt: row.savedAt, key: sortKey(row, sort.column, label) });
    if (slice.length < sliceRows) return entries;
    after = slice.at(-1)!.id;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** The rows of `ids` in that order (ids no longer stored, deleted meanwhile, are skipped). */
export async function tripletsByIds(database: AssayDatabase, ids: readonly string[]): Promise<DatasetTriplet[]> {
  return (await database.triplets.bulkGet([...ids])).filter((row): row is DatasetTriplet => row !== undefined);
}

/**
 * Hand every row the table shows — matching `query` and `matches`, in `sort`'s order — to `onChunk`, `size`
 * rows at a time (the default order streams from the repository, `eachTripletChunk`; another
 * order reads its ids first, then `size` rows per `bulkGet`, the next chunk's read under way
 * while `onChunk` runs). Resolves to the number of rows
 * handed over. Rejects with the storage error or `onChunk`'s.
 */
export async function eachShownTripletChunk(
  database: AssayDatabase,
  query: TripletQuery,
  sort: TripletSort,
  label: PropertyLabel,
  onChunk: (rows: DatasetTriplet[]) => void,
  size = 5000,
  search?: TripletIdSearch,
  matches?: RowMatcher,
): Promise<number> {
  if (isDefaultSort(sort) && !matches) return eachTripletChunk(database, query, onChunk, size, search);
  const ids = await sortedTripletIds(database, query, sort, label, search, matches);
  const read = (start: number) => (start < ids.length ? tripletsByIds(database, ids.slice(start, start + size)) : undefined);
  let count = 0;
  let next = read(0);
  for (let start = 0; next; start += size) {
    const rows = await next;
    // The next chunk is read while this one is handed over (formatted, written).
    next = read(start + size);
    count += rows.length;
    try {
      onChunk(rows);
    } catch (error) {
      // Its read is not waited for, and its failure is not the one to report.
      next?.catch(() => undefined);
      throw error;
    }
  }
  return count;
}
