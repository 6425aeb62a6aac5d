/**
 * Two ways to paint anchored facts, behind one interface. Neither touches the page's own nodes
 * (no wrapping `<mark>`/`<span>`): wrapping would change the page's layout, break its scripts'
 * references to text nodes and its event handlers, and would have to be undone exactly.
 *
 * (a) The CSS Custom Highlight API (https://drafts.csswg.org/css-highlight-api-1/): the browser
 *     paints registered `Range`s with `::highlight(name)` styles; no boxes, no layout, and the
 *     ranges follow reflow by themselves. Chrome ≥ 105.
 * (b) An overlay: translucent boxes from `range.getClientRects()` in Assay's shadow-root host,
 *     `pointer-events: none`, re-measured on scroll and resize (once per animation frame).
 */
import type { HighlightItem } from '../contracts/messages';
import type { AnchoredItem } from './anchor-items';

export type HighlightStatus = HighlightItem['status'];
export const HIGHLIGHT_STATUSES: readonly HighlightStatus[] = ['verified', 'needs_review', 'rejected', 'candidate'];

/** The `::highlight()` name of a status, e.g. `assay-verified`. */
export function highlightName(status: HighlightStatus): string {
  return `assay-${status}`;
}

/** The `::highlight()` name of the temporary emphasis after a scroll-to. */
export const FLASH_HIGHLIGHT_NAME = 'assay-flash';

/** What both painters do. */
export interface Painter {
  readonly method: 'custom-highlight' | 'overlay';
  /** Replace everything painted with `anchored`. */
  paint(anchored: readonly AnchoredItem[]): void;
  clear(): void;
  /** The painted range of item `id` (the first, if ids repeat), or undefined. */
  rangeOf(id: string): Range | undefined;
  /** Emphasize item `id` for `durationMs` milliseconds; false when it is not painted. */
  flash(id: string, durationMs: number): boolean;
  /** Clear, and remove listeners, styles and timers. */
  dispose(): void;
}

export interface PainterContext {
  document: Document;
  window: Window;
}

/**
 * Colours: translucent backgrounds over the page's own text colour, so dark text on white and
 * light text on dark pages both stay readable (about 25–35 % alpha); the line style of the
 * underline differs per status, so the status is not told by colour alone. Highlight pseudos
 * never change layout (only colour, background and text decoration apply).
 */
const HIGHLIGHT_CSS = `
::highlight(assay-verified) { background-color: rgba(22, 163, 74, 0.30); text-decoration: underline solid rgb(22, 163, 74) 2px; }
::highlight(assay-needs_review) { background-color: rgba(234, 179, 8, 0.35); text-decoration: underline solid rgb(202, 138, 4) 2px; }
::highlight(assay-rejected) { background-color: rgba(220, 38, 38, 0.24); text-decoration: underline wavy rgb(220, 38, 38) 1px; }
::highlight(assay-candidate) { background-color: rgba(59, 130, 246, 0.26); text-decoration: underline dotted rgb(37, 99, 235) 2px; }
::highlight(assay-flash) { background-color: rgba(250, 204, 21, 0.85); color: #111827; }
`;

/** The slice of the CSS Custom Highlight API used here (`CSS.highlights`, `Highlight`). */
interface HighlightApi {
  registry: { set(name: string, highlight: Highlight): unknown; get(name: string): Highlight | undefined; delete(name: string): boolean };
  Highlight: new (...ranges: Range[]) => Highlight;
}

function highlightApiOf(window: Window): HighlightApi | null {
  const scope = window as Window & { CSS?: { highlights?: HighlightApi['registry'] }; Highlight?: HighlightApi['Highlight'] };
  const registry = scope.CSS?.highlights;
  const constructor = scope.Highlight;
  return registry && typeof constructor === 'function' ? { registry, Highlight: constructor } : null;
}

/** True when the page's window has `CSS.highlights` and `Highlight`. */
export function supportsCustomHighlights(window: Window): boolean {
  return highlightApiOf(window) !== null;
}

/** `id → range` of the first anchored item with each id. */
function rangesById(anchored: readonly AnchoredItem[]): Map<string, Range> {
  const ranges = new Map<string, Range>();
  for (const entry of anchored) if (!ranges.has(entry.item.id)) ranges.set(entry.item.id, entry.range);
  return ranges;
}

/**
 * Painter (a): one `Highlight` per status registered as `assay-<status>` in `CSS.highlights`,
 * styled by a constructed stylesheet added to `document.adoptedStyleSheets` (removed again on
 * `dispose`). Only Assay's names are ever set or deleted in the registry, so the page's own
 * highlights are left alone. Returns `null` when the API or constructed stylesheets are missing
 * or refused (the caller then uses the overlay).
 */
