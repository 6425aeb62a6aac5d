/** The engines an extension run uses: WebLLM behind the scheduler, or an OpenAI-compatible server. */
import { describe, expect, it } from 'vitest';
import { createRunEngineFactory, type RunEngineSources } from '../../../src/extension/run-engines';
import { LlmError } from '../../../src/llm/llm-port';
import { defaultWebLlmRoster } from '../../../src/llm/roster';
import type { WebLlm } from '../../../src/llm/webllm-adapter';
import type { WebGpuCapability } from '../../../src/contracts/messages';

const swiftShader: WebGpuCapability = {
  available: true,
  adapterInfo: { vendor: 'google', architecture: 'swiftshader', device: '', description: '' },
  shaderF16: false,
  maxBufferSize: 1 << 30,
  maxStorageBufferBindingSize: 1 << 30,
  isFallbackAdapter: true,
};

/** A fake WebLLM: loads instantly, answers "{}", reports one progress line per load. */
function fakeWebLlm(progress: (text: string) => void) {
  let loaded: string[] = [];
  const log: string[][] = [];
  let reloads = 0;
  const llm: WebLlm = {
    load: async (ids) => {
      progress(`Downloading the model: ${ids.join('+')}`);
      log.push([...ids]);
      loaded = [...ids];
    },
    reload: async () => {
      reloads += 1;
    },
    loadedModels: () => loaded,
    unload: async () => {
      loaded = [];
    },
    callsInFlight: () => 0,
    lastLoad: () => undefined,
    gpuMemory: () => undefined,
    embed: async () => {
      throw new Error('not used by these tests');
    },
    complete: async (request) => ({ text: '{}', model: request.model ?? '?', usage: { promptTokens: 1, completionTokens: 1 } }),
  };
  return { llm, log, reloads: () => reloads };
}

