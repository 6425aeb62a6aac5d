/**
 * Assay's one element in a page: a zero-size, fixed host appended to `<html>` (outside `body`,
 * so the page's own scripts and Assay's body observer never see what happens inside) with a
 * closed shadow root, so page CSS cannot reach the overlay boxes and the hover card, and page
 * scripts cannot reach into them.
 */
import { HIGHLIGHTER_HOST_ATTRIBUTE } from './page-text';

/** The host, its shadow root, and the two layers inside it. */
export interface UiHost {
  host: HTMLElement;
  /** The closed shadow root (only this reference reaches it). */
  root: ShadowRoot;
  /** Where the overlay painter puts its boxes. */
  boxLayer: HTMLElement;
  /** Where the hover card lives (above the boxes). */
  cardLayer: HTMLElement;
  /** Append the host again if the page removed it. */
  reattach(): void;
  dispose(): void;
}

// `!important` inline: page rules such as `html > div { display: none !important }` lose to it.
const HOST_STYLE = [
  'all: initial',
  'position: fixed',
  'top: 0',
  'left: 0',
  'width: 0',
  'height: 0',
  'overflow: visible',
  'pointer-events: none',
  'z-index: 2147483647',
  'display: block',
]
  .map((declaration) => `${declaration} !important`)
  .join('; ');

const SHADOW_CSS = `
:host { all: initial; }
.layer { position: absolute; top: 0; left: 0; width: 0; height: 0; overflow: visible; pointer-events: none; }
.box { position: absolute; pointer-events: none; border-radius: 2px; box-sizing: border-box; }
.box.verified { background: rgba(22, 163, 74, 0.28); border-bottom: 2px solid rgb(22, 163, 74); }
.box.needs_review { background: rgba(234, 179, 8, 0.32); border-bottom: 2px solid rgb(202, 138, 4); }
.box.rejected { background: rgba(220, 38, 38, 0.22); border-bottom: 2px dashed rgb(220, 38, 38); }
.box.candidate { background: rgba(59, 130, 246, 0.24); border-bottom: 2px dotted rgb(37, 99, 235); }
.box.flash { outline: 3px solid rgb(250, 204, 21); background: rgba(250, 204, 21, 0.45); }
.card {
  position: fixed; max-width: min(360px, calc(100vw - 16px)); box-sizing: border-box; padding: 8px 10px;
  font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111827; background: #ffffff;
  border: 1px solid #9ca3af; border-radius: 6px; box-shadow: 0 4px 16px rgba(0, 0, 0, 0.25);
  pointer-events: none; white-space: normal; overflow-wrap: anywhere;
}
.card[hidden] { display: none; }
.card .title { font-weight: 600; margin: 0 0 4px; }
.card dl { margin: 0; display: grid; grid-template-columns: auto 1fr; gap: 2px 8px; }
.card dt { color: #4b5563; }
.card dd { margin: 0; }
.card .status-verified { color: #166534; }
.card .status-needs_review { color: #854d0e; }
.card .status-rejected { color: #991b1b; }
.card .status-candidate { color: #1e40af; }
.card .provenance-cited {
  justify-self: start; padding: 0 6px; border: 1px solid #854d0e; border-radius: 4px; color: #854d0e; background: #fdf0d8;
}
`;

/**
 * Create the host (`<assay-highlighter data-assay-highlighter>`, one per highlighter) and append
 * it to `document.documentElement`. All markup inside is built with `createElement` and
 * `textContent`. `dispose` removes it.
 */
export function createUiHost(document: Document): UiHost {
  const host = document.createElement('assay-highlighter');
  host.setAttribute(HIGHLIGHTER_HOST_ATTRIBUTE, '');
  host.setAttribute('style', HOST_STYLE);
  const root = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = SHADOW_CSS;
  const boxLayer = document.createElement('div');
  boxLayer.className = 'layer boxes';
  const cardLayer = document.createElement('div');
  cardLayer.className = 'layer cards';
  root.append(style, boxLayer, cardLayer);
  const reattach = (): void => {
    if (!host.isConnected) document.documentElement.append(host);
  };
  reattach();
  return { host, root, boxLayer, cardLayer, reattach, dispose: () => host.remove() };
}
