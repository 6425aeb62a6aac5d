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
 * newest-first order reversed. Each text column's ranks, the newest-first order and the last
 * answer are cached until the catalog changes; `prepare` works out the newest-first order ahead
 * (a million rows take seconds to sort), which the worker asks for once the rows stop changing.
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

/** A stored value as text ('' when it is not a string: rows are read back untrusted). */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Newest first: savedAt descending as text, then id descending (as `queryTriplets`). */
function newestFirst(a: CatalogRow, b: CatalogRow): number {
  if (a.savedAt !== b.savedAt) return a.savedAt < b.savedAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

function textLength(keys: readonly SortKey[]): number {
  let length = 0;
  for (const key of keys) if (typeof key === 'string') length += key.length;
  return length;
}

/** The catalog row of `row`; throws on a record whose fields the sort keys cannot read. */
function catalogRow(row: DatasetTriplet): CatalogRow {
  const keys = TRIPLET_COLUMNS.map((column, index) => (index === PROPERTY_INDEX ? null : sortKey(row, column.id, spellPropertyName)));
  const material = text(row.material);
  return {
    id: row.id,
    savedAt: text(row.savedAt),
    material,
    materialLower: material.toLowerCase(),
    property: text(row.property),
    status: text(row.status),
    decision: text(row.review?.decision),
    paperKey: text(row.paper?.key),
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
  let textChars = 0;
  /** Grows with every change; the caches below hold for one version. */
  let version = 0;
  let newest: { version: number; rows: CatalogRow[] } | undefined;
  const ranksByColumn = new Map<number, { version: number; ranks: Map<string, number> }>();
  let lastAnswer: { version: number; request: string; ids: string[] } | undefined;

  const newestOrder = (): CatalogRow[] => {
    if (newest?.version !== version) newest = { version, rows: [...rows.values()].sort(newestFirst) };
    return newest.rows;
  };

  const textRanks = (columnIndex: number): Map<string, number> => {
    const cached = ranksByColumn.get(columnIndex);
    if (cached?.version === version) return cached.ranks;
    const keys: string[] = [];
    for (const row of rows.values()) {
      const key = row.keys[columnIndex];
      if (typeof key === 'string') keys.push(key);
    }
    const ranks = collationRanks(keys);
    ranksByColumn.set(columnIndex, { version, ranks });
    return ranks;
  };

  const remove = (id: string) => {
    const old = rows.get(id);
    if (old) textChars -= textLength(old.keys) + old.materialLower.length + old.paperKey.length;
    rows.delete(id);
    unreadable.delete(id);
    return old !== undefined;
  };

  return {
    get bytes() {
      return BYTES_PER_ROW * rows.size + 2 * textChars;
    },
    put(row) {
      let next: CatalogRow;
      try {
        next = catalogRow(row);
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
      textChars += textLength(next.keys) + next.materialLower.length + next.paperKey.length;
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
      textChars = 0;
      version += 1;
    },
    prepare() {
      newestOrder();
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
      const ids = orderIds(newestOrder(), request, columnIndex, searchIds, textRanks);
      lastAnswer = { version, request: key, ids };
      return ids;
    },
  };
}

/** The ids of `newest`'s rows (all rows, newest first) that match the request, in its order (see the module comment). */
function orderIds(
  newest: readonly CatalogRow[],
  request: Pick<TripletOrderRequest, 'query' | 'sort' | 'labels'>,
  columnIndex: number,
  searchIds: ReadonlySet<string> | undefined,
  textRanks: (columnIndex: number) => Map<string, number>,
): string[] {
  const matches = rowFilter(request.query, searchIds);
  const shown = matches ? newest.filter(matches) : newest;
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
