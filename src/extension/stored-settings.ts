/**
 * Every setting the extension keeps in `browser.storage`, declared once: its area, its key (one
 * style: `assay:kebab-case`), its fallback, the zod reader of a stored value (untrusted: another
 * version, or a corrupt write, may have left anything there), its `version` and `migrations`, and
 * the WXT storage item (`storage.defineItem`) that reads and writes it.
 *
 * The WXT items are defined on first use (`setting.item()`), not at import: defining one starts
 * reading storage, which fails outside an extension page (the CLI, unit tests without a browser).
 *
 * Versions: every shape is at version 1. When a stored shape changes, raise `version` and add
 * `migrations[version]` (old value → new value); WXT runs them on first use and records the
 * version under `<key>$`. A renamed key lists its old keys in `legacyKeys`: the first read moves
 * a value found there to the new key (`readStoredSetting`).
 */
import { browser } from 'wxt/browser';
import { storage, type WxtStorageItem } from 'wxt/utils/storage';
import { z } from 'zod';
import type { EngineSettings } from '../contracts/matrix-run';
import { PropertySchema, type PropertyDefinition } from '../contracts/property';
import { engineRegistry } from '../llm/engines/registry';
import { readPaperSites } from './paper-sites';

/** The subset of a `storage.StorageArea` used by readers that take an area, so a test or another area can stand in. */
export interface StoredValueArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/** One stored setting (see the module comment). */
export interface StoredSetting<T> {
  area: 'local' | 'session';
  /** The key within the area, e.g. `assay:engine-settings`. */
  key: string;
  /** Earlier keys of the same value, moved to `key` on first read. */
  legacyKeys: readonly string[];
  /** What a missing or invalid value reads as. */
  fallback: T;
  /** A stored value as `T`: validated with zod, `fallback` when it does not parse. Never throws. */
  read(stored: unknown): T;
  version: number;
  migrations: Record<number, (stored: unknown) => unknown>;
  /** The WXT item (`storage.defineItem(area:key, { fallback, version, migrations })`), defined on first call. */
  item(): WxtStorageItem<T, Record<string, never>>;
}

interface SettingSpec<T> {
  area: 'local' | 'session';
  key: string;
  legacyKeys?: readonly string[];
  fallback: T;
  read(stored: unknown): T;
  version?: number;
  migrations?: Record<number, (stored: unknown) => unknown>;
}

function defineSetting<T>(spec: SettingSpec<T>): StoredSetting<T> {
  let item: WxtStorageItem<T, Record<string, never>> | undefined;
  const setting: StoredSetting<T> = {
    legacyKeys: [],
    version: 1,
    ...spec,
    migrations: spec.migrations ?? {},
    item: () =>
      (item ??= storage.defineItem<T, Record<string, never>>(`${spec.area}:${spec.key}`, {
        fallback: spec.fallback,
        version: setting.version,
        // WXT runs migrations only when some are given; an empty table is left out.
        ...(Object.keys(setting.migrations).length > 0 ? { migrations: setting.migrations } : {}),
      })),
  };
  return setting;
}

/** `schema.parse(stored)`, or `fallback` when it does not parse. */
const readWith =
  <T>(schema: z.ZodType<T>, fallback: T) =>
  (stored: unknown): T => {
    const parsed = schema.safeParse(stored);
    return parsed.success ? parsed.data : fallback;
  };

// ---- Engine settings (the side panel's engine choice; the API key is stored in it too) ----

/** The engine a reader has before choosing one (WebLLM, in the browser). */
const DEFAULT_ENGINE: EngineSettings = engineRegistry.defaultSettings('browser');

/** storage.local `assay:engine-settings`: `EngineSettings` of a browser engine kind; WebLLM when missing or invalid. */
export const engineSettingsSetting = defineSetting<EngineSettings>({
  area: 'local',
  key: 'assay:engine-settings',
  fallback: DEFAULT_ENGINE,
  // Checked against the browser's engine kinds (src/llm/engines/registry.ts): the contract's shape alone is loose.
  read: readWith(engineRegistry.settingsSchema('browser'), DEFAULT_ENGINE),
});

