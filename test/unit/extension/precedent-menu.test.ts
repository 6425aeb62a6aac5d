import { describe, expect, it, vi } from 'vitest';
import {
  createPrecedentMenuClick,
  PENDING_PRECEDENT_KEY,
  PRECEDENT_MENU_ID,
  registerPrecedentMenu,
  type PrecedentMenuApi,
  type PrecedentMenuClickInfo,
  type PrecedentMenuTab,
} from '../../../src/extension/precedent-menu';
import { takePendingPrecedent, watchPendingPrecedent, type PendingPrecedentArea } from '../../../src/ui/shared/precedent-pending';

const NOW = () => new Date('2026-11-22T06:00:00.000Z');

/** A fake of the API subset: an in-memory session area with onChanged, a menu registry, recorded calls. */
function fakeApi() {
  const session = new Map<string, unknown>();
  const changeListeners: Array<(changes: Record<string, { newValue?: unknown }>) => void> = [];
  const installed: Array<() => void> = [];
  const clicked: Array<(info: PrecedentMenuClickInfo, tab?: PrecedentMenuTab) => void> = [];
  const items = new Map<string, { title: string; contexts: string[] }>();
  const calls: string[] = [];
  const notify = (key: string, newValue: unknown) =>
    changeListeners.forEach((listener) => listener({ [key]: newValue === undefined ? {} : { newValue } }));
  const area: PendingPrecedentArea & { set(items: Record<string, unknown>): Promise<void> } = {
    get: async (key) => (session.has(key) ? { [key]: session.get(key) } : {}),
    set: vi.fn(async (values: Record<string, unknown>) => {
      calls.push('storage.set');
      for (const [key, value] of Object.entries(values)) {
        session.set(key, value);
        notify(key, value);
      }
    }),
    remove: async (key) => {
      session.delete(key);
      notify(key, undefined);
    },
    onChanged: {
      addListener: (listener) => void changeListeners.push(listener),
      removeListener: (listener) => void changeListeners.splice(changeListeners.indexOf(listener), 1),
    },
  };
  const api = {
    runtime: { onInstalled: { addListener: (listener: () => void) => void installed.push(listener) } },
    contextMenus: {
      removeAll: vi.fn(async () => {
        items.clear();
      }),
      create: vi.fn((properties: { id: string; title: string; contexts: ['selection'] }) => {
        if (items.has(properties.id)) throw new Error(`Cannot create item with duplicate id ${properties.id}`);
        items.set(properties.id, { title: properties.title, contexts: properties.contexts });
      }),
      onClicked: { addListener: (listener: (info: PrecedentMenuClickInfo, tab?: PrecedentMenuTab) => void) => void clicked.push(listener) },
    },
    storage: { session: area },
    sidePanel: {
      open: vi.fn(async (_options: { tabId: number } | { windowId: number }) => {
        calls.push('sidePanel.open');
      }),
    },
  } satisfies PrecedentMenuApi;
  return { api, session, installed, clicked, items, calls, area, changeListeners };
}

describe('registerPrecedentMenu', () => {
  it('creates one selection item on install, again without a duplicate after an update', async () => {
    const fake = fakeApi();
    registerPrecedentMenu(fake.api, NOW);
    expect(fake.installed).toHaveLength(1);
    fake.installed[0]!();
    await vi.waitFor(() => expect(fake.items.size).toBe(1));
    fake.installed[0]!();
    await vi.waitFor(() => expect(fake.api.contextMenus.create).toHaveBeenCalledTimes(2));
    expect([...fake.items]).toEqual([[PRECEDENT_MENU_ID, { title: 'Check precedent in Assay', contexts: ['selection'] }]]);
    expect(fake.api.contextMenus.removeAll).toHaveBeenCalledTimes(2);
  });

  it('a click on the item stores the trimmed selection as a Tc question and opens the panel on the tab', async () => {
    const fake = fakeApi();
    registerPrecedentMenu(fake.api, NOW);
    fake.clicked[0]!({ menuItemId: PRECEDENT_MENU_ID, selectionText: '  MgB2\n' }, { id: 42, windowId: 3 });
    await vi.waitFor(() =>
      expect(fake.session.get(PENDING_PRECEDENT_KEY)).toEqual({
        material: 'MgB2',
        property: 'tc',
        tabId: 42,
        at: '2026-11-22T06:00:00.000Z',
      }),
    );
    expect(fake.api.sidePanel.open).toHaveBeenCalledWith({ tabId: 42 });
  });
});

