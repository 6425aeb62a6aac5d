/** The extension plumbing around the WebLLM engine: background forwarder and offscreen listener. */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { ResponseSchemas } from '../../../src/contracts/messages';
import { createModelEngineListener } from '../../../src/extension/model-engine-host';
import { createOffscreenForwarder, type OffscreenApi } from '../../../src/extension/offscreen-engine';
import { LlmError } from '../../../src/llm/llm-port';
import type { NavigatorLike } from '../../../src/llm/webgpu-capability';
import type { WebLlm } from '../../../src/llm/webllm-adapter';
import type { WebLlmCache } from '../../../src/llm/webllm-engine';
import type { CustomWebLlmModel } from '../../../src/contracts/webllm-model';
import type { LlmRequest } from '../../../src/llm/llm-port';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { savePaper } from '../../../src/store/paper-repository';
import { getRun } from '../../../src/store/run-repository';
import { article, bandGap } from '../matrix/pipeline-fixtures';

let databaseCount = 0;

const swiftShader: NavigatorLike = {
  gpu: {
    requestAdapter: async () => ({
      features: new Set<string>(),
      limits: { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 30 },
      info: { vendor: 'google', architecture: 'swiftshader', device: '', description: '' },
    }),
  },
};

/** A fake WebLLM cache holding `cached` model ids. */
function fakeCache(cached: string[]): WebLlmCache {
  const held = new Set(cached);
  return {
    has: async (modelId) => held.has(modelId),
    remove: async (modelId) => {
      if (modelId === 'locked') throw new Error('QuotaExceededError');
      held.delete(modelId);
    },
  };
}

