/**
 * Reads and writes of the personal dataset (`triplets` table). Every function takes the database
 * first (no module-level instance) and every write is one `rw` transaction (per chunk for large
 * saves), so the dataset page's `useLiveQuery` sees whole changes.
 *
 * Duplicates: a row whose `mergeKey` (see `mergeKeyOf`) is already stored merges into the stored
 * row instead of adding one, so saving a run twice never doubles the dataset. Imported files do
 * not come through here: `saveImportChunk` (import-triplets.ts) trusts neither their ids nor their
 * keys and never changes a stored row.
 */
import { Dexie } from 'dexie';
import { DatasetTripletSchema, type DatasetTriplet, type ReviewDecision } from '../contracts/dataset';
import type { AssayDatabase } from './assay-database';
import { mergeTriplets, newestFirst } from './dataset-triplet';
import { orderedIds, rowsOfIds, searchIds, searchTriplets, type TripletIdSearch } from './search-triplets';

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
 * validate, so an imported file goes through `runImportJob` (import-job.ts) instead. Throws a RangeError when
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

/** Whether `query` filters at all (a field that is set and not blank), so the table's own count and order answer it otherwise. */
export function isFiltered(query: TripletQuery): boolean {
  return Object.values(query).some((value) => value !== undefined && value !== '');
}

/** Rows per `bulkGet` when a filter's matches are read by id (bounded so one read never holds 100 000 rows at once). */
const READ_CHUNK = 5000;

async function rowsByIds(database: AssayDatabase, ids: readonly string[]): Promise<DatasetTriplet[]> {
  const rows: DatasetTriplet[] = [];
  for (let start = 0; start < ids.length; start += READ_CHUNK) {
    for (const row of await database.triplets.bulkGet(ids.slice(start, start + READ_CHUNK))) if (row) rows.push(row);
  }
  return rows;
}

/** Letters of a prefix spelled in every case are capped here (2^8 = 256 index ranges); later letters are checked on the keys. */
const MAX_CASED_LETTERS = 8;

/**
 * The spellings of `prefix` in upper and lower case, letter by letter, for an index range per
 * spelling: "tio" → tio, tiO, tIo, …, TIO (8). Characters whose case forms are not one character
 * each ("ß" → "SS") are kept as typed, and only the first `MAX_CASED_LETTERS` cased letters vary
 * (the caller checks the full prefix on the keys it reads). Exported for its unit test.
 */
export function caseSpellings(prefix: string): string[] {
  let spellings = [''];
  let cased = 0;
  for (const character of prefix) {
    const lower = character.toLowerCase();
    const upper = character.toUpperCase();
    const varies = lower !== upper && [...lower].length === 1 && [...upper].length === 1 && cased < MAX_CASED_LETTERS;
    if (varies) cased += 1;
    const forms = varies ? [lower, upper] : [character];
    spellings = spellings.flatMap((start) => forms.map((form) => start + form));
  }
  return spellings;
}

/**
 * The `{ savedAt, id }` of every row whose material starts with `prefix` in any case, read from
 * the `[material+savedAt]` index keys alone (no row is read): one index range per spelling
 * (`caseSpellings`), then the lower-cased prefix is checked on each key.
 */
async function materialKeys(database: AssayDatabase, prefix: string): Promise<Array<{ savedAt: string; id: string }>> {
  const lower = prefix.toLowerCase();
  const ranges = caseSpellings(prefix).map((spelling): [unknown[], unknown[]] => [
    [spelling, Dexie.minKey],
    [`${spelling}\uffff`, Dexie.maxKey],
  ]);
  const found: Array<{ savedAt: string; id: string }> = [];
  await database.triplets
    .where('[material+savedAt]')
    .inAnyRange(ranges as never)
    .eachKey((key, cursor) => {
      const [material, savedAt] = key as [string, string];
      if (material.toLowerCase().startsWith(lower)) found.push({ savedAt, id: String(cursor.primaryKey) });
    });
  return found;
}

