/**
 * The page's highlighter: shows each fact's evidence where the reader reads it, tells which
 * quotes it could not place and why, scrolls to one on request, and follows the page when it
 * changes its DOM (lazy-loaded sections, re-rendered paragraphs).
 */
import type { HighlightItem, HighlightReport } from '../contracts/messages';
import { anchorItems, type AnchoredItem, type FailedItem } from './anchor-items';
import { createHoverCard } from './hover-card';
import { createCustomHighlightPainter, createOverlayPainter, type Painter } from './paint';
import { HIGHLIGHTER_HOST_ATTRIBUTE, readPageText, type PageText } from './page-text';
import { createUiHost } from './ui-host';

export interface HighlighterContext {
  document: Document;
  window: Window;
  /** Quiet time after the last DOM change before re-anchoring, in ms (default 300; at most 2 s after the first change). */
  debounceMs?: number;
  /** How long a scrolled-to highlight is emphasized, in ms (default 1600). */
  flashMs?: number;
  /** Force the overlay painter even where `CSS.highlights` exists (tests, debugging). */
  forceOverlay?: boolean;
}

export interface Highlighter {
  /** Replace all highlights with `items` (an empty list clears them); the report of what was placed. */
  show(items: readonly HighlightItem[]): HighlightReport;
  /** Scroll item `id` into view, flash it and show its card; false when it is not placed. */
  scrollTo(id: string): boolean;
  /** The report of the latest `show` or re-anchoring, or null before the first `show`. */
  lastReport(): HighlightReport | null;
  /** Stop observing, remove every highlight, listener and Assay's host element. */
  dispose(): void;
}

/** The text a placed range should still cover after a DOM change, folded of whitespace. */
function squashed(text: string): string {
  return text.replace(/\s+/g, '');
}

function prefersReducedMotion(window: Window): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Create the highlighter for one page. Painter: the CSS Custom Highlight API where the window has
 * it (report `method: 'custom-highlight'`), else the overlay (`'overlay'`). Assay's host element
 * (`<assay-highlighter data-assay-highlighter="<method>">`, closed shadow root) is appended to
 * `<html>`; its `data-assay-anchored` / `data-assay-failed` attributes count the latest report,
 * for end-to-end tests and debugging from the page's console.
 *
 * Re-anchoring: a `MutationObserver` on `body` (child lists, subtree, character data) waits for
 * `debounceMs` of quiet, then re-reads the page text. A placed range whose text is unchanged is
 * kept (ranges are live and follow moved nodes); a range that collapsed or changed is searched
 * again, and quotes that failed are searched again when the page text changed — so a quote in a
 * section loaded later is placed then. The report is updated (`lastReport()`).
 */
