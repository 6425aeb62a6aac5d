/**
 * The quick scan of a saved paper, for highlights: read the paper's article (`getPaper`) and
 * scan it for the given catalogue into highlight items (`scanHighlightItems`: labels and display
 * units from the catalogue). The items go to the page through `useRunHighlights` (as a
 * `CandidateLayer`), so the run's items and these never race.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ResponseOf } from '../../contracts/messages';
import type { PropertyDefinition } from '../../contracts/property';
import type { AssayDatabase } from '../../store/assay-database';
import { getPaper } from '../../store/paper-repository';
import { scanHighlightItems, type CandidateState } from './candidate-highlights';
import type { CandidateLayer } from './highlight-sync';

export interface CandidateHighlights {
  /** The scan and the page's answer; null before the first scan (nothing to say yet). */
  state: CandidateState | null;
  /** What to give `useRunHighlights` while `wanted`; undefined before the scan is ready or when not wanted. */
  layer: CandidateLayer | undefined;
  /** The last scan's candidates per property schema name; undefined before a scan is ready. Kept when the layer is no longer wanted. */
  counts: ReadonlyMap<string, number> | undefined;
}

/**
 * Scan `paperKey`'s saved article for `schemas` whenever `wanted` is true and the paper
 * (`version`, e.g. its `capturedAt`, changes on a new capture) or the schema names changed
 * since the last scan started. A paper that cannot be read, or a scan that throws, ends in
 * `{ phase: 'failed', message }`. The card's property label is the schema's `label`.
 */
export function useCandidateHighlights(
  database: AssayDatabase,
  paperKey: string,
  version: string | undefined,
  schemas: readonly PropertyDefinition[],
  wanted: boolean,
): CandidateHighlights {
  const [state, setState] = useState<CandidateState | null>(null);
  // The scan reads the newest schemas; only a change of names starts a new one (a new list with
  // the same names, as every read of storage gives, does not).
  const latestSchemas = useRef(schemas);
  latestSchemas.current = schemas;
  const scanKey = JSON.stringify([paperKey, version ?? null, schemas.map((schema) => schema.name)]);

  useEffect(() => {
    if (!wanted) return;
    let current = true;
    setState({ phase: 'scanning' });
    const scan = async () => {
      const record = await getPaper(database, paperKey);
      if (!record) throw new Error('the saved paper could not be read; capture the page again.');
      return scanHighlightItems(record.article, latestSchemas.current);
    };
    scan().then(
      ({ items, total, pages, counts }) => current && setState({ phase: 'ready', items, total, pages, counts }),
      (error: unknown) => current && setState({ phase: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [database, paperKey, wanted, scanKey]);

  const onShown = useCallback(
    (response: ResponseOf<'highlight-show'>) => setState((known) => (known?.phase === 'ready' ? { ...known, response } : known)),
    [],
  );
  const items = state?.phase === 'ready' ? state.items : undefined;
  const layer = useMemo(() => (wanted && items ? { items, onShown } : undefined), [wanted, items, onShown]);
  const counts = state?.phase === 'ready' ? state.counts : undefined;
  return { state, layer, counts };
}