/** One page (or all) of `rows`, already newest first, and their count. */
function paged<Row>(rows: Row[], page: { offset: number; limit: number } | undefined): { rows: Row[]; total: number } {
  return { rows: page ? rows.slice(page.offset, page.offset + page.limit) : rows, total: rows.length };
}

/**
 * One page of the rows matching `query`, newest first (savedAt descending, then id for ties), and
 * how many match in all. `page` defaults to everything. Each filter reads an index, in this order:
 *
 * - paper: the `paper.key` index (a paper holds a few dozen rows), sorted in memory;
 * - material prefix: the `[material+savedAt]` index keys only (`materialKeys`), sorted by savedAt;
 *   alone, only the page's rows are read; with other filters, the prefix's rows are read and tested;
 * - property, or status: the `[property+savedAt]` / `[status+savedAt]` range walked backwards, so
 *   the count and the page come from the index in order (other filters are tested as it walks);
 * - nothing: the `savedAt` index walked backwards (a page), or the whole table read at once and
 *   sorted in memory (everything: an export), which IndexedDB does far faster than a cursor.
 *
 * With `options.search` able to order (the dataset worker's catalog, `TripletIdSearch.order`) and
 * answering, any filter is its list of ids, newest first, and only the page's rows are read by id
 * (`rowsOfIds`); the paths above and below are for when it cannot answer (still building, no worker).
 *
 * A decision alone walks the `savedAt` index testing every row. A search asks `options.search`
 * (the search index) for the matching ids and reads only those rows (`searchTriplets`); without
 * it, or while it cannot answer, the search walks the `savedAt` index testing every row. With `count: false`
 * the index paths skip counting (IndexedDB counts by walking the range, O(rows)) and `total` is
 * NaN: for the further pages of a result whose count the caller has (the dataset page's table).
 */
export async function queryTriplets(
  database: AssayDatabase,
  query: TripletQuery,
  page?: { offset: number; limit: number },
  options: { count?: boolean; search?: TripletIdSearch | undefined } = {},
): Promise<{ rows: DatasetTriplet[]; total: number }> {
  // The worker's catalog answers any filter from memory; only the page's rows are then read.
  // (Asked only when there is an order to ask: an await of nothing here would drop a live query's context.)
  const ordered = isFiltered(query) && options.search?.order ? await orderedIds(options.search, query) : undefined;
  if (ordered) return rowsOfIds(database, ordered, page);
  const text = query.search?.trim();
  const ids = options.search && text ? await searchIds(options.search, text) : undefined;
  if (ids) return searchTriplets(database, ids, query, page);
  const matches = matchesRest(query);
  const table = database.triplets;
  return database.transaction('r', table, async () => {
    if (query.paperKey !== undefined) {
      const rows = (await table.where('paper.key').equals(query.paperKey).toArray()).filter(matches);
      return paged(rows.sort(newestFirst), page);
    }
    if (query.material) {
      const keys = (await materialKeys(database, query.material)).sort(newestFirst);
      const onlyMaterial = Object.entries(query).every(([name, value]) => name === 'material' || value === undefined);
      if (onlyMaterial) {
        const window = page ? keys.slice(page.offset, page.offset + page.limit) : keys;
        return {
          rows: await rowsByIds(
            database,
            window.map((key) => key.id),
          ),
          total: keys.length,
        };
      }
      return paged(
        (
          await rowsByIds(
            database,
            keys.map((key) => key.id),
          )
        ).filter(matches),
        page,
      );
    }
    const [index, value] =
      query.property !== undefined
        ? ['[property+savedAt]', query.property]
        : query.status !== undefined
          ? ['[status+savedAt]', query.status]
          : [];
    const tested =
      query.decision !== undefined || Boolean(query.search?.trim()) || (query.property !== undefined && query.status !== undefined);
    const collection = () => {
      const walk =
        index === undefined
          ? table.orderBy('savedAt').reverse()
          : table.where(index).between([value, Dexie.minKey], [value, Dexie.maxKey], true, true).reverse();
      return tested ? walk.filter(matches) : walk;
    };
    if (!page && index === undefined && !tested) return paged((await table.toArray()).sort(newestFirst), undefined);
    // IndexedDB counts by walking the range, so a caller that knows the count (a further page) skips it.
    const total = options.count === false ? Number.NaN : await collection().count();
    const rows = page ? await collection().offset(page.offset).limit(page.limit).toArray() : await collection().toArray();
    return { rows, total };
  });
}

