/**
 * Full-text search over the personal dataset: a MiniSearch index of each triplet's evidence
 * quote, paper title, material, property and DOI, kept in step with the `triplets` table, that
 * answers a search with the ids of the matching rows (it stores no fields).
 *
 * What a search matches: every word typed (AND), each as the start of a word of any of those
 * five fields, in any case and order: "TiO" finds "TiO2", "photolum" finds
 * "photoluminescence", "gap band" finds "band gap". Words are cut at white space only, so a
 * formula or a DOI is one word, and the part of a word after a punctuation mark inside it is
 * a word start too ("nanolett" and "5b01234" find "10.1021/acs.nanolett.5b01234", "OH" finds
 * "Ca(OH)2"); see src/store/triplet-search-terms.ts. Compared with the substring scan it
 * replaces (`queryTriplets` without an index), it no longer finds text that starts inside a word
 * ("luminescence" in "photoluminescence", "SrTiO3" inside "Ba0.5Sr0.5TiO3", "iO2"), and it now
 * finds words apart or out of order and compatibility forms ("TiO2" finds "TiO₂"). A search of
 * punctuation only has no word: `ids` answers undefined and the caller scans.
 *
 * Kept in step: after `build`, every committed write to `triplets` from any context reaches
 * the index as the keys it wrote (`followTripletWrites`, src/store/triplet-mutations.ts): listed
 * keys are re-read (`bulkGet`: present → replaced, absent → discarded); a change too wide to
 * list (a range delete, `clear()`) re-reads the whole table, re-indexing only rows whose text
 * changed and discarding rows no longer there. Limits: a write made without the
 * `tripletWriteKeys` middleware (plain IndexedDB, or a Dexie instance not made by
 * `createAssayDatabase`) is not seen until the next build; changes are applied in order but after the
 * fact, so a search in the few milliseconds between a commit and its re-read misses it, and
 * `generation` grows when it lands so the caller searches again. An index that would outgrow
 * `MAX_INDEX_BYTES` (by a measured estimate) first drops its text search (MiniSearch, the larger
 * part) and keeps following the rows for its companion, saying so in its state (`searchStopped`:
 * searches then scan, filters and sorts still answer from the companion); when even that would
 * outgrow the budget, it gives up and empties itself.
 */
import MiniSearch from 'minisearch';
import type { DatasetTriplet } from '../contracts/dataset';
import type { TripletSearchState } from '../contracts/messages';
import type { AssayDatabase } from './assay-database';
import { followTripletWrites, type TripletChanges, type TripletWriteFeed } from './triplet-mutations';
import { indexTerms, searchWords, textFingerprint } from './triplet-search-terms';

/** Rows read per transaction while building: a few thousand keep a read short (~1.5 KB a row) and the number of reads small. */
export const DEFAULT_BUILD_CHUNK = 2000;

/**
 * Heap taken by a MiniSearch index, in bytes, as measured in Node 20 by indexing 100,000
 * documents of one common word, of one distinct word each, and of ten common words (V8 there
 * does not compress pointers; Chromium's does, so these are upper bounds): per document (id maps,
 * field lengths), per posting (a term in a document), per distinct term (its radix-tree node and
 * posting maps). 100,000 synthetic rows (test/e2e/synthetic-dataset.ts) take ~150 MB.
 */
const BYTES_PER_DOCUMENT = 330;
/**
 * The index's own record of a row (`entries`: its id as a key, the record object with its fingerprint,
 * postings, savedAt and walk), kept with or without the text search: an estimate in V8's terms
 * (an object of four fields, a map slot, two strings of ~40 characters at 2 bytes each).
 */
const BYTES_PER_ENTRY = 250;
const BYTES_PER_POSTING = 36;
const BYTES_PER_TERM = 550;

/**
 * The most heap the index may take by that estimate (default of `maxBytes`). A dedicated worker
 * lives in its page's renderer, and a worker that exhausts V8's heap (3.76 GB per isolate in
 * Debian's Chromium here: `performance.memory.jsHeapSizeLimit`) takes the page down with it
 * (seen: a worker allocating past it crashed its page). 2 GB leaves room for the build's garbage;
 * a larger dataset (~1.2 million synthetic rows, fewer with long quotes) is not indexed and its
 * searches read every row, slower but the page stays up.
 */
