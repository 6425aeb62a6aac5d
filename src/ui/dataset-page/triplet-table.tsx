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
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
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
  DISPLAY_VALUE_HEADING,
  statusText,
  TRIPLET_PAGE_SIZE,
  valueText,
} from './dataset-view-model';
import { DoiLink } from '../shared/doi-link';
import type { PropertyLabel } from '../shared/run-view-model';

/** Row height in CSS pixels; cells are one line (long text is cut with an ellipsis, full text in `title`). Must match `.triplet-table tbody tr` in styles.css. */
const ROW_HEIGHT = 40;
const COLUMN_COUNT = 15;

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
}

interface LoadedPages {
  queryKey: string;
  saved: number;
  total: number;
  pages: Map<number, DatasetTriplet[]>;
}

/** The count line, the empty states and the virtualized table. */
export function TripletTable({ database, query, label, schemas, selected, onSelect, search, searchGeneration = 0 }: TripletTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const queryKey = JSON.stringify(query);
  // Which pages to read: those under the virtualizer's visible range, set after each render.
  const [pagesKey, setPagesKey] = useState('0');
  // Three live queries, so a filter change does not recount the whole table and a further page
  // does not recount the filter's matches (IndexedDB counts by walking an index range): the
  // dataset's count; the filter's count with its first page, read together (a material prefix's
  // keys are read once for both); and the further pages on screen, without a count.
  const saved = useLiveQuery(() => countTriplets(database), [database]);
  const matching = useLiveQuery(
    async () => {
      const filtered = isFiltered(query);
      const first = await queryTriplets(database, query, pageWindow(0), { search, count: filtered });
      return { queryKey, total: filtered ? first.total : undefined, firstPage: first.rows };
    },
    // `query` is represented by `queryKey`, so a new object with the same filter does not re-query.
    [database, queryKey, search, searchGeneration],
  );
  const pagesLoaded = useLiveQuery(async () => {
    const pageNumbers = pagesKey
      .split(',')
      .map(Number)
      .filter((page) => page !== 0);
    const pages = await Promise.all(pageNumbers.map((page) => queryTriplets(database, query, pageWindow(page), { count: false, search })));
    return { queryKey, pages: new Map(pageNumbers.map((page, index) => [page, pages[index]!.rows])) };
  }, [database, queryKey, pagesKey, search, searchGeneration]);
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
        <table className="triplet-table" data-testid="triplet-table" aria-rowcount={loaded.total + 1}>
          <caption className="visually-hidden">Saved triplets, newest first</caption>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">
                <span className="visually-hidden">Select</span>
              </th>
              {[
                'Material',
                'Property',
                'Value',
                'Unit',
                DISPLAY_VALUE_HEADING,
                'Conditions',
                'DOI',
                'Title',
                'Quote',
                'Page',
                'Status',
                'Decision',
                'Models',
                'Saved',
              ].map((heading) => (
                <th scope="col" key={heading}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {paddingTop > 0 && <SpacerRow height={paddingTop} />}
            {items.map((item) => {
              const row = rowAt(pages, item.index, TRIPLET_PAGE_SIZE);
              return row ? (
                <TripletRow
                  key={row.id}
                  row={row}
                  index={item.index}
                  label={label}
                  schema={schemas?.get(row.property)}
                  selected={selected.has(row.id)}
                  onSelect={onSelect}
                  onKeyDown={(event) => moveFocus(event, item.index)}
                />
              ) : (
                <tr key={`loading-${item.index}`} aria-rowindex={item.index + 2} className="triplet-loading">
                  <td colSpan={COLUMN_COUNT}>Loading…</td>
                </tr>
              );
            })}
            {paddingBottom > 0 && <SpacerRow height={paddingBottom} />}
          </tbody>
        </table>
      </div>
    </>
  );
}

function SpacerRow({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" className="triplet-spacer">
      <td colSpan={COLUMN_COUNT} style={{ height }} />
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
  selected,
  onSelect,
  onKeyDown,
}: {
  row: DatasetTriplet;
  index: number;
  label: PropertyLabel;
  schema: DisplayUnitSchema | undefined;
  selected: boolean;
  onSelect: (id: string, selected: boolean) => void;
  onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => void;
}) {
  const decisionHover = decisionTitle(row.review);
  return (
    <tr data-id={row.id} aria-rowindex={index + 2} aria-selected={selected} tabIndex={0} onKeyDown={onKeyDown}>
      <td>
        <input
          type="checkbox"
          checked={selected}
          onChange={(event) => onSelect(row.id, event.target.checked)}
          aria-label={`Select ${row.material}, ${label(row.property)} ${valueText(row)} ${row.unit}`.trim()}
        />
      </td>
      <th scope="row" className="triplet-long" title={row.material}>
        {row.material}
      </th>
      <td>{label(row.property)}</td>
      <td>{valueText(row)}</td>
      <td>{row.unit === '' ? '—' : row.unit}</td>
      <td data-testid="display-value">{displayText(row, schema)}</td>
      <LongCell text={row.conditions} />
      <td className="triplet-long">{row.paper.doi ? <DoiLink doi={row.paper.doi} /> : '—'}</td>
      <td className="triplet-long" title={row.paper.title}>
        <a href={hashForPaper(row.paper.key)}>{row.paper.title}</a>
      </td>
      <LongCell text={row.evidence?.quote.exact} />
      <td>{row.evidence?.page ?? '—'}</td>
      <td data-status={row.status}>{statusText(row.status)}</td>
      <td title={decisionHover}>
        {row.review.decision}
        {decisionHover && <span className="visually-hidden"> ({decisionHover})</span>}
      </td>
      <LongCell text={row.models.join(', ')} />
      <td title={row.imported && importedText(row.imported)}>
        <time dateTime={row.savedAt}>{savedDay(row.savedAt)}</time>
        {row.imported && (
          <span className="triplet-imported" data-testid="triplet-imported">
            {' '}
            imported<span className="visually-hidden"> ({importedText(row.imported)})</span>
          </span>
        )}
      </td>
    </tr>
  );
}
