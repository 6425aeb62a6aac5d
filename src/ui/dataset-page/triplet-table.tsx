/**
 * The dataset page's table of saved triplets: a plain `<table>` whose body is virtualized with
 * @tanstack/react-virtual (only the rows on screen, plus overscan, are in the DOM; spacer rows keep
 * the scroll height), loading `TRIPLET_PAGE_SIZE` rows at a time from `queryTriplets` as the
 * reader scrolls. The query is a Dexie live query, so captures, imports, edits and deletes in any
 * extension context show up without a reload.
 *
 * Accessibility: `aria-rowcount` on the table and `aria-rowindex` on each row tell a screen reader
 * where it is in the whole result, not just the rendered slice; each row is focusable and the
 * arrow keys move between rows (scrolling the next one into the DOM first).
 *
 * Columns: the reader hides and shows them (`hidden`, from the column chooser) and sorts by any
 * of them with the button in its header (`aria-sort` on the header cell). The default order,
 * newest first, pages straight from the repository; another order, or a method or provenance
 * filter, is a list of ids (`sortedTripletIds`) whose on-screen pages are read by id.
 */
import { formatProvenance } from '../../contracts/conditions';
import { conditionMatcher, conditionText, OTHER_CONDITION_KINDS, provenanceKind, type ConditionFilter } from '../shared/fact-conditions';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { DatasetTriplet } from '../../contracts/dataset';
import type { DisplayUnitSchema } from '../../properties/display-unit';
import type { AssayDatabase } from '../../store/assay-database';
import { countTriplets, isFiltered, queryTriplets, type TripletQuery } from '../../store/dataset-repository';
import type { TripletIdSearch } from '../../store/search-triplets';
import {
  countText,
  decisionTitle,
  hashForPaper,
  importedText,
  pageWindow,
  pagesForRange,
  rowAt,
  savedDay,
  displayText,
  statusText,
  TRIPLET_PAGE_SIZE,
} from './dataset-view-model';
import { DoiLink } from '../shared/doi-link';
import type { PropertyLabel } from '../shared/run-view-model';
import { sortedTripletIds, tripletsByIds } from './sorted-triplets';
import { visibleColumns, type ColumnId, type TripletColumn } from './triplet-columns';
import { QuoteCell } from './quote-cell';
import { isDefaultSort, nextSort, sortDescription, DEFAULT_SORT, type TripletSort } from './triplet-sort';
import { shortAuthorList } from '../shared/author-names';
import { printedValue } from '../../text/quantities/format-quantity';

/** Row height in CSS pixels; cells are one line (long text is cut with an ellipsis, full text in `title`). Must match `.triplet-table tbody tr` in styles.css. */
const ROW_HEIGHT = 40;

export interface TripletTableProps {
  database: AssayDatabase;
  query: TripletQuery;
  label: PropertyLabel;
  /** The display unit of each known property, by name (`displayText`); a property not here shows "—". */
  schemas?: ReadonlyMap<string, DisplayUnitSchema>;
  selected: ReadonlySet<string>;
  onSelect: (id: string, selected: boolean) => void;
  /** The search index; without it a search scans every row. */
  search?: TripletIdSearch | undefined;
  /** Changes when the index's answers may have: the table searches again. */
  searchGeneration?: number;
  /** The columns the reader hid (default: none). */
  hidden?: ReadonlySet<ColumnId>;
  /** The order (default: newest first). */
  sort?: TripletSort;
  /** Called with the reader's new order when a column header is activated (without it, headers do not sort). */
  onSort?: (sort: TripletSort) => void;
  /** Told how many rows the filter shows, once known (for the export buttons' words). */
  onShownCount?: (count: number) => void;
  /** The method and provenance filters, tested in memory on the rows `query` selects (`sortedTripletIds`). */
  conditions?: ConditionFilter;
}

interface LoadedPages {
  queryKey: string;
  saved: number;
  total: number;
  pages: Map<number, DatasetTriplet[]>;
}

