/**
 * The card that tells what a highlight stands for: material, property, value with unit (and in
 * the property's display unit, when the side panel gives it), conditions (method first), provenance
 * ("computed", or "cited [19]" styled as a tag), the status in words and who agreed. It lives in Assay's shadow-root host; every
 * string is set with `textContent` (page and model text are never parsed as HTML).
 *
 * Highlights are not elements, so the pointer cannot "enter" them: a passive `mousemove`
 * listener keeps the last pointer position and, once per animation frame, tests it against the
 * client rects of the anchored ranges (cached until the next scroll, resize or repaint).
 */
import type { HighlightItem } from '../contracts/messages';
import type { AnchoredItem } from './anchor-items';
import { clientRectsOf, scheduleFrame, type HighlightStatus } from './paint';

/** The status in words, as the card shows it. */
export const STATUS_WORDS: Record<HighlightStatus, string> = {
  verified: 'Verified',
  needs_review: 'Needs review',
  rejected: 'Rejected',
  candidate: 'Candidate (not yet verified)',
};

export interface HoverCard {
  /** The card element (role="tooltip"; `hidden` while not shown). */
  readonly element: HTMLElement;
  /** The highlights the pointer is tested against (after every paint). */
  setEntries(entries: readonly AnchoredItem[]): void;
  /** Show the card for `entry`, next to its range. */
  showFor(entry: AnchoredItem): void;
  hide(): void;
  /** The id of the item whose card is shown, or undefined. */
  shownId(): string | undefined;
  dispose(): void;
}

export interface HoverCardContext {
  document: Document;
  window: Window;
}

/**
 * Value and unit as printed together: "1.7 eV", "300 K", or the bare value for a unitless one;
 * followed by the value in the property's display unit when the item carries one: "40 meV = 0.040 eV".
 */
export function valueWithUnit(card: HighlightItem['card']): string {
  const printed = card.unit.trim() ? `${card.value} ${card.unit}`.trim() : card.value;
  return card.display?.trim() ? `${printed} = ${card.display.trim()}` : printed;
}

/**
 * Fill `element` with the card of `item` (title, then a definition list: Value, Conditions,
 * Provenance and Doubts when given, Status, Agreed); text only.
 */
export function renderCard(document: Document, element: HTMLElement, item: HighlightItem): void {
  const title = document.createElement('p');
  title.className = 'title';
  title.textContent = `${item.card.material} — ${item.card.property}`;
  const list = document.createElement('dl');
  const row = (term: string, value: string, className?: string): void => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    if (className) dd.className = className;
    list.append(dt, dd);
  };
  row('Value', valueWithUnit(item.card));
  if (item.card.conditions?.trim()) row('Conditions', item.card.conditions, 'conditions');
  // A cited value is a tag the reader sees at a glance ("cited [19]"): the paper quotes it, it did not find it.
  const provenance = item.card.provenance?.trim();
  if (provenance) row('Provenance', provenance, provenance.startsWith('cited') ? 'provenance provenance-cited' : 'provenance');
  // A quick-scan candidate's doubts (an end of a change, competing methods): one row, text only.
  const doubts = (item.card.doubts ?? []).map((doubt) => doubt.trim()).filter((doubt) => doubt !== '');
  if (doubts.length > 0) row('Doubts', doubts.join('; '), 'doubts');
  row('Status', STATUS_WORDS[item.status], `status-${item.status}`);
  if (item.card.agreed?.trim()) row('Agreed', item.card.agreed);
  element.replaceChildren(title, list);
}

const GAP_PX = 6;
const MARGIN_PX = 8;

function contains(rect: DOMRect, x: number, y: number): boolean {
  return x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom;
}

/**
 * Create the hover card in `layer` and start listening (`mousemove` passive, `keydown` for
 * Escape, scroll/resize to follow the range). Placement: below the range's first line, above it
 * when there is no room below, kept `MARGIN_PX` inside the viewport.
 */
export function createHoverCard({ document, window }: HoverCardContext, layer: HTMLElement): HoverCard {
  const element = document.createElement('div');
  element.className = 'card';
  element.setAttribute('role', 'tooltip');
  element.hidden = true;
  layer.append(element);

  let entries: readonly AnchoredItem[] = [];
  let rectCache: Array<{ entry: AnchoredItem; rects: DOMRect[] }> | undefined;
  let shown: AnchoredItem | undefined;
  let pointer: { x: number; y: number } | undefined;
  let cancelHitTest: (() => void) | undefined;
  let cancelPlace: (() => void) | undefined;

  const place = (): void => {
    if (!shown) return;
    const rect = clientRectsOf(shown.range)[0] ?? shown.range.getBoundingClientRect?.();
    if (!rect) return;
    const card = element.getBoundingClientRect();
    const maxLeft = Math.max(MARGIN_PX, window.innerWidth - card.width - MARGIN_PX);
    const left = Math.min(Math.max(MARGIN_PX, rect.left), maxLeft);
    const below = rect.bottom + GAP_PX;
    const top = below + card.height > window.innerHeight - MARGIN_PX ? Math.max(MARGIN_PX, rect.top - GAP_PX - card.height) : below;
    element.style.left = `${left}px`;
    element.style.top = `${top}px`;
  };
  const showFor = (entry: AnchoredItem): void => {
    if (shown !== entry) renderCard(document, element, entry.item);
    shown = entry;
    element.hidden = false;
    place();
  };
  const hide = (): void => {
    shown = undefined;
    element.hidden = true;
  };
  const hitTest = (): void => {
    cancelHitTest = undefined;
    if (!pointer) return;
    rectCache ??= entries.map((entry) => ({ entry, rects: clientRectsOf(entry.range) }));
    const { x, y } = pointer;
    const hit = rectCache.find(({ rects }) => rects.some((rect) => contains(rect, x, y)));
    if (hit) showFor(hit.entry);
    else if (shown) hide();
  };
  const onMouseMove = (event: MouseEvent): void => {
    pointer = { x: event.clientX, y: event.clientY };
    cancelHitTest ??= scheduleFrame(window, hitTest);
  };
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && shown) hide();
  };
  const onViewportChange = (): void => {
    rectCache = undefined;
    if (shown) {
      cancelPlace ??= scheduleFrame(window, () => {
        cancelPlace = undefined;
        place();
      });
    }
  };
  const passive = { passive: true } as const;
  const passiveCapture = { capture: true, passive: true } as const;
  document.addEventListener('mousemove', onMouseMove, passive);
  document.addEventListener('keydown', onKeyDown);
  window.addEventListener('scroll', onViewportChange, passiveCapture);
  window.addEventListener('resize', onViewportChange, passiveCapture);

  return {
    element,
    setEntries(next) {
      entries = next;
      rectCache = undefined;
      // The card of an item no longer painted would point at nothing.
      if (shown && !next.includes(shown)) {
        const same = next.find((entry) => entry.item.id === shown?.item.id);
        if (same) showFor(same);
        else hide();
      }
    },
    showFor,
    hide,
    shownId: () => shown?.item.id,
    dispose() {
      cancelHitTest?.();
      cancelPlace?.();
      document.removeEventListener('mousemove', onMouseMove);
      document.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('scroll', onViewportChange, passiveCapture);
      window.removeEventListener('resize', onViewportChange, passiveCapture);
      element.remove();
    },
  };
}
