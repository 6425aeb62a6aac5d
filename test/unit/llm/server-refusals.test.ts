/**
 * The OpenAI-compatible adapter against one mock per server family (test/support/model-server-mocks.ts):
 * each refusal a real server gives comes back as its own error code with the fix in words, and a
 * prompt the server cut to its context window stops the call with `context-truncated` and the numbers.
 */
import { describe, expect, it } from 'vitest';
import { LlmError, type LlmRequest } from '../../../src/llm/llm-port';
import { createOpenAiCompatibleLlm, type OpenAiCompatibleOptions } from '../../../src/llm/openai-compatible';
import { cachedServerProfiles, serverPromptCounter, type ServerProfiles } from '../../../src/llm/server-probe';
import { contextToSet } from '../../../src/llm/context-window';
import { UsageMeter } from '../../../src/llm/usage-meter';
import { llamaCppMock, lmStudioMock, mockFetch, ollamaMock, vllmMock, type MockServer } from '../../support/model-server-mocks';

const origin = 'http://127.0.0.1:11434';
/** A server that tells nothing about itself. */
const noProfiles: ServerProfiles = { get: async () => undefined, known: () => undefined };

function adapter(server: MockServer, extra: Partial<OpenAiCompatibleOptions> & { headers?: Record<string, string> } = {}) {
  const { headers, ...options } = extra;
  const mocked = mockFetch(server, origin, headers);
  const profiles = cachedServerProfiles({ baseUrl: `${origin}/v1`, fetch: mocked.fetch });
  const llm = createOpenAiCompatibleLlm({
    baseUrl: `${origin}/v1`,
    models: { proposer: 'qwen2.5:7b' },
    fetch: mocked.fetch,
    retries: 0,
    serverProfiles: profiles,
    ...options,
  });
  return { llm, requests: mocked.requests, profiles };
}

/** A passage of about `words` English words, as a prompt carries one. */
function passage(words: number): string {
  const sentence = 'The band gap of the anatase TiO2 film was measured at 3.2 eV by UV-vis absorption at room temperature. ';
  return sentence.repeat(Math.ceil(words / 18));
}

const request = (content: string, maxTokens = 512): LlmRequest => ({ role: 'proposer', messages: [{ role: 'user', content }], maxTokens });

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

const pulled = { 'qwen2.5:7b': { trainedContext: 32_768 } };

