/**
 * One value kept in a `browser.storage` area under one key, read through a validator so a bad or
 * outdated stored value falls back instead of breaking the panel, and kept live: a write from
 * another panel (`storage.onChanged`) is picked up when the area is `browser.storage.local`.
 */
import { useCallback, useEffect, useState } from 'react';
import { browser } from 'wxt/browser';

/** The subset of a `storage.StorageArea` used here, so a test or another area can stand in. */
export interface StoredValueArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/**
 * → `{ value, loaded, setValue, update }` for `key` in `area`:
 * - `value`: `read(stored)` once read (`initial` until then, and `initial` if the read fails);
 * - `setValue(next)`: shows `next` at once and writes it through (resolves when written; rejects
 *   with the storage error);
 * - `update(change)`: reads the stored value first, applies `change` (which may throw to refuse),
 *   writes and shows the result, so two panels do not undo each other's changes.
 * `read` must be a stable function (module level) and never throw.
 */
export function useStoredValue<T>(area: StoredValueArea, key: string, read: (stored: unknown) => T, initial: T) {
  const [value, setState] = useState<T>(initial);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let current = true;
    void area.get(key).then(
      (items) => {
        if (!current) return;
        setState(read(items[key]));
        setLoaded(true);
      },
      () => current && setLoaded(true), // unreadable storage: keep `initial`
    );
    return () => {
      current = false;
    };
  }, [area, key, read]);

  useEffect(() => {
    if (area !== browser.storage.local) return;
    const listener = (changes: Record<string, { newValue?: unknown }>, areaName: string) => {
      const change = changes[key];
      if (areaName === 'local' && change) setState(read(change.newValue));
    };
    browser.storage.onChanged.addListener(listener);
    return () => browser.storage.onChanged.removeListener(listener);
  }, [area, key, read]);

  const setValue = useCallback(
    async (next: T) => {
      setState(next);
      await area.set({ [key]: next });
    },
    [area, key],
  );

  const update = useCallback(
    async (change: (stored: T) => T) => {
      const next = change(read((await area.get(key))[key]));
      await area.set({ [key]: next });
      setState(next);
    },
    [area, key, read],
  );

  return { value, loaded, setValue, update };
}