/** The count line, the empty states and the virtualized table. */
export function TripletTable({
  database,
  query,
  label,
  schemas,
  selected,
  onSelect,
  search,
  searchGeneration = 0,
  hidden = NO_COLUMNS,
  sort = DEFAULT_SORT,
  onSort,
  onShownCount,
  conditions = NO_CONDITIONS,
}: TripletTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const matches = conditionMatcher(conditions);
  // A method or provenance filter has no index: its rows are a list of ids, as another order is.
  const sorted = !isDefaultSort(sort) || matches !== undefined;
  const queryKey = JSON.stringify([query, sorted ? sort : null, matches ? conditions : null]);
  // Which pages to read: those under the virtualizer's visible range, set after each render.
  const [pagesKey, setPagesKey] = useState('0');
  // Three live queries, so a filter change does not recount the whole table and a further page
  // does not recount the filter's matches (IndexedDB counts by walking an index range): the
  // dataset's count; the filter's count with its first page, read together (a material prefix's
  // keys are read once for both); and the further pages on screen, without a count.
  const saved = useLiveQuery(() => countTriplets(database), [database]);
  const matching = useLiveQuery(
    async () => {
      if (sorted) {
        // Another order than the repository's: every matching id in order, then the first page by id.
        const ids = await sortedTripletIds(database, query, sort, label, search, matches);
        const window = pageWindow(0);
        return {
          queryKey,
          total: ids.length,
          firstPage: await tripletsByIds(database, ids.slice(window.offset, window.offset + window.limit)),
          ids,
        };
      }
      const filtered = isFiltered(query);
      const first = await queryTriplets(database, query, pageWindow(0), { search, count: filtered });
      return { queryKey, total: filtered ? first.total : undefined, firstPage: first.rows, ids: undefined };
    },
    // `query` and `sort` are represented by `queryKey`, so a new object with the same filter does not re-query.
    [database, queryKey, search, searchGeneration, label],
  );
  const sortedIds = matching?.queryKey === queryKey ? matching.ids : undefined;
  const pagesLoaded = useLiveQuery(async () => {
    const pageNumbers = pagesKey
      .split(',')
      .map(Number)
      .filter((page) => page !== 0);
    if (sorted && !sortedIds) return { queryKey: '', pages: new Map<number, DatasetTriplet[]>() };
    const pages = await Promise.all(
      pageNumbers.map(async (page) => {
        if (!sortedIds) return (await queryTriplets(database, query, pageWindow(page), { count: false, search })).rows;
        const window = pageWindow(page);
        return tripletsByIds(database, sortedIds.slice(window.offset, window.offset + window.limit));
      }),
    );
    return { queryKey, pages: new Map(pageNumbers.map((page, index) => [page, pages[index]!])) };
  }, [database, queryKey, pagesKey, search, searchGeneration, sortedIds]);
  const loaded: LoadedPages | undefined =
    saved === undefined || matching === undefined || pagesLoaded === undefined
      ? undefined
      : {
          queryKey: matching.queryKey,
          saved,
          total: matching.total ?? saved,
          pages: new Map([[0, matching.firstPage], ...(pagesLoaded.queryKey === matching.queryKey ? pagesLoaded.pages : [])]),
        };
  // While a new query or page loads, useLiveQuery keeps returning the previous result.
  const virtualizer = useVirtualizer({
    count: loaded?.total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const neededKey = pagesForRange(items[0]?.index ?? 0, items.at(-1)?.index ?? 0).join(',') || '0';
  useEffect(() => setPagesKey(neededKey), [neededKey]);
  // A new filter starts at its newest row.
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [queryKey]);
  const shownCount = loaded && loaded.queryKey === queryKey ? loaded.total : undefined;
  useEffect(() => {
    if (shownCount !== undefined) onShownCount?.(shownCount);
  }, [shownCount, onShownCount]);
  const columns = visibleColumns(hidden);
  const columnCount = columns.length + 1;

  if (!loaded) return <p role="status">Loading triplets…</p>;
  const pages = loaded.queryKey === queryKey ? loaded.pages : new Map<number, DatasetTriplet[]>();
  const count = (
    <p data-testid="triplet-count" role="status">
      {countText(loaded.total, loaded.saved)}
    </p>
  );
  if (loaded.total === 0) {
    return (
      <>
        {count}
        <p data-testid="triplets-empty">
          {loaded.saved === 0
            ? 'No triplets saved yet. Extract properties from a paper in the side panel, then save the verdicts you trust.'
            : 'No triplets match these filters.'}
        </p>
      </>
    );
  }

  const moveFocus = (event: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    const next = index + step;
    if (step === 0 || next < 0 || next >= loaded.total) return;
    event.preventDefault();
    virtualizer.scrollToIndex(next);
    // The row may only exist after the virtualizer re-renders.
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`tr[aria-rowindex="${next + 2}"]`)?.focus());
  };

  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      {count}
      <div className="triplet-scroll" ref={scrollRef}>
        <table
          className="triplet-table"
          data-testid="triplet-table"
          aria-rowcount={loaded.total + 1}
          // While a new filter or order is read (seconds, for a sort of 100 000 rows), the rows shown are the previous ones.
          aria-busy={loaded.queryKey !== queryKey}
        >
          <caption className="visually-hidden">Saved triplets, {sortDescription(sort)}</caption>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">
                <span className="visually-hidden">Select</span>
              </th>
              {columns.map((column) => (
                <ColumnHeader key={column.id} column={column} sort={sort} onSort={onSort} />
              ))}
            </tr>
          </thead>
          <tbody>
            {paddingTop > 0 && <SpacerRow height={paddingTop} columnCount={columnCount} />}
            {items.map((item) => {
              const row = rowAt(pages, item.index, TRIPLET_PAGE_SIZE);
              return row ? (
                <TripletRow
                  key={row.id}
                  row={row}
                  index={item.index}
                  label={label}
                  schema={schemas?.get(row.property)}
                  columns={columns}
                  selected={selected.has(row.id)}
                  onSelect={onSelect}
                  onKeyDown={(event) => moveFocus(event, item.index)}
                />
              ) : (
                <tr key={`loading-${item.index}`} aria-rowindex={item.index + 2} className="triplet-loading">
                  <td colSpan={columnCount}>Loading…</td>
                </tr>
              );
            })}
            {paddingBottom > 0 && <SpacerRow height={paddingBottom} columnCount={columnCount} />}
          </tbody>
        </table>
      </div>
    </>
  );
}