describe('refusals, each with its code and fix', () => {
  it('Ollama 403 to an extension origin → origin-refused with OLLAMA_ORIGINS', async () => {
    const { llm } = adapter(ollamaMock({ models: pulled }), { headers: { origin: 'chrome-extension://abc' } });
    const error = await failure(llm.complete(request('Is copper a metal?')));
    expect(error.code).toBe('origin-refused');
    expect(error.message).toMatch(/^The model server at http:\/\/127\.0\.0\.1:11434 refused this extension \(HTTP 403/);
    expect(error.message).toContain('Set OLLAMA_ORIGINS=chrome-extension://* and restart Ollama');
  });

  it('a 403 when an API key was sent is about the key, not the origin', async () => {
    const { llm } = adapter(ollamaMock({ models: pulled }), { headers: { origin: 'chrome-extension://abc' }, apiKey: 'k' });
    const error = await failure(llm.complete(request('Is copper a metal?')));
    expect(error.code).toBe('http');
    expect(error.message).toContain('check the API key');
  });

  it('Ollama without the model → model-not-found with `ollama pull <model>`', async () => {
    const { llm } = adapter(ollamaMock({ models: pulled }));
    const error = await failure(llm.complete({ ...request('Is copper a metal?'), model: 'qwen2.5:14b' }));
    expect(error.code).toBe('model-not-found');
    expect(error.message).toContain('run `ollama pull qwen2.5:14b`');
  });

  it('vLLM without the model → model-not-found naming the list, no Ollama advice', async () => {
    const { llm } = adapter(vllmMock({ model: 'Qwen/Qwen2.5-7B-Instruct', maxModelLen: 16_384 }));
    const error = await failure(llm.complete(request('Is copper a metal?')));
    expect(error.code).toBe('model-not-found');
    expect(error.message).not.toContain('ollama');
  });

  it('LM Studio with the model not loaded → model-not-loaded with `lms load`', async () => {
    const { llm } = adapter(lmStudioMock({ models: [{ id: 'qwen2.5:7b', state: 'not-loaded', maxContext: 32_768 }] }));
    const error = await failure(llm.complete(request('Is copper a metal?')));
    expect(error.code).toBe('model-not-loaded');
    expect(error.message).toContain('`lms load qwen2.5:7b`');
  });

  it('LM Studio refusing in words no pattern knows: what the server says of the model (not-loaded) still names `lms load`', async () => {
    const { llm, requests } = adapter(
      lmStudioMock({
        models: [{ id: 'qwen2.5:7b', state: 'not-loaded', maxContext: 32_768 }],
        notLoadedError: 'Invalid model identifier "qwen2.5:7b".',
      }),
    );
    const error = await failure(llm.complete(request('Is copper a metal?')));
    expect(error.code).toBe('model-not-loaded');
    expect(error.message).toContain('`lms load qwen2.5:7b`');
    // Asked once after the refusal, not before every call.
    expect(requests.filter((entry) => entry.path === '/api/v0/models')).toHaveLength(1);
  });

  it('a base URL without /v1 → wrong-base-url suggesting it', async () => {
    const { llm } = adapter(ollamaMock({ models: pulled }), { baseUrl: origin, serverProfiles: noProfiles });
    const error = await failure(llm.complete(request('Is copper a metal?')));
    expect(error.code).toBe('wrong-base-url');
    expect(error.message).toContain('try http://127.0.0.1:11434/v1');
  });

  it('a browser fetch that fails while the server answers a no-cors request → cors-blocked; when nothing answers → unreachable', async () => {
    const browserFetch = (serverUp: boolean) =>
      (async (_input: unknown, init: RequestInit = {}) => {
        if (init.mode === 'no-cors') {
          if (serverUp) return new Response(null, { status: 200 });
          throw new TypeError('Failed to fetch');
        }
        throw new TypeError('Failed to fetch');
      }) as typeof fetch;
    for (const [serverUp, code] of [
      [true, 'cors-blocked'],
      [false, 'unreachable'],
    ] as const) {
      const llm = createOpenAiCompatibleLlm({
        baseUrl: `${origin}/v1`,
        models: { proposer: 'm' },
        fetch: browserFetch(serverUp),
        retries: 0,
      });
      const error = await failure(llm.complete(request('Is copper a metal?')));
      expect(error.code).toBe(code);
    }
  });

  it('llama.cpp refusing a prompt longer than its slot → context-truncated', async () => {
    const { llm } = adapter(llamaCppMock({ contextSize: 4096, slots: 2 }), { serverProfiles: noProfiles });
    const error = await failure(llm.complete(request(passage(3000))));
    expect(error.code).toBe('context-truncated');
  });
});

describe('never a prompt the model cannot read', () => {
  it('Ollama that cut the prompt to its 2,048-token window: the call stops with context-truncated and the numbers', async () => {
    const { llm } = adapter(ollamaMock({ models: pulled, loaded: { 'qwen2.5:7b': 2048 } }));
    const content = passage(2400);
    const needs = Math.ceil(content.length / 4);
    const error = await failure(llm.complete(request(content, 512)));
    expect(error.code).toBe('context-truncated');
    expect(error.message).toBe(
      `Ollama cut the prompt to 2,048 tokens; this run needs about ${needs.toLocaleString('en-US')} (and up to 512 for the reply): set the model's context to at least ${contextToSet(needs + 512).toLocaleString('en-US')} (OLLAMA_CONTEXT_LENGTH=${contextToSet(needs + 512)} ollama serve, or num_ctx ${contextToSet(needs + 512)} in its Modelfile), then run again.`,
    );
  });

  it('a cut call still counts the tokens the server read: the run report does not say "0 prompt tokens"', async () => {
    const { llm } = adapter(ollamaMock({ models: pulled, loaded: { 'qwen2.5:7b': 2048 } }));
    const meter = new UsageMeter(llm);
    const error = await failure(meter.stage('moa').complete(request(passage(2400), 512)));
    expect(error.code).toBe('context-truncated');
    expect(error.details.usage?.promptTokens).toBe(2048);
    expect(meter.snapshot().byStage.moa).toMatchObject({ calls: 1, failedCalls: 1, promptTokens: 2048 });
  });

  it('Ollama loading the model at the first call (window unknown at run start): the window is asked after the reply, then the call stops', async () => {
    const { llm, requests, profiles } = adapter(ollamaMock({ models: pulled }));
    expect((await profiles.get('qwen2.5:7b'))?.contextWindow).toBeUndefined();
    const error = await failure(llm.complete(request(passage(3000))));
    expect(error.code).toBe('context-truncated');
    expect(error.message).toMatch(/^Ollama cut the prompt to 2,048 tokens/);
    expect(requests.filter((entry) => entry.path === '/api/ps')).toHaveLength(2);
  });

  it('a prompt that fits is answered, and the server is not asked about it', async () => {
    const { llm, requests } = adapter(ollamaMock({ models: pulled, loaded: { 'qwen2.5:7b': 8192 } }));
    const reply = await llm.complete(request(passage(2400)));
    expect(reply.text).toBe('{"answer":"yes"}');
    await llm.complete(request('Is copper a metal?'));
    expect(requests.filter((entry) => entry.path === '/api/version')).toHaveLength(0);
  });

  it('with an exact count: a cut is called from it ("needs 3,100"), and advice sized from it', async () => {
    const { llm } = adapter(ollamaMock({ models: pulled, loaded: { 'qwen2.5:7b': 2048 } }), {
      serverProfiles: noProfiles,
      countPromptTokens: async () => 3100,
    });
    const error = await failure(llm.complete(request(passage(2400), 512)));
    expect(error.message).toMatch(
      /this run needs 3,100 \(and up to 512 for the reply\): set the server's context length for the model to at least 4,096/,
    );
  });

  it('with an exact count and a known window: a prompt that cannot fit is not sent; max_tokens is cut to the room left', async () => {
    // The mock's own tokenizer, so the count is exact for this server.
    const exact = async (messages: Array<{ content: string }>) =>
      Math.ceil(messages.map((message) => message.content).join('\n').length / 4);
    const { llm, requests, profiles } = adapter(llamaCppMock({ contextSize: 4096, slots: 2 }), { countPromptTokens: exact });
    await profiles.get('qwen2.5:7b'); // as the extension does at run start
    const long = passage(2400);
    const error = await failure(llm.complete(request(long, 512)));
    expect(error.code).toBe('context-truncated');
    expect(error.message).toContain(`this run's prompt needs ${Math.ceil(long.length / 4).toLocaleString('en-US')}, so it was not sent`);
    expect(error.message).toContain('start llama-server with -c 8192 or more, since -c is shared by its 2 --parallel slots');
    expect(requests.filter((entry) => entry.path === '/v1/chat/completions')).toHaveLength(0);
    const medium = passage(1000);
    await llm.complete(request(medium, 1024));
    const sent = JSON.parse(requests.find((entry) => entry.path === '/v1/chat/completions')!.body) as { max_tokens: number };
    expect(sent.max_tokens).toBe(2048 - Math.ceil(medium.length / 4));
  });

  it('in the extension, llama.cpp counts the prompt itself (/apply-template, /tokenize): the same fit without a tokenizer of our own', async () => {
    const mocked = mockFetch(llamaCppMock({ contextSize: 4096, slots: 2 }), origin);
    const profiles = cachedServerProfiles({ baseUrl: `${origin}/v1`, fetch: mocked.fetch });
    const countPromptTokens = serverPromptCounter({ baseUrl: `${origin}/v1`, fetch: mocked.fetch, profiles });
    const llm = createOpenAiCompatibleLlm({
      baseUrl: `${origin}/v1`,
      models: { proposer: 'qwen2.5:7b' },
      fetch: mocked.fetch,
      retries: 0,
      serverProfiles: profiles,
      countPromptTokens,
    });
    // Not asked before the server is known to be llama.cpp.
    expect(await countPromptTokens([{ role: 'user', content: 'x' }], 'qwen2.5:7b')).toBeUndefined();
    await profiles.get('qwen2.5:7b');
    const error = await failure(llm.complete(request(passage(2400), 512)));
    expect(error.message).toContain('so it was not sent');
    const medium = passage(1000);
    await llm.complete(request(medium, 1024));
    const sent = JSON.parse(mocked.requests.find((entry) => entry.path === '/v1/chat/completions')!.body) as { max_tokens: number };
    expect(sent.max_tokens).toBe(2048 - Math.ceil(medium.length / 4));
  });
});
