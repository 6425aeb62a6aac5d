// @vitest-environment jsdom
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';

// `wxt/browser` picks `globalThis.chrome` when it is imported; the record is kept in the stand-in
// areas below, and `usesBrowserArea` compares them with `browser.storage.local`.
vi.hoisted(() => {
  (globalThis as { chrome?: unknown }).chrome = { runtime: { id: 'assay-test' }, storage: {} };
});
import type { ResponseOf } from '../../../../src/contracts/messages';
import type { EngineSettings } from '../../../../src/contracts/matrix-run';
import type { StoredValueArea } from '../../../../src/extension/stored-settings';
import { SettingsPanel, type SettingsServices } from '../../../../src/ui/settings/settings-panel';
import { reactRootPerTest } from '../react-root';

const view = reactRootPerTest();

const byTestId = <T extends HTMLElement = HTMLElement>(id: string) => view.container.querySelector<T>(`[data-testid="${id}"]`);
const GEMMA = 'gemma-2-2b-it-q4f16_1-MLC';
const LLAMA = 'Llama-3.2-1B-Instruct-q4f16_1-MLC';

/** A storage area in memory, standing in for browser.storage.local. */
function memoryArea(): StoredValueArea {
  const items: Record<string, unknown> = {};
  return { get: async (key) => (key in items ? { [key]: items[key] } : {}), set: async (next) => void Object.assign(items, next) };
}

