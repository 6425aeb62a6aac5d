/**
 * The "Triplets" section of the dataset page: filters, the per-property plot, the selection
 * toolbar (delete with a ten-second undo), the virtualized table, and export/import — all driven
 * by one filter (the method and provenance filters included), so the plot, the count, the table
 * and an export always agree. A search goes
 * through the search index (`search`) when there is one; each new index generation re-runs it.
 * The table's order (a column header) and shown columns (the column chooser) stay as the filter
 * changes, and an export writes exactly the rows shown, in that order.
 */
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { DatasetTriplet } from '../../contracts/dataset';
import type { TripletSearch } from '../../extension/triplet-search-client';
import type { AssayDatabase } from '../../store/assay-database';
import { deleteTriplets, isFiltered, restoreTriplets } from '../../store/dataset-repository';
import { ColumnChooser, useHiddenColumns } from './column-chooser';
import { DatasetIo } from './dataset-io';
import type { ImportRequester } from './import-control';
import { conditionFilterOf, deletedText, EMPTY_FILTER, queryFromFilter, type TripletFilter } from './dataset-view-model';
import { PropertyPlot } from './property-plot';
import type { PropertyLabel } from '../shared/run-view-model';
import { TripletFilters } from './triplet-filters';
import { TripletTable } from './triplet-table';
import { DEFAULT_SORT, isDefaultSort, type TripletSort } from './triplet-sort';

/** How long the undo offer stays after a delete, in ms (long enough to notice and react). */
export const UNDO_MS = 10_000;

export interface TripletsSectionProps {
  database: AssayDatabase;
  /** Label, canonical and display unit of each known property schema, by name. */
  schemas: ReadonlyMap<string, { label: string; canonicalUnit: string; displayUnit?: string | undefined }>;
  label: PropertyLabel;
  /** Text-filter debounce in ms (tests pass 0). */
  debounceMs?: number;
  /** How long the undo offer stays, in ms (default `UNDO_MS`). */
  undoMs?: number;
  /** How imports reach the offscreen document (default `sendRequest`; tests call the host). */
  requestImport?: ImportRequester;
  /** The search index (the page's search worker); without it a search scans every row. */
  search?: TripletSearch;
}

const noSubscription = () => () => undefined;

type DeleteState = { kind: 'none' } | { kind: 'deleted'; rows: DatasetTriplet[] } | { kind: 'message'; text: string };

export function TripletsSection({ database, schemas, label, debounceMs, undoMs = UNDO_MS, requestImport, search }: TripletsSectionProps) {
  const [filter, setFilter] = useState<TripletFilter>(EMPTY_FILTER);
  const query = useMemo(() => queryFromFilter(filter), [filter]);
  const conditions = useMemo(() => conditionFilterOf(filter), [filter]);
  // The generation alone: the worker's other reports (rows still being read in) change no query here.
  const generation = useSyncExternalStore(search?.subscribe ?? noSubscription, () => search?.state.generation ?? 0);
  const [sort, setSort] = useState<TripletSort>(DEFAULT_SORT);
  // What a filter or another order answers (from the worker's search index and catalog) changes
  // with the index's generation; the unfiltered table in its own order reads IndexedDB alone.
  const followsIndex = isFiltered(query) || !isDefaultSort(sort);
  const searching = { search, searchGeneration: followsIndex ? generation : 0 };
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [deletion, setDeletion] = useState<DeleteState>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const [hidden, setColumnShown] = useHiddenColumns();
  const [shownCount, setShownCount] = useState<number | undefined>(undefined);

  useEffect(() => {
    if (deletion.kind !== 'deleted') return;
    const timer = setTimeout(() => setDeletion({ kind: 'none' }), undoMs);
    return () => clearTimeout(timer);
  }, [deletion, undoMs]);

  const select = useCallback((id: string, checked: boolean) => {
    setSelected((previous) => {
      const next = new Set(previous);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const deleteSelected = async () => {
    setBusy(true);
    try {
      const rows = await deleteTriplets(database, [...selected]);
      setSelected(new Set());
      setDeletion({ kind: 'deleted', rows });
    } catch (error) {
      setDeletion({ kind: 'message', text: `Could not delete: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      setBusy(false);
    }
  };

  const undo = async (rows: DatasetTriplet[]) => {
    setBusy(true);
    try {
      await restoreTriplets(database, rows);
      setDeletion({ kind: 'message', text: `Restored ${rows.length === 1 ? '1 triplet' : `${rows.length} triplets`}.` });
    } catch (error) {
      setDeletion({ kind: 'message', text: `Could not restore: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="triplets-section" aria-labelledby="triplets-heading">
      <h2 id="triplets-heading">Triplets</h2>
      <TripletFilters
        database={database}
        filter={filter}
        onChange={setFilter}
        label={label}
        {...(debounceMs !== undefined && { debounceMs })}
        searchIndex={search}
      />
      <PropertyPlot
        database={database}
        query={query}
        conditions={conditions}
        {...searching}
        {...(filter.property !== '' && schemas.has(filter.property) && { schema: schemas.get(filter.property)! })}
      />
      <div className="triplet-toolbar">
        <button type="button" data-testid="delete-selected" disabled={selected.size === 0 || busy} onClick={() => void deleteSelected()}>
          Delete selected{selected.size > 0 ? ` (${selected.size})` : ''}
        </button>
        <button type="button" disabled={selected.size === 0} onClick={() => setSelected(new Set())}>
          Clear selection
        </button>
        <div role="status" className="delete-status" data-testid="delete-status">
          {deletion.kind === 'deleted' && (
            <>
              {deletedText(deletion.rows.length)}{' '}
              <button type="button" data-testid="undo-delete" disabled={busy} onClick={() => void undo(deletion.rows)}>
                Undo
              </button>
            </>
          )}
          {deletion.kind === 'message' && deletion.text}
        </div>
        <ColumnChooser hidden={hidden} onShownChange={setColumnShown} />
      </div>
      <TripletTable
        database={database}
        query={query}
        label={label}
        schemas={schemas}
        selected={selected}
        onSelect={select}
        hidden={hidden}
        sort={sort}
        onSort={setSort}
        onShownCount={setShownCount}
        conditions={conditions}
        {...searching}
      />
      <DatasetIo
        database={database}
        query={query}
        sort={sort}
        label={label}
        shownCount={shownCount}
        search={search}
        conditions={conditions}
        {...(requestImport && { requestImport })}
      />
    </section>
  );
}