const NO_COLUMNS: ReadonlySet<ColumnId> = new Set();
const NO_CONDITIONS: ConditionFilter = { method: '', provenance: '' };

/**
 * A column's header cell: with `onSort`, a button that sorts by the column (again: the other way),
 * and `aria-sort` on the cell the table is sorted by.
 */
function ColumnHeader({
  column,
  sort,
  onSort,
}: {
  column: TripletColumn;
  sort: TripletSort;
  onSort: ((sort: TripletSort) => void) | undefined;
}) {
  const active = sort.column === column.id;
  return (
    <th scope="col" data-column={column.id} {...(active && { 'aria-sort': sort.direction })}>
      {onSort ? (
        <button type="button" className="column-sort" onClick={() => onSort(nextSort(sort, column.id))}>
          {column.heading}
          <span aria-hidden="true" className="column-sort-arrow">
            {active ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}
          </span>
        </button>
      ) : (
        column.heading
      )}
    </th>
  );
}

function SpacerRow({ height, columnCount }: { height: number; columnCount: number }) {
  return (
    <tr aria-hidden="true" className="triplet-spacer">
      <td colSpan={columnCount} style={{ height }} />
    </tr>
  );
}

/** A cell whose text may be long: one line, cut with an ellipsis, the whole text on hover. */
function LongCell({ text }: { text: string | undefined }) {
  return text ? (
    <td className="triplet-long" title={text}>
      {text}
    </td>
  ) : (
    <td>—</td>
  );
}

