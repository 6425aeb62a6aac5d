/**
 * The dataset page's filters: material (prefix), property (the properties the dataset holds),
 * machine status, the reader's decision, method (prefix of a method condition), provenance
 * (measured, computed, cited only, hide cited, not stated) and free-text search. Each is a labelled control; typing
 * is debounced so the live table re-queries once the reader pauses, while the selects apply at once.
 * Under the search field, a live status says while the search index is being built or updated.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { ReviewDecisionSchema } from '../../contracts/dataset';
import type { TripletSearch } from '../../extension/triplet-search-client';
import type { AssayDatabase } from '../../store/assay-database';
import { datasetProperties } from '../../store/dataset-repository';
import { searchIndexText, statusText, type TripletFilter, type TripletStatus } from './dataset-view-model';
import type { PropertyLabel } from '../shared/run-view-model';
import type { ProvenanceFilter } from '../shared/fact-conditions';

const STATUSES: readonly TripletStatus[] = ['verified', 'needs_review', 'rejected'];

/** The provenance choices: any, each kind, and "not cited" to hide the values a paper only quotes. */
const PROVENANCE_OPTIONS: ReadonlyArray<[ProvenanceFilter, string]> = [
  ['', 'Any provenance'],
  ['measured', 'measured'],
  ['computed', 'computed'],
  ['cited', 'cited only'],
  ['not_cited', 'hide cited'],
  ['unknown', 'not stated'],
];

export interface TripletFiltersProps {
  database: AssayDatabase;
  filter: TripletFilter;
  onChange: (filter: TripletFilter) => void;
  label: PropertyLabel;
  /** Pause after the last keystroke before a text filter applies, in ms (default 300; tests pass 0). */
  debounceMs?: number;
  /** The search index's state (none: no index, search scans). */
  /** The dataset worker, whose state the status line under the search box follows (its own subscription: the form does not re-render with it). */
  searchIndex?: Pick<TripletSearch, 'subscribe' | 'state'> | undefined;
}

/** The filter form; `filter` is the applied filter, the text fields hold what is typed until it applies. */
const noSubscription = () => () => undefined;

/** What the search index is doing, in words, under the search box (`searchIndexText`); re-rendered alone as the worker reports. */
function SearchIndexStatus({ id, search }: { id: string; search: Pick<TripletSearch, 'subscribe' | 'state'> | undefined }) {
  const state = useSyncExternalStore(search?.subscribe ?? noSubscription, () => search?.state);
  return (
    <span id={id} role="status" className="hint" data-testid="search-index-status">
      {searchIndexText(state)}
    </span>
  );
}

export function TripletFilters({ database, filter, onChange, label, debounceMs = 300, searchIndex }: TripletFiltersProps) {
  const id = useId();
  const properties = useLiveQuery(() => datasetProperties(database), [database]) ?? [];
  const [material, setMaterial] = useState(filter.material);
  const [search, setSearch] = useState(filter.search);
  const [method, setMethod] = useState(filter.method);
  // The fields as typed: a select applies at once with them, so no keystroke is lost.
  const typed = { material, search, method };

  useEffect(() => {
    if (material === filter.material && search === filter.search && method === filter.method) return;
    const timer = setTimeout(() => onChange({ ...filter, material, search, method }), debounceMs);
    return () => clearTimeout(timer);
  }, [material, search, method, filter, onChange, debounceMs]);

  // A property no longer in the dataset (its last triplet deleted) stays selectable so the filter shows.
  const propertyOptions = filter.property !== '' && !properties.includes(filter.property) ? [...properties, filter.property] : properties;

  return (
    <form className="triplet-filters" role="search" aria-label="Filter triplets" onSubmit={(event) => event.preventDefault()}>
      <div className="field">
        <label htmlFor={`${id}-material`}>Material starts with</label>
        <input
          id={`${id}-material`}
          data-testid="filter-material"
          type="search"
          value={material}
          onChange={(event) => setMaterial(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-property`}>Property</label>
        <select
          id={`${id}-property`}
          data-testid="filter-property"
          value={filter.property}
          onChange={(event) => onChange({ ...filter, ...typed, property: event.target.value })}
        >
          <option value="">Any property</option>
          {propertyOptions.map((name) => (
            <option key={name} value={name}>
              {label(name)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          data-testid="filter-status"
          value={filter.status}
          onChange={(event) => onChange({ ...filter, ...typed, status: event.target.value as TripletFilter['status'] })}
        >
          <option value="">Any status</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {statusText(status)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-decision`}>Decision</label>
        <select
          id={`${id}-decision`}
          data-testid="filter-decision"
          value={filter.decision}
          onChange={(event) => onChange({ ...filter, ...typed, decision: event.target.value as TripletFilter['decision'] })}
        >
          <option value="">Any decision</option>
          {ReviewDecisionSchema.options.map((decision) => (
            <option key={decision} value={decision}>
              {decision}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-method`}>Method starts with</label>
        <input
          id={`${id}-method`}
          data-testid="filter-method"
          type="search"
          value={method}
          placeholder="HSE06, GW, ARPES"
          onChange={(event) => setMethod(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-provenance`}>Provenance</label>
        <select
          id={`${id}-provenance`}
          data-testid="filter-provenance"
          value={filter.provenance}
          onChange={(event) => onChange({ ...filter, ...typed, provenance: event.target.value as ProvenanceFilter })}
        >
          {PROVENANCE_OPTIONS.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-search`}>Search</label>
        <input
          id={`${id}-search`}
          data-testid="filter-search"
          type="search"
          value={search}
          placeholder="material, quote, title, DOI"
          aria-describedby={`${id}-search-index`}
          onChange={(event) => setSearch(event.target.value)}
        />
        <SearchIndexStatus id={`${id}-search-index`} search={searchIndex} />
      </div>
    </form>
  );
}