const RECORDS = [
  { model_id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', vram_required_MB: 1060.2 },
  { model_id: 'gemma-2-2b-it-q4f16_1-MLC', vram_required_MB: 1895.3, required_features: ['shader-f16'] },
];

function listenerWith(load: WebLlm['load'], navigator: NavigatorLike | undefined = swiftShader, cache: WebLlmCache = fakeCache([])) {
  const llm = { load, complete: vi.fn(), reload: vi.fn(), loadedModels: () => [], unload: vi.fn() } as unknown as WebLlm;
  return createModelEngineListener({
    extensionOrigin: ORIGIN,
    navigator,
    createLlm: async () => llm,
    modelRecords: async () => RECORDS,
    database: createAssayDatabase(`webllm-host-${++databaseCount}`),
    properties: [],
    cache,
  });
}

/** The extension's origin in these tests, and its service worker, which forwards the engine requests. */
const ORIGIN = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/';
const FROM_BACKGROUND = { id: 'abcdefghijklmnopabcdefghijklmnop', url: `${ORIGIN}background.js` };

function ask(
  listener: ReturnType<typeof listenerWith>,
  message: unknown,
  sender: Parameters<ReturnType<typeof listenerWith>>[1] = FROM_BACKGROUND,
): { claimed: boolean; answer: Promise<unknown> } {
  let resolve: (value: unknown) => void = () => undefined;
  const answer = new Promise((done) => (resolve = done));
  const claimed = listener(message, sender, resolve);
  return { claimed, answer };
}

describe('offscreen model engine listener', () => {
  it('ignores messages not addressed to it (the background answers those)', () => {
    expect(ask(listenerWith(vi.fn()), { type: 'webgpu-check' }).claimed).toBe(false);
    expect(ask(listenerWith(vi.fn()), { type: 'capture-tab', tabId: 1 }).claimed).toBe(false);
  });

  it('refuses an envelope from a content script or another extension, running nothing, as the background’s router does', async () => {
    const load = vi.fn(async () => undefined);
    const listener = listenerWith(load);
    const senders = [
      // A content script: same extension id, but the URL is the page's.
      { id: FROM_BACKGROUND.id, url: 'https://journal.example.org/article/1', tab: { id: 7 } },
      { id: 'anotherextensionidanotherextens', url: 'chrome-extension://anotherextensionidanotherextens/page.html' },
      // An origin that merely starts with this extension's id.
      { id: 'x', url: 'chrome-extension://abcdefghijklmnopabcdefghijklmnopevil/page.html' },
      { id: FROM_BACKGROUND.id },
    ];
    for (const sender of senders) {
      const { claimed, answer } = ask(
        listener,
        { target: 'assay-offscreen', request: { type: 'load-model', modelId: 'x' } },
        sender as never,
      );
      expect(claimed).toBe(false);
      expect(await answer).toEqual({
        ok: false,
        failure: { code: 'bad-request', message: 'The model engine answers only Assay’s own pages.' },
      });
    }
    expect(load).not.toHaveBeenCalled();
    // The extension's own pages (the side panel, here) are answered.
    const own = ask(listener, { target: 'assay-offscreen', request: { type: 'load-model', modelId: 'x' } }, {
      id: FROM_BACKGROUND.id,
      url: `${ORIGIN}sidepanel.html`,
    } as never);
    expect(own.claimed).toBe(true);
    await own.answer;
    expect(load).toHaveBeenCalledWith(['x']);
  });

  it('answers webgpu-check with the capability and its summary', async () => {
    const { claimed, answer } = ask(listenerWith(vi.fn()), { target: 'assay-offscreen', request: { type: 'webgpu-check' } });
    expect(claimed).toBe(true);
    const response = ResponseSchemas['webgpu-check'].parse(await answer);
    expect(response).toMatchObject({ ok: true, capability: { available: true, shaderF16: false } });
    expect(response.ok && response.summary).toContain('lacks shader-f16');
  });

  it('answers load-model with the LlmError as JSON when loading fails', async () => {
    const load = vi.fn(async () =>
      Promise.reject(new LlmError('download-failed', 'Model download failed (x: Failed to fetch); retry resumes from the cached shards.')),
    );
    const { answer } = ask(listenerWith(load), { target: 'assay-offscreen', request: { type: 'load-model', modelId: 'x' } });
    expect(ResponseSchemas['load-model'].parse(await answer)).toMatchObject({
      ok: true,
      error: { code: 'download-failed', message: 'Model download failed (x: Failed to fetch); retry resumes from the cached shards.' },
    });
    expect(load).toHaveBeenCalledWith(['x']);
  });
});

describe('offscreen model cache requests', () => {
  const envelope = (request: object) => ({ target: 'assay-offscreen', request });
  it('answers each model’s cache state, size and f16 need, in the order asked', async () => {
    const listener = listenerWith(vi.fn(), swiftShader, fakeCache(['gemma-2-2b-it-q4f16_1-MLC']));
    const { answer } = ask(
      listener,
      envelope({
        type: 'model-cache-status',
        modelIds: ['gemma-2-2b-it-q4f16_1-MLC', 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', 'unknown-model'],
      }),
    );
    expect(ResponseSchemas['model-cache-status'].parse(await answer)).toEqual({
      ok: true,
      models: [
        { modelId: 'gemma-2-2b-it-q4f16_1-MLC', cached: true, vramMB: 1895.3, requiresF16: true, loaded: false },
        { modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', cached: false, vramMB: 1060.2, requiresF16: false, loaded: false },
        { modelId: 'unknown-model', cached: false, vramMB: null, requiresF16: false, loaded: false },
      ],
    });
  });

  it('deletes a cached model and answers its new state; a cache error is a failure in words', async () => {
    const listener = listenerWith(vi.fn(), swiftShader, fakeCache(['gemma-2-2b-it-q4f16_1-MLC']));
    const deleted = ask(listener, envelope({ type: 'model-cache-delete', modelId: 'gemma-2-2b-it-q4f16_1-MLC' }));
    expect(ResponseSchemas['model-cache-delete'].parse(await deleted.answer)).toEqual({
      ok: true,
      models: [{ modelId: 'gemma-2-2b-it-q4f16_1-MLC', cached: false, vramMB: 1895.3, requiresF16: true, loaded: false }],
    });
    const failed = ask(listener, envelope({ type: 'model-cache-delete', modelId: 'locked' }));
    expect(await failed.answer).toEqual({
      ok: false,
      failure: { code: 'internal', message: 'Could not delete locked from the model cache: QuotaExceededError' },
    });
  });
});

const QWEN = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const GEMMA = 'gemma-2-2b-it-q4f16_1-MLC';
const envelope = (request: object) => ({ target: 'assay-offscreen', request });

/**
 * A fake WebLLM port that writes what happens to `log`: loads succeed at once, chat calls wait
 * until their signal fires (a long prefill), `callsInFlight` counts them (unless `uncounted`:
 * then it answers 0, as between two calls of a run).
 */
function fakeWebLlm(log: string[], uncounted = false) {
  let loaded: string[] = [];
  let inFlight = 0;
  const llm = {
    load: vi.fn(async (modelIds: readonly string[]) => {
      log.push(`load ${modelIds.join(',')}`);
      loaded = [...modelIds];
    }),
    loadedModels: () => loaded,
    complete: vi.fn(
      (request: LlmRequest) =>
        new Promise((_resolve, reject) => {
          inFlight += 1;
          log.push(`complete ${request.model}`);
          request.signal?.addEventListener(
            'abort',
            () => {
              inFlight -= 1;
              reject(new LlmError('aborted', 'The run was cancelled during the model call.'));
            },
            { once: true },
          );
        }),
    ),
    callsInFlight: () => (uncounted ? 0 : inFlight),
    unload: vi.fn(async () => {
      log.push('unload');
      loaded = [];
    }),
    reload: vi.fn(),
    embed: vi.fn(),
    lastLoad: () => undefined,
    gpuMemory: () => undefined,
  };
  return llm;
}

/** The offscreen listener over `fakeWebLlm`, with a cache and custom-model registration that log too. */
function engineHost(options: { cached?: string[]; registerModels?: boolean; database?: AssayDatabase; uncounted?: boolean } = {}) {
  const log: string[] = [];
  const llm = fakeWebLlm(log, options.uncounted);
  const held = new Set(options.cached ?? []);
  const cache: WebLlmCache = {
    has: vi.fn(async (modelId: string) => {
      log.push(`has ${modelId}`);
      return held.has(modelId);
    }),
    remove: vi.fn(async (modelId: string) => {
      log.push(`remove ${modelId}`);
      held.delete(modelId);
    }),
  };
  const registerModels = vi.fn(async (models: readonly CustomWebLlmModel[]) => {
    if (models.some((model) => RECORDS.some((record) => record.model_id === model.model_id)))
      throw new LlmError('unavailable', 'The custom model id clashes with one of WebLLM’s own models.');
    log.push(`register ${models.map((model) => model.model_id).join(',')}`);
  });
  const createLlm = vi.fn(async () => llm as unknown as WebLlm);
  const listener = createModelEngineListener({
    extensionOrigin: ORIGIN,
    navigator: swiftShader,
    createLlm,
    modelRecords: async () => RECORDS,
    database: options.database ?? createAssayDatabase(`webllm-host-${++databaseCount}`),
    properties: [bandGap],
    cache,
    ...(options.registerModels === false ? {} : { registerModels }),
  });
  const send = (request: object) => ask(listener, envelope(request)).answer;
  return { listener, llm, log, cache, registerModels, createLlm, send };
}

/** Wait until `condition` holds (polling every 5 ms, at most 1 s). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 5) {
    if (waited > 1000) throw new Error('condition not met within 1 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const OWN: CustomWebLlmModel = {
  model_id: 'tiny-own',
  model: 'http://127.0.0.1:8000/tiny-own/',
  model_lib: 'http://127.0.0.1:8000/tiny-own/tiny-own-webgpu.wasm',
  vram_required_MB: 700,
};

describe('offscreen model unload', () => {
  const BUSY = 'A run is using the model engine: stop it (or wait for it to finish), then unload the models.';

  it('answers that nothing was unloaded when no engine was made, without making one', async () => {
    const host = engineHost();
    expect(ResponseSchemas['model-unload'].parse(await host.send({ type: 'model-unload' }))).toEqual({ ok: true, unloaded: [] });
    expect(host.createLlm).not.toHaveBeenCalled();
  });

  it('unloads the loaded models and names them', async () => {
    const host = engineHost();
    await host.send({ type: 'load-model', modelId: QWEN });
    expect(await host.send({ type: 'model-unload' })).toEqual({ ok: true, unloaded: [QWEN] });
    expect(host.llm.unload).toHaveBeenCalledTimes(1);
    expect(host.llm.loadedModels()).toEqual([]);
  });

  it('refuses while an engine call is still running (a stopped caller’s prefill), unloading nothing', async () => {
    const host = engineHost();
    await host.send({ type: 'load-model', modelId: QWEN });
    void host.llm.complete({ role: 'proposer', model: QWEN, messages: [] });
    expect(await host.send({ type: 'model-unload' })).toEqual({ ok: false, failure: { code: 'bad-request', message: BUSY } });
    expect(host.llm.unload).not.toHaveBeenCalled();
  });

  it('refuses while a WebLLM run holds the engine, and a loaded model’s cache with it; after Stop both go ahead', async () => {
    const database = createAssayDatabase(`webllm-host-${++databaseCount}`);
    await savePaper(database, article, new Date('2026-11-22T10:00:00Z'));
    // Calls uncounted: the run alone must hold the engine, as it does between two of its calls.
    const host = engineHost({ database, cached: [QWEN], uncounted: true });
    const started = ResponseSchemas['matrix-start'].parse(
      await host.send({
        type: 'matrix-start',
        settings: {
          paperKey: 'title:test article',
          properties: ['band_gap'],
          preset: 'browser',
          engine: { kind: 'webllm', roster: { proposers: [QWEN], aggregator: QWEN, generator: QWEN, discriminator: QWEN } },
          seed: 42,
        },
      }),
    );
    if (!started.ok) throw new Error(`the run did not start: ${started.failure.message}`);
    const { runId } = started;
    // The run's first call (its engine check) is waiting on the GPU.
    await until(() => host.log.includes(`complete ${QWEN}`));
    expect(await host.send({ type: 'model-unload' })).toEqual({ ok: false, failure: { code: 'bad-request', message: BUSY } });
    expect(await host.send({ type: 'model-cache-delete', modelId: QWEN })).toEqual({
      ok: false,
      failure: { code: 'bad-request', message: `${QWEN} is loaded in the engine: unload the models first, then delete it.` },
    });
    expect(host.cache.remove).not.toHaveBeenCalled();
    expect(await host.send({ type: 'model-cache-status', modelIds: [QWEN, GEMMA] })).toEqual({
      ok: true,
      models: [
        { modelId: QWEN, cached: true, vramMB: 1060.2, requiresF16: false, loaded: true },
        { modelId: GEMMA, cached: false, vramMB: 1895.3, requiresF16: true, loaded: false },
      ],
    });
    expect(host.llm.unload).not.toHaveBeenCalled();

    expect(await host.send({ type: 'matrix-cancel', runId })).toEqual({ ok: true, cancelled: true });
    await until(async () => (await getRun(database, runId))?.status === 'cancelled');
    expect(await host.send({ type: 'model-unload' })).toEqual({ ok: true, unloaded: [QWEN] });
    expect(await host.send({ type: 'model-cache-delete', modelId: QWEN })).toEqual({
      ok: true,
      models: [{ modelId: QWEN, cached: false, vramMB: 1060.2, requiresF16: false, loaded: false }],
    });
    await database.delete();
  });
});

describe('offscreen requests naming custom models', () => {
  it('registers the custom models before loading, so the model they name can load', async () => {
    const host = engineHost();
    const answer = await host.send({ type: 'load-model', modelId: 'tiny-own', customModels: [OWN] });
    expect(answer).toMatchObject({ ok: true });
    expect(answer).not.toHaveProperty('error');
    expect(host.registerModels).toHaveBeenCalledWith([OWN]);
    expect(host.log).toEqual(['register tiny-own', 'load tiny-own']);
  });

  it('registers them before reading the cache state, and before deleting from the cache', async () => {
    const host = engineHost({ cached: ['tiny-own'] });
    await host.send({ type: 'model-cache-status', modelIds: ['tiny-own'], customModels: [OWN] });
    await host.send({ type: 'model-cache-delete', modelId: 'tiny-own', customModels: [OWN] });
    expect(host.log).toEqual(['register tiny-own', 'has tiny-own', 'register tiny-own', 'remove tiny-own', 'has tiny-own']);
  });

  it('leaves the registered models alone when a request names none, and clears them for an empty list', async () => {
    const host = engineHost();
    await host.send({ type: 'model-cache-status', modelIds: [QWEN] });
    expect(host.registerModels).not.toHaveBeenCalled();
    await host.send({ type: 'model-cache-status', modelIds: [QWEN], customModels: [] });
    expect(host.registerModels).toHaveBeenCalledWith([]);
  });

  it('answers a refused registration in words, without loading, reading or deleting anything', async () => {
    const host = engineHost({ cached: [QWEN] });
    const clash = { ...OWN, model_id: QWEN };
    expect(await host.send({ type: 'load-model', modelId: QWEN, customModels: [clash] })).toMatchObject({
      ok: true,
      error: { code: 'unavailable', message: 'The custom model id clashes with one of WebLLM’s own models.' },
    });
    expect(await host.send({ type: 'model-cache-status', modelIds: [QWEN], customModels: [clash] })).toEqual({
      ok: false,
      failure: { code: 'bad-request', message: 'The custom model id clashes with one of WebLLM’s own models.' },
    });
    expect(await host.send({ type: 'model-cache-delete', modelId: QWEN, customModels: [clash] })).toMatchObject({
      ok: false,
      failure: { code: 'bad-request' },
    });
    expect(host.log).toEqual([]);
  });

  it('refuses custom models in a document that cannot register them, but not an empty list', async () => {
    const host = engineHost({ registerModels: false });
    expect(await host.send({ type: 'load-model', modelId: 'tiny-own', customModels: [OWN] })).toMatchObject({
      ok: true,
      error: { code: 'unavailable', message: 'This engine document cannot load custom WebLLM models.' },
    });
    expect(host.llm.load).not.toHaveBeenCalled();
    expect(await host.send({ type: 'load-model', modelId: QWEN, customModels: [] })).not.toHaveProperty('error');
    expect(host.llm.load).toHaveBeenCalledWith([QWEN]);
  });

  it('does not claim a request whose custom model would load code over plain http from another host', () => {
    const unsafe = { ...OWN, model_lib: 'http://models.example.org/tiny-own.wasm' };
    expect(ask(engineHost().listener, envelope({ type: 'load-model', modelId: 'tiny-own', customModels: [unsafe] })).claimed).toBe(false);
  });
});

describe('background forwarder to the offscreen document', () => {
  function api(existing: unknown[], answer: unknown): OffscreenApi & { created: number } {
    const fake = {
      created: 0,
      runtime: {
        getURL: (path: string) => `chrome-extension://id${path}`,
        sendMessage: vi.fn(async () => answer),
        getContexts: vi.fn(async () => existing),
      },
      offscreen: { createDocument: vi.fn(async () => void (fake.created += 1)) },
    };
    return fake;
  }

  it('creates the document once with reason WORKERS, sends the envelope and parses the answer', async () => {
    const answer = { ok: true, capability: { available: false, reason: 'none' }, summary: 'no' };
    const fake = api([], answer);
    const { forward } = createOffscreenForwarder(fake);
    expect(await forward({ type: 'webgpu-check' })).toEqual(answer);
    expect(fake.offscreen.createDocument).toHaveBeenCalledWith(expect.objectContaining({ url: '/offscreen.html', reasons: ['WORKERS'] }));
    expect(fake.runtime.sendMessage).toHaveBeenCalledWith({ target: 'assay-offscreen', request: { type: 'webgpu-check' } });
  });

  it('a request made while the document is being created waits for it, though getContexts already lists it', async () => {
    const answer = { ok: true, capability: { available: false, reason: 'none' }, summary: 'no' };
    let loaded!: () => void;
    const contexts: unknown[] = [];
    const fake = api(contexts, answer);
    // The document is listed as soon as creation starts, and listens only once it has loaded.
    vi.mocked(fake.offscreen.createDocument).mockImplementation(async () => {
      contexts.push({});
      await new Promise<void>((resolve) => (loaded = resolve));
    });
    const { forward } = createOffscreenForwarder(fake);
    const first = forward({ type: 'webgpu-check' });
    await vi.waitFor(() => expect(contexts).toHaveLength(1));
    const second = forward({ type: 'webgpu-check' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fake.runtime.sendMessage).not.toHaveBeenCalled();
    loaded();
    expect(await Promise.all([first, second])).toEqual([answer, answer]);
    expect(fake.offscreen.createDocument).toHaveBeenCalledTimes(1);
  });

  it('reuses an existing document and turns a malformed answer into an internal failure', async () => {
    const fake = api([{}], { nonsense: true });
    const response = await createOffscreenForwarder(fake).forward({ type: 'load-model', modelId: 'x' });
    expect(fake.created).toBe(0);
    expect(response).toMatchObject({ ok: false, failure: { code: 'internal' } });
  });
});
