/**
 * Reads and writes of the personal dataset (`triplets` table). Every function takes the database
 * first (no module-level instance) and every write is one `rw` transaction (per chunk for large
 * saves), so the dataset page's `useLiveQuery` sees whole changes.
 *
 * Duplicates: a row whose `mergeKey` (see `mergeKeyOf`) is already stored merges into the stored
 * row instead of adding one, so saving a run twice never doubles the dataset. Imported files do
 * not come through here: `importTriplets` (import-triplets.ts) trusts neither their ids nor their
 * keys and never changes a stored row.
 */
import { DatasetTripletSchema, type DatasetTriplet, type ReviewDecision } from '../contracts/dataset';
import type { AssayDatabase } from './assay-database';
import { mergeTriplets } from './dataset-triplet';
import { searchIds, searchTriplets, type TripletIdSearch } from './search-triplets';

export { mergeKeyOf } from './dataset-triplet';
export { applyEdit, parseValueText, toDatasetTriplet } from './dataset-rows';

/** Rows written per transaction by `saveTriplets`: large enough to be fast, small enough that one transaction does not hold the database for seconds. */
const DEFAULT_CHUNK_SIZE = 1000;

/**
 * Save `rows`, `chunkSize` (default 1000) per `rw` transaction. A row whose `mergeKey` is stored,
 * or whose `id` is stored (an older copy of a row since edited), merges into the stored row
 * (`mergeTriplets`: keeps its id and savedAt, unions votes and models, a reader's review wins over
 * `pending`, keeps evidence when the new row has none); rows of one call that share a key merge
 * with each other too. `onProgress(done, total)` is called after each chunk commits. Resolves to
 * how many rows were added and how many merged (`added + merged === rows.length`). For the
 * reader's own rows (a run's, an undo's): it trusts their ids and merge keys and does not
 * validate, so an imported file goes through `importTriplets` instead. Throws a RangeError when
 * `chunkSize` is not a positive integer.
 */
export async function saveTriplets(
  database: AssayDatabase,
  rows: readonly DatasetTriplet[],
  options: { chunkSize?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ added: number; merged: number }> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  let added = 0;
  let merged = 0;
  for (let start = 0; start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    const counts = await database.transaction('rw', database.triplets, () => saveChunk(database, chunk));
    added += counts.added;
    merged += counts.merged;
    options.onProgress?.(start + chunk.length, rows.length);
  }
  return { added, merged };
}

/** One chunk inside the caller's transaction: look up stored rows by merge key and id, merge, then one `bulkPut`. */
async function saveChunk(database: AssayDatabase, chunk: readonly DatasetTriplet[]): Promise<{ added: number; merged: number }> {
  const byKey = new Map<string, DatasetTriplet>();
  const byId = new Map<string, DatasetTriplet>();
  const remember = (row: DatasetTriplet) => {
    byKey.set(row.mergeKey, row);
    byId.set(row.id, row);
  };
  const storedByKey = await database.triplets
    .where('mergeKey')
    .anyOf(chunk.map((row) => row.mergeKey))
    .toArray();
  const storedById = await database.triplets.bulkGet(chunk.map((row) => row.id));
  for (const row of [...storedByKey, ...storedById]) if (row) remember(row);
  const written = new Map<string, DatasetTriplet>();
  const removed = new Set<string>();
  let added = 0;
  let merged = 0;
  for (const row of chunk) {
    // The same row saved again (a re-edited record) first, then the same fact under another id.
    const existing = byId.get(row.id) ?? byKey.get(row.mergeKey);
    let result = existing ? mergeTriplets(existing, row) : row;
    const holder = byKey.get(result.mergeKey);
    if (holder && holder.id !== result.id) {
      // An edit made this row the same fact as another stored row: one row per fact, so it folds
      // into that row and its own record goes (the unique merge-key index allows nothing else).
      result = mergeTriplets(holder, result);
      removed.add(row.id);
      written.delete(row.id);
      byId.delete(row.id);
    }
    if (existing && existing.mergeKey !== result.mergeKey && byKey.get(existing.mergeKey)?.id === existing.id)
      byKey.delete(existing.mergeKey);
    if (existing || holder) merged += 1;
    else added += 1;
    remember(result);
    removed.delete(result.id);
    written.set(result.id, result);
  }
  if (removed.size > 0) await database.triplets.bulkDelete([...removed]);
  await database.triplets.bulkPut([...written.values()]);
  return { added, merged };
}

/** Filters of the dataset table; all given ones must hold. */
export interface TripletQuery {
  /** Case-insensitive prefix of the material as written ("tio" finds "TiO2"). */
  material?: string;
  /** Property schema name, exactly ("band_gap"). */
  property?: string;
  status?: DatasetTriplet['status'];
  decision?: ReviewDecision;
  /** `papers` key of the source paper (`doi:…`, `url:…`, `title:…`). */
  paperKey?: string;
  /**
   * Words of the material, property, evidence quote, paper title or DOI: with the search index
   * (`queryTriplets`' `search`), every word as a word start (src/store/triplet-search-index.ts);
   * without it, or until it is built, a case-insensitive substring.
   */
  search?: string;
}

