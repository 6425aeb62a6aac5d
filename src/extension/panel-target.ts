/**
 * Which page the side panel is for, kept up to date as the reader moves: the tab it shows, that
 * tab's page, and how often that page was loaded again. The panel keys everything paper-shaped
 * (the capture's state, the saved paper found for the page, the run, the highlights) by
 * `panelTargetKey`, so a new page never shows, runs or highlights the previous one's paper.
 *
 * What moves the target (Chromium's `tabs` events, whose shapes the `TabEvents` below copy):
 * - a tab switch in the panel's window (`tabs.onActivated` with that `windowId`), when the panel
 *   follows a window (normal use: one panel per window, open-side-panel-on-click.ts);
 * - a navigation of the tab to another page (`tabs.onUpdated` with a `url` whose `pageAddress`
 *   differs: a fragment change such as `#section-2` is the same page);
 * - a reload, or a navigation whose URL the extension may not see (`status: 'loading'` without
 *   a `url`: Chromium leaves the URL out where the extension holds neither activeTab for the
 *   page nor a host permission, and activeTab ends when the tab navigates);
 * A closed tab moves nothing by itself: in a window the next active tab takes over
 * (`onActivated`), and a panel pinned to one tab keeps showing that tab's last paper (it is saved;
 * a capture then fails with its own `no-tab` message).
 */
import { pageAddress } from './page-address';

/** The page the panel is for. `tabId` null: the window had no active tab to follow. */
export interface PanelTarget {
  tabId: number | null;
  /** The tab's URL where the extension may see it; undefined where it is hidden or not read yet. */
  url?: string;
  /** Loads of this tab and address seen since the target last changed otherwise (reloads, hidden navigations). */
  load: number;
}

/** What the panel follows: one named tab (`?tabId=N`), or the active tab of a window (`?windowId=N`, or the panel's own window). */
export type TargetMode = { kind: 'tab'; tabId: number } | { kind: 'window'; windowId?: number };

/** One of the `tabs` events `targetAfter` reads, in the panel's own words. */
export type TabEvent =
  { kind: 'activated'; tabId: number; windowId: number } | { kind: 'updated'; tabId: number; url?: string; status?: string };

/**
 * The mode `search` (the panel's `location.search`) names: `?tabId=N` first (the e2e tests open
 * the panel as an ordinary tab, see target-tab.ts), then `?windowId=N`, else the panel's window.
 * Values that are not whole numbers are ignored.
 */
export function targetMode(search: string): TargetMode {
  const parameters = new URLSearchParams(search);
  const number = (name: string) => {
    const value = parameters.get(name);
    return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
  };
  const tabId = number('tabId');
  if (tabId !== undefined) return { kind: 'tab', tabId };
  const windowId = number('windowId');
  return windowId === undefined ? { kind: 'window' } : { kind: 'window', windowId };
}

/**
 * The key the panel's paper state hangs on: equal keys are the same page of the same tab, loaded
 * the same number of times. "none" without a tab; the address is "hidden" where the URL is.
 */
export function panelTargetKey(target: PanelTarget): string {
  if (target.tabId === null) return 'none';
  return `${target.tabId}|${target.url === undefined ? 'hidden' : pageAddress(target.url)}|${target.load}`;
}

/**
 * The target after `event`, for a panel in `mode` following window `windowId` (undefined when the
 * panel follows one tab). Returns `current` itself when nothing the panel shows changed, so a
 * caller may compare by identity. Rules in the file comment; a URL change within the same
 * address keeps the target (and records the URL), an update of another tab changes nothing.
 */
export function targetAfter(current: PanelTarget, event: TabEvent, mode: TargetMode, windowId: number | undefined): PanelTarget {
  switch (event.kind) {
    case 'activated':
      if (mode.kind === 'tab' || windowId === undefined || event.windowId !== windowId || event.tabId === current.tabId) return current;
      return { tabId: event.tabId, load: 0 };
    case 'updated': {
      if (event.tabId !== current.tabId) return current;
      if (event.url !== undefined) {
        if (current.url !== undefined && pageAddress(event.url) === pageAddress(current.url)) {
          return event.url === current.url ? current : { ...current, url: event.url };
        }
        return { tabId: current.tabId, url: event.url, load: 0 };
      }
      // A load without a URL: a reload of the page shown, or a navigation the extension may not see.
      if (event.status === 'loading') return { tabId: current.tabId, load: current.load + 1 };
      return current;
    }
  }
}

