/**
 * The dataset worker's catalog (issue 31): what the dataset table filters and sorts on, for every
 * stored row, kept in the worker beside the search index (which `put`s every row it reads and
 * `delete`s every row gone, src/store/triplet-search-index.ts), so a filter or a sort of 100,000
 * rows is answered from memory off the page's main thread instead of by reading every row
 * through IndexedDB (seconds on a 2-core machine). The page then reads only the rows of the pages
 * on screen, by id.
 *
 * Kept per row: the filter fields (material, property, status, decision, paper key) and the sort
 * key of every column (`sortKey` of triplet-sort.ts, so the order is exactly the one the page's own
 * in-memory sort gives; a property sorts by the label the page sends). An order answer is the
 * filter's rows newest first (savedAt descending as text, then id descending: the table's default
 * order), then stably sorted by the column's key: text by collation rank, numbers by value, rows
 * without a key last in either direction, ties newest first; the date column oldest first is the
 * newest-first order reversed. A filter is applied first and only its rows are put newest first
 * (a million rows took seconds to sort in the worker, 10,000 matches take milliseconds), unless
 * the order of every row is already at hand. The order of every row, each text column's ranks and
 * the last answer are cached until the catalog changes; `prepare` works out the order of every row
 * ahead, which the worker asks for once the rows stop changing (the first sort of 100,000 rows
 * then took about 400 ms more in Chromium).
 *
 * A search of a dataset whose text search was dropped (past the worker's budget) is `scan`ned
 * here, in memory, with the page's own scan's matching (a million rows: seconds through
 * IndexedDB, far less here).
 *
 * Memory: texts that repeat across rows (materials, properties, titles, authors, DOIs, units,
 * conditions, times) are kept once each (`intern`), the quotes as they come; at a million rows
 * the worker's heap, and the time its garbage collector takes, is mostly what it keeps per row.
 *
 * A row whose keys cannot be worked out (a malformed stored record) makes the catalog answer
 * nothing (`order` → undefined) until it is deleted: the page then falls back to its IndexedDB reads.
 */
import type { DatasetTriplet } from '../../contracts/dataset';
import type { TripletOrderQuery, TripletOrderRequest } from '../../contracts/messages';
import type { TripletCatalog } from '../../extension/triplet-search-host';
import { spellPropertyName } from '../shared/run-view-model';
import { TRIPLET_COLUMNS, type ColumnId, type SortKind } from './triplet-columns';
import { compareText, sortKey, type SortKey } from './triplet-sort';

/** One row as the catalog keeps it. */
interface CatalogRow {
  id: string;
  savedAt: string;
  material: string;
  /** The material lower-cased, for the prefix filter. */
  materialLower: string;
  property: string;
  status: string;
  decision: string;
  paperKey: string;
  /** Each column's sort key, in `TRIPLET_COLUMNS`' order (the property's slot is unused: it sorts by label). */
  keys: SortKey[];
}

const COLUMN_INDEX = new Map<string, number>(TRIPLET_COLUMNS.map((column, index) => [column.id, index]));
const PROPERTY_INDEX = COLUMN_INDEX.get('property')!;

/**
 * Heap per kept row besides its texts, in bytes (the row object, its keys array of 20 slots, map
 * entry): an estimate in V8's terms, counted with 2 bytes per text character (an upper bound).
 */
const BYTES_PER_ROW = 400;
/** Heap per interned text besides its characters (the string's header, its map entry). */
const BYTES_PER_INTERNED = 80;

/** A stored value as text ('' when it is not a string: rows are read back untrusted). */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The quote column's index: quotes are nearly all distinct, so they are not interned. */
const QUOTE_INDEX = COLUMN_INDEX.get('quote')!;
/** The other searched fields kept as sort keys (`scan`): the paper's title and DOI. */
const TITLE_INDEX = COLUMN_INDEX.get('title')!;
const DOI_INDEX = COLUMN_INDEX.get('doi')!;

