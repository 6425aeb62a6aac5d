/**
 * `askToKeepStorage` (issue 29, item 8) over a StorageManager that stands in for
 * `navigator.storage`: it asks only when storage is not persistent yet, keeps the browser's
 * answer with its occasion and time for Settings, and never rejects.
 */
import { describe, expect, it, vi } from 'vitest';

// `wxt/browser` picks `globalThis.chrome` when it is imported; the record is kept in the stand-in
// areas below, and `usesBrowserArea` compares them with `browser.storage.local`.
vi.hoisted(() => {
  (globalThis as { chrome?: unknown }).chrome = { runtime: { id: 'assay-test' }, storage: {} };
});
import { askToKeepStorage, type PersistentStorageManager } from '../../../src/extension/keep-storage';
import { readStoredSetting, storagePersistenceSetting, type StoredValueArea } from '../../../src/extension/stored-settings';

function memoryArea(): StoredValueArea & { items: Record<string, unknown> } {
  const items: Record<string, unknown> = {};
  return {
    items,
    get: async (key) => (key in items ? { [key]: items[key] } : {}),
    set: async (next) => void Object.assign(items, next),
  };
}

/** A StorageManager whose `persist()` answers `grants`; `persisted()` says whether it was granted. */
function storageManager(grants: boolean, persistedAlready = false) {
  let persisted = persistedAlready;
  return {
    persisted: vi.fn(async () => persisted),
    persist: vi.fn(async () => (persisted = persisted || grants)),
  } satisfies PersistentStorageManager;
}

const now = () => new Date('2026-11-29T10:30:00.000Z');

describe('askToKeepStorage', () => {
  it('asks when storage is not persistent and keeps a refusal with its occasion and time', async () => {
    const manager = storageManager(false);
    const area = memoryArea();
    expect(await askToKeepStorage(manager, 'first-rows', { area, now })).toBe('refused');
    expect(manager.persist).toHaveBeenCalledTimes(1);
    expect(await readStoredSetting(storagePersistenceSetting, area)).toEqual({
      occasion: 'first-rows',
      askedAt: '2026-11-29T10:30:00.000Z',
      granted: false,
    });
  });

  it('keeps a grant; once persistent it asks no more and leaves the record as it was', async () => {
    const manager = storageManager(true);
    const area = memoryArea();
    expect(await askToKeepStorage(manager, 'model-download', { area, now })).toBe('granted');
    const record = { occasion: 'model-download', askedAt: '2026-11-29T10:30:00.000Z', granted: true };
    expect(await readStoredSetting(storagePersistenceSetting, area)).toEqual(record);

    expect(await askToKeepStorage(manager, 'first-rows', { area, now: () => new Date('2026-12-01T00:00:00.000Z') })).toBe('already');
    expect(manager.persist).toHaveBeenCalledTimes(1);
    expect(await readStoredSetting(storagePersistenceSetting, area)).toEqual(record);
  });

  it('answers unavailable without a manager or when the manager fails, and writes nothing', async () => {
    const area = memoryArea();
    expect(await askToKeepStorage(undefined, 'button', { area, now })).toBe('unavailable');
    const failing = { persisted: async () => false, persist: async () => Promise.reject(new Error('not allowed in this context')) };
    expect(await askToKeepStorage(failing, 'button', { area, now })).toBe('unavailable');
    expect(area.items).toEqual({});
  });

  it("gives the browser's answer when the record cannot be written", async () => {
    const area: StoredValueArea = { get: async () => ({}), set: async () => Promise.reject(new Error('quota exceeded')) };
    expect(await askToKeepStorage(storageManager(true), 'button', { area, now })).toBe('granted');
  });

  it('reads a damaged record as none', async () => {
    const area = memoryArea();
    await area.set({ [storagePersistenceSetting.key]: { occasion: 'elsewhere', askedAt: 'yesterday', granted: 'yes' } });
    expect(await readStoredSetting(storagePersistenceSetting, area)).toBeNull();
  });
});