/**
 * The same key read without a fallback engine: the engine the reader saved (in the run form, the
 * setup screen or Settings), or null when nothing valid is stored — so the side panel can tell a
 * reader's choice from the default and pick the default from the machine (run-defaults.ts).
 */
export const engineChoiceSetting = defineSetting<EngineSettings | null>({
  area: 'local',
  key: engineSettingsSetting.key,
  fallback: null,
  read: readWith<EngineSettings | null>(engineRegistry.settingsSchema('browser'), null),
});

// ---- "Open literature" for precedent checks ----

/** On requires a contact e-mail (Crossref's polite pool); off keeps whatever was typed. */
export const LiteratureSettingsSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(true), mailto: z.email(), openAlexKey: z.string().trim().min(1).max(200).optional() }),
  z.object({ enabled: z.literal(false), mailto: z.string().max(320), openAlexKey: z.string().max(200).optional() }),
]);
export type LiteratureSettings = z.infer<typeof LiteratureSettingsSchema>;

export const DEFAULT_LITERATURE_SETTINGS: LiteratureSettings = { enabled: false, mailto: '' };

/** storage.local `assay:literature-settings`: `LiteratureSettings` (the OpenAlex key is stored in it too); off when missing or invalid. */
export const literatureSettingsSetting = defineSetting<LiteratureSettings>({
  area: 'local',
  key: 'assay:literature-settings',
  fallback: DEFAULT_LITERATURE_SETTINGS,
  read: readWith(LiteratureSettingsSchema, DEFAULT_LITERATURE_SETTINGS),
});

// ---- The reader's own property schemas ----

/** At most this many: `MatrixRunSettingsSchema.extraProperties` takes 50. */
export const MAX_USER_PROPERTIES = 50;

/**
 * A stored value as the reader's properties: each entry parsed with `PropertySchema`; entries
 * that do not parse, repeat an earlier name, or pass `MAX_USER_PROPERTIES` are dropped (a bad
 * stored value must not break the panel). Anything but an array → [].
 */
export function readUserProperties(stored: unknown): PropertyDefinition[] {
  if (!Array.isArray(stored)) return [];
  const properties: PropertyDefinition[] = [];
  for (const entry of stored) {
    const parsed = PropertySchema.safeParse(entry);
    if (!parsed.success || properties.some((property) => property.name === parsed.data.name)) continue;
    properties.push(parsed.data);
    if (properties.length === MAX_USER_PROPERTIES) break;
  }
  return properties;
}

/**
 * storage.local `assay:user-properties`: a JSON array of `PropertyDefinition`, [] when missing.
 * Was `assay.userProperties` (the one key in another style); a value there is moved on first read.
 */
export const userPropertiesSetting = defineSetting<PropertyDefinition[]>({
  area: 'local',
  key: 'assay:user-properties',
  legacyKeys: ['assay.userProperties'],
  fallback: [],
  read: readUserProperties,
});

// ---- The context menu's question waiting for the side panel ----

/** Longest selection kept as a material name (characters); a longer selection is cut. */
export const MAX_MATERIAL_LENGTH = 200;

/** A question waiting for the side panel: the selected material, the property (`tc`), the tab, the ISO 8601 time of the click. */
export const PendingPrecedentSchema = z.object({
  material: z.string().min(1).max(MAX_MATERIAL_LENGTH),
  property: z.string().min(1),
  tabId: z.number().int().optional(),
  at: z.string(),
});
export type PendingPrecedent = z.infer<typeof PendingPrecedentSchema>;

/**
 * storage.session `assay:pending-precedent`: a `PendingPrecedent`, read and cleared by the panel
 * (src/ui/shared/precedent-pending.ts). Was `assay.pendingPrecedent`; not moved: session storage lives
 * only until the browser closes, and the value only between a menu click and the panel's read.
 */
export const pendingPrecedentSetting = defineSetting<PendingPrecedent | null>({
  area: 'session',
  key: 'assay:pending-precedent',
  fallback: null,
  read: (stored) => {
    const parsed = PendingPrecedentSchema.safeParse(stored);
    return parsed.success ? parsed.data : null;
  },
});

