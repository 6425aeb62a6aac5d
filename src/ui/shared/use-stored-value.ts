/**
 * One stored setting (src/extension/stored-settings.ts) as React state: read through its zod
 * reader so a bad or outdated stored value falls back instead of breaking the panel, and kept
 * live: a write from another panel (`storage.onChanged`) is picked up when the area is the
 * browser's own (`browser.storage.local` / `.session`), not a stand-in.
 */
import { useCallback, useEffect, useState } from 'react';
import { browser } from 'wxt/browser';
import {
  readStoredSetting,
  usesBrowserArea,
  writeStoredSetting,
  type StoredSetting,
  type StoredValueArea,
} from '../../extension/stored-settings';

/**
 * → `{ value, loaded, setValue, update }` for `setting` in `area` (default: the browser's own
 * area, through the setting's WXT item):
 * - `value`: the stored value read by `setting.read` once read (`setting.fallback` until then,
 *   and if the read fails);
 * - `setValue(next)`: shows `next` at once and writes it through (resolves when written; rejects
 *   with the storage error);
 * - `update(change)`: reads the stored value first, applies `change` (which may throw to refuse),
 *   writes and shows the result, so two panels do not undo each other's changes.
 * `setting` must be a module-level declaration (stable identity).
 */
export function useStoredValue<T>(area: StoredValueArea | undefined, setting: StoredSetting<T>) {
  const [value, setState] = useState<T>(setting.fallback);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let current = true;
    void readStoredSetting(setting, area).then(
      (stored) => {
        if (!current) return;
        setState(stored);
        setLoaded(true);
      },
      () => current && setLoaded(true), // unreadable storage: keep the fallback
    );
    return () => {
      current = false;
    };
  }, [area, setting]);

  useEffect(() => {
    if (!usesBrowserArea(setting, area)) return;
    const listener = (changes: Record<string, { newValue?: unknown }>, areaName: string) => {
      const change = changes[setting.key];
      if (areaName === setting.area && change) setState(setting.read(change.newValue));
    };
    browser.storage.onChanged.addListener(listener);
    return () => browser.storage.onChanged.removeListener(listener);
  }, [area, setting]);

  const setValue = useCallback(
    async (next: T) => {
      setState(next);
      await writeStoredSetting(setting, next, area);
    },
    [area, setting],
  );

  const update = useCallback(
    async (change: (stored: T) => T) => {
      const next = change(await readStoredSetting(setting, area));
      await writeStoredSetting(setting, next, area);
      setState(next);
    },
    [area, setting],
  );

  return { value, loaded, setValue, update };
}
