/**
 * The dataset table's columns as data: their ids and headings, how each sorts, which the reader
 * has hidden (the column chooser) and how that choice is kept in `localStorage`. Pure functions,
 * no React and no IndexedDB, so the rules are unit-tested: the material, property and value columns
 * cannot all be hidden (a row would no longer say which fact it is), and a stored choice that
 * breaks that rule, or is not a list of column ids, falls back to the default.
 */
import { z } from 'zod';

/** How a column sorts: `text` by locale collation, `number` numerically, `date` by ISO time. Missing values go last either way. */
export type SortKind = 'text' | 'number' | 'date';

/**
 * Every data column of the table, in display order (the selection checkbox column is not one of
 * them: it is always shown). The order is the columns' priority: what says which fact a row is
 * (material, property, value, unit), then what the reader judges it by (status, decision, the
 * quote), then the details; so at common window widths (1280–1440 px) the identifying columns,
 * Status and Decision are on screen without scrolling sideways (test/e2e/dataset-columns.test.ts),
 * and the details follow to the right. `value` and `display` both sort by the SI value, so a band gap of 3400 meV
 * sorts above one of 3.3 eV (both are joules in SI). The conditions are split over Method,
 * Temperature, Pressure and Other conditions (every other kind), which together hold the whole
 * list, so no column repeats it; Provenance says measured, computed or "cited [19]".
 */
export const TRIPLET_COLUMNS = [
  { id: 'material', heading: 'Material', sort: 'text' },
  { id: 'property', heading: 'Property', sort: 'text' },
  { id: 'value', heading: 'Value', sort: 'number' },
  { id: 'unit', heading: 'Unit', sort: 'text' },
  { id: 'status', heading: 'Status', sort: 'text' },
  { id: 'decision', heading: 'Decision', sort: 'text' },
  { id: 'quote', heading: 'Quote', sort: 'text' },
  // The value in its property's display unit (dataset-view-model.ts `displayText`, heading `DISPLAY_VALUE_HEADING`).
  { id: 'display', heading: 'Value (display unit)', sort: 'number' },
  // The conditions, one column per kind a reader filters or compares by, the rest together (src/ui/shared/fact-conditions.ts).
  { id: 'method', heading: 'Method', sort: 'text' },
  { id: 'temperature', heading: 'Temperature', sort: 'text' },
  { id: 'pressure', heading: 'Pressure', sort: 'text' },
  { id: 'otherConditions', heading: 'Other conditions', sort: 'text' },
  { id: 'provenance', heading: 'Provenance', sort: 'text' },
  { id: 'doi', heading: 'DOI', sort: 'text' },
  { id: 'title', heading: 'Title', sort: 'text' },
  // The paper's authors, "A. Toland, H. Tran, L. Chen et al." (the whole list on hover); sorts by that text.
  { id: 'authors', heading: 'Authors', sort: 'text' },
  { id: 'page', heading: 'Page', sort: 'number' },
  { id: 'models', heading: 'Models', sort: 'text' },
  { id: 'saved', heading: 'Saved', sort: 'date' },
] as const satisfies ReadonlyArray<{ id: string; heading: string; sort: SortKind }>;

export type ColumnId = (typeof TRIPLET_COLUMNS)[number]['id'];
export type TripletColumn = (typeof TRIPLET_COLUMNS)[number];

const COLUMN_IDS: readonly ColumnId[] = TRIPLET_COLUMNS.map((column) => column.id);

/** The columns that say which fact a row is: at least one of them stays shown. */
export const IDENTIFYING_COLUMNS: readonly ColumnId[] = ['material', 'property', 'value'];

/** Hidden until the reader shows them: the models' names are long and rarely read. */
export const DEFAULT_HIDDEN_COLUMNS: ReadonlySet<ColumnId> = new Set<ColumnId>(['models']);

/** The `localStorage` key of the hidden column ids (a JSON array). Hidden, not shown, ids are kept, so a column added later is shown. */
export const HIDDEN_COLUMNS_KEY = 'assay.dataset.hiddenColumns';

/** The column of id `id`. */
export function columnById(id: ColumnId): TripletColumn {
  return TRIPLET_COLUMNS.find((column) => column.id === id)!;
}

/** The shown columns, in display order. */
export function visibleColumns(hidden: ReadonlySet<ColumnId>): TripletColumn[] {
  return TRIPLET_COLUMNS.filter((column) => !hidden.has(column.id));
}

/** Whether column `id` may be hidden now: not when it is the last identifying column shown. */
export function canHideColumn(hidden: ReadonlySet<ColumnId>, id: ColumnId): boolean {
  if (hidden.has(id)) return true;
  return !IDENTIFYING_COLUMNS.includes(id) || IDENTIFYING_COLUMNS.some((other) => other !== id && !hidden.has(other));
}

/**
 * The hidden set after showing (`shown` true) or hiding column `id`. Hiding the last identifying
 * column shown is refused: the same set comes back (the chooser disables that checkbox, this
 * holds even when something else asks).
 */
export function setColumnShown(hidden: ReadonlySet<ColumnId>, id: ColumnId, shown: boolean): ReadonlySet<ColumnId> {
  if (shown === !hidden.has(id)) return hidden;
  if (!shown && !canHideColumn(hidden, id)) return hidden;
  const next = new Set(hidden);
  if (shown) next.delete(id);
  else next.add(id);
  return next;
}

const StoredHiddenColumns = z.array(z.string());

/**
 * The hidden columns stored under `HIDDEN_COLUMNS_KEY` in `storage`: unknown ids (a column since
 * removed) are dropped; nothing stored, unreadable JSON, a storage that throws (disabled), or a
 * set hiding every identifying column gives `DEFAULT_HIDDEN_COLUMNS`.
 */
export function readHiddenColumns(storage: Pick<Storage, 'getItem'> | undefined): ReadonlySet<ColumnId> {
  try {
    const text = storage?.getItem(HIDDEN_COLUMNS_KEY);
    if (text === null || text === undefined) return DEFAULT_HIDDEN_COLUMNS;
    const parsed = StoredHiddenColumns.safeParse(JSON.parse(text));
    if (!parsed.success) return DEFAULT_HIDDEN_COLUMNS;
    const hidden = new Set(parsed.data.filter((id): id is ColumnId => (COLUMN_IDS as readonly string[]).includes(id)));
    return IDENTIFYING_COLUMNS.every((id) => hidden.has(id)) ? DEFAULT_HIDDEN_COLUMNS : hidden;
  } catch {
    return DEFAULT_HIDDEN_COLUMNS;
  }
}

/** Store `hidden` under `HIDDEN_COLUMNS_KEY` (in display order); a storage that throws (full, disabled) is ignored: the choice then lasts for the page only. */
export function writeHiddenColumns(storage: Pick<Storage, 'setItem'> | undefined, hidden: ReadonlySet<ColumnId>): void {
  try {
    storage?.setItem(HIDDEN_COLUMNS_KEY, JSON.stringify(COLUMN_IDS.filter((id) => hidden.has(id))));
  } catch {
    // The choice still holds on this page.
  }
}