/** Newest first: savedAt descending as text, then id descending (as `queryTriplets`). */
function newestFirst(a: CatalogRow, b: CatalogRow): number {
  if (a.savedAt !== b.savedAt) return a.savedAt < b.savedAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/** Characters of the texts a row holds that are not interned (its id, its quote). */
function ownTextLength(row: CatalogRow): number {
  const quote = row.keys[QUOTE_INDEX];
  return row.id.length + (typeof quote === 'string' ? quote.length : 0);
}

/**
 * The catalog row of `row`, repeated texts through `intern` (the quote and id as they are);
 * throws on a record whose fields the sort keys cannot read.
 */
function catalogRow(row: DatasetTriplet, intern: (text: string) => string): CatalogRow {
  const keys = TRIPLET_COLUMNS.map((column, index) => {
    if (index === PROPERTY_INDEX) return null;
    const key = sortKey(row, column.id, spellPropertyName);
    return typeof key === 'string' && index !== QUOTE_INDEX ? intern(key) : key;
  });
  const material = intern(text(row.material));
  return {
    id: row.id,
    savedAt: intern(text(row.savedAt)),
    material,
    materialLower: intern(material.toLowerCase()),
    property: intern(text(row.property)),
    status: intern(text(row.status)),
    decision: intern(text(row.review?.decision)),
    paperKey: intern(text(row.paper?.key)),
    keys,
  };
}

function sameRow(a: CatalogRow, b: CatalogRow): boolean {
  return (
    a.savedAt === b.savedAt &&
    a.material === b.material &&
    a.property === b.property &&
    a.status === b.status &&
    a.decision === b.decision &&
    a.paperKey === b.paperKey &&
    a.keys.every((key, index) => Object.is(key, b.keys[index]))
  );
}

function rowFilter(query: TripletOrderQuery, searchIds: ReadonlySet<string> | undefined): ((row: CatalogRow) => boolean) | undefined {
  const material = query.material ? query.material.toLowerCase() : undefined;
  const tests: Array<(row: CatalogRow) => boolean> = [];
  if (material) tests.push((row) => row.materialLower.startsWith(material));
  if (query.property !== undefined) tests.push((row) => row.property === query.property);
  if (query.status !== undefined) tests.push((row) => row.status === query.status);
  if (query.decision !== undefined) tests.push((row) => row.decision === query.decision);
  if (query.paperKey !== undefined) tests.push((row) => row.paperKey === query.paperKey);
  if (searchIds) tests.push((row) => searchIds.has(row.id));
  if (tests.length === 0) return undefined;
  return (row) => tests.every((test) => test(row));
}

/**
 * Collation ranks of `texts`: equal ranks for texts the table's collation calls equal ("TiO2",
 * "tio2"), so their rows stay newest first as any other tie.
 */
function collationRanks(texts: Iterable<string>): Map<string, number> {
  const distinct = [...new Set(texts)].sort(compareText);
  const ranks = new Map<string, number>();
  let rank = 0;
  distinct.forEach((value, index) => {
    if (index > 0 && compareText(distinct[index - 1]!, value) !== 0) rank = index;
    ranks.set(value, rank);
  });
  return ranks;
}

/** A new, empty catalog. */
export function createTripletCatalog(): TripletCatalog {
  const rows = new Map<string, CatalogRow>();
  /** Ids of rows whose keys could not be worked out (the catalog answers nothing while any is stored). */
  const unreadable = new Set<string>();
  /**
   * Each repeated text once. It keeps texts of rows since deleted until `clear` (bounded by the
   * distinct texts ever seen, far fewer than rows).
   */
  const interned = new Map<string, string>();
  let internedChars = 0;
  const intern = (value: string): string => {
    const kept = interned.get(value);
    if (kept !== undefined) return kept;
    interned.set(value, value);
    internedChars += value.length;
    return value;
  };
  let ownChars = 0;
  /** Grows with every change; the caches below hold for one version. */
  let version = 0;
  let newest: { version: number; rows: CatalogRow[] } | undefined;
  const ranksByColumn = new Map<number, { version: number; ranks: Map<string, number> }>();
  let lastAnswer: { version: number; request: string; ids: string[] } | undefined;

  const newestOrder = (): CatalogRow[] => {
    if (newest?.version !== version) newest = { version, rows: [...rows.values()].sort(newestFirst) };
    return newest.rows;
  };

  /**
   * The rows matching `query` (and in `searchIds`) newest first: from the order of every row when
   * it is at hand, else the matches alone sorted (a search's rows looked up by id).
   */
  const shownNewestFirst = (query: TripletOrderQuery, searchIds: ReadonlySet<string> | undefined): CatalogRow[] => {
    const matches = rowFilter(query, searchIds);
    if (!matches) return newestOrder();
    if (newest?.version === version) return newest.rows.filter(matches);
    const shown: CatalogRow[] = [];
    if (searchIds && searchIds.size < rows.size) {
      for (const id of searchIds) {
        const row = rows.get(id);
        if (row && matches(row)) shown.push(row);
      }
    } else for (const row of rows.values()) if (matches(row)) shown.push(row);
    return shown.sort(newestFirst);
  };

  /** Collation ranks of text column `columnIndex`'s keys: of every row (cached), or of `shown` alone when it is a small part of them. */
  const textRanks = (columnIndex: number, shown: readonly CatalogRow[]): Map<string, number> => {
    const keysOf = (source: Iterable<CatalogRow>) => {
      const keys: string[] = [];
      for (const row of source) {
        const key = row.keys[columnIndex];
        if (typeof key === 'string') keys.push(key);
      }
      return keys;
    };
    if (shown.length * 4 < rows.size) return collationRanks(keysOf(shown));
    const cached = ranksByColumn.get(columnIndex);
    if (cached?.version === version) return cached.ranks;
    const ranks = collationRanks(keysOf(rows.values()));
    ranksByColumn.set(columnIndex, { version, ranks });
    return ranks;
  };

  /** Lower-cased interned texts (a scan lower-cases each distinct title, DOI or material once). */
  const lowered = new Map<string, string>();
  let loweredChars = 0;
  const lower = (value: string): string => {
    let kept = lowered.get(value);
    if (kept === undefined) {
      kept = value.toLowerCase();
      lowered.set(value, kept);
      loweredChars += kept.length;
    }
    return kept;
  };

  const remove = (id: string) => {
    const old = rows.get(id);
    if (old) ownChars -= ownTextLength(old);
    rows.delete(id);
    unreadable.delete(id);
    return old !== undefined;
  };

  return {
    get bytes() {
      return (
        BYTES_PER_ROW * rows.size + 2 * ownChars + BYTES_PER_INTERNED * (interned.size + lowered.size) + 2 * (internedChars + loweredChars)
      );
    },
    put(row) {
      let next: CatalogRow;
      try {
        next = catalogRow(row, intern);
      } catch {
        remove(row.id);
        unreadable.add(row.id);
        version += 1;
        return true;
      }
      const old = rows.get(next.id);
      unreadable.delete(next.id);
      if (old && sameRow(old, next)) return false;
      remove(next.id);
      rows.set(next.id, next);
      ownChars += ownTextLength(next);
      version += 1;
      return true;
    },
    delete(id) {
      const hadUnreadable = unreadable.has(id);
      if (remove(id) || hadUnreadable) version += 1;
    },
    clear() {
      rows.clear();
      unreadable.clear();
      interned.clear();
      lowered.clear();
      loweredChars = 0;
      internedChars = 0;
      ownChars = 0;
      newest = undefined;
      ranksByColumn.clear();
      lastAnswer = undefined;
      version += 1;
    },
    prepare() {
      newestOrder();
    },
    scan(searched) {
      const search = searched.trim().toLowerCase();
      const found = new Set<string>();
      for (const row of rows.values()) {
        const quote = row.keys[QUOTE_INDEX];
        const title = row.keys[TITLE_INDEX];
        const doi = row.keys[DOI_INDEX];
        if (
          row.materialLower.includes(search) ||
          lower(row.property).includes(search) ||
          (typeof title === 'string' && lower(title).includes(search)) ||
          (typeof doi === 'string' && lower(doi).includes(search)) ||
          (typeof quote === 'string' && quote.toLowerCase().includes(search))
        )
          found.add(row.id);
      }
      return found;
    },
    order(request, searchIds) {
      if (unreadable.size > 0) return undefined;
      const columnIndex = COLUMN_INDEX.get(request.sort.column);
      if (columnIndex === undefined) return undefined;
      const key = JSON.stringify([
        request.query,
        request.sort,
        request.sort.column === 'property' ? request.labels : null,
        searchIds ? [...searchIds] : null,
      ]);
      if (lastAnswer?.version === version && lastAnswer.request === key) return lastAnswer.ids;
      const shown = shownNewestFirst(request.query, searchIds);
      const ids = orderIds(shown, request, columnIndex, (index) => textRanks(index, shown));
      lastAnswer = { version, request: key, ids };
      return ids;
    },
  };
}

/** The ids of `shown` (the request's rows, newest first) in the request's order (see the module comment). */
function orderIds(
  shown: readonly CatalogRow[],
  request: Pick<TripletOrderRequest, 'sort' | 'labels'>,
  columnIndex: number,
  textRanks: (columnIndex: number) => Map<string, number>,
): string[] {
  const column = TRIPLET_COLUMNS[columnIndex]!;
  const ascending = request.sort.direction === 'ascending';
  if ((column.sort as SortKind) === 'date') {
    // Only the saved date sorts as a date: newest first is the order itself, oldest first its reverse.
    const ids = shown.map((row) => row.id);
    return ascending ? ids.reverse() : ids;
  }
  // Each shown row's rank (NaN: no key, last either way), then positions sorted by rank; ties by position (newest first).
  const rank = new Float64Array(shown.length);
  if (column.id === ('property' satisfies ColumnId)) {
    const label = (property: string) => request.labels[property] ?? spellPropertyName(property);
    const ranks = collationRanks(new Set(shown.map((row) => label(row.property))));
    shown.forEach((row, position) => {
      rank[position] = ranks.get(label(row.property))!;
    });
  } else if (column.sort === 'text') {
    const ranks = textRanks(columnIndex);
    shown.forEach((row, position) => {
      const key = row.keys[columnIndex];
      rank[position] = typeof key === 'string' ? ranks.get(key)! : Number.NaN;
    });
  } else {
    shown.forEach((row, position) => {
      const key = row.keys[columnIndex];
      rank[position] = typeof key === 'number' ? key : Number.NaN;
    });
  }
  const sign = ascending ? 1 : -1;
  const positions = new Uint32Array(shown.length).map((_, index) => index);
  positions.sort((a, b) => {
    const ra = rank[a]!;
    const rb = rank[b]!;
    const aNone = Number.isNaN(ra);
    const bNone = Number.isNaN(rb);
    if (aNone || bNone) return aNone === bNone ? a - b : aNone ? 1 : -1;
    return ra === rb ? a - b : sign * (ra - rb);
  });
  return Array.from(positions, (position) => shown[position]!.id);
}