export function createCustomHighlightPainter({ document, window }: PainterContext): Painter | null {
  const api = highlightApiOf(window);
  const StyleSheet = (window as Window & { CSSStyleSheet?: typeof CSSStyleSheet }).CSSStyleSheet;
  if (!api || typeof StyleSheet !== 'function') return null;
  let sheet: CSSStyleSheet;
  try {
    sheet = new StyleSheet();
    sheet.replaceSync(HIGHLIGHT_CSS);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {
    return null;
  }
  let ranges = new Map<string, Range>();
  let flashTimer: number | undefined;

  const clearFlash = (): void => {
    if (flashTimer !== undefined) window.clearTimeout(flashTimer);
    flashTimer = undefined;
    api.registry.delete(FLASH_HIGHLIGHT_NAME);
  };
  const clear = (): void => {
    clearFlash();
    for (const status of HIGHLIGHT_STATUSES) api.registry.delete(highlightName(status));
    ranges = new Map();
  };

  return {
    method: 'custom-highlight',
    paint(anchored) {
      clear();
      for (const status of HIGHLIGHT_STATUSES) {
        const of = anchored.filter((entry) => entry.item.status === status).map((entry) => entry.range);
        if (of.length > 0) api.registry.set(highlightName(status), new api.Highlight(...of));
      }
      ranges = rangesById(anchored);
    },
    clear,
    rangeOf: (id) => ranges.get(id),
    flash(id, durationMs) {
      const range = ranges.get(id);
      if (!range) return false;
      clearFlash();
      const flash = new api.Highlight(range);
      // Above the status highlights, so the flash shows over the status colour.
      flash.priority = 1;
      api.registry.set(FLASH_HIGHLIGHT_NAME, flash);
      flashTimer = window.setTimeout(() => {
        flashTimer = undefined;
        if (api.registry.get(FLASH_HIGHLIGHT_NAME) === flash) api.registry.delete(FLASH_HIGHLIGHT_NAME);
      }, durationMs);
      return true;
    },
    dispose() {
      clear();
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    },
  };
}

/** Run `callback` before the next repaint (`requestAnimationFrame`), or after ~16 ms without it. */
export function scheduleFrame(window: Window, callback: () => void): () => void {
  if (typeof window.requestAnimationFrame === 'function') {
    const handle = window.requestAnimationFrame(() => callback());
    return () => window.cancelAnimationFrame(handle);
  }
  const handle = window.setTimeout(callback, 16);
  return () => window.clearTimeout(handle);
}

/** The client rects of a range, or none where the DOM has no layout (jsdom). */
export function clientRectsOf(range: Range): DOMRect[] {
  if (typeof range.getClientRects !== 'function') return [];
  return [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0);
}

/**
 * Painter (b): one absolutely positioned box (`div.box.<status>`, `data-item-id`) per client rect
 * of each range, inside `layer` (a layer of Assay's shadow-root host, fixed at the viewport's
 * origin, so client coordinates are box coordinates). Boxes are re-measured on window resize,
 * on any scroll (window or inner scroll container: capture phase) and when the body's size
 * changes (`ResizeObserver`), at most once per frame. Boxes are not clipped by the page's inner
 * scroll containers (they live outside them).
 */
export function createOverlayPainter({ document, window }: PainterContext, layer: HTMLElement): Painter {
  let entries: readonly AnchoredItem[] = [];
  let ranges = new Map<string, Range>();
  let flashing: string | undefined;
  let flashTimer: number | undefined;
  let cancelFrame: (() => void) | undefined;

  // Boxes are reused from one layout to the next: scrolling re-measures, it does not rebuild.
  const layout = (): void => {
    let used = 0;
    for (const entry of entries) {
      for (const rect of clientRectsOf(entry.range)) {
        let box = layer.children[used] as HTMLElement | undefined;
        if (!box) {
          box = document.createElement('div');
          layer.append(box);
        }
        used += 1;
        box.className = `box ${entry.item.status}${entry.item.id === flashing ? ' flash' : ''}`;
        box.dataset.itemId = entry.item.id;
        box.style.left = `${rect.left}px`;
        box.style.top = `${rect.top}px`;
        box.style.width = `${rect.width}px`;
        box.style.height = `${rect.height}px`;
      }
    }
    while (layer.children.length > used) layer.lastElementChild?.remove();
  };
  const onViewportChange = (): void => {
    if (cancelFrame || entries.length === 0) return;
    cancelFrame = scheduleFrame(window, () => {
      cancelFrame = undefined;
      layout();
    });
  };
  const listenerOptions = { capture: true, passive: true } as const;
  window.addEventListener('scroll', onViewportChange, listenerOptions);
  window.addEventListener('resize', onViewportChange, listenerOptions);
  // Layout also moves without scrolling: images and web fonts load, sections expand.
  const { ResizeObserver } = window as Window & Partial<Pick<typeof globalThis, 'ResizeObserver'>>;
  const resizeObserver = ResizeObserver ? new ResizeObserver(onViewportChange) : undefined;
  if (document.body) resizeObserver?.observe(document.body);

  const clear = (): void => {
    if (flashTimer !== undefined) window.clearTimeout(flashTimer);
    flashTimer = undefined;
    flashing = undefined;
    cancelFrame?.();
    cancelFrame = undefined;
    entries = [];
    ranges = new Map();
    layer.replaceChildren();
  };

  return {
    method: 'overlay',
    paint(anchored) {
      clear();
      entries = [...anchored];
      ranges = rangesById(anchored);
      layout();
    },
    clear,
    rangeOf: (id) => ranges.get(id),
    flash(id, durationMs) {
      if (!ranges.has(id)) return false;
      if (flashTimer !== undefined) window.clearTimeout(flashTimer);
      flashing = id;
      layout();
      flashTimer = window.setTimeout(() => {
        flashTimer = undefined;
        flashing = undefined;
        layout();
      }, durationMs);
      return true;
    },
    dispose() {
      clear();
      window.removeEventListener('scroll', onViewportChange, listenerOptions);
      window.removeEventListener('resize', onViewportChange, listenerOptions);
      resizeObserver?.disconnect();
    },
  };
}
