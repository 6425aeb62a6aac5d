/**
 * The dataset table's rows in a reader-chosen order, for the table and for an export of what it
 * shows. The default order (newest first) is the repository's own (`queryTriplets` pages it from
 * the `savedAt` index). Any other order is a list of ids:
 *
 * - no filter, and a column the `triplets` table indexes (material `[material+savedAt]`, property
 *   `[property+savedAt]`, status `[status+savedAt]`, date `savedAt`): the index keys alone are read,
 *   no row;
 * - otherwise the filter's rows are read (`queryTriplets`, through the search index for a search)
 *   and sorted in memory by `sortKeyedIds`; only ids and keys are kept.
 *
 * The table then reads just the rows of the pages on screen by id.
 */
import type { DatasetTriplet } from '../../contracts/dataset';
import type { AssayDatabase } from '../../store/assay-database';
import { eachTripletChunk, isFiltered, queryTriplets, type TripletQuery } from '../../store/dataset-repository';
import type { TripletIdSearch } from '../../store/search-triplets';
import type { PropertyLabel } from '../shared/run-view-model';
import { statusText, type TripletStatus } from './dataset-view-model';
import { isDefaultSort, sortKey, sortKeyedIds, type KeyedId, type TripletSort } from './triplet-sort';

/** The indexes whose keys give a column's sort key without reading a row: index name, and the key's text from the index key. */
const INDEXED: Partial<
  Record<TripletSort['column'], { index: string; key: (indexKey: [string, string], label: PropertyLabel) => string }>
> = {
  material: { index: '[material+savedAt]', key: ([material]) => material },
  property: { index: '[property+savedAt]', key: ([property], label) => label(property) },
  status: { index: '[status+savedAt]', key: ([status]) => statusText(status as TripletStatus) },
};

/**
 * The ids of every row matching `query`, in `sort`'s order (see the module comment for which
 * reads answer it). `label` spells properties as the table does (the property column sorts by
 * what it shows). Rejects with the storage error.
 */
export async function sortedTripletIds(
  database: AssayDatabase,
  query: TripletQuery,
  sort: TripletSort,
  label: PropertyLabel,
  search?: TripletIdSearch,
): Promise<string[]> {
  const table = database.triplets;
  if (!isFiltered(query)) {
    if (sort.column === 'saved') {
      // The `savedAt` index orders ties by id, ascending: walked forward it is exactly newest-first reversed.
      const ids = (await table.orderBy('savedAt').primaryKeys()) as string[];
      return sort.direction === 'ascending' ? ids : ids.reverse();
    }
    const indexed = INDEXED[sort.column];
    if (indexed) {
      const entries: KeyedId[] = [];
      await table.orderBy(indexed.index).eachKey((indexKey, cursor) => {
        const pair = indexKey as unknown as [string, string];
        entries.push({ id: String(cursor.primaryKey), savedAt: pair[1], key: indexed.key(pair, label) });
      });
      return sortKeyedIds(entries, sort);
    }
  }
  const { rows } = await queryTriplets(database, query, undefined, { search });
  return sortKeyedIds(
    rows.map((row) => ({ id: row.id, savedAt: row.savedAt, key: sortKey(row, sort.column, label) })),
    sort,
  );
}

/** The rows of `ids` in that order (ids no longer stored, deleted meanwhile, are skipped). */
export async function tripletsByIds(database: AssayDatabase, ids: readonly string[]): Promise<DatasetTriplet[]> {
  return (await database.triplets.bulkGet([...ids])).filter((row): row is DatasetTriplet => row !== undefined);
}

/**
 * Hand every row the table shows — matching `query`, in `sort`'s order — to `onChunk`, `size`
 * rows at a time (the default order streams from the repository, `eachTripletChunk`; another
 * order reads its ids first, then `size` rows per `bulkGet`). Resolves to the number of rows
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
): Promise<number> {
  if (isDefaultSort(sort)) return eachTripletChunk(database, query, onChunk, size, search);
  const ids = await sortedTripletIds(database, query, sort, label, search);
  let count = 0;
  for (let start = 0; start < ids.length; start += size) {
    const rows = await tripletsByIds(database, ids.slice(start, start + size));
    count += rows.length;
    onChunk(rows);
  }
  return count;
}
