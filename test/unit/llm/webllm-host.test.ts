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
import { createAssayDatabase } from '../../../src/store/assay-database';

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
    navigator,
    createLlm: async () => llm,
    modelRecords: async () => RECORDS,
    database: createAssayDatabase(`webllm-host-${++databaseCount}`),
    properties: [],
    cache,
  });
}

function ask(listener: ReturnType<typeof listenerWith>, message: unknown): { claimed: boolean; answer: Promise<unknown> } {
  let resolve: (value: unknown) => void = () => undefined;
  const answer = new Promise((done) => (resolve = done));
  const claimed = listener(message, {}, resolve);
  return { claimed, answer };
}

describe('offscreen model engine listener', () => {
  it('ignores messages not addressed to it (the background answers those)', () => {
    expect(ask(listenerWith(vi.fn()), { type: 'webgpu-check' }).claimed).toBe(false);
    expect(ask(listenerWith(vi.fn()), { type: 'capture-tab', tabId: 1 }).claimed).toBe(false);
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
        { modelId: 'gemma-2-2b-it-q4f16_1-MLC', cached: true, vramMB: 1895.3, requiresF16: true },
        { modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', cached: false, vramMB: 1060.2, requiresF16: false },
        { modelId: 'unknown-model', cached: false, vramMB: null, requiresF16: false },
      ],
    });
  });

  it('deletes a cached model and answers its new state; a cache error is a failure in words', async () => {
    const listener = listenerWith(vi.fn(), swiftShader, fakeCache(['gemma-2-2b-it-q4f16_1-MLC']));
    const deleted = ask(listener, envelope({ type: 'model-cache-delete', modelId: 'gemma-2-2b-it-q4f16_1-MLC' }));
    expect(ResponseSchemas['model-cache-delete'].parse(await deleted.answer)).toEqual({
      ok: true,
      models: [{ modelId: 'gemma-2-2b-it-q4f16_1-MLC', cached: false, vramMB: 1895.3, requiresF16: true }],
    });
    const failed = ask(listener, envelope({ type: 'model-cache-delete', modelId: 'locked' }));
    expect(await failed.answer).toEqual({
      ok: false,
      failure: { code: 'internal', message: 'Could not delete locked from the model cache: QuotaExceededError' },
    });
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
    const forward = createOffscreenForwarder(fake);
    expect(await forward({ type: 'webgpu-check' })).toEqual(answer);
    expect(fake.offscreen.createDocument).toHaveBeenCalledWith(expect.objectContaining({ url: '/offscreen.html', reasons: ['WORKERS'] }));
    expect(fake.runtime.sendMessage).toHaveBeenCalledWith({ target: 'assay-offscreen', request: { type: 'webgpu-check' } });
  });

  it('reuses an existing document and turns a malformed answer into an internal failure', async () => {
    const fake = api([{}], { nonsense: true });
    const response = await createOffscreenForwarder(fake)({ type: 'load-model', modelId: 'x' });
    expect(fake.created).toBe(0);
    expect(response).toMatchObject({ ok: false, failure: { code: 'internal' } });
  });
});