function sources(capability: WebGpuCapability, vramMB = 500) {
  const listeners = new Set<(text: string) => void>();
  const webLlm = fakeWebLlm((text) => listeners.forEach((listener) => listener(text)));
  const roster = defaultWebLlmRoster(false);
  const value: RunEngineSources = {
    webLlm: async () => webLlm.llm,
    capability: async () => capability,
    modelRecords: async () =>
      [...new Set([...roster.proposers, roster.aggregator, roster.generator, roster.discriminator])].map((model_id) => ({
        model_id,
        vram_required_MB: vramMB,
      })),
    onLoadProgress: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { value, webLlm, roster, listeners };
}

describe('run engines', () => {
  it('WebLLM without WebGPU fails before anything loads, with how to enable it', async () => {
    const { value, webLlm } = sources({ available: false, reason: 'navigator.gpu is undefined' });
    const failure = await createRunEngineFactory(value)({ kind: 'webllm' }, () => undefined).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LlmError);
    expect((failure as LlmError).code).toBe('no-webgpu');
    expect((failure as LlmError).message).toContain('navigator.gpu is undefined');
    expect(webLlm.log).toEqual([]);
  });

  it('WebLLM on an adapter without shader-f16 takes the f32 roster, loads it in one reload, and clears the load status after the first reply', async () => {
    const { value, webLlm, roster, listeners } = sources(swiftShader);
    const statuses: Array<string | null> = [];
    const engine = await createRunEngineFactory(value)({ kind: 'webllm' }, (text) => statuses.push(text));
    expect(engine.models.proposers).toEqual(roster.proposers);
    expect(roster.proposers.every((id) => id.includes('q4f32'))).toBe(true);
    await engine.llm.complete({ role: 'proposer', model: roster.proposers[0]!, messages: [] });
    await engine.llm.complete({ role: 'proposer', model: roster.proposers[1]!, messages: [] });
    // Three models of 500 MB fit the default budget: one load of all of them.
    expect(webLlm.log).toEqual([[...new Set([...roster.proposers, roster.aggregator, roster.generator, roster.discriminator])]]);
    expect(statuses).toEqual([`Downloading the model: ${webLlm.log[0]!.join('+')}`, null]);
    expect(engine.modelLoads!()).toBe(1);
    engine.dispose?.();
    expect(listeners.size).toBe(0);
  });

  it('takes one WebLLM run at a time: a second is refused in words until the first is disposed', async () => {
    const { value } = sources(swiftShader);
    const createEngine = createRunEngineFactory(value);
    const first = await createEngine({ kind: 'webllm' }, () => undefined);
    const refused = await createEngine({ kind: 'webllm' }, () => undefined).catch((error: unknown) => error);
    expect((refused as LlmError).code).toBe('unavailable');
    expect((refused as LlmError).message).toContain('Another run is using the in-browser model engine');
    first.dispose!();
    const second = await createEngine({ kind: 'webllm' }, () => undefined);
    second.dispose!();
  });

  it('writes at most one load status line per 250 ms', async () => {
    let clock = 0;
    const { value, listeners } = sources(swiftShader);
    const statuses: Array<string | null> = [];
    const engine = await createRunEngineFactory({ ...value, now: () => clock })({ kind: 'webllm' }, (text) => statuses.push(text));
    for (const [at, text] of [
      [0, 'a'],
      [100, 'b'],
      [249, 'c'],
      [250, 'd'],
      [600, 'e'],
    ] as const) {
      clock = at;
      listeners.forEach((listener) => listener(text));
    }
    // 0 → a; 100 and 249 fall inside the first 250 ms; 250 → d; 600 → e.
    expect(statuses).toEqual(['a', 'd', 'e']);
    engine.dispose!();
  });

  it('WebLLM with a model larger than the GPU budget fails as out-of-gpu-memory, naming it', async () => {
    const { value } = sources(swiftShader, 9000);
    const failure = await createRunEngineFactory(value)({ kind: 'webllm', gpuBudgetMB: 4096 }, () => undefined).catch(
      (error: unknown) => error,
    );
    expect((failure as LlmError).code).toBe('out-of-gpu-memory');
    expect((failure as LlmError).message).toMatch(/9000 MB/);
  });

  it('recovers from a lost device by reloading the WebLLM engine', async () => {
    const { value, webLlm } = sources(swiftShader);
    const statuses: Array<string | null> = [];
    const engine = await createRunEngineFactory(value)({ kind: 'webllm' }, (text) => statuses.push(text));
    expect(await engine.recover!(new LlmError('device-lost', 'lost'))).toBe(true);
    expect(webLlm.reloads()).toBe(1);
    expect(statuses.at(-1)).toContain('reloading the models');
  });

  it('an OpenAI-compatible engine sends each role its roster model to the server', async () => {
    const bodies: Array<{ model: string }> = [];
    const fetch = (async (_url: string, init: { body: string }) => {
      bodies.push(JSON.parse(init.body) as { model: string });
      return new Response(
        JSON.stringify({
          model: 'x',
          choices: [{ message: { content: '{}' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 1 },
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    }) as unknown as typeof globalThis.fetch;
    const { value } = sources(swiftShader);
    const engine = await createRunEngineFactory({ ...value, fetch })(
      {
        kind: 'openai',
        baseUrl: 'http://127.0.0.1:11434/v1',
        roster: { proposers: ['qwen2.5:7b', 'mistral:7b'], aggregator: 'llama3.2', generator: 'llama3.1:8b', discriminator: 'gemma2:9b' },
      },
      () => undefined,
    );
    expect(engine.models).toEqual({
      proposers: ['qwen2.5:7b', 'mistral:7b'],
      aggregator: 'llama3.2',
      generator: 'llama3.1:8b',
      discriminator: 'gemma2:9b',
    });
    await engine.llm.complete({ role: 'generator', messages: [{ role: 'user', content: 'hi' }] });
    await engine.llm.complete({ role: 'discriminator', messages: [{ role: 'user', content: 'hi' }] });
    expect(bodies.map((body) => body.model)).toEqual(['llama3.1:8b', 'gemma2:9b']);
  });
});