export const MAX_INDEX_BYTES = 2e9;

/**
 * What follows the index's rows beside it (the dataset worker's catalog of filter fields and sort
 * keys, src/ui/dataset-page/triplet-catalog.ts): every row the index reads is `put` (true when
 * what it keeps of the row changed), every row gone is `delete`d, and a failed index `clear`s it.
 * Its `bytes` (an estimate) count against the index's `maxBytes`.
 */
export interface RowCompanion {
  put(row: DatasetTriplet): boolean;
  delete(id: string): void;
  clear(): void;
  readonly bytes: number;
}

export interface TripletSearchIndexOptions {
  /** Kept in step with the index (see `RowCompanion`); none by default. */
  companion?: RowCompanion;
  /** Rows per read while building and re-reading (default `DEFAULT_BUILD_CHUNK`). */
  chunkSize?: number;
  /** Lets other work (searches) run between reads; default a macrotask (`setTimeout(0)`). */
  yieldControl?: () => Promise<void>;
  /** Called with every new state. */
  onState?: (state: TripletSearchState) => void;
  /** Where committed writes to `triplets` are heard; default `followTripletWrites(database.name)`. */
  writes?: TripletWriteFeed;
  /** Give up (state `failed`, index emptied) past this estimated heap, in bytes; default `MAX_INDEX_BYTES`. */
  maxBytes?: number;
}

export interface TripletSearchIndex {
  readonly state: TripletSearchState;
  /**
   * Read the table in primary-key order, `chunkSize` rows per read (yielding between reads),
   * calling `onProgress(done, total)` after each, and follow every later write. Resolves when the
   * index answers; rejects (state `failed`) when a read fails. Calling it again returns the same promise.
   */
  build(onProgress?: (done: number, total: number) => void): Promise<void>;
  /**
   * The ids of the rows matching `text` (see the module comment), newest first as the dataset
   * table orders rows (savedAt descending as text, then id descending), so a page of the results
   * needs no other read to order it; undefined while not `ready`, once the text search is dropped
   * (`searchStopped`), or when `text` has no word.
   */
  ids(text: string): ReadonlySet<string> | undefined;
  /**
   * Whether every change heard of has been applied (ready, nothing pending): what the companion
   * answers is then the whole table as of the last change heard, not a table half re-read.
   */
  readonly settled: boolean;
  /** Stop following the table; later searches answer undefined. */
  close(): void;
}

/** What the index holds of a row. */
interface SearchDocument {
  id: string;
  quote: string;
  title: string;
  material: string;
  property: string;
  doi: string;
}

const FIELDS = ['quote', 'title', 'material', 'property', 'doi'] as const;

/** A stored value as text ('' when it is not a string: rows are read back untrusted). */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function searchDocument(row: DatasetTriplet, id: string): SearchDocument {
  return {
    id,
    quote: text(row.evidence?.quote?.exact),
    title: text(row.paper?.title),
    material: text(row.material),
    property: text(row.property),
    doi: text(row.paper?.doi),
  };
}

