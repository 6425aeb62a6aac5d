import type { EngineSettings } from '../../../src/contracts/matrix-run';
import { describe, expect, it, vi } from 'vitest';

// `wxt/browser` picks `globalThis.chrome` when it is imported: a storage.local over a plain object.
const local = vi.hoisted(() => {
  const items: Record<string, unknown> = {};
  const area = {
    items,
    get: async (keys: string | string[]) => Object.fromEntries([keys].flat().flatMap((key) => (key in items ? [[key, items[key]]] : []))),
    set: async (next: Record<string, unknown>) => void Object.assign(items, next),
    remove: async (keys: string | string[]) => [keys].flat().forEach((key) => delete items[key]),
  };
  (globalThis as { chrome?: unknown }).chrome = {
    runtime: { id: 'assay-test' },
    storage: { local: area, onChanged: { addListener: () => undefined, removeListener: () => undefined } },
  };
  return area;
});

import {
  engineSettingsSetting,
  readStoredSetting,
  userPropertiesSetting,
  writeStoredSetting,
} from '../../../src/extension/stored-settings';

const GAP = {
  name: 'work_function',
  label: 'Work function',
  synonyms: ['work function'],
  dimension: 'energy',
  canonicalUnit: 'eV',
  units: ['eV'],
  plausibleRange: { min: 0, max: 10 },
  note: 'Added by the reader in the side panel; the plausible range is theirs.',
};

describe('stored settings', () => {
  it('moves the reader properties from the old key assay.userProperties on first read', async () => {
    local.items['assay.userProperties'] = [GAP];
    expect(await readStoredSetting(userPropertiesSetting)).toMatchObject([GAP]);
    expect(local.items['assay:user-properties']).toEqual([GAP]);
    expect('assay.userProperties' in local.items).toBe(false);
  });

  it('reads a corrupt value as the fallback and writes through the WXT item', async () => {
    local.items['assay:engine-settings'] = { kind: 'ollama' };
    expect(await readStoredSetting(engineSettingsSetting)).toEqual({ kind: 'webllm' });
    const server: EngineSettings = {
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:8080/v1',
      roster: { proposers: ['m'], aggregator: 'm', generator: 'm', discriminator: 'm' },
    };
    await writeStoredSetting(engineSettingsSetting, server);
    expect(local.items['assay:engine-settings']).toEqual(server);
    expect(await readStoredSetting(engineSettingsSetting)).toEqual(server);
  });
});
