import { describe, expect, it, vi } from 'vitest';
import {
  panelTargetKey,
  targetAfter,
  targetMode,
  watchPanelTarget,
  type PanelTarget,
  type TabEvents,
} from '../../../src/extension/panel-target';

const WINDOW = { kind: 'window' } as const;

describe('targetMode', () => {
  it('reads ?tabId before ?windowId and ignores values that are not whole numbers', () => {
    expect(targetMode('?tabId=7&windowId=3')).toEqual({ kind: 'tab', tabId: 7 });
    expect(targetMode('?windowId=3')).toEqual({ kind: 'window', windowId: 3 });
    expect(targetMode('?tabId=-1&windowId=x')).toEqual({ kind: 'window' });
    expect(targetMode('')).toEqual({ kind: 'window' });
  });
});

describe('targetAfter', () => {
  const paperA: PanelTarget = { tabId: 5, url: 'https://pubs.rsc.org/en/content/articlehtml/2020/ta/a', load: 0 };

  it('moves to the tab activated in the panel’s window, and ignores other windows and a pinned tab', () => {
    expect(targetAfter(paperA, { kind: 'activated', tabId: 9, windowId: 1 }, WINDOW, 1)).toEqual({ tabId: 9, load: 0 });
    expect(targetAfter(paperA, { kind: 'activated', tabId: 9, windowId: 2 }, WINDOW, 1)).toBe(paperA);
    expect(targetAfter(paperA, { kind: 'activated', tabId: 9, windowId: 1 }, { kind: 'tab', tabId: 5 }, undefined)).toBe(paperA);
  });

  it('treats a navigation to another address as a new page, and a fragment change as the same page', () => {
    const next = targetAfter(
      paperA,
      { kind: 'updated', tabId: 5, url: 'https://pubs.rsc.org/en/content/articlehtml/2020/ta/b', status: 'loading' },
      WINDOW,
      1,
    );
    expect(panelTargetKey(next)).not.toBe(panelTargetKey(paperA));
    const fragment = targetAfter(paperA, { kind: 'updated', tabId: 5, url: `${paperA.url}#sec-2` }, WINDOW, 1);
    expect(panelTargetKey(fragment)).toBe(panelTargetKey(paperA));
    expect(fragment.url).toBe(`${paperA.url}#sec-2`);
  });

  it('counts a reload or a navigation whose URL is hidden as a new load, and ignores other tabs and "complete"', () => {
    const reloaded = targetAfter(paperA, { kind: 'updated', tabId: 5, status: 'loading' }, WINDOW, 1);
    expect(reloaded).toEqual({ tabId: 5, load: 1 });
    expect(panelTargetKey(reloaded)).toBe('5|hidden|1');
    expect(targetAfter(paperA, { kind: 'updated', tabId: 6, status: 'loading' }, WINDOW, 1)).toBe(paperA);
    expect(targetAfter(paperA, { kind: 'updated', tabId: 5, status: 'complete' }, WINDOW, 1)).toBe(paperA);
  });
});

/** A scripted `TabEvents`: tabs by id with URLs, one window, events fired by the test. */
function fakeTabs(urls: Record<number, string | undefined>, active: number) {
  const listeners = {
    activated: [] as Array<(info: { tabId: number; windowId: number }) => void>,
    updated: [] as Array<(tabId: number, change: { url?: string; status?: string }) => void>,
  };
  const events: TabEvents = {
    getTab: async (tabId) =>
      tabId in urls ? { ...(urls[tabId] !== undefined && { url: urls[tabId] }) } : Promise.reject(new Error('No tab')),
    activeTab: async () => ({ id: active, windowId: 1, ...(urls[active] !== undefined && { url: urls[active] }) }),
    onActivated: (listener) => (
      listeners.activated.push(listener),
      () => listeners.activated.splice(listeners.activated.indexOf(listener), 1)
    ),
    onUpdated: (listener) => (listeners.updated.push(listener), () => listeners.updated.splice(listeners.updated.indexOf(listener), 1)),
  };
  return { events, listeners };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('watchPanelTarget', () => {
  it('reports the window’s active tab, then each tab switch with the new tab’s URL, and stops after unsubscribe', async () => {
    const { events, listeners } = fakeTabs({ 1: 'https://a.test/paper', 2: 'https://b.test/other', 3: undefined }, 1);
    const seen: PanelTarget[] = [];
    const stop = watchPanelTarget(WINDOW, events, (target) => seen.push(target));
    await flush();
    expect(seen).toEqual([{ tabId: 1, url: 'https://a.test/paper', load: 0 }]);
    listeners.activated.forEach((listener) => listener({ tabId: 2, windowId: 1 }));
    await flush();
    listeners.activated.forEach((listener) => listener({ tabId: 3, windowId: 1 }));
    await flush();
    expect(seen.slice(1)).toEqual([
      { tabId: 2, url: 'https://b.test/other', load: 0 },
      { tabId: 3, load: 0 },
    ]);
    stop();
    expect(listeners.activated).toHaveLength(0);
    expect(listeners.updated).toHaveLength(0);
  });

  it('follows one named tab through a navigation, ignoring tab switches', async () => {
    const { events, listeners } = fakeTabs({ 4: 'https://a.test/paper' }, 1);
    const onChange = vi.fn();
    watchPanelTarget({ kind: 'tab', tabId: 4 }, events, onChange);
    await flush();
    listeners.activated.forEach((listener) => listener({ tabId: 1, windowId: 1 }));
    listeners.updated.forEach((listener) => listener(4, { url: 'https://a.test/next', status: 'loading' }));
    expect(onChange.mock.calls.map(([target]) => panelTargetKey(target))).toEqual(['4|https://a.test/paper|0', '4|https://a.test/next|0']);
  });

  it('drops the URL of a tab left before it was read: only the latest switch is reported', async () => {
    let release: (value: { url?: string }) => void = () => undefined;
    const { events, listeners } = fakeTabs({ 1: 'https://a.test/paper', 2: 'https://b.test/slow', 3: 'https://c.test/fast' }, 1);
    const getTab = events.getTab;
    events.getTab = (tabId) => (tabId === 2 ? new Promise((resolve) => (release = resolve)) : getTab(tabId));
    const seen: PanelTarget[] = [];
    watchPanelTarget(WINDOW, events, (target) => seen.push(target));
    await flush();
    listeners.activated.forEach((listener) => listener({ tabId: 2, windowId: 1 }));
    listeners.activated.forEach((listener) => listener({ tabId: 3, windowId: 1 }));
    await flush();
    release({ url: 'https://b.test/slow' });
    await flush();
    expect(seen.map((target) => target.url)).toEqual(['https://a.test/paper', 'https://c.test/fast']);
  });
});