function matchesRest(query: TripletQuery): (row: DatasetTriplet) => boolean {
  const material = query.material?.toLowerCase();
  const search = query.search?.trim().toLowerCase();
  return (row) =>
    (material === undefined || row.material.toLowerCase().startsWith(material)) &&
    (query.property === undefined || row.property === query.property) &&
    (query.status === undefined || row.status === query.status) &&
    (query.decision === undefined || row.review.decision === query.decision) &&
    (query.paperKey === undefined || row.paper.key === query.paperKey) &&
    (!search ||
      [row.material, row.property, row.evidence?.quote.exact, row.paper.title, row.paper.doi].some((field) =>
        field?.toLowerCase().includes(search),
      ));
}

/**
 * The most selective index the query can use, or undefined for none. Order: the paper (a few
 * dozen rows), the material prefix, the property, the status (`needs_review` is the review
 * queue, a minority); decision and search are tested on the rows the index returns.
 */
function indexedCollection(
  database: AssayDatabase,
  query: TripletQuery,
): ReturnType<AssayDatabase['triplets']['toCollection']> | undefined {
  const table = database.triplets;
  if (query.paperKey !== undefined) return table.where('paper.key').equals(query.paperKey);
  if (query.material) return table.where('material').startsWithIgnoreCase(query.material);
  if (query.property !== undefined) return table.where('property').equals(query.property);
  if (query.status !== undefined) return table.where('status').equals(query.status);
  return undefined;
}

/**
 * One page of the rows matching `query`, newest first (savedAt descending, then id for ties), and
 * how many match in all. `page` defaults to everything. With a paper, material, property or
 * status filter, only that index's rows are read (then sorted in memory); otherwise the
 * `savedAt` index is walked backwards with the other filters applied as it goes (twice: once to
 * count, once for the page, so a large result is never held in memory). A decision alone scans
 * every row. A search asks `search` (the search index) for the matching ids and reads only those
 * rows (`searchTriplets`); without it, or while it cannot answer, the search scans every row.
 */
export async function queryTriplets(
  database: AssayDatabase,
  query: TripletQuery,
  page?: { offset: number; limit: number },
  search?: TripletIdSearch,
): Promise<{ rows: DatasetTriplet[]; total: number }> {
  const text = query.search?.trim();
  const ids = search && text ? await searchIds(search, text) : undefined;
  if (ids) return searchTriplets(database, ids, query, page);
  const matches = matchesRest(query);
  const collection = indexedCollection(database, query);
  if (collection) {
    const rows = (await collection.toArray()).filter(matches);
    rows.sort((a, b) => (a.savedAt === b.savedAt ? (a.id < b.id ? 1 : -1) : a.savedAt < b.savedAt ? 1 : -1));
    return { rows: page ? rows.slice(page.offset, page.offset + page.limit) : rows, total: rows.length };
  }
  // No filter at all: count and page straight from the savedAt index (no row is tested).
  const unfiltered = query.decision === undefined && !query.search?.trim();
  const newestFirst = () =>
    unfiltered ? database.triplets.orderBy('savedAt').reverse() : database.triplets.orderBy('savedAt').reverse().filter(matches);
  return database.transaction('r', database.triplets, async () => {
    const total = await newestFirst().count();
    const rows = page ? await newestFirst().offset(page.offset).limit(page.limit).toArray() : await newestFirst().toArray();
    return { rows, total };
  });
}

/** Delete the rows `ids` (missing ids are skipped). Resolves to the rows deleted, for undo with `restoreTriplets`. */
export async function deleteTriplets(database: AssayDatabase, ids: readonly string[]): Promise<DatasetTriplet[]> {
  return database.transaction('rw', database.triplets, async () => {
    const rows = (await database.triplets.bulkGet([...ids])).filter((row): row is DatasetTriplet => row !== undefined);
    await database.triplets.bulkDelete(rows.map((row) => row.id));
    return rows;
  });
}

/**
 * Put back rows returned by `deleteTriplets` (undo), with their ids and savedAt. A row whose
 * merge key was saved again in the meantime merges into that row (as `saveTriplets` does) rather
 * than breaking the unique index.
 */
export async function restoreTriplets(database: AssayDatabase, rows: readonly DatasetTriplet[]): Promise<void> {
  await saveTriplets(database, rows);
}

/**
 * Set the reader's review of row `id` (decision, time, and the model's original answer after an
 * edit). Resolves to false when there is no such row. Throws a `ZodError` when `review` does not
 * match the schema's `review` (nothing is written).
 */
export async function updateTripletReview(database: AssayDatabase, id: string, review: DatasetTriplet['review']): Promise<boolean> {
  const parsed = DatasetTripletSchema.shape.review.parse(review);
  return database.transaction('rw', database.triplets, async () => (await database.triplets.update(id, { review: parsed })) === 1);
}

/** The distinct property names in the dataset, sorted (read from the `property` index keys, no rows loaded). */
export async function datasetProperties(database: AssayDatabase): Promise<string[]> {
  const keys = await database.triplets.orderBy('property').uniqueKeys();
  return keys.map(String);
}

/** How many rows the dataset holds. */
export async function countTriplets(database: AssayDatabase): Promise<number> {
  return database.triplets.count();
}
