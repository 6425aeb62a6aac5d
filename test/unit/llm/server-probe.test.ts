import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../src/llm/llm-port';
import { createOpenAiCompatibleLlm } from '../../../src/llm/openai-compatible';
import { cachedServerProfiles, describeServer, parallelCalls, parallelCallsText, probeServer } from '../../../src/llm/server-probe';
import { checkStructuredOutput } from '../../../src/llm/structured-output-check';
import { llamaCppMock, lmStudioMock, mockFetch, ollamaMock, plainOpenAiMock, vllmMock } from '../../support/model-server-mocks';

const origin = 'http://127.0.0.1:11434';
const baseUrl = `${origin}/v1`;

async function rejection(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

describe('probeServer: what answers at a base URL, from its own endpoints', () => {
  it('Ollama: version, the loaded window from /api/ps, the trained length from /api/show, in words', async () => {
    const { fetch } = mockFetch(
      ollamaMock({ version: '0.6.8', models: { 'qwen2.5:7b': { trainedContext: 32_768 } }, loaded: { 'qwen2.5:7b': 2048 } }),
      origin,
    );
    const profile = await probeServer({ baseUrl, model: 'qwen2.5:7b', fetch });
    expect(profile).toMatchObject({
      family: 'ollama',
      version: '0.6.8',
      contextWindow: 2048,
      modelMaxContext: 32_768,
      modelState: 'loaded',
      models: ['qwen2.5:7b'],
    });
    expect(describeServer(profile)).toBe(
      "Ollama 0.6.8 at http://127.0.0.1:11434/v1. qwen2.5:7b runs with a context window of 2,048 tokens (from Ollama's /api/ps, the loaded model). The model supports 32,768; Ollama uses 2,048 unless OLLAMA_CONTEXT_LENGTH or the model's num_ctx says more.",
    );
  });

  it('Ollama: a model not loaded yet takes its Modelfile num_ctx; a model not pulled is said with the pull command', async () => {
    const server = ollamaMock({ models: { 'qwen2.5:7b': { trainedContext: 32_768, numCtx: 8192 } } });
    const { fetch } = mockFetch(server, origin);
    expect(await probeServer({ baseUrl, model: 'qwen2.5:7b', fetch })).toMatchObject({
      contextWindow: 8192,
      contextSource: "the model's num_ctx (Ollama's /api/show)",
      modelState: 'not-loaded',
    });
    const missing = await probeServer({ baseUrl, model: 'llama3.1:8b', fetch });
    expect(missing).toMatchObject({ family: 'ollama', modelState: 'missing' });
    expect(missing.contextWindow).toBeUndefined();
    expect(describeServer(missing)).toContain('It has no model llama3.1:8b: run `ollama pull llama3.1:8b`.');
  });

  it('Ollama refusing the extension origin (403, empty body) → origin-refused naming OLLAMA_ORIGINS', async () => {
    const { fetch } = mockFetch(ollamaMock({ models: { 'qwen2.5:7b': { trainedContext: 32_768 } } }), origin, {
      origin: 'chrome-extension://abcdefghijklmnop',
    });
    const error = await rejection(probeServer({ baseUrl, model: 'qwen2.5:7b', fetch }));
    expect(error.code).toBe('origin-refused');
    expect(error.message).toContain('OLLAMA_ORIGINS=chrome-extension://*');
    expect(error.message).toContain('`OLLAMA_ORIGINS=chrome-extension://* ollama serve`');
  });

  it('llama.cpp server: each slot’s n_ctx and the slots from /props', async () => {
    const { fetch } = mockFetch(llamaCppMock({ contextSize: 8192, slots: 2, build: 'b4589-1ee9eea0' }), 'http://127.0.0.1:8080');
    const profile = await probeServer({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen', fetch });
    expect(profile).toMatchObject({
      family: 'llama.cpp',
      version: 'b4589-1ee9eea0',
      contextWindow: 4096,
      parallelSlots: 2,
      modelState: 'loaded',
    });
    expect(describeServer(profile)).toContain('2 parallel slots of 4,096 tokens each');
    // The reader's setting wins; else the server's slots, capped; a server that does not say → the default.
    expect(parallelCalls(undefined, profile, 64)).toEqual({ slots: 2, source: 'server' });
    expect(parallelCallsText(parallelCalls(undefined, profile, 64))).toBe('Sending up to 2 calls at once, as its slots allow.');
    expect(parallelCalls(4, profile, 64)).toEqual({ slots: 4, source: 'chosen' });
    expect(parallelCallsText(parallelCalls(4, profile, 64))).toBe('');
    expect(parallelCalls(undefined, { ...profile, parallelSlots: 128 }, 64)).toEqual({ slots: 64, source: 'server' });
    expect(parallelCalls(undefined, { ...profile, parallelSlots: undefined }, 64)).toBeUndefined();
    expect(parallelCalls(undefined, undefined, 64)).toBeUndefined();
  });

  it('LM Studio: the loaded context length, or the model named as downloaded but not loaded', async () => {
    const { fetch } = mockFetch(
      lmStudioMock({
        models: [
          { id: 'qwen2.5-7b-instruct', state: 'loaded', maxContext: 32_768, loadedContext: 4096 },
          { id: 'llama-3.2-3b-instruct', state: 'not-loaded', maxContext: 131_072 },
        ],
      }),
      'http://127.0.0.1:1234',
    );
    const baseUrl = 'http://127.0.0.1:1234/v1';
    expect(await probeServer({ baseUrl, model: 'qwen2.5-7b-instruct', fetch })).toMatchObject({
      family: 'lm-studio',
      contextWindow: 4096,
      modelMaxContext: 32_768,
      modelState: 'loaded',
    });
    const unloaded = await probeServer({ baseUrl, model: 'llama-3.2-3b-instruct', fetch });
    expect(unloaded).toMatchObject({ family: 'lm-studio', modelState: 'not-loaded', modelMaxContext: 131_072 });
    expect(unloaded.contextWindow).toBeUndefined();
    expect(describeServer(unloaded)).toContain('llama-3.2-3b-instruct is downloaded but not loaded: load it in LM Studio');
  });

  it('vLLM: max_model_len from /v1/models', async () => {
    const { fetch } = mockFetch(vllmMock({ model: 'Qwen/Qwen2.5-7B-Instruct', maxModelLen: 16_384 }), 'http://127.0.0.1:8000');
    const profile = await probeServer({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'Qwen/Qwen2.5-7B-Instruct', fetch });
    expect(profile).toMatchObject({ family: 'vllm', contextWindow: 16_384, modelState: 'loaded' });
    expect(describeServer(profile)).toBe(
      "vLLM at http://127.0.0.1:8000/v1. Qwen/Qwen2.5-7B-Instruct runs with a context window of 16,384 tokens (from vLLM's /v1/models (max_model_len)).",
    );
  });

  it('another OpenAI-compatible server: the family and the models it lists; no window, said so', async () => {
    const { fetch } = mockFetch(plainOpenAiMock({ models: ['gpt-4o-mini'] }), 'http://127.0.0.1:4000');
    const profile = await probeServer({ baseUrl: 'http://127.0.0.1:4000/v1', model: 'gpt-4o-mini', fetch });
    expect(profile).toMatchObject({ family: 'openai-compatible', models: ['gpt-4o-mini'], modelState: 'loaded' });
    expect(describeServer(profile)).toContain("does not say gpt-4o-mini's context window");
  });

  it('a base URL where nothing lists models → wrong-base-url, suggesting /v1', async () => {
    const { fetch } = mockFetch(plainOpenAiMock({ models: ['m'] }), 'http://127.0.0.1:4000');
    const error = await rejection(probeServer({ baseUrl: 'http://127.0.0.1:4000', model: 'm', fetch }));
    expect(error.code).toBe('wrong-base-url');
    expect(error.message).toContain('try http://127.0.0.1:4000/v1');
  });

  it('nothing listening → unreachable', async () => {
    const { fetch } = mockFetch(plainOpenAiMock({ models: ['m'] }), 'http://127.0.0.1:4000');
    const error = await rejection(probeServer({ baseUrl: 'http://127.0.0.1:5999/v1', model: 'm', fetch }));
    expect(error.code).toBe('unreachable');
  });

  it('cachedServerProfiles asks once per model, again on refresh', async () => {
    const { fetch, requests } = mockFetch(ollamaMock({ models: { 'qwen2.5:7b': { trainedContext: 32_768 } } }), origin);
    const profiles = cachedServerProfiles({ baseUrl, fetch });
    expect(profiles.known('qwen2.5:7b')).toBeUndefined();
    await profiles.get('qwen2.5:7b');
    await profiles.get('qwen2.5:7b');
    expect(profiles.known('qwen2.5:7b')).toMatchObject({ family: 'ollama' });
    const once = requests.filter((request) => request.path === '/api/version').length;
    await profiles.get('qwen2.5:7b', true);
    expect([once, requests.filter((request) => request.path === '/api/version').length]).toEqual([1, 2]);
  });
});

describe('checkStructuredOutput: one call shows whether the server follows the JSON schema', () => {
  it('a server honouring response_format → follows; one answering prose → said, with repair as the fallback', async () => {
    for (const [chat, follows] of [
      [() => '{"answer":"yes"}', true],
      [() => 'Yes, copper is a metal.', false],
    ] as const) {
      const { fetch, requests } = mockFetch(plainOpenAiMock({ models: ['m'], chat }), 'http://127.0.0.1:4000');
      const llm = createOpenAiCompatibleLlm({ baseUrl: 'http://127.0.0.1:4000/v1', models: {}, fetch, retries: 0 });
      const check = await checkStructuredOutput(llm, 'm');
      expect(check.follows).toBe(follows);
      expect(requests).toHaveLength(1);
      expect(JSON.parse(requests[0]!.body)).toMatchObject({ response_format: { type: 'json_schema' } });
      if (!follows) expect(check.text).toContain('the server ignored the JSON schema and answered “Yes, copper is a metal.”');
    }
  });
});