describe('createPrecedentMenuClick', () => {
  it('starts the write and the panel opening synchronously (the click is still a user gesture)', async () => {
    const fake = fakeApi();
    const done = createPrecedentMenuClick(fake.api, NOW)({ menuItemId: PRECEDENT_MENU_ID, selectionText: 'Nb3Sn' }, { id: 7 });
    // Nothing awaited yet, and both calls already made.
    expect(fake.calls).toEqual(['storage.set', 'sidePanel.open']);
    await done;
  });

  it('cuts a long selection to 200 characters and falls back to the window without a tab id', async () => {
    const fake = fakeApi();
    await createPrecedentMenuClick(fake.api, NOW)({ menuItemId: PRECEDENT_MENU_ID, selectionText: 'x'.repeat(250) }, { windowId: 3 });
    expect(fake.session.get(PENDING_PRECEDENT_KEY)).toEqual({ material: 'x'.repeat(200), property: 'tc', at: '2026-11-22T06:00:00.000Z' });
    expect(fake.api.sidePanel.open).toHaveBeenCalledWith({ windowId: 3 });
  });

  it('ignores other items and blank selections; a failed open does not reject', async () => {
    const fake = fakeApi();
    const click = createPrecedentMenuClick(fake.api, NOW);
    await click({ menuItemId: 'other', selectionText: 'MgB2' }, { id: 1 });
    await click({ menuItemId: PRECEDENT_MENU_ID, selectionText: '   ' }, { id: 1 });
    expect(fake.calls).toEqual([]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fake.api.sidePanel.open.mockRejectedValueOnce(new Error('`sidePanel.open()` may only be called in response to a user gesture.'));
    await expect(click({ menuItemId: PRECEDENT_MENU_ID, selectionText: 'MgB2' }, { id: 1 })).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});

describe('the side panel end (precedent-pending)', () => {
  it('takePendingPrecedent reads and clears the question; an invalid value is cleared and ignored', async () => {
    const fake = fakeApi();
    await createPrecedentMenuClick(fake.api, NOW)({ menuItemId: PRECEDENT_MENU_ID, selectionText: 'MgB2' }, { id: 42 });
    expect(await takePendingPrecedent(fake.area)).toEqual({ material: 'MgB2', property: 'tc', tabId: 42, at: '2026-11-22T06:00:00.000Z' });
    expect(fake.session.has(PENDING_PRECEDENT_KEY)).toBe(false);
    expect(await takePendingPrecedent(fake.area)).toBeUndefined();
    fake.session.set(PENDING_PRECEDENT_KEY, { material: '', property: 'tc', at: 'x' });
    expect(await takePendingPrecedent(fake.area)).toBeUndefined();
    expect(fake.session.has(PENDING_PRECEDENT_KEY)).toBe(false);
  });

  it('watchPendingPrecedent delivers the waiting question, then each new one, until stopped', async () => {
    const fake = fakeApi();
    const click = createPrecedentMenuClick(fake.api, NOW);
    await click({ menuItemId: PRECEDENT_MENU_ID, selectionText: 'MgB2' }, { id: 1 });
    const seen: string[] = [];
    const stop = watchPendingPrecedent(fake.area, (pending) => seen.push(pending.material));
    await vi.waitFor(() => expect(seen).toEqual(['MgB2']));
    await click({ menuItemId: PRECEDENT_MENU_ID, selectionText: 'Nb3Sn' }, { id: 1 });
    await vi.waitFor(() => expect(seen).toEqual(['MgB2', 'Nb3Sn']));
    expect(fake.session.has(PENDING_PRECEDENT_KEY)).toBe(false);
    stop();
    expect(fake.changeListeners).toHaveLength(0);
    await click({ menuItemId: PRECEDENT_MENU_ID, selectionText: 'Pb' }, { id: 1 });
    expect(seen).toEqual(['MgB2', 'Nb3Sn']);
  });
});
