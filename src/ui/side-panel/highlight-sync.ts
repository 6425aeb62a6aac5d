/**
 * Keeps the page's highlights in step with the run the side panel shows: whenever the items
 * (`highlightItems`) change — records appear, the reader decides — it sends `highlight-show` for
 * the panel's tab, and lists what could not be highlighted. Progress-only changes of the row
 * send nothing (the items are compared as JSON). Before a run has records, the quick scan's
 * candidates (a `CandidateLayer`) may take the run's place; one sender serves both, so the two
 * never race to the page.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { failureOf, type HighlightItem, type RequestOf, type RequestType, type ResponseOf } from '../../contracts/messages';
import type { MatrixRunRow } from '../../contracts/matrix-run';
import { highlightItems, scrollNote, showOutcome, type HighlightFailure } from './highlight-items';
import type { PropertyLabel } from '../shared/run-view-model';

/** The page the highlights go to: show a run's items, scroll to one. */
export interface PageHighlighter {
  show(items: HighlightItem[]): Promise<ResponseOf<'highlight-show'>>;
  scroll(id: string): Promise<ResponseOf<'highlight-scroll'>>;
}

/** `sendRequest`'s shape, narrowed to the two highlight messages. */
export type HighlightSender = <Type extends RequestType>(request: RequestOf<Type>) => Promise<ResponseOf<Type>>;

/**
 * A highlighter for the tab `resolveTab()` names, resolved once, now (so a later tab switch does
 * not move the highlights to another page). A tab that cannot be resolved makes every call
 * resolve to `{ ok: false, failure: { code: 'no-tab', message } }`; never rejects.
 */
export function createPageHighlighter(resolveTab: () => Promise<number>, send: HighlightSender): PageHighlighter {
  const tab = resolveTab();
  tab.catch(() => undefined); // handled in `withTab`; avoids an unhandled-rejection report meanwhile
  const withTab = async <Type extends 'highlight-show' | 'highlight-scroll'>(
    call: (tabId: number) => Promise<ResponseOf<Type>>,
  ): Promise<ResponseOf<Type>> => {
    let tabId: number;
    try {
      tabId = await tab;
    } catch (error) {
      return failureOf<Type>('no-tab', error instanceof Error ? error.message : String(error));
    }
    return call(tabId);
  };
  return {
    show: (items) => withTab<'highlight-show'>((tabId) => send({ type: 'highlight-show', tabId, items })),
    scroll: (id) => withTab<'highlight-scroll'>((tabId) => send({ type: 'highlight-scroll', tabId, id })),
  };
}

/** What the panel shows about highlights: records not highlighted (with reasons), and a note when the page could not be reached. */
export interface RunHighlights {
  failures: HighlightFailure[];
  note: string | null;
  /** Scroll the page to record `id`'s highlight; a problem becomes the note. */
  scrollTo(id: string): void;
}

/**
 * Items shown in the run's place while it has none to show (the quick scan's candidates), and
 * who hears the page's answer to them. Keep the object's identity stable while its items are the
 * same: a new object is sent again.
 */
export interface CandidateLayer {
  items: readonly HighlightItem[];
  onShown(response: ResponseOf<'highlight-show'>): void;
}

/**
 * Send `row`'s highlight items through `highlighter` whenever they change (nothing before the
 * first record, and nothing without a highlighter; the same items are not sent twice except by
 * React's development double effects), and collect the failures: records without an
 * evidence quote first, then the page's failed anchors. Answers to an outdated send are ignored.
 * With `candidates`, its items are sent instead of the run's and the page's answer goes to
 * `candidates.onShown` (no record failures are listed); when the layer goes away the run's items
 * replace them (an empty list clears the page).
 */
export function useRunHighlights(
  row: MatrixRunRow | undefined,
  label: PropertyLabel,
  highlighter: PageHighlighter | undefined,
  candidates?: CandidateLayer,
): RunHighlights {
  const [failures, setFailures] = useState<HighlightFailure[]>([]);
  const [note, setNote] = useState<string | null>(null);
  // Whether items were ever sent: an empty run sends nothing until records appear, but a new
  // empty run after one with items clears the page.
  const everSent = useRef(false);
  const { items, skipped } = row ? highlightItems(row, label) : { items: [], skipped: [] };
  const key = JSON.stringify(items);
  const skippedKey = JSON.stringify(skipped);

  useEffect(() => {
    if (!highlighter) return;
    const toSend = candidates ? [...candidates.items] : (JSON.parse(key) as HighlightItem[]);
    if (toSend.length === 0 && !everSent.current) return;
    everSent.current = true;
    let current = true;
    const left = JSON.parse(skippedKey) as HighlightFailure[];
    void highlighter.show(toSend).then((response) => {
      if (!current) return;
      if (candidates) {
        candidates.onShown(response);
        setFailures([]);
        setNote(null);
        return;
      }
      const outcome = showOutcome(response);
      setFailures([...left, ...outcome.failed]);
      setNote(outcome.note);
    });
    return () => {
      current = false;
    };
  }, [highlighter, key, skippedKey, candidates]);

  const scrollTo = useCallback(
    (id: string) => {
      if (!highlighter) return;
      void highlighter.scroll(id).then((response) => setNote(scrollNote(response)));
    },
    [highlighter],
  );

  return { failures: highlighter ? failures : [], note, scrollTo };
}