function TripletRow({
  row,
  index,
  label,
  schema,
  columns,
  selected,
  onSelect,
  onKeyDown,
}: {
  row: DatasetTriplet;
  index: number;
  label: PropertyLabel;
  schema: DisplayUnitSchema | undefined;
  columns: readonly TripletColumn[];
  selected: boolean;
  onSelect: (id: string, selected: boolean) => void;
  onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => void;
}) {
  return (
    <tr data-id={row.id} aria-rowindex={index + 2} aria-selected={selected} tabIndex={0} onKeyDown={onKeyDown}>
      <td>
        <input
          type="checkbox"
          checked={selected}
          onChange={(event) => onSelect(row.id, event.target.checked)}
          aria-label={`Select ${row.material}, ${label(row.property)} ${printedValue(row)} ${row.unit}`.trim()}
        />
      </td>
      {columns.map((column) => (
        <TripletCell key={column.id} column={column.id} row={row} label={label} schema={schema} />
      ))}
    </tr>
  );
}

/** Row `row`'s cell of column `column`. */
function TripletCell({
  column,
  row,
  label,
  schema,
}: {
  column: ColumnId;
  row: DatasetTriplet;
  label: PropertyLabel;
  /** The display unit of the row's property (`displayText`); undefined when no schema describes it. */
  schema: DisplayUnitSchema | undefined;
}): ReactNode {
  switch (column) {
    case 'material':
      return (
        <th scope="row" className="triplet-long" title={row.material}>
          {row.material}
        </th>
      );
    case 'property':
      return <td>{label(row.property)}</td>;
    case 'value':
      return <td>{printedValue(row)}</td>;
    case 'unit':
      return <td>{row.unit === '' ? '—' : row.unit}</td>;
    case 'display':
      return <td data-testid="display-value">{displayText(row, schema)}</td>;
    case 'method':
      return <LongCell text={conditionText(row.conditions, ['method'])} />;
    case 'temperature':
      return <LongCell text={conditionText(row.conditions, ['temperature'])} />;
    case 'pressure':
      return <LongCell text={conditionText(row.conditions, ['pressure'])} />;
    case 'otherConditions':
      return <LongCell text={conditionText(row.conditions, OTHER_CONDITION_KINDS)} />;
    case 'provenance': {
      const provenance = formatProvenance(row.provenance);
      return provenance ? (
        <td>
          <span className={`provenance provenance-${provenanceKind(row.provenance)}`}>{provenance}</span>
        </td>
      ) : (
        <td>—</td>
      );
    }
    case 'doi':
      return <td className="triplet-long">{row.paper.doi ? <DoiLink doi={row.paper.doi} /> : '—'}</td>;
    case 'title':
      // A link to the paper view (the page routes `#paper=<key>`), which takes the focus to its heading.
      return (
        <td className="triplet-long" title={row.paper.title}>
          <a href={hashForPaper(row.paper.key)} data-testid="open-paper">
            {row.paper.title}
          </a>
        </td>
      );
    case 'authors':
      return row.paper.authors.length > 0 ? (
        <td className="triplet-long" title={row.paper.authors.join(', ')}>
          {shortAuthorList(row.paper.authors)}
        </td>
      ) : (
        <td>—</td>
      );
    case 'quote':
      return <QuoteCell quote={row.evidence?.quote.exact} page={row.evidence?.page} />;
    case 'page':
      return <td>{row.evidence?.page ?? '—'}</td>;
    case 'status':
      return <td data-status={row.status}>{statusText(row.status)}</td>;
    case 'decision': {
      const decisionHover = decisionTitle(row.review);
      return (
        <td title={decisionHover}>
          {row.review.decision}
          {decisionHover && <span className="visually-hidden"> ({decisionHover})</span>}
        </td>
      );
    }
    case 'models':
      return <LongCell text={row.models.join(', ')} />;
    case 'saved':
      return (
        <td title={row.imported && importedText(row.imported)}>
          <time dateTime={row.savedAt}>{savedDay(row.savedAt)}</time>
          {row.imported && (
            <span className="triplet-imported" data-testid="triplet-imported">
              {' '}
              imported<span className="visually-hidden"> ({importedText(row.imported)})</span>
            </span>
          )}
        </td>
      );
  }
}