/** The slice of `browser.tabs` / `browser.windows` the watcher uses; `browserTabEvents` (entrypoint) gives the extension's. */
export interface TabEvents {
  /** `tabs.get(tabId)`: its `url` only where the extension may see it. Rejects for a closed tab. */
  getTab(tabId: number): Promise<{ url?: string }>;
  /** The active tab of window `windowId`, or of the panel's own window when undefined: `tabs.query({ active: true, … })`. */
  activeTab(windowId: number | undefined): Promise<{ id?: number; windowId?: number; url?: string } | undefined>;
  onActivated(listener: (info: { tabId: number; windowId: number }) => void): () => void;
  onUpdated(listener: (tabId: number, change: { url?: string; status?: string }) => void): () => void;
}

/**
 * Follow the panel's target: resolve it now (the named tab, or the window's active tab), call
 * `onChange` with it, then again each time `targetAfter` moves it. A new tab's URL is read with
 * `getTab` before it is reported (so a tab switch reports once, with the URL where visible).
 * Errors while reading (a tab closed meanwhile) report the tab without URL; a window without
 * an active tab reports `tabId: null`. → unsubscribe (no `onChange` after it).
 */
export function watchPanelTarget(mode: TargetMode, events: TabEvents, onChange: (target: PanelTarget) => void): () => void {
  let stopped = false;
  let target: PanelTarget | undefined;
  let windowId: number | undefined = mode.kind === 'window' ? mode.windowId : undefined;
  /** Raised at every change, so an older `getTab` answer is dropped. */
  let generation = 0;
  const report = (next: PanelTarget) => {
    target = next;
    if (!stopped) onChange(next);
  };
  const withUrl = async (tabId: number, known?: string): Promise<PanelTarget> => {
    if (known !== undefined) return { tabId, url: known, load: 0 };
    try {
      const tab = await events.getTab(tabId);
      return tab.url ? { tabId, url: tab.url, load: 0 } : { tabId, load: 0 };
    } catch {
      return { tabId, load: 0 };
    }
  };
  // Events that arrive before the first target is known are replayed after it, in order.
  const early: TabEvent[] = [];
  const apply = (event: TabEvent) => {
    if (target === undefined) {
      early.push(event);
      return;
    }
    const next = targetAfter(target, event, mode, windowId);
    if (next === target) return;
    const current = ++generation;
    if (event.kind === 'activated' && next.tabId !== null) {
      // Reported once the new tab's URL is read; meanwhile later events apply to the new tab.
      target = next;
      void withUrl(next.tabId).then((resolved) => {
        if (current === generation) report(resolved);
      });
      return;
    }
    report(next);
  };
  const unsubscribers = [
    events.onActivated((info) => apply({ kind: 'activated', ...info })),
    events.onUpdated((tabId, change) => apply({ kind: 'updated', tabId, ...pick(change) })),
  ];
  const start = async (): Promise<PanelTarget> => {
    if (mode.kind === 'tab') return withUrl(mode.tabId);
    const tab = await events.activeTab(windowId).catch(() => undefined);
    if (windowId === undefined) windowId = tab?.windowId;
    return tab?.id === undefined ? { tabId: null, load: 0 } : withUrl(tab.id, tab.url || undefined);
  };
  void start().then((first) => {
    if (stopped) return;
    report(first);
    for (const event of early.splice(0)) apply(event);
  });
  return () => {
    stopped = true;
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}

/** `url` and `status` of a `tabs.onUpdated` change, without the other fields (favicon, title, audible…). */
function pick(change: { url?: string; status?: string }): { url?: string; status?: string } {
  return { ...(change.url !== undefined && { url: change.url }), ...(change.status !== undefined && { status: change.status }) };
}