/** Let the panel's chains of storage requests settle. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

function cacheAnswer(gemmaCached: boolean): ResponseOf<'model-cache-status'> {
  return {
    ok: true,
    models: [
      { modelId: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', cached: false, vramMB: 1629.75, requiresF16: true },
      { modelId: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', cached: false, vramMB: 879.04, requiresF16: true },
      { modelId: GEMMA, cached: gemmaCached, vramMB: 1895.3, requiresF16: true },
    ],
  };
}

function services(change: Partial<SettingsServices> = {}): SettingsServices {
  return {
    checkWebGpu: vi.fn(async (): Promise<ResponseOf<'webgpu-check'>> => ({
      ok: true,
      capability: {
        available: true,
        adapterInfo: { vendor: 'nvidia', architecture: 'ampere', device: '', description: '' },
        shaderF16: true,
        maxBufferSize: 2 ** 31,
        maxStorageBufferBindingSize: 2 ** 31,
        isFallbackAdapter: false,
      },
      summary: 'WebGPU works: nvidia ampere, with 16-bit float shaders.',
    })),
    cacheStatus: vi.fn(async () => cacheAnswer(true)),
    deleteFromCache: vi.fn(async () => cacheAnswer(false)),
    unloadModels: vi.fn(async () => ({ ok: true as const, unloaded: [] })),
    storage: {
      estimate: vi.fn(async () => ({ usage: 12_897_485, quota: 1_610_612_736 })),
      persist: vi.fn(async () => true),
      persisted: vi.fn(async () => false),
    },
    persistenceArea: memoryArea(),
    ...change,
  };
}

async function open(panelServices: SettingsServices, engine: EngineSettings = { kind: 'webllm' }, onEngineChange = vi.fn()) {
  await act(async () => view.root.render(createElement(SettingsPanel, { services: panelServices, engine, onEngineChange })));
  const details = byTestId<HTMLDetailsElement>('settings-panel')!;
  await act(async () => {
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
  });
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  return onEngineChange;
}

describe('SettingsPanel', () => {
  it('checks WebGPU on open and lists the f16 roster with sizes and download state', async () => {
    const panelServices = services();
    await open(panelServices);
    expect(byTestId('webgpu-summary')?.textContent).toBe('WebGPU works: nvidia ampere, with 16-bit float shaders.');
    expect(panelServices.cacheStatus).toHaveBeenCalledWith(
      ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC', 'Llama-3.2-1B-Instruct-q4f16_1-MLC', GEMMA],
      [],
    );
    const gemma = byTestId(`model-${GEMMA}`)!;
    expect(gemma.textContent).toBe(
      `proposer 3, aggregator, discriminator: ${GEMMA} · 1895 MB of GPU memory · Downloaded Delete from cache`,
    );
    expect(byTestId('model-Llama-3.2-1B-Instruct-q4f16_1-MLC')?.textContent).toBe(
      'proposer 2: Llama-3.2-1B-Instruct-q4f16_1-MLC · 879 MB of GPU memory · Not downloaded',
    );
    expect(byTestId('storage-usage')?.textContent).toBe('Using 12.3 MB of 1.50 GB the browser allows Assay.');
    expect(byTestId('persist-status')?.textContent).toContain('Persistent storage is off');

    await act(async () => byTestId(`delete-model-${GEMMA}`)!.click());
    expect(panelServices.deleteFromCache).toHaveBeenCalledWith(GEMMA, []);
    expect(byTestId(`model-${GEMMA}`)?.dataset.cached).toBe('false');
    expect(byTestId(`delete-model-${GEMMA}`)).toBeNull();
  });

  it('lists a custom model of the roster with its record, shows it loaded, and unloads before it may be deleted', async () => {
    const custom = {
      model_id: 'my-qwen-q4f32_1',
      model: 'http://127.0.0.1:8000/my-qwen/resolve/main/',
      model_lib: 'http://127.0.0.1:8000/lib/my-qwen.wasm',
      vram_required_MB: 944,
    };
    const roster = {
      proposers: [custom.model_id],
      aggregator: custom.model_id,
      generator: custom.model_id,
      discriminator: custom.model_id,
    };
    const status = (loaded: boolean) => ({
      ok: true as const,
      models: [{ modelId: custom.model_id, cached: true, vramMB: 944, requiresF16: false, loaded }],
    });
    const panelServices = services({
      cacheStatus: vi.fn(async () => status(true)),
      unloadModels: vi.fn(async () => ({ ok: true as const, unloaded: [custom.model_id] })),
    });
    await open(panelServices, { kind: 'webllm', roster, customModels: [custom] });
    expect(panelServices.cacheStatus).toHaveBeenCalledWith([custom.model_id], [custom]);
    const row = byTestId(`model-${custom.model_id}`)!;
    expect(row.textContent).toBe(
      `proposer 1, aggregator, generator, discriminator: ${custom.model_id} · 944 MB of GPU memory · Downloaded, loaded on the GPU`,
    );
    // Loaded: no delete until the models are unloaded.
    expect(byTestId(`delete-model-${custom.model_id}`)).toBeNull();
    await act(async () => byTestId('unload-models')!.click());
    expect(panelServices.unloadModels).toHaveBeenCalledTimes(1);
    expect(byTestId(`model-${custom.model_id}`)?.dataset.loaded).toBe('false');
    expect(byTestId('unload-models')).toBeNull();
    await act(async () => byTestId(`delete-model-${custom.model_id}`)!.click());
    expect(panelServices.deleteFromCache).toHaveBeenCalledWith(custom.model_id, [custom]);
  });

  it('shows failures in words and the roster for GPUs without shader-f16', async () => {
    const panelServices = services({
      checkWebGpu: vi.fn(async () => ({
        ok: false as const,
        failure: { code: 'internal' as const, message: 'The offscreen document did not answer.' },
      })),
      cacheStatus: vi.fn(async () => ({ ok: false as const, failure: { code: 'bad-request' as const, message: 'Unknown request.' } })),
    });
    delete panelServices.storage;
    await open(panelServices);
    expect(byTestId('webgpu-summary')?.textContent).toBe('WebGPU could not be checked: The offscreen document did not answer.');
    expect(byTestId('model-cache-problem')?.textContent).toBe('The model cache could not be read: Unknown request.');
    expect(byTestId('model-SmolLM2-360M-Instruct-q4f32_1-MLC')?.textContent).toContain('Checking…');
    expect(byTestId('storage-usage')?.textContent).toBe('The browser gives no storage figures.');
    expect(byTestId('persist-button')).toBeNull();
  });

  it('asks for persistent storage and saves the GPU budget into the engine settings', async () => {
    let kept = false;
    const panelServices = services({
      storage: { estimate: async () => ({}), persist: vi.fn(async () => (kept = true)), persisted: async () => kept },
    });
    const onEngineChange = await open(panelServices, { kind: 'webllm' });
    await act(async () => byTestId('persist-button')!.click());
    await settle();
    expect(panelServices.storage!.persist).toHaveBeenCalled();
    expect(byTestId('persist-status')?.textContent).toContain('Persistent storage is on');

    const input = byTestId<HTMLInputElement>('gpu-budget')!;
    expect(input.value).toBe('6144');
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    act(() => {
      setter.call(input, '40');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(onEngineChange).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    act(() => {
      setter.call(input, '4096');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(onEngineChange).toHaveBeenLastCalledWith({ kind: 'webllm', gpuBudgetMB: 4096 });
  });

  it('asks for persistent storage when a model download starts, and says when the browser refused', async () => {
    const storage = { estimate: async () => ({}), persist: vi.fn(async () => false), persisted: vi.fn(async () => false) };
    const downloadModel = vi.fn(async (modelId: string) => ({
      ok: true as const,
      download: { modelId, phase: 'paused' as const, doneBytes: 0, totalBytes: 0 },
    }));
    await open(services({ storage, downloadModel }));
    expect(storage.persist).not.toHaveBeenCalled();
    expect(byTestId('persist-status')?.textContent).toContain('Assay asks for it when a model download starts');

    await act(async () => byTestId(`download-${LLAMA}`)!.querySelector('button')!.click());
    await settle();
    expect(downloadModel).toHaveBeenCalledWith(LLAMA, 'start', []);
    expect(storage.persist).toHaveBeenCalledTimes(1);
    expect(byTestId('persist-status')?.textContent).toMatch(
      /Persistent storage is off: .* Assay asked on \d{4}-\d{2}-\d{2}, when a model download started, and the browser said no/,
    );
  });

  it('shows the storage of models and dataset apart and deletes every downloaded model to free it', async () => {
    let deleted = 0;
    // Chromium leaves a kind with nothing stored out of usageDetails.
    const estimate = vi.fn(async () =>
      deleted < 2
        ? { usage: 1_315_019_161, quota: 10 * 1024 ** 3, usageDetails: { caches: 1_288_490_189, indexedDB: 26_528_972 } }
        : { usage: 26_528_972, quota: 10 * 1024 ** 3, usageDetails: { indexedDB: 26_528_972 } },
    );
    const both = cacheAnswer(true);
    if (both.ok) both.models[1] = { ...both.models[1]!, cached: true };
    const panelServices = services({
      cacheStatus: vi.fn(async () => both),
      deleteFromCache: vi.fn(async () => (deleted++, cacheAnswer(false))),
      storage: { estimate, persist: vi.fn(async () => true), persisted: vi.fn(async () => false) },
    });
    await open(panelServices);
    expect(byTestId('storage-split')?.textContent).toBe('Models: 1.20 GB · papers, runs and dataset: 25.3 MB.');
    const free = byTestId<HTMLButtonElement>('free-models')!;
    expect(free.textContent).toBe('Delete all downloaded models (2)');

    await act(async () => free.click());
    await settle();
    expect(panelServices.deleteFromCache).toHaveBeenCalledTimes(2);
    expect(panelServices.deleteFromCache).toHaveBeenCalledWith(LLAMA, []);
    expect(panelServices.deleteFromCache).toHaveBeenCalledWith(GEMMA, []);
    expect(byTestId(`model-${GEMMA}`)?.dataset.cached).toBe('false');
    expect(byTestId('free-models')).toBeNull();
    expect(byTestId('storage-split')?.textContent).toBe('Models: 0.0 MB · papers, runs and dataset: 25.3 MB.');
    expect(byTestId('free-models-status')?.textContent).toBe('');
  });
});