// ---- The publisher sites where papers are recognized without a click ----

/**
 * storage.local `assay:paper-sites`: the sites (http(s) origins, e.g. `https://pubs.acs.org`)
 * the reader opted in to in Settings ("Recognize papers on these sites"), read by
 * `readPaperSites` (paper-sites.ts: invalid or repeated entries dropped); [] when missing, so
 * nothing is recognized until the reader adds a site.
 */
export const paperSitesSetting = defineSetting<string[]>({
  area: 'local',
  key: 'assay:paper-sites',
  fallback: [],
  read: readPaperSites,
});

// ---- The last request for persistent storage ----

/** Why Assay asked the browser to keep its storage (`askToKeepStorage`, keep-storage.ts). */
export const PersistenceOccasionSchema = z.enum(['model-download', 'first-rows', 'button']);
export type PersistenceOccasion = z.infer<typeof PersistenceOccasionSchema>;

/** One request for persistent storage: on what occasion, when (ISO 8601), and whether the browser granted it. */
export const StoragePersistenceSchema = z.object({
  occasion: PersistenceOccasionSchema,
  askedAt: z.iso.datetime(),
  granted: z.boolean(),
});
export type StoragePersistence = z.infer<typeof StoragePersistenceSchema>;

/**
 * storage.local `assay:storage-persistence`: the last `navigator.storage.persist()` Assay made
 * and its answer, explained in Settings; null before the first.
 */
export const storagePersistenceSetting = defineSetting<StoragePersistence | null>({
  area: 'local',
  key: 'assay:storage-persistence',
  fallback: null,
  read: readWith<StoragePersistence | null>(StoragePersistenceSchema, null),
});

// ---- Reading and writing ----

/** True when `area` is absent or is the browser's own area of `setting`: then the WXT item is used, and `storage.onChanged` reports its writes. */
export function usesBrowserArea(setting: StoredSetting<unknown>, area: StoredValueArea | undefined): boolean {
  return area === undefined || area === (browser.storage as Record<string, unknown> | undefined)?.[setting.area];
}

/**
 * Move a value left under one of `setting.legacyKeys` to `setting.key` (when nothing is stored
 * there yet) and remove the old key. Once per setting and page; a failure is retried next time.
 */
const adopted = new WeakMap<StoredSetting<unknown>, Promise<void>>();
function adoptLegacyKeys(setting: StoredSetting<unknown>): Promise<void> {
  if (setting.legacyKeys.length === 0) return Promise.resolve();
  let done = adopted.get(setting);
  if (!done) {
    done = (async () => {
      const area = browser.storage[setting.area];
      for (const legacyKey of setting.legacyKeys) {
        const old = (await area.get(legacyKey))[legacyKey];
        if (old === undefined) continue;
        const current = (await area.get(setting.key))[setting.key];
        if (current === undefined) await area.set({ [setting.key]: old });
        await area.remove(legacyKey);
      }
    })();
    done.catch(() => adopted.delete(setting));
    adopted.set(setting, done);
  }
  return done;
}

/**
 * → the stored value of `setting`, read through `setting.read` (so `setting.fallback` when
 * missing or invalid). From `area` when one is given that is not the browser's own area (tests,
 * another store); else through the WXT item, after moving a legacy key. Rejects with the
 * storage error.
 */
export async function readStoredSetting<T>(setting: StoredSetting<T>, area?: StoredValueArea): Promise<T> {
  if (!usesBrowserArea(setting, area)) return setting.read((await area!.get(setting.key))[setting.key]);
  await adoptLegacyKeys(setting);
  return setting.read(await setting.item().getValue());
}

/** Store `value` as `setting` in `area` (see `readStoredSetting`). Resolves when written; rejects with the storage error. */
export async function writeStoredSetting<T>(setting: StoredSetting<T>, value: T, area?: StoredValueArea): Promise<void> {
  if (!usesBrowserArea(setting, area)) return area!.set({ [setting.key]: value });
  await adoptLegacyKeys(setting);
  await setting.item().setValue(value);
}
