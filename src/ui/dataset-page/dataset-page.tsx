/**
 * The dataset page: the "Triplets" section (filters, plot, table, export/import) and the
 * "Papers" section (every captured paper), plus the paper view when the location hash is
 * `#paper=<key>` (links from the table's title column set it; Close or Back clears it; the
 * focus goes to the paper's heading, and back to the link that opened it on Close), and the
 * "Check precedent" field (precedent-lookup.tsx).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { loadPropertySchemas } from '../../properties';
import type { TripletSearch } from '../../extension/triplet-search-client';
import type { AssayDatabase } from '../../store/assay-database';
import { DatasetTable } from './dataset-table';
import type { ImportRequester } from './import-control';
import { paperKeyFromHash } from './dataset-view-model';
import { PaperView } from './paper-view';
import { PrecedentSection } from '../shared/precedent-lookup';
import { spellPropertyName } from '../shared/run-view-model';
import { TripletsSection } from './triplets-section';

export interface DatasetPageProps {
  database: AssayDatabase;
  /** The window whose location hash routes the paper view (tests pass jsdom's). */
  view?: Window;
  /** Text-filter debounce in ms (tests pass 0). */
  debounceMs?: number;
  /** How imports reach the offscreen document (default `sendRequest`; tests call the host). */
  requestImport?: ImportRequester;
  /** The search index (the page's search worker); without it a search scans every row. */
  search?: TripletSearch;
}

/** The whole page below its `<h1>`. */
export function DatasetPage({ database, view = window, debounceMs, requestImport, search }: DatasetPageProps) {
  const schemas = useMemo(
    () =>
      new Map(
        loadPropertySchemas().map((schema) => [
          schema.name,
          { label: schema.label, canonicalUnit: schema.canonicalUnit, displayUnit: schema.displayUnit },
        ]),
      ),
    [],
  );
  const precedentProperties = useMemo(() => [...schemas].map(([name, { label }]) => ({ name, label })), [schemas]);
  const label = useCallback((name: string) => schemas.get(name)?.label ?? spellPropertyName(name), [schemas]);
  const [paperKey, setPaperKey] = useState(() => paperKeyFromHash(view.location.hash));
  // What had the focus when the paper view opened (the title link), to give it back on Close.
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const follow = () => {
      const active = view.document.activeElement as HTMLElement | null;
      if (active && active !== view.document.body && typeof active.focus === 'function') opener.current = active;
      setPaperKey(paperKeyFromHash(view.location.hash));
    };
    view.addEventListener('hashchange', follow);
    return () => view.removeEventListener('hashchange', follow);
  }, [view]);

  const closePaper = () => {
    // Drop the hash without a reload or a new history entry (replaceState fires no hashchange).
    view.history.replaceState(null, '', `${view.location.pathname}${view.location.search}`);
    setPaperKey(null);
    const back = opener.current;
    opener.current = null;
    // The table is virtualized: the link is gone if its row scrolled away; then the focus stays on the page.
    if (back?.isConnected) requestAnimationFrame(() => back.focus());
  };

  return (
    <>
      {paperKey !== null && <PaperView database={database} paperKey={paperKey} label={label} onClose={closePaper} />}
      <TripletsSection
        database={database}
        schemas={schemas}
        label={label}
        {...(debounceMs !== undefined && { debounceMs })}
        {...(requestImport && { requestImport })}
        {...(search !== undefined && { search })}
      />
      <PrecedentSection database={database} properties={precedentProperties} />
      <section className="papers-section" aria-labelledby="papers-heading">
        <h2 id="papers-heading">Papers</h2>
        <DatasetTable database={database} />
      </section>
    </>
  );
}
