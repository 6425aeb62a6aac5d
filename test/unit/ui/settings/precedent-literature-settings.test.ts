// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// `wxt/browser` picks `globalThis.chrome` when it is imported; `useStoredValue` compares its area
// with `browser.storage.local` and listens to `storage.onChanged`, so a minimal one is installed first.
vi.hoisted(() => {
  (globalThis as { chrome?: unknown }).chrome = {
    runtime: { id: 'assay-test' },
    storage: {
      local: { get: async () => ({}), set: async () => undefined },
      onChanged: { addListener: () => undefined, removeListener: () => undefined },
    },
  };
});

import { LiteratureSettingsSection } from '../../../../src/ui/settings/precedent-literature-section';
import {
  LITERATURE_ORIGINS,
  LITERATURE_SETTINGS_KEY,
  literatureSettingsToEnable,
  readLiteratureSettings,
  readPrecedentLiterature,
} from '../../../../src/ui/settings/precedent-literature-settings';
import { ENGINE_SETTINGS_KEY } from '../../../../src/ui/settings/use-engine-settings';
import type { StoredValueArea } from '../../../../src/extension/stored-settings';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function memoryArea(initial: Record<string, unknown> = {}): StoredValueArea & { items: Record<string, unknown> } {
  const items = { ...initial };
  return {
    items,
    get: async (key: string) => (key in items ? { [key]: items[key] } : {}),
    set: async (next: Record<string, unknown>) => void Object.assign(items, next),
  };
}

const OPENAI = {
  kind: 'openai',
  baseUrl: 'http://127.0.0.1:8080/v1',
  roster: { proposers: ['m'], aggregator: 'm', generator: 'm', discriminator: 'm' },
};

describe('literature settings validation', () => {
  it('reads a missing, malformed or on-without-e-mail value as off', () => {
    expect(readLiteratureSettings(undefined)).toEqual({ enabled: false, mailto: '' });
    expect(readLiteratureSettings('on')).toEqual({ enabled: false, mailto: '' });
    expect(readLiteratureSettings({ enabled: true, mailto: '' })).toEqual({ enabled: false, mailto: '' });
    expect(readLiteratureSettings({ enabled: true, mailto: 'not-an-address' })).toEqual({ enabled: false, mailto: '' });
    expect(readLiteratureSettings({ enabled: true, mailto: 'reader@example.org', openAlexKey: 'abc' })).toEqual({
      enabled: true,
      mailto: 'reader@example.org',
      openAlexKey: 'abc',
    });
  });

  it('turns on only with an e-mail address, trimming it and leaving out an empty OpenAlex key', () => {
    expect(literatureSettingsToEnable('  ', '')).toEqual({
      ok: false,
      message: 'Enter a contact e-mail first: Crossref asks for one to use its polite pool.',
    });
    expect(literatureSettingsToEnable('reader', '')).toEqual({ ok: false, message: '"reader" is not an e-mail address.' });
    expect(literatureSettingsToEnable(' reader@example.org ', '  ')).toEqual({
      ok: true,
      settings: { enabled: true, mailto: 'reader@example.org' },
    });
    expect(literatureSettingsToEnable('reader@example.org', ' key ')).toEqual({
      ok: true,
      settings: { enabled: true, mailto: 'reader@example.org', openAlexKey: 'key' },
    });
  });

  it('gives a check the e-mail, key and engine when on, and nothing when off', async () => {
    const on = memoryArea({
      [LITERATURE_SETTINGS_KEY]: { enabled: true, mailto: 'reader@example.org', openAlexKey: 'k' },
      [ENGINE_SETTINGS_KEY]: OPENAI,
    });
    expect(await readPrecedentLiterature(on)).toEqual({ mailto: 'reader@example.org', openAlexKey: 'k', engine: OPENAI });
    // No engine stored → the default (WebLLM).
    expect(
      await readPrecedentLiterature(memoryArea({ [LITERATURE_SETTINGS_KEY]: { enabled: true, mailto: 'reader@example.org' } })),
    ).toEqual({ mailto: 'reader@example.org', engine: { kind: 'webllm' } });
    expect(
      await readPrecedentLiterature(memoryArea({ [LITERATURE_SETTINGS_KEY]: { enabled: false, mailto: 'reader@example.org' } })),
    ).toBeUndefined();
    expect(
      await readPrecedentLiterature({ get: async () => Promise.reject(new Error('gone')), set: async () => undefined }),
    ).toBeUndefined();
  });
});

describe('LiteratureSettingsSection', () => {
  let container: HTMLElement;
  let root: Root;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });
  const byTestId = <T extends HTMLElement = HTMLElement>(id: string) => container.querySelector<T>(`[data-testid="${id}"]`)!;
  const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

  async function type(id: string, text: string) {
    const input = byTestId<HTMLInputElement>(id);
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    await act(async () => {
      setter.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  }

  it('refuses to turn on without an e-mail, asks for the three hosts with one, and stores the setting when granted', async () => {
    const area = memoryArea();
    const requestOrigins = vi.fn(async () => true);
    act(() => root.render(createElement(LiteratureSettingsSection, { services: { area, requestOrigins } })));
    await settle();
    await act(async () => byTestId('literature-enabled').click());
    expect(byTestId('literature-problem').textContent).toBe('Enter a contact e-mail first: Crossref asks for one to use its polite pool.');
    expect(requestOrigins).not.toHaveBeenCalled();

    await type('literature-mailto', 'reader@example.org');
    await act(async () => byTestId('literature-enabled').click());
    await settle();
    expect(requestOrigins).toHaveBeenCalledWith([...LITERATURE_ORIGINS]);
    expect(area.items[LITERATURE_SETTINGS_KEY]).toEqual({ enabled: true, mailto: 'reader@example.org' });
    expect(byTestId('literature-settings').dataset.enabled).toBe('true');
    expect(byTestId('literature-status').textContent).toBe('On: searching as reader@example.org.');
  });

  it('stays off and says so when the browser refuses the hosts', async () => {
    const area = memoryArea();
    act(() => root.render(createElement(LiteratureSettingsSection, { services: { area, requestOrigins: async () => false } })));
    await settle();
    await type('literature-mailto', 'reader@example.org');
    await act(async () => byTestId('literature-enabled').click());
    await settle();
    expect(area.items[LITERATURE_SETTINGS_KEY]).toBeUndefined();
    expect(byTestId('literature-settings').dataset.enabled).toBe('false');
    expect(byTestId('literature-problem').textContent).toBe(
      'The browser did not allow Assay to reach Crossref, arXiv and OpenAlex, so the open literature stays off.',
    );
  });
});