/** The index over `database.triplets`; nothing is read until `build`. */
export function createTripletSearchIndex(database: AssayDatabase, options: TripletSearchIndexOptions = {}): TripletSearchIndex {
  const chunkSize = options.chunkSize ?? DEFAULT_BUILD_CHUNK;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  const yieldControl = options.yieldControl ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  const writes = options.writes ?? followTripletWrites(database.name);
  let unfollow: (() => void) | undefined;
  const maxBytes = options.maxBytes ?? MAX_INDEX_BYTES;
  const companion = options.companion;
  const table = database.triplets;
  /** Terms MiniSearch has been given to index, over its life (a row's share is the change across its `add`). */
  let termsGiven = 0;
  const search = new MiniSearch<SearchDocument>({
    fields: [...FIELDS],
    storeFields: [],
    tokenize: (value) => {
      const terms = indexTerms(value);
      termsGiven += terms.length;
      return terms;
    },
    // The tokenizers already normalize (NFKC, lower case).
    processTerm: (term) => term,
    searchOptions: { tokenize: searchWords, combineWith: 'AND', prefix: true },
  });
  /** Per indexed id: the fingerprint of its text, its postings, its savedAt (for the order) and the walk that last saw it (for the sweep). */
  const entries = new Map<string, { fingerprint: number; postings: number; savedAt: string; seen: number }>();
  let postings = 0;
  const pendingKeys = new Set<string>();
  let pendingWide = false;
  let walks = 0;
  let generation = 0;
  let changed = false;
  let closed = false;
  let state: TripletSearchState = { status: 'building', done: 0, total: 0, generation };
  /** Why the text search was dropped (it outgrew the budget), once it was: rows are still followed for the companion. */
  let searchStopped: string | undefined;
  let building: Promise<void> | undefined;
  let draining: Promise<void> | undefined;
  /** A walk or re-read is between its read and its last row indexed. */
  let applying = false;

  const setState = (next: TripletSearchState) => {
    state = next;
    options.onState?.(next);
  };

  const indexRow = (row: DatasetTriplet) => {
    const id: unknown = row?.id;
    if (typeof id !== 'string') return;
    if (companion?.put(row)) changed = true;
    if (searchStopped !== undefined) {
      const entry = entries.get(id);
      const savedAt = text(row.savedAt);
      if (entry?.savedAt !== savedAt) changed = true;
      entries.set(id, { fingerprint: 0, postings: 0, savedAt, seen: walks });
      return;
    }
    const document = searchDocument(row, id);
    const fingerprint = textFingerprint(FIELDS.map((field) => document[field]).join('\u0000'));
    const savedAt = text(row.savedAt);
    const entry = entries.get(id);
    if (entry?.fingerprint === fingerprint) {
      entry.seen = walks;
      if (entry.savedAt !== savedAt) changed = true;
      entry.savedAt = savedAt;
      return;
    }
    const before = termsGiven;
    if (entry === undefined) search.add(document);
    else search.replace(document);
    postings += termsGiven - before - (entry?.postings ?? 0);
    entries.set(id, { fingerprint, postings: termsGiven - before, savedAt, seen: walks });
    changed = true;
  };

  /** `ids` newest first: savedAt descending (as text, like `queryTriplets`), then id descending. */
  const newestFirst = (ids: string[]): string[] => {
    const keyed = ids.map((id) => ({ id, savedAt: entries.get(id)?.savedAt ?? '' }));
    keyed.sort((a, b) => (a.savedAt === b.savedAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.savedAt < b.savedAt ? 1 : -1));
    return keyed.map((item) => item.id);
  };

  const discardRow = (id: string) => {
    const entry = entries.get(id);
    if (entry === undefined) return;
    entries.delete(id);
    companion?.delete(id);
    postings -= entry.postings;
    if (searchStopped === undefined) search.discard(id);
    changed = true;
  };

  /**
   * Past `maxBytes` (by the estimates above): drop the text search while the entries and the
   * companion alone fit (a companion is what there is to keep following rows for); else throw.
   */
  const checkSize = () => {
    const kept = BYTES_PER_ENTRY * entries.size + (companion?.bytes ?? 0);
    const searchBytes =
      searchStopped === undefined
        ? BYTES_PER_DOCUMENT * entries.size + BYTES_PER_POSTING * postings + BYTES_PER_TERM * search.termCount
        : 0;
    if (kept + searchBytes <= maxBytes) return;
    const megabytes = (value: number) => `${Math.round(value / 1e6).toLocaleString('en-US')} MB`;
    const rows = entries.size.toLocaleString('en-US');
    if (companion && kept <= maxBytes) {
      searchStopped = `the search index would take about ${megabytes(kept + searchBytes)} for ${rows} rows, over ${megabytes(maxBytes)}`;
      search.removeAll();
      postings = 0;
      for (const entry of entries.values()) entry.postings = 0;
      changed = true;
      return;
    }
    throw new Error(
      `the dataset is too large to index in this browser: about ${megabytes(kept + searchBytes)} for ${rows} rows, over ${megabytes(maxBytes)}`,
    );
  };

  /** Read every row (primary-key order), index new and changed ones, then discard the ids not seen. */
  const walk = async (status: 'building' | 'updating', onProgress?: (done: number, total: number) => void) => {
    walks += 1;
    const total = await table.count();
    let done = 0;
    setState({ status, done, total, generation });
    let lastKey: unknown;
    for (;;) {
      const rows = await (done === 0 ? table.toCollection() : table.where(':id').above(lastKey)).limit(chunkSize).toArray();
      if (closed) return;
      for (const row of rows) indexRow(row);
      checkSize();
      done += rows.length;
      lastKey = rows.at(-1)?.id;
      setState({ status, done, total: Math.max(total, done), generation });
      onProgress?.(done, Math.max(total, done));
      if (rows.length < chunkSize) break;
      await yieldControl();
    }
    for (const [id, entry] of entries) if (entry.seen !== walks) discardRow(id);
  };

  /** Re-read listed keys, `chunkSize` at a time. */
  const reread = async () => {
    const keys = [...pendingKeys].slice(0, chunkSize);
    for (const key of keys) pendingKeys.delete(key);
    const rows = await table.bulkGet(keys);
    if (closed) return;
    keys.forEach((key, index) => {
      const row = rows[index];
      if (row) indexRow(row);
      else discardRow(key);
    });
    checkSize();
  };

  /** Apply pending changes in order, one read at a time, until none is left. */
  const drain = async (onProgress?: (done: number, total: number) => void) => {
    while (!closed && (pendingWide || pendingKeys.size > 0)) {
      applying = true;
      try {
        if (pendingWide) {
          pendingWide = false;
          await walk(state.status === 'building' ? 'building' : 'updating', onProgress);
        } else await reread();
      } finally {
        applying = false;
      }
      if (closed) return;
      // One new generation per burst of changes, once all of it is applied; until then, how much is left.
      if (!pendingWide && pendingKeys.size === 0 && (changed || state.status !== 'ready' || state.pending !== undefined)) {
        if (changed || state.status !== 'ready') generation += 1;
        changed = false;
        setState({ status: 'ready', rows: entries.size, generation, ...(searchStopped !== undefined && { searchStopped }) });
      } else if (!pendingWide && state.status === 'ready')
        setState({
          status: 'ready',
          rows: entries.size,
          generation,
          pending: pendingKeys.size,
          ...(searchStopped !== undefined && { searchStopped }),
        });
      await yieldControl();
    }
  };

  const schedule = (onProgress?: (done: number, total: number) => void): Promise<void> => {
    draining ??= drain(onProgress)
      .catch((error: unknown) => {
        closed = true;
        unfollow?.();
        // Free the memory: a failed index answers nothing.
        search.removeAll();
        entries.clear();
        companion?.clear();
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error), generation: generation + 1 });
        throw error;
      })
      .finally(() => {
        draining = undefined;
        // A change that arrived as the last step finished.
        if (!closed && (pendingWide || pendingKeys.size > 0)) void schedule().catch(() => undefined);
      });
    return draining;
  };

  function follow(changes: TripletChanges) {
    if (closed) return;
    if (changes.wide) pendingWide = true;
    for (const key of changes.keys) pendingKeys.add(key);
    void schedule().catch(() => undefined);
  }

  return {
    get state() {
      return state;
    },
    get settled() {
      return !closed && state.status === 'ready' && !applying && !pendingWide && pendingKeys.size === 0;
    },
    build(onProgress) {
      if (building) return building;
      unfollow = writes.subscribe(follow);
      pendingWide = true;
      building = schedule(onProgress);
      return building;
    },
    ids(query) {
      if (closed || searchStopped !== undefined || state.status !== 'ready' || searchWords(query).length === 0) return undefined;
      return new Set(newestFirst(search.search(query).map((result) => result.id as string)));
    },
    close() {
      closed = true;
      unfollow?.();
    },
  };
}
