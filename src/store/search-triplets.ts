/**
 * The dataset table's query when the search index (src/store/triplet-search-index.ts) has
 * answered a search with the ids of the matching rows: the other filters of the query are tested
 * on those rows only, newest first, so a search never scans the table.
 */
import { Dexie } from 'dexie';
import type { DatasetTriplet, ReviewDecision } from '../contracts/dataset';
import type { TripletOrderQuery, TripletOrderSort } from '../contracts/messages';
import type { AssayDatabase } from './assay-database';

/**
 * What `queryTriplets` needs of the search index: the ids of the rows matching `text`, newest
 * first (savedAt descending, then id descending; the set's order), or undefined when it cannot
 * answer (not built yet).
 */
export interface TripletIdSearch {
  ids(text: string): Promise<ReadonlySet<string> | undefined>;
  /**
   * The ids of the rows matching `query` in `sort`'s order (a column of the dataset table;
   * `labels` spells properties for a sort by property), or undefined when it cannot answer (not
   * built yet, no catalog). Optional: a search index alone answers only `ids`.
   */
  order?(
    query: TripletOrderQuery,
    sort: TripletOrderSort,
    labels?: Readonly<Record<string, string>>,
  ): Promise<readonly string[] | undefined>;
}

/** The dataset table's own order, newest first, as an order request spells it. */
export const NEWEST_FIRST: TripletOrderSort = { column: 'saved', direction: 'descending' };

/**
 * `search.order(query, sort, labels)` when `search` has an order, else undefined; undefined too
 * when it fails. Safe inside a Dexie live query, as `searchIds`.
 */
export async function orderedIds(
  search: TripletIdSearch | undefined,
  query: TripletOrderQuery,
  sort: TripletOrderSort = NEWEST_FIRST,
  labels?: Readonly<Record<string, string>>,
): Promise<readonly string[] | undefined> {
  if (!search?.order) return undefined;
  const order = search.order.bind(search);
  try {
    return await Dexie.waitFor(Promise.resolve(order(query, sort, labels)).catch(() => undefined));
  } catch {
    return undefined;
  }
}

/**
 * One page (all by default) of the rows of `ids`, in that order, and how many ids there are;
 * ids of rows no longer stored are skipped (they count until the catalog follows the delete).
 */
export async function rowsOfIds(
  database: AssayDatabase,
  ids: readonly string[],
  page?: { offset: number; limit: number },
): Promise<{ rows: DatasetTriplet[]; total: number }> {
  return { rows: await readRows(database, page ? ids.slice(page.offset, page.offset + page.limit) : ids), total: ids.length };
}

/** The filters of `TripletQuery` (src/store/dataset-repository.ts) besides the search, with the same meaning. */
export interface TripletRowFilters {
  /** Case-insensitive prefix of the material. */
  material?: string;
  property?: string;
  status?: DatasetTriplet['status'];
  decision?: ReviewDecision;
  paperKey?: string;
}

/** Rows per `bulkGet`. */
const READ_CHUNK = 2000;

/**
 * The ids `search` gives for `text`, or undefined when it gives none or fails. Safe inside a
 * Dexie live query: the answer (from another thread) is awaited through `Dexie.waitFor`, which
 * keeps the live query's context, so the reads after it are still observed.
 */
export async function searchIds(search: TripletIdSearch, text: string): Promise<ReadonlySet<string> | undefined> {
  try {
    return await Dexie.waitFor(Promise.resolve(search.ids(text)).catch(() => undefined));
  } catch {
    return undefined;
  }
}

/** Newest first: savedAt descending, then id descending (as `queryTriplets` and the `savedAt` index walked backwards). */
function newestFirst(a: DatasetTriplet, b: DatasetTriplet): number {
  return a.savedAt === b.savedAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.savedAt < b.savedAt ? 1 : -1;
}

function matchesFilters(filters: TripletRowFilters): (row: DatasetTriplet) => boolean {
  const material = filters.material?.toLowerCase();
  return (row) =>
    (material === undefined || row.material.toLowerCase().startsWith(material)) &&
    (filters.property === undefined || row.property === filters.property) &&
    (filters.status === undefined || row.status === filters.status) &&
    (filters.decision === undefined || row.review.decision === filters.decision) &&
    (filters.paperKey === undefined || row.paper.key === filters.paperKey);
}

const hasFilters = (filters: TripletRowFilters) =>
  Boolean(filters.material) ||
  filters.property !== undefined ||
  filters.status !== undefined ||
  filters.decision !== undefined ||
  filters.paperKey !== undefined;

/** The rows of `ids` that exist, `READ_CHUNK` per `bulkGet`, in the order of `ids`. */
async function readRows(database: AssayDatabase, ids: readonly string[]): Promise<DatasetTriplet[]> {
  const rows: DatasetTriplet[] = [];
  for (let start = 0; start < ids.length; start += READ_CHUNK) {
    for (const row of await database.triplets.bulkGet(ids.slice(start, start + READ_CHUNK))) if (row) rows.push(row);
  }
  return rows;
}

/**
 * One page of the rows whose id is in `ids` (newest first, as `TripletIdSearch` gives them) and
 * which pass `filters` (material prefix in any case, property, status, decision, paper), newest
 * first (savedAt descending, then id), and how many there are; `page` defaults to all. With no
 * other filter, the total is `ids.size` and only the page's rows are read (a search matching
 * every row of 100,000 reads 200); otherwise every match is read (`bulkGet` in chunks, one read
 * transaction), filtered, sorted and sliced, so the cost grows with the matches, never the table
 * (no `count()` either: Chromium counts a store by walking it). Ids of rows no longer stored are
 * skipped; with no other filter they still count until the index has followed the delete (it
 * then starts a new generation and the caller asks again).
 */
export async function searchTriplets(
  database: AssayDatabase,
  ids: ReadonlySet<string>,
  filters: TripletRowFilters,
  page?: { offset: number; limit: number },
): Promise<{ rows: DatasetTriplet[]; total: number }> {
  return database.transaction('r', database.triplets, async () => {
    if (!hasFilters(filters)) {
      const ordered = [...ids];
      return { rows: await readRows(database, page ? ordered.slice(page.offset, page.offset + page.limit) : ordered), total: ids.size };
    }
    const rows = (await readRows(database, [...ids])).filter(matchesFilters(filters));
    rows.sort(newestFirst);
    return { rows: page ? rows.slice(page.offset, page.offset + page.limit) : rows, total: rows.length };
  });
}