export function createHighlighter(context: HighlighterContext): Highlighter {
  const { document, window } = context;
  const debounceMs = context.debounceMs ?? 300;
  const flashMs = context.flashMs ?? 1600;
  const ui = createUiHost(document);
  const painter: Painter =
    (context.forceOverlay ? null : createCustomHighlightPainter({ document, window })) ??
    createOverlayPainter({ document, window }, ui.boxLayer);
  const card = createHoverCard({ document, window }, ui.cardLayer);
  ui.host.setAttribute(HIGHLIGHTER_HOST_ATTRIBUTE, painter.method);

  let items: readonly HighlightItem[] = [];
  let pageText: PageText | undefined;
  let anchored: AnchoredItem[] = [];
  /** The squashed text each placed range covered when it was placed, by item id. */
  let placedText = new Map<string, string>();
  let failed: FailedItem[] = [];
  let report: HighlightReport | null = null;
  let debounce: number | undefined;

  const publish = (): HighlightReport => {
    // Report in the order of the items, whatever order re-anchoring found them in.
    const order = new Map(items.map((item, index) => [item.id, index] as const));
    const byOrder = (first: { id: string }, second: { id: string }): number => (order.get(first.id) ?? 0) - (order.get(second.id) ?? 0);
    anchored.sort((first, second) => byOrder(first.item, second.item));
    failed.sort(byOrder);
    ui.reattach();
    painter.paint(anchored);
    card.setEntries(anchored);
    placedText = new Map(anchored.map((entry) => [entry.item.id, squashed(entry.range.toString())]));
    report = { anchored: anchored.map((entry) => entry.item.id), failed: [...failed], method: painter.method };
    ui.host.setAttribute('data-assay-anchored', String(report.anchored.length));
    ui.host.setAttribute('data-assay-failed', String(report.failed.length));
    return report;
  };

  const show = (next: readonly HighlightItem[]): HighlightReport => {
    items = [...next];
    pageText = readPageText({ document, window });
    const result = anchorItems(items, pageText);
    anchored = result.anchored;
    failed = result.failed;
    return publish();
  };

  const reanchor = (): void => {
    debounce = undefined;
    if (items.length === 0 || !pageText) return;
    const previousText = pageText.text;
    pageText = readPageText({ document, window });
    const kept = anchored.filter((entry) => {
      const range = entry.range;
      return !range.collapsed && squashed(range.toString()) === placedText.get(entry.item.id);
    });
    const keptIds = new Set(kept.map((entry) => entry.item.id));
    const failedIds = new Set(failed.map((failure) => failure.id));
    const textChanged = pageText.text !== previousText;
    // A failed quote can only anchor now if the text changed; a broken range is always retried.
    const retry = items.filter((item) => !keptIds.has(item.id) && (textChanged || !failedIds.has(item.id)));
    const retryIds = new Set(retry.map((item) => item.id));
    const stillFailed = failed.filter((failure) => !retryIds.has(failure.id));
    const result = anchorItems(retry, pageText);
    anchored = [...kept, ...result.anchored];
    failed = [...stillFailed, ...result.failed];
    publish();
  };

  // The page's own constructor: in a test, `window` is a jsdom window beside Node's globals.
  const { MutationObserver } = window as Window & typeof globalThis;
  // Debounced, but never postponed past `maxWaitMs`: a ticker or carousel that changes the DOM
  // every few hundred ms would otherwise keep a section loaded meanwhile from ever anchoring.
  const maxWaitMs = Math.max(debounceMs, 2000);
  let firstChangeAt: number | undefined;
  const observer = new MutationObserver(() => {
    if (items.length === 0) return;
    if (debounce !== undefined) window.clearTimeout(debounce);
    const now = Date.now();
    firstChangeAt ??= now;
    const wait = Math.max(0, Math.min(debounceMs, firstChangeAt + maxWaitMs - now));
    debounce = window.setTimeout(() => {
      firstChangeAt = undefined;
      reanchor();
    }, wait);
  });
  observer.observe(document.body ?? document.documentElement, { childList: true, subtree: true, characterData: true });

  return {
    show,
    scrollTo(id) {
      const range = painter.rangeOf(id);
      const entry = anchored.find((candidate) => candidate.item.id === id);
      if (!range || !entry) return false;
      const behavior: ScrollBehavior = prefersReducedMotion(window) ? 'auto' : 'smooth';
      const target = range.startContainer.parentElement;
      const targetHeight = target?.getBoundingClientRect().height ?? 0;
      if (target && targetHeight > window.innerHeight && typeof range.getBoundingClientRect === 'function') {
        // A paragraph taller than the window: centre the quote's own lines, not the paragraph.
        const rect = range.getBoundingClientRect();
        window.scrollBy({ top: rect.top - (window.innerHeight - rect.height) / 2, behavior });
      } else if (target && typeof target.scrollIntoView === 'function') {
        // scrollIntoView also scrolls the page's inner scroll containers.
        target.scrollIntoView({ behavior, block: 'center', inline: 'nearest' });
      }
      painter.flash(id, flashMs);
      card.showFor(entry);
      return true;
    },
    lastReport: () => report,
    dispose() {
      observer.disconnect();
      if (debounce !== undefined) window.clearTimeout(debounce);
      painter.dispose();
      card.dispose();
      ui.dispose();
      items = [];
      anchored = [];
    },
  };
}
