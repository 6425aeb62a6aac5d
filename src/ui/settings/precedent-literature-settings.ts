/**
 * The reader's "Open literature" setting for precedent checks, kept in `browser.storage.local`
 * under one key: whether to search Crossref, arXiv and OpenAlex when the local sources do not
 * answer, the contact e-mail Crossref's polite pool asks for, and an optional OpenAlex API key.
 * Stored values are read through zod, so a bad or outdated value reads as "off". The setting is
 * declared in src/extension/stored-settings.ts (`literatureSettingsSetting`).
 */
import type { EngineSettings } from '../../contracts/matrix-run';
import type { PrecedentLiteratureChoice } from '../../precedent/cached-precedent-check';
import {
  engineSettingsSetting,
  literatureSettingsSetting,
  LiteratureSettingsSchema,
  readStoredSetting,
  type LiteratureSettings,
  type StoredValueArea,
} from '../../extension/stored-settings';

/** The one storage key of the setting (storage.local; the OpenAlex key is stored in it too). */
export const LITERATURE_SETTINGS_KEY = literatureSettingsSetting.key;

/** The provider hosts asked for when the reader turns the source on (covered by the manifest's `optional_host_permissions`). */
export const LITERATURE_ORIGINS = ['https://api.crossref.org/*', 'https://export.arxiv.org/*', 'https://api.openalex.org/*'] as const;

/** The stored value, or `DEFAULT_LITERATURE_SETTINGS` (off) when it is missing or does not validate. Never throws. */
export function readLiteratureSettings(stored: unknown): LiteratureSettings {
  return literatureSettingsSetting.read(stored);
}

/**
 * The settings to store when the reader turns the source on with `mailto` and `openAlexKey`
 * (both trimmed; an empty key is left out), or the problem in words: no e-mail, or one that is
 * not an address.
 */
export function literatureSettingsToEnable(
  mailto: string,
  openAlexKey: string,
): { ok: true; settings: LiteratureSettings } | { ok: false; message: string } {
  const address = mailto.trim();
  if (address === '') return { ok: false, message: 'Enter a contact e-mail first: Crossref asks for one to use its polite pool.' };
  const key = openAlexKey.trim();
  const parsed = LiteratureSettingsSchema.safeParse({ enabled: true, mailto: address, ...(key ? { openAlexKey: key } : {}) });
  if (!parsed.success) return { ok: false, message: `"${address}" is not an e-mail address.` };
  return { ok: true, settings: parsed.data };
}

/**
 * Read the literature setting and the engine settings from `area` (`readStoredSetting`: the
 * browser's storage.local through the WXT items, or a stand-in): → the choice when the source is
 * on, else undefined. A read that fails counts as off.
 */
export async function readPrecedentLiterature(area: StoredValueArea): Promise<PrecedentLiteratureChoice | undefined> {
  let settings: LiteratureSettings;
  let engine: EngineSettings;
  try {
    settings = await readStoredSetting(literatureSettingsSetting, area);
    engine = await readStoredSetting(engineSettingsSetting, area);
  } catch {
    return undefined;
  }
  if (!settings.enabled) return undefined;
  return {
    mailto: settings.mailto,
    ...(settings.openAlexKey ? { openAlexKey: settings.openAlexKey } : {}),
    engine,
  };
}
