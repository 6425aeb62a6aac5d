/**
 * The engine the user chose for SLM-MATRIX runs, kept in `browser.storage.local` so it survives
 * the side panel closing. Read values are validated (`readEngineSettings`): a bad or outdated
 * stored value falls back to WebLLM instead of breaking the panel.
 */
import { useCallback, useEffect, useState } from 'react';
import { browser } from 'wxt/browser';
import type { EngineSettings } from '../contracts/matrix-run';
import { DEFAULT_ENGINE, readEngineSettings } from './engine-form';

export { originPattern } from './engine-form';

/** The one storage key of the engine settings (storage.local; the API key is stored in it too). */
export const ENGINE_SETTINGS_KEY = 'assay:engine-settings';

/** The subset of a `storage.StorageArea` this hook uses, so a test or another area can stand in. */
export interface EngineSettingsArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/**
 * → `{ engine, setEngine, loaded }`: the stored settings (`DEFAULT_ENGINE` until read, and when
 * nothing valid is stored), a setter that updates the panel at once and writes through, and
 * whether the stored value has been read. A write of another panel (storage.onChanged) is
 * picked up when `area` is the default `browser.storage.local`.
 */
export function useEngineSettings(area: EngineSettingsArea = browser.storage.local) {
  const [engine, setEngineState] = useState<EngineSettings>(DEFAULT_ENGINE);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let current = true;
    void area.get(ENGINE_SETTINGS_KEY).then(
      (items) => {
        if (!current) return;
        setEngineState(readEngineSettings(items[ENGINE_SETTINGS_KEY]));
        setLoaded(true);
      },
      () => current && setLoaded(true), // unreadable storage: keep the default
    );
    return () => {
      current = false;
    };
  }, [area]);

  useEffect(() => {
    if (area !== browser.storage.local) return;
    const listener = (changes: Record<string, { newValue?: unknown }>, areaName: string) => {
      const change = changes[ENGINE_SETTINGS_KEY];
      if (areaName === 'local' && change) setEngineState(readEngineSettings(change.newValue));
    };
    browser.storage.onChanged.addListener(listener);
    return () => browser.storage.onChanged.removeListener(listener);
  }, [area]);

  const setEngine = useCallback(
    (next: EngineSettings) => {
      setEngineState(next);
      void area.set({ [ENGINE_SETTINGS_KEY]: next }).catch(() => undefined); // a failed write costs only the next session's default
    },
    [area],
  );

  return { engine, setEngine, loaded };
}
