import { describe, expect, it, vi } from 'vitest';
import { LlmError, type LlmRequest } from '../../../src/llm/llm-port';
import {
  createWebLlm,
  parseWebLlmProgress,
  type WebLlmChunk,
  type WebLlmCompletion,
  type WebLlmEngineLike,
  type WebLlmInitReport,
  type WebLlmProgress,
} from '../../../src/llm/webllm-adapter';
import { f32VariantOf, toWebLlmError } from '../../../src/llm/webllm-errors';
import type { WebGpuCapability } from '../../../src/contracts/messages';

const models = [
  { model_id: 'SmolLM2-360M-Instruct-q4f16_1-MLC', required_features: ['shader-f16'], vram_required_MB: 376.06 },
  { model_id: 'SmolLM2-360M-Instruct-q4f32_1-MLC', vram_required_MB: 579.61 },
];
const gpu = (shaderF16: boolean): WebGpuCapability => ({
  available: true,
  adapterInfo: { vendor: 'google', architecture: 'swiftshader', device: '', description: '' },
  shaderF16,
  maxBufferSize: 1 << 30,
  maxStorageBufferBindingSize: 1 << 30,
  isFallbackAdapter: false,
});
const named = (name: string, message: string) => Object.assign(new Error(message), { name });

/** A fake MLCEngine: records reloads and requests, replays progress, fails on demand. */
function fakeEngine(behaviour: { reloadError?: Error; createError?: Error; progress?: WebLlmInitReport[] } = {}) {
  const reloads: string[][] = [];
  const requests: Array<Record<string, unknown>> = [];
  let engines = 0;
  const factory = vi.fn(async ({ initProgressCallback }: { initProgressCallback: (report: WebLlmInitReport) => void }) => {
    engines += 1;
    const engine: WebLlmEngineLike = {
      reload: async (ids) => {
        for (const report of behaviour.progress ?? []) initProgressCallback(report);
        reloads.push([ids].flat());
        if (behaviour.reloadError) throw behaviour.reloadError;
      },
      unload: vi.fn(async () => undefined),
      interruptGenerate: vi.fn(),
      embeddings: {
        create: async (request) => {
          requests.push(request);
          return { data: request.input.map((text, index) => ({ index, embedding: [text.length, 1] })) };
        },
      },
      chat: {
        completions: {
          create: async (request): Promise<WebLlmCompletion> => {
            requests.push(request);
            if (behaviour.createError) throw behaviour.createError;
            return {
              model: String(request.model),
              choices: [{ message: { content: '{"triplets":[]}' }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 42, completion_tokens: 7 },
            };
          },
        },
      },
    };
    return engine;
  });
  return { factory, reloads, requests, engineCount: () => engines, behaviour };
}

const request: LlmRequest = {
  role: 'proposer',
  model: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
  messages: [{ role: 'user', content: 'Extract.' }],
  temperature: 0.7,
  maxTokens: 256,
  seed: 11,
  jsonSchema: { name: 'triplets', schema: { type: 'object', properties: { triplets: { type: 'array' } } } },
};

async function rejection(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof LlmError)) throw new Error(`expected an LlmError, got ${String(error)}`);
  return error;
}

