/**
 * The engine the user chose for SLM-MATRIX runs, kept in `browser.storage.local` so it survives
 * the side panel closing (`engineSettingsSetting`, src/extension/stored-settings.ts). Read values
 * are validated: a bad or outdated stored value falls back to WebLLM instead of breaking the panel.
 */
import { useCallback } from 'react';
import { browser } from 'wxt/browser';
import type { EngineSettings } from '../../contracts/matrix-run';
import { engineChoiceSetting, engineSettingsSetting, type StoredValueArea } from '../../extension/stored-settings';
import { useStoredValue } from '../shared/use-stored-value';

/** The one storage key of the engine settings (storage.local; the API key is stored in it too). */
export const ENGINE_SETTINGS_KEY = engineSettingsSetting.key;

/** The subset of a `storage.StorageArea` this hook uses, so a test or another area can stand in. */
export type EngineSettingsArea = StoredValueArea;

/**
 * → `{ engine, chosen, setEngine, loaded }`: the stored settings (WebLLM, `DEFAULT_ENGINE`, until read, and when
 * nothing valid is stored), the same read without a fallback (`chosen`: the reader's saved engine,
 * null when none is stored, so a default can be picked from the machine), a setter that updates
 * the panel at once and writes through, and whether the stored value has been read. A write of another panel (storage.onChanged) is
 * picked up when `area` is the default `browser.storage.local`.
 */
export function useEngineSettings(area: EngineSettingsArea = browser.storage.local) {
  const { value: engine, loaded, setValue } = useStoredValue(area, engineSettingsSetting);
  const { value: chosen, loaded: choiceLoaded } = useStoredValue(area, engineChoiceSetting);
  const setEngine = useCallback(
    // A failed write costs only the next session's default.
    (next: EngineSettings) => void setValue(next).catch(() => undefined),
    [setValue],
  );
  return { engine, chosen, setEngine, loaded: loaded && choiceLoaded };
}