/** Rows read per step by `eachTripletChunk`. */
const EXPORT_CHUNK = 5000;

/**
 * Read every row matching `query`, newest first (as `queryTriplets` orders them), and hand them to
 * `onChunk` `size` (default 5 000) at a time, so an export is written in short steps the page can
 * paint between. With no filter, the table is read `size` rows per `getAll` in primary-key order
 * and sorted; with a filter, `queryTriplets` gives the rows (asking `search`, the search index,
 * for a search). `onChunk` may be async (it is awaited). Resolves to
 * the number of rows read. Rejects with the storage error, or `onChunk`'s.
 */
export async function eachTripletChunk(
  database: AssayDatabase,
  query: TripletQuery,
  onChunk: (rows: DatasetTriplet[]) => void,
  size: number = EXPORT_CHUNK,
  search?: TripletIdSearch,
): Promise<number> {
  const filtered = isFiltered(query);
  if (filtered) {
    const { rows } = await queryTriplets(database, query, undefined, { search });
    for (let start = 0; start < rows.length; start += size) onChunk(rows.slice(start, start + size));
    return rows.length;
  }
  // One cursor walks the `savedAt` index backwards (Chromium prefetches the rows of a cursor that
  // only moves forward) and each `size` rows are handed over at once, inside the cursor's
  // callback: only one chunk is held. Reading everything first and sorting (a `getAll` per page)
  // kept 100 000 rows alive, and the garbage collector took 4.6 s of an 8 s CSV export tracing them.
  // The cursor is IndexedDB's own, not Dexie's: Dexie's `each` cost about as much again per row
  // as reading it (a 100,000-row export in the dataset worker, Chromium, 2-core machine).
  await database.open();
  return new Promise<number>((resolve, reject) => {
    let chunk: DatasetTriplet[] = [];
    let count = 0;
    const transaction = database.backendDB().transaction('triplets', 'readonly');
    const request = transaction.objectStore('triplets').index('savedAt').openCursor(null, 'prev');
    const hand = () => {
      count += chunk.length;
      const rows = chunk;
      chunk = [];
      onChunk(rows);
    };
    request.onsuccess = () => {
      const cursor = request.result;
      try {
        if (!cursor) {
          if (chunk.length > 0) hand();
          resolve(count);
          return;
        }
        chunk.push(cursor.value as DatasetTriplet);
        // The next row is asked for before the chunk is handed over: IndexedDB reads ahead while
        // `onChunk` formats (a throw there aborts the transaction, which ends that request too).
        cursor.continue();
        if (chunk.length === size) hand();
      } catch (error) {
        transaction.abort();
        reject(error);
      }
    };
    request.onerror = () => reject(request.error ?? new Error('the dataset could not be read'));
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

/**
 * The distinct property names in the dataset, sorted, read from the `[property+savedAt]` index
 * keys without loading rows: one key per property, each read jumping past the last one's range
 * (a dozen small reads, whatever the table's size).
 */
export async function datasetProperties(database: AssayDatabase): Promise<string[]> {
  const properties: string[] = [];
  const index = database.triplets.where('[property+savedAt]');
  for (;;) {
    const last = properties.at(-1);
    const next = last === undefined ? index.above(Dexie.minKey) : index.above([last, Dexie.maxKey]);
    const [key] = await next.limit(1).keys();
    if (key === undefined) return properties;
    properties.push(String((key as unknown as [string, string])[0]));
  }
}

/** How many rows the dataset holds. */
export async function countTriplets(database: AssayDatabase): Promise<number> {
  return database.triplets.count();
}
