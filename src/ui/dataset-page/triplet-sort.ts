/**
 * Sorting the dataset table by any column, in pure functions: each column's sort key of a row,
 * and the order of a list of keyed ids. Text sorts by locale collation (numbers inside text in
 * numeric order: "TiO2" before "TiO10"), value columns numerically by the SI value (so mixed units
 * compare right), the date by ISO time; a row without the key (no SI value, no DOI, no page) goes
 * last in both directions; ties keep the table's default order, newest first.
 */
import { formatProvenance } from '../../contracts/conditions';
import { conditionText, OTHER_CONDITION_KINDS } from '../shared/fact-conditions';
import { shortAuthorList } from '../shared/author-names';
import type { DatasetTriplet } from '../../contracts/dataset';
import { columnById, type ColumnId } from './triplet-columns';
import type { PropertyLabel } from '../shared/run-view-model';
import { statusText } from './dataset-view-model';

export type SortDirection = 'ascending' | 'descending';

/** Which column the table is sorted by, and which way. */
export interface TripletSort {
  column: ColumnId;
  direction: SortDirection;
}

/** The table's own order: newest saved first (the order `queryTriplets` and the `savedAt` index give). */
export const DEFAULT_SORT: TripletSort = { column: 'saved', direction: 'descending' };

/** Whether `sort` is the default order, which the repository's indexes answer without sorting. */
export function isDefaultSort(sort: TripletSort): boolean {
  return sort.column === DEFAULT_SORT.column && sort.direction === DEFAULT_SORT.direction;
}

/**
 * The sort after the reader activates column `column`'s header: the same column flips its
 * direction; another column starts ascending (the date newest first, as the table starts).
 */
export function nextSort(current: TripletSort, column: ColumnId): TripletSort {
  if (current.column === column) return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { column, direction: column === 'saved' ? 'descending' : 'ascending' };
}

/** A row's sort key: a string for text and dates, a number for values, null when the row has none. */
export type SortKey = string | number | null;

/**
 * The SI value a row sorts by: the number, or a range's low end; null when the unit does not
 * convert to SI (`si` is null). Units: the SI unit of `si.unit` (joules for a band gap, kelvin for Tc).
 */
export function siSortValue(row: Pick<DatasetTriplet, 'si'>): number | null {
  if (!row.si) return null;
  return row.si.value.kind === 'range' ? row.si.value.low : row.si.value.value;
}

const blankToNull = (text: string | null | undefined): string | null =>
  text === undefined || text === null || text.trim() === '' ? null : text;

/** Row `row`'s key for column `column`; `label` spells a property as the table shows it. */
export function sortKey(row: DatasetTriplet, column: ColumnId, label: PropertyLabel): SortKey {
  switch (column) {
    case 'material':
      return row.material;
    case 'property':
      return label(row.property);
    case 'value':
    case 'display':
      return siSortValue(row);
    case 'unit':
      return blankToNull(row.unit);
    case 'method':
      return blankToNull(conditionText(row.conditions, ['method']));
    case 'temperature':
      return blankToNull(conditionText(row.conditions, ['temperature']));
    case 'pressure':
      return blankToNull(conditionText(row.conditions, ['pressure']));
    case 'otherConditions':
      return blankToNull(conditionText(row.conditions, OTHER_CONDITION_KINDS));
    case 'provenance':
      return blankToNull(formatProvenance(row.provenance));
    case 'doi':
      return blankToNull(row.paper.doi);
    case 'title':
      return blankToNull(row.paper.title);
    case 'authors':
      return blankToNull(shortAuthorList(row.paper.authors));
    case 'quote':
      return blankToNull(row.evidence?.quote.exact);
    case 'page':
      return row.evidence?.page ?? null;
    case 'status':
      return statusText(row.status);
    case 'decision':
      return row.review.decision;
    case 'models':
      return blankToNull(row.models.join(', '));
    case 'saved':
      return row.savedAt;
  }
}

/** The collation of text columns: the reader's locale, case and accents ignored at first, numbers in numeric order. */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Compare two texts as text columns sort (`Intl.Collator` of the reader's locale, numeric, base sensitivity): negative, zero or positive. */
export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

/** An id with its sort key and what breaks ties (the default order: savedAt descending, then id descending). */
export interface KeyedId {
  id: string;
  savedAt: string;
  key: SortKey;
}

function newestFirst(a: KeyedId, b: KeyedId): number {
  if (a.savedAt !== b.savedAt) return a.savedAt < b.savedAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/**
 * The ids of `entries` in `sort`'s order (a new array; `entries` is sorted in place). Text keys
 * are collated once per distinct text (a dataset repeats its materials and properties), then the
 * rows are sorted by rank, so 100 000 rows cost one numeric sort. Null keys go last whichever the
 * direction; equal keys stay newest first (by date: oldest first is newest first reversed).
 */
export function sortKeyedIds(entries: KeyedId[], sort: TripletSort): string[] {
  const kind = columnById(sort.column).sort;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  let rank: (key: SortKey) => number;
  if (kind === 'text') {
    const distinct = [...new Set(entries.map((entry) => entry.key).filter((key): key is string => typeof key === 'string'))];
    distinct.sort(collator.compare);
    // Texts the collation calls equal ("TiO2", "tio2") share a rank, so their rows tie (newest first).
    const ranks = new Map<string, number>();
    distinct.forEach((text, index) => {
      const previous = distinct[index - 1];
      ranks.set(text, previous !== undefined && collator.compare(previous, text) === 0 ? ranks.get(previous)! : index);
    });
    rank = (key) => ranks.get(key as string)!;
  } else if (kind === 'date') {
    const distinct = [...new Set(entries.map((entry) => entry.key).filter((key): key is string => typeof key === 'string'))].sort();
    const ranks = new Map(distinct.map((text, index) => [text, index]));
    rank = (key) => ranks.get(key as string)!;
  } else {
    rank = (key) => key as number;
  }
  const ranked = entries.map((entry) => ({ entry, rank: entry.key === null || Number.isNaN(entry.key) ? null : rank(entry.key) }));
  ranked.sort((a, b) => {
    if (a.rank === null || b.rank === null) {
      if (a.rank !== b.rank) return a.rank === null ? 1 : -1;
      return newestFirst(a.entry, b.entry);
    }
    if (a.rank !== b.rank) return sign * (a.rank - b.rank);
    // Oldest first is exactly newest first reversed, ties included (as the `savedAt` index walks them).
    return kind === 'date' ? -sign * newestFirst(a.entry, b.entry) : newestFirst(a.entry, b.entry);
  });
  return ranked.map(({ entry }) => entry.id);
}

/** The table caption's words for the order: "newest first", "sorted by value, ascending". */
export function sortDescription(sort: TripletSort): string {
  if (isDefaultSort(sort)) return 'newest first';
  return `sorted by ${columnById(sort.column).heading.toLowerCase()}, ${sort.direction}`;
}