describe('createWebLlm', () => {
  it('embeds with an embedding model loaded beside the chat model, one vector per text in order', async () => {
    const fake = fakeEngine();
    const embedding = { model_id: 'snowflake-arctic-embed-s-q0f32-MLC-b4', vram_required_MB: 238.71 };
    const llm = createWebLlm({ engineFactory: fake.factory, models: [...models, embedding], capability: async () => gpu(false) });
    await llm.load(['SmolLM2-360M-Instruct-q4f32_1-MLC']);
    expect(await llm.embed(['ab', 'abcd'], embedding.model_id)).toEqual([
      [2, 1],
      [4, 1],
    ]);
    expect(fake.reloads.at(-1)).toEqual(['SmolLM2-360M-Instruct-q4f32_1-MLC', embedding.model_id]);
    expect(fake.requests.at(-1)).toEqual({ input: ['ab', 'abcd'], model: embedding.model_id });
    await expect(llm.embed(['x'], 'not-a-model')).rejects.toMatchObject({ code: 'unavailable' });
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(llm.embed(['x'], embedding.model_id, cancelled.signal)).rejects.toMatchObject({ code: 'aborted' });
  });

  it('loads the model, sends messages, sampling, seed and the JSON schema, and reports usage', async () => {
    const fake = fakeEngine();
    const llm = createWebLlm({ engineFactory: fake.factory, models, capability: async () => gpu(false) });
    const reply = await llm.complete(request);
    expect(reply).toEqual({
      text: '{"triplets":[]}',
      model: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
      usage: { promptTokens: 42, completionTokens: 7 },
      finishReason: 'stop',
    });
    expect(fake.reloads).toEqual([['SmolLM2-360M-Instruct-q4f32_1-MLC']]);
    expect(fake.requests[0]).toEqual({
      model: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
      messages: request.messages,
      stream: false,
      temperature: 0.7,
      max_tokens: 256,
      seed: 11,
      response_format: { type: 'json_object', schema: '{"type":"object","properties":{"triplets":{"type":"array"}}}' },
    });
    await llm.complete(request);
    expect(fake.reloads).toHaveLength(1); // loaded once, reused
  });

  it('refuses with no-webgpu before creating any engine when WebGPU is missing', async () => {
    const fake = fakeEngine();
    const llm = createWebLlm({ engineFactory: fake.factory, models, capability: async () => ({ available: false, reason: 'no adapter' }) });
    const error = await rejection(llm.load(['SmolLM2-360M-Instruct-q4f32_1-MLC']));
    expect(error.code).toBe('no-webgpu');
    expect(error.message).toContain('WebGPU is not available in this browser: use Chrome/Edge 113+');
    expect(fake.factory).not.toHaveBeenCalled();
  });

  it('refuses an f16 model on an adapter without shader-f16, offering the q4f32 variant, before any download', async () => {
    const fake = fakeEngine();
    const llm = createWebLlm({ engineFactory: fake.factory, models, capability: async () => gpu(false) });
    const error = await rejection(llm.load(['SmolLM2-360M-Instruct-q4f16_1-MLC']));
    expect(error.code).toBe('no-shader-f16');
    expect(error.message).toBe(
      'SmolLM2-360M-Instruct-q4f16_1-MLC needs shader-f16, but this GPU adapter lacks shader-f16: choose SmolLM2-360M-Instruct-q4f32_1-MLC instead.',
    );
    expect(fake.reloads).toEqual([]);
    // The same model loads on an adapter with shader-f16.
    const withF16 = createWebLlm({ engineFactory: fake.factory, models, capability: async () => gpu(true) });
    await withF16.load(['SmolLM2-360M-Instruct-q4f16_1-MLC']);
    expect(fake.reloads).toEqual([['SmolLM2-360M-Instruct-q4f16_1-MLC']]);
  });

  it('maps a weight fetch failure to download-failed with the retry advice', async () => {
    const fake = fakeEngine({ reloadError: new TypeError('Failed to fetch') });
    const llm = createWebLlm({ engineFactory: fake.factory, models, capability: async () => gpu(false) });
    const error = await rejection(llm.complete(request));
    expect(error.code).toBe('download-failed');
    expect(error.message).toBe(
      'Model download failed (SmolLM2-360M-Instruct-q4f32_1-MLC: Failed to fetch); retry resumes from the cached shards.',
    );
    expect(llm.loadedModels()).toEqual([]);
  });

  it('maps a device lost while loading to out-of-gpu-memory (WebLLM: OOM while allocating)', async () => {
    const fake = fakeEngine({ reloadError: named('DeviceLostError', 'The WebGPU device was lost while loading the model.') });
    const llm = createWebLlm({ engineFactory: fake.factory, models, capability: async () => gpu(false) });
    const error = await rejection(llm.load(['SmolLM2-360M-Instruct-q4f32_1-MLC']));
    expect(error.code).toBe('out-of-gpu-memory');
    expect(error.message).toMatch(/^Not enough GPU memory for SmolLM2-360M-Instruct-q4f32_1-MLC/);
  });

  it('maps a device lost while generating to device-lost, and reload() re-creates the engine so the run resumes', async () => {
    const fake = fakeEngine({ createError: named('DeviceLostError', 'Device was lost') });
    const llm = createWebLlm({ engineFactory: fake.factory, models, capability: async () => gpu(false) });
    const error = await rejection(llm.complete(request));
    expect(error.code).toBe('device-lost');
    expect(error.message).toContain('reload the engine and resume the run');
    expect(llm.loadedModels()).toEqual([]);
    delete fake.behaviour.createError;
    await llm.reload();
    expect(fake.engineCount()).toBe(2);
    expect(fake.reloads).toEqual([['SmolLM2-360M-Instruct-q4f32_1-MLC'], ['SmolLM2-360M-Instruct-q4f32_1-MLC']]);
    expect((await llm.complete(request)).text).toBe('{"triplets":[]}');
  });

  it('reports load progress with MB and percent parsed from the text', async () => {
    const progress: WebLlmProgress[] = [];
    const fake = fakeEngine({
      progress: [
        { progress: 0.17, text: 'Fetching param cache[3/24]: 120MB fetched. 17% completed, 4 secs elapsed.' },
        { progress: 1, text: 'Finish loading on WebGPU - google' },
      ],
    });
    const llm = createWebLlm({
      engineFactory: fake.factory,
      models,
      capability: async () => gpu(false),
      onProgress: (report) => progress.push(report),
    });
    await llm.load(['SmolLM2-360M-Instruct-q4f32_1-MLC']);
    expect(progress).toEqual([
      {
        text: 'Fetching param cache[3/24]: 120MB fetched. 17% completed, 4 secs elapsed.',
        progress: 0.17,
        phase: 'download',
        megabytes: 120,
        percent: 17,
      },
      { text: 'Finish loading on WebGPU - google', progress: 1, phase: 'ready' },
    ]);
  });

  it('rejects an aborted request with aborted, and an unknown model with unavailable', async () => {
    const fake = fakeEngine();
    const llm = createWebLlm({ engineFactory: fake.factory, models, capability: async () => gpu(false) });
    const controller = new AbortController();
    controller.abort();
    expect((await rejection(llm.complete({ ...request, signal: controller.signal }))).code).toBe('aborted');
    expect((await rejection(llm.complete({ ...request, model: 'Nope-7B' }))).code).toBe('unavailable');
    expect((await rejection(llm.complete({ ...request, model: undefined }))).code).toBe('unavailable');
  });
});

/** A promise with its settle functions outside. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A fake MLCEngine whose loads and chat calls wait until the test settles them (a long download, a long prefill). */
function heldEngine() {
  const calls: Array<{ request: Record<string, unknown>; reply: ReturnType<typeof deferred<WebLlmCompletion>> }> = [];
  const loads: Array<{ modelIds: string[]; done: ReturnType<typeof deferred<void>> }> = [];
  const memory = { peakMB: 812, allocatedMB: 640 };
  const engine = {
    holdLoads: false as boolean,
    reload: vi.fn(async (modelIds: string | string[]) => {
      if (!engine.holdLoads) return;
      const done = deferred<void>();
      loads.push({ modelIds: [modelIds].flat(), done });
      await done.promise;
    }),
    unload: vi.fn(async () => undefined),
    interruptGenerate: vi.fn(),
    gpuMemory: vi.fn(() => memory),
    chat: {
      completions: {
        create: (request: Record<string, unknown>) => {
          const reply = deferred<WebLlmCompletion>();
          calls.push({ request, reply });
          return reply.promise;
        },
      },
    },
  } satisfies WebLlmEngineLike & { holdLoads: boolean };
  return { engine, calls, loads, memory, factory: async () => engine };
}

const completion = (extra?: NonNullable<WebLlmCompletion['usage']>['extra']): WebLlmCompletion => ({
  model: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
  choices: [{ message: { content: '{"triplets":[]}' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 42, completion_tokens: 7, ...(extra ? { extra } : {}) },
});

/** Let the adapter's awaits (capability check, engine creation, load) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createWebLlm: calls in flight, Stop and unload', () => {
  const MODEL = 'SmolLM2-360M-Instruct-q4f32_1-MLC';
  const make = (held = heldEngine(), now?: () => number) =>
    createWebLlm({ engineFactory: held.factory, models, capability: async () => gpu(false), ...(now ? { now } : {}) });

  it('answers aborted as soon as the signal fires while the engine is still prefilling, and drops the late reply', async () => {
    const held = heldEngine();
    const llm = make(held);
    const controller = new AbortController();
    const call = llm.complete({ ...request, signal: controller.signal });
    await settle();
    expect(held.calls).toHaveLength(1);
    expect(llm.callsInFlight()).toBe(1);
    controller.abort();
    // The engine has not answered: the caller is told at once all the same.
    const error = await rejection(call);
    expect(error).toMatchObject({ code: 'aborted', message: 'The run was cancelled during the model call.' });
    expect(held.engine.interruptGenerate).toHaveBeenCalledTimes(1);
    // The engine is still working on it until its reply arrives, which then goes nowhere.
    expect(llm.callsInFlight()).toBe(1);
    held.calls[0]!.reply.resolve(completion());
    await settle();
    expect(llm.callsInFlight()).toBe(0);
  });

  it('sends a call again, once and streamed, when a stale interrupt from an earlier Stop ended it before it began', async () => {
    // WebLLM 0.2.79 checks its interrupt flag before a non-streamed generation, and clears it only
    // when a generation starts: after a Stop whose call had already ended, every later call came
    // back at once, empty, finish_reason 'abort'. The streamed path clears the flag.
    const held = heldEngine();
    const llm = make(held);
    const aborted: WebLlmCompletion = { model: MODEL, choices: [{ message: { content: '' }, finish_reason: 'abort' }] };
    async function* chunks(): AsyncGenerator<WebLlmChunk> {
      yield { model: MODEL, choices: [{ delta: { content: '{"triplets"' } }] };
      yield { model: MODEL, choices: [{ delta: { content: ':[]}' }, finish_reason: 'stop' }] };
      yield { model: MODEL, choices: [], usage: { prompt_tokens: 42, completion_tokens: 7 } };
    }
    const call = llm.complete(request);
    await settle();
    held.calls[0]!.reply.resolve(aborted);
    await settle();
    expect(held.calls).toHaveLength(2);
    expect(held.calls[1]!.request).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 256 });
    expect(held.calls[0]!.request.stream).toBe(false);
    (held.calls[1]!.reply as unknown as { resolve(value: unknown): void }).resolve(chunks());
    expect(await call).toMatchObject({ text: '{"triplets":[]}', finishReason: 'stop', usage: { promptTokens: 42, completionTokens: 7 } });
    expect(llm.callsInFlight()).toBe(0);
    // Only once: a second empty 'abort' is the reply.
    const again = llm.complete(request);
    await settle();
    held.calls[2]!.reply.resolve(aborted);
    await settle();
    held.calls[3]!.reply.resolve(aborted);
    expect(await again).toMatchObject({ text: '', finishReason: 'abort' });
    expect(held.calls).toHaveLength(4);
  });

  it('counts every pending call, and uncounts each as the engine answers or fails it', async () => {
    const held = heldEngine();
    const llm = make(held);
    expect(llm.callsInFlight()).toBe(0);
    const first = llm.complete(request);
    const second = llm.complete(request);
    await settle();
    expect(llm.callsInFlight()).toBe(2);
    held.calls[0]!.reply.resolve(completion());
    expect((await first).text).toBe('{"triplets":[]}');
    expect(llm.callsInFlight()).toBe(1);
    held.calls[1]!.reply.reject(new Error('tokenizer exploded'));
    expect(await rejection(second)).toMatchObject({ code: 'unavailable' });
    expect(llm.callsInFlight()).toBe(0);
  });

  it('does not send the call when Stop came while the model was loading', async () => {
    const held = heldEngine();
    held.engine.holdLoads = true;
    const llm = make(held);
    const controller = new AbortController();
    const outcome = rejection(llm.complete({ ...request, signal: controller.signal }));
    await settle();
    expect(held.loads).toHaveLength(1);
    controller.abort();
    held.loads[0]!.done.resolve();
    await settle();
    // A call sent now would hold the GPU through a whole prefill for a caller that has gone.
    expect(held.calls).toHaveLength(0);
    expect(await outcome).toMatchObject({ code: 'aborted' });
    expect(llm.callsInFlight()).toBe(0);
  });

  it('unload drops the calls in flight: their late replies leave the count of newer calls alone', async () => {
    const held = heldEngine();
    const llm = make(held);
    const controller = new AbortController();
    const stopped = llm.complete({ ...request, signal: controller.signal });
    await settle();
    controller.abort();
    await rejection(stopped);
    await llm.unload();
    expect(held.engine.unload).toHaveBeenCalledTimes(1);
    expect(llm.callsInFlight()).toBe(0);
    expect(llm.loadedModels()).toEqual([]);
    // The next call loads the model again and is counted on its own.
    const next = llm.complete(request);
    await settle();
    expect(held.engine.reload).toHaveBeenCalledTimes(2);
    expect(llm.callsInFlight()).toBe(1);
    held.calls[0]!.reply.reject(new Error('Device was lost'));
    await settle();
    expect(llm.callsInFlight()).toBe(1);
    held.calls[1]!.reply.resolve(completion());
    await next;
    expect(llm.callsInFlight()).toBe(0);
  });

  it('reads WebLLM’s timing of the call from usage.extra', async () => {
    const held = heldEngine();
    const llm = make(held);
    const call = llm.complete({ ...request, model: MODEL });
    await settle();
    held.calls[0]!.reply.resolve(
      completion({ e2e_latency_s: 2.5, prefill_tokens_per_s: 310.4, decode_tokens_per_s: 41.2, time_to_first_token_s: 0.42 }),
    );
    expect((await call).timing).toEqual({
      timeToFirstTokenSeconds: 0.42,
      prefillTokensPerSecond: 310.4,
      decodeTokensPerSecond: 41.2,
      totalSeconds: 2.5,
    });
  });

  it.each([
    ['no extra', undefined],
    ['a missing figure', { e2e_latency_s: 2.5, prefill_tokens_per_s: 310.4, time_to_first_token_s: 0.42 }],
    [
      'a figure that is not finite',
      { e2e_latency_s: 2.5, prefill_tokens_per_s: Infinity, decode_tokens_per_s: 41.2, time_to_first_token_s: 0.42 },
    ],
  ])('gives no timing for %s', async (_case, extra) => {
    const held = heldEngine();
    const llm = make(held);
    const call = llm.complete(request);
    await settle();
    held.calls[0]!.reply.resolve(completion(extra));
    const reply = await call;
    expect(reply).not.toHaveProperty('timing');
    expect(reply.usage).toEqual({ promptTokens: 42, completionTokens: 7 });
  });

  it('remembers the last successful load and how long it took by its clock', async () => {
    const held = heldEngine();
    const readings = [1000, 4500, 9000, 9250];
    const llm = make(held, () => readings.shift()!);
    expect(llm.lastLoad()).toBeUndefined();
    await llm.load([MODEL]);
    expect(llm.lastLoad()).toEqual({ modelIds: [MODEL], seconds: 3.5 });
    held.engine.reload.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    // A failed load leaves the last successful one as it was.
    expect(await rejection(llm.load([MODEL]))).toMatchObject({ code: 'download-failed' });
    expect(held.engine.reload).toHaveBeenCalledTimes(2);
    expect(llm.lastLoad()).toEqual({ modelIds: [MODEL], seconds: 3.5 });
  });

  it('reports the engine’s GPU memory only while models are loaded', async () => {
    const held = heldEngine();
    const llm = make(held);
    expect(llm.gpuMemory()).toBeUndefined();
    await llm.load([MODEL]);
    expect(llm.gpuMemory()).toEqual({ peakMB: 812, allocatedMB: 640 });
    await llm.unload();
    expect(llm.gpuMemory()).toBeUndefined();
  });
});

describe('WebLLM failures in words', () => {
  const context = {
    phase: 'load' as const,
    modelId: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
    knownModelIds: ['Qwen2.5-1.5B-Instruct-q4f32_1-MLC'],
  };
  it.each([
    [named('WebGPUNotAvailableError', 'WebGPU is not supported in your current environment'), 'no-webgpu'],
    [new Error('Unable to find a compatible GPU.'), 'no-webgpu'],
    [named('ShaderF16SupportError', 'This model requires WebGPU extension shader-f16'), 'no-shader-f16'],
    [new Error('Cannot initialize runtime because of requested maxBufferSize exceeds limit.'), 'out-of-gpu-memory'],
    [new Error('Out of memory'), 'out-of-gpu-memory'],
    [new Error('Cannot fetch https://huggingface.co/x/resolve/main/params_shard_0.bin'), 'download-failed'],
    [named('AbortError', 'The user aborted a request.'), 'aborted'],
    [new Error('tokenizer exploded'), 'unavailable'],
  ])('%s → %s', (error, code) => {
    expect(toWebLlmError(error, context).code).toBe(code);
  });

  describe('a prompt longer than the context window', () => {
    const prompt = 'Prompt tokens exceed context window size: number of prompt tokens: 900; context window size: 512';
    const expected = `The prompt is longer than Qwen2.5-1.5B-Instruct-q4f16_1-MLC's context window (${prompt}): choose a model with a longer context window, or the browser preset, whose passages are shorter.`;

    it('is refused by name, with the model, the counts and what to do, without WebLLM’s own advice line', () => {
      // WebLLM's message goes on with a line about `context_window_size`, a setting the reader cannot reach.
      const error = named(
        'ContextWindowSizeExceededError',
        `${prompt}\nConsider shortening the prompt, or increase \`context_window_size\`.`,
      );
      expect(toWebLlmError(error, { ...context, phase: 'generate' })).toMatchObject({ code: 'unavailable', message: expected });
    });

    it('is recognised by its message when the name was lost crossing a worker boundary', () => {
      expect(toWebLlmError(new Error(prompt), { ...context, phase: 'generate' })).toMatchObject({ code: 'unavailable', message: expected });
    });

    it('reaches the caller of complete in those words', async () => {
      const fake = fakeEngine({ createError: named('ContextWindowSizeExceededError', prompt) });
      const llm = createWebLlm({ engineFactory: fake.factory, models, capability: async () => gpu(false) });
      const error = await rejection(llm.complete(request));
      expect(error.code).toBe('unavailable');
      expect(error.message).toMatch(/^The prompt is longer than SmolLM2-360M-Instruct-q4f32_1-MLC's context window \(Prompt tokens exceed/);
      // Not a lost device: the model stays loaded for the next, shorter prompt.
      expect(llm.loadedModels()).toEqual(['SmolLM2-360M-Instruct-q4f32_1-MLC']);
    });
  });

  it('names the f32 variant of an f16 model', () => {
    expect(f32VariantOf('Qwen2.5-1.5B-Instruct-q4f16_1-MLC')).toBe('Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    expect(f32VariantOf('SmolLM2-360M-Instruct-q0f16-MLC')).toBe('SmolLM2-360M-Instruct-q0f32-MLC');
    expect(f32VariantOf('SmolLM2-360M-Instruct-q4f32_1-MLC')).toBeUndefined();
    expect(toWebLlmError(named('ShaderF16SupportError', 'x'), context).message).toContain(
      'choose Qwen2.5-1.5B-Instruct-q4f32_1-MLC instead',
    );
  });

  it('parses progress phases', () => {
    expect(parseWebLlmProgress({ progress: 0.5, text: 'Loading GPU shader modules[5/30]: 50% completed' }).phase).toBe('compile');
    expect(parseWebLlmProgress({ progress: 0.2, text: 'Loading model from cache[3/24]: 100MB loaded. 12% completed' })).toMatchObject({
      phase: 'cache',
      megabytes: 100,
      percent: 12,
    });
  });
});

describe('webllm-engine in Node', () => {
  it('imports without touching WebGPU and lists the prebuilt models with their features', async () => {
    const { prebuiltModelRecords, SMALL_F32_MODEL } = await import('../../../src/llm/webllm-engine');
    const records = await prebuiltModelRecords();
    const small = records.find((record) => record.model_id === SMALL_F32_MODEL);
    expect(small?.required_features ?? []).not.toContain('shader-f16');
    expect(records.find((record) => record.model_id === 'SmolLM2-360M-Instruct-q4f16_1-MLC')?.required_features).toContain('shader-f16');
  });
});
