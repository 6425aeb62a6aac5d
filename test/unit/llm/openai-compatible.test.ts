import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LlmError, type LlmRequest } from '../../../src/llm/llm-port';
import { createOpenAiCompatibleEmbeddings } from '../../../src/llm/embeddings';
import { createOpenAiCompatibleLlm } from '../../../src/llm/openai-compatible';
import { describeRetry, parseRetryAfter, type RetryEvent } from '../../../src/llm/retry-after';

/** A real HTTP server on 127.0.0.1 (random port) whose answers the test scripts per request. */
interface TestServer {
  baseUrl: string;
  bodies: Record<string, unknown>[];
  headers: IncomingMessage['headers'][];
  maxInFlight: number;
  /** Resolves when the n-th request (1-based) has arrived. */
  arrived: (count: number) => Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse, index: number) => void | Promise<void>;

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function startServer(handler: Handler): Promise<TestServer> {
  const state: TestServer = { baseUrl: '', bodies: [], headers: [], maxInFlight: 0, arrived: () => Promise.resolve() };
  const waiters: { count: number; resolve: () => void }[] = [];
  let inFlight = 0;
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const index = state.bodies.length;
      state.bodies.push(JSON.parse(text) as Record<string, unknown>);
      state.headers.push(request.headers);
      inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      response.on('close', () => (inFlight -= 1));
      for (const waiter of waiters.filter((candidate) => candidate.count <= state.bodies.length)) waiter.resolve();
      void handler(request, response, index);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.arrived = (count) =>
    state.bodies.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }));
  return state;
}

function completion(
  content: string,
  usage: { prompt_tokens: number; completion_tokens: number } | null = { prompt_tokens: 11, completion_tokens: 7 },
): string {
  return JSON.stringify({
    id: 'x',
    model: 'qwen2.5:1.5b',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    ...(usage ? { usage } : {}),
  });
}

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(body);
}

const fast = { backoff: { minTimeoutMs: 1, maxTimeoutMs: 5 } };
const ask = (extra: Partial<LlmRequest> = {}): LlmRequest => ({
  role: 'proposer',
  messages: [{ role: 'user', content: 'Band gap of GaN?' }],
  ...extra,
});
const failureOf = (promise: Promise<unknown>): Promise<LlmError> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(LlmError);
      return error as LlmError;
    },
  );

describe('createOpenAiCompatibleLlm against a local HTTP server', () => {
  it('posts the chat request with json_schema and returns text, model and usage', async () => {
    const server = await startServer((_request, response) => send(response, 200, completion('{"ok":true}')));
    const llm = createOpenAiCompatibleLlm({
      baseUrl: `${server.baseUrl}/`,
      apiKey: 'sk-test',
      models: { proposer: 'qwen2.5:1.5b' },
      ...fast,
    });
    const jsonSchema = { name: 'triplets', schema: { type: 'object', properties: { ok: { type: 'boolean' } } } };
    const reply = await llm.complete(ask({ temperature: 0.7, maxTokens: 256, seed: 42, jsonSchema }));
    expect(reply).toEqual({
      text: '{"ok":true}',
      model: 'qwen2.5:1.5b',
      usage: { promptTokens: 11, completionTokens: 7 },
      finishReason: 'stop',
    });
    expect(server.bodies[0]).toEqual({
      model: 'qwen2.5:1.5b',
      messages: [{ role: 'user', content: 'Band gap of GaN?' }],
      temperature: 0.7,
      max_tokens: 256,
      seed: 42,
      response_format: { type: 'json_schema', json_schema: { name: 'triplets', schema: jsonSchema.schema, strict: true } },
    });
    expect(server.headers[0]!.authorization).toBe('Bearer sk-test');
  });

  it('uses request.model over the roster and approximates usage when the server omits it', async () => {
    const server = await startServer((_request, response) => send(response, 200, completion('12345678', null)));
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.baseUrl, models: { proposer: 'roster-model' }, ...fast });
    const reply = await llm.complete(ask({ model: 'override' }));
    expect(server.bodies[0]!.model).toBe('override');
    expect(server.bodies[0]).not.toHaveProperty('response_format');
    expect(server.headers[0]!.authorization).toBeUndefined();
    // By hand: "Band gap of GaN?" = 16 chars → 4 tokens; "12345678" → 2.
    expect(reply.usage).toEqual({ promptTokens: 4, completionTokens: 2 });
  });

  it('waits out 429 Retry-After, then succeeds', async () => {
    const server = await startServer((_request, response, index) =>
      index === 0 ? send(response, 429, '{"error":"slow down"}', { 'retry-after': '1' }) : send(response, 200, completion('fine')),
    );
    const retries: RetryEvent[] = [];
    const llm = createOpenAiCompatibleLlm({
      baseUrl: server.baseUrl,
      models: { proposer: 'm' },
      ...fast,
      onRetry: (event) => retries.push(event),
    });
    expect((await llm.complete(ask())).text).toBe('fine');
    expect(server.bodies).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, retryAfterMs: 1000, error: { code: 'rate-limited' } });
  });

  it('caps a long Retry-After, tells each wait, and gives up after maxRateLimitWaitMs without using up the retries', async () => {
    const server = await startServer((_request, response) => send(response, 429, '{"error":"slow down"}', { 'retry-after': '3600' }));
    const retries: RetryEvent[] = [];
    const llm = createOpenAiCompatibleLlm({
      baseUrl: server.baseUrl,
      models: { proposer: 'm' },
      retries: 1,
      maxRetryAfterMs: 40,
      maxRateLimitWaitMs: 100,
      ...fast,
      onRetry: (event) => retries.push(event),
    });
    const error = await failureOf(llm.complete(ask()));
    // Waits of 40, 40 and the 20 ms left of the bound: four attempts, though `retries` is 1.
    expect(retries.map(({ attempt, waitMs, maxAttempts }) => ({ attempt, waitMs, maxAttempts }))).toEqual([
      { attempt: 1, waitMs: 40, maxAttempts: 4 },
      { attempt: 2, waitMs: 40, maxAttempts: 4 },
      { attempt: 3, waitMs: 20, maxAttempts: 4 },
    ]);
    expect(retries[0]).toMatchObject({ retryAfterMs: 3_600_000, maxWaitMs: 100, error: { code: 'rate-limited' } });
    expect(describeRetry(retries[0]!)).toBe('the server asks to wait 3600 s (rate limit); retrying in 1 s (attempt 2 of 4)');
    expect(server.bodies).toHaveLength(4);
    expect(error.code).toBe('rate-limited');
    expect(error.message).toContain('it asked to wait 3600 s; gave up after waiting 1 s, the most allowed (1 s) (after 4 attempts)');
  });

  it('gives up at the first 429 when maxRateLimitWaitMs is 0', async () => {
    const server = await startServer((_request, response) => send(response, 429, '{}'));
    const retries: RetryEvent[] = [];
    const llm = createOpenAiCompatibleLlm({
      baseUrl: server.baseUrl,
      models: { proposer: 'm' },
      maxRateLimitWaitMs: 0,
      ...fast,
      onRetry: (event) => retries.push(event),
    });
    const error = await failureOf(llm.complete(ask()));
    expect(server.bodies).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(error.code).toBe('rate-limited');
  });

  it('retries a 500 and then fails with a typed http error naming the status and attempts', async () => {
    const server = await startServer((_request, response) => send(response, 500, '{"error":"CUDA out of memory"}'));
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.baseUrl, models: { proposer: 'm' }, retries: 2, ...fast });
    const error = await failureOf(llm.complete(ask()));
    expect(server.bodies).toHaveLength(3);
    expect(error.code).toBe('http');
    expect(error.details.status).toBe(500);
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain('CUDA out of memory');
    expect(error.message).toContain('after 3 attempts');
  });

  it('does not retry a 401 and says to check the API key', async () => {
    const server = await startServer((_request, response) => send(response, 401, '{"error":"invalid key"}'));
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.baseUrl, models: { proposer: 'm' }, ...fast });
    const error = await failureOf(llm.complete(ask()));
    expect(server.bodies).toHaveLength(1);
    expect(error).toMatchObject({ code: 'http', details: { status: 401 } });
    expect(error.message).toContain('HTTP 401: check the API key');
  });

  it('names the missing model on a 404', async () => {
    const server = await startServer((_request, response) =>
      send(response, 404, '{"error":{"message":"model \\"qwen9\\" not found, try pulling it first"}}'),
    );
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.baseUrl, models: { proposer: 'qwen9' }, ...fast });
    const error = await failureOf(llm.complete(ask()));
    expect(server.bodies).toHaveLength(1);
    // Ollama's wording ("try pulling it first") → the pull command for the model.
    expect(error).toMatchObject({ code: 'model-not-found', details: { status: 404 } });
    expect(error.message).toContain(`Ollama at ${new URL(server.baseUrl).origin} has no model qwen9: run \`ollama pull qwen9\``);
  });

  it('rejects a 2xx body that is not a chat completion', async () => {
    const server = await startServer((_request, response) => send(response, 200, '{"choices":[]}'));
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.baseUrl, models: { proposer: 'm' }, ...fast });
    const error = await failureOf(llm.complete(ask()));
    expect(error.code).toBe('http');
    expect(error.message).toContain('not a chat completion');
  });

  it("reports a refused connection as 'unreachable' with what to check", async () => {
    const server = await startServer(() => undefined);
    const deadUrl = server.baseUrl;
    const closing = servers.pop()!;
    await new Promise((resolve) => closing.close(resolve));
    const llm = createOpenAiCompatibleLlm({ baseUrl: deadUrl, models: { proposer: 'm' }, retries: 1, ...fast });
    const error = await failureOf(llm.complete(ask()));
    expect(error.code).toBe('unreachable');
    expect(error.message).toContain(`the endpoint at ${new URL(deadUrl).origin} refused the connection — is Ollama`);
  });

  it('times out an attempt that never answers, without retrying it', async () => {
    const server = await startServer(() => undefined); // holds every request open
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.baseUrl, models: { proposer: 'm' }, timeoutMs: 50, ...fast });
    const error = await failureOf(llm.complete(ask()));
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('within 50 ms');
    expect(server.bodies).toHaveLength(1);
  });

  it('aborts mid-request', async () => {
    const server = await startServer(() => undefined);
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.baseUrl, models: { proposer: 'm' }, ...fast });
    const controller = new AbortController();
    const pending = failureOf(llm.complete(ask({ signal: controller.signal })));
    await server.arrived(1);
    controller.abort();
    expect((await pending).code).toBe('aborted');
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const held: ServerResponse[] = [];
    let released = false;
    const server = await startServer((_request, response) => {
      if (released) send(response, 200, completion('done'));
      else held.push(response);
    });
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.baseUrl, models: { proposer: 'm' }, concurrency: 2, ...fast });
    const pending = Array.from({ length: 6 }, () => llm.complete(ask()));
    await server.arrived(2);
    // Give a third request every chance to arrive if the limit were broken.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.bodies).toHaveLength(2);
    released = true;
    for (const response of held.splice(0)) send(response, 200, completion('done'));
    const replies = await Promise.all(pending);
    expect(replies.map((reply) => reply.text)).toEqual(Array(6).fill('done'));
    expect(server.maxInFlight).toBe(2);
    expect(server.bodies).toHaveLength(6);
  });

  it('aborts a call still queued behind the concurrency limit without sending it', async () => {
    const server = await startServer(() => undefined);
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.baseUrl, models: { proposer: 'm' }, concurrency: 1, ...fast });
    const first = new AbortController();
    const second = new AbortController();
    const running = failureOf(llm.complete(ask({ signal: first.signal })));
    const queued = failureOf(llm.complete(ask({ signal: second.signal })));
    await server.arrived(1);
    second.abort();
    expect((await queued).code).toBe('aborted');
    first.abort();
    expect((await running).code).toBe('aborted');
    expect(server.bodies).toHaveLength(1);
  });

  it("fails 'unavailable' when no model is configured for the role", async () => {
    const llm = createOpenAiCompatibleLlm({ baseUrl: 'http://127.0.0.1:9/v1', models: {} });
    await expect(llm.complete(ask())).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(' 7 ')).toBe(7000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 04:00:10 GMT', Date.parse('Sun, 22 Nov 2026 04:00:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 03:59:00 GMT', Date.parse('Sun, 22 Nov 2026 04:00:00 GMT'))).toBe(0);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  // Both copies before (the engine's and the literature client's) read `Number(header)`: "1e3" was
  // 1,000 s, "0x10" 16 s and "-5" no wait at all. RFC 9110 allows only digits or a date.
  it('reads nothing but digits as delta-seconds', () => {
    for (const header of ['1e3', '0x10', '-5', '2.5', 'Infinity', '12 s']) expect(parseRetryAfter(header), header).toBeUndefined();
  });
});

describe('the API key never travels in clear', () => {
  const sent: string[] = [];
  const fetch = (async (input: RequestInfo | URL) => {
    sent.push(String(input));
    return new Response('{}', { status: 500 });
  }) as typeof globalThis.fetch;

  it.each(['http://models.example.org/v1', 'http://192.168.1.20:11434/v1', 'http://localhost.example.org/v1'])(
    'refuses a key for plain http to another machine (%s), sending nothing, for chat and embeddings',
    (baseUrl) => {
      const origin = new URL(baseUrl).origin;
      const chat = () => createOpenAiCompatibleLlm({ baseUrl, apiKey: 'sk-secret', models: { proposer: 'm' }, fetch });
      expect(chat).toThrow(LlmError);
      expect(chat).toThrow(`Assay will not send your API key to ${origin} over plain http`);
      expect(() => createOpenAiCompatibleEmbeddings({ baseUrl, apiKey: 'sk-secret', model: 'e', fetch })).toThrow(origin);
      expect(sent).toEqual([]);
    },
  );

  it.each([
    ['https://models.example.org/v1', 'sk-secret'],
    ['http://127.0.0.1:11434/v1', 'sk-secret'],
    ['http://localhost:1234/v1', 'sk-secret'],
    ['http://[::1]:8080/v1', 'sk-secret'],
    ['http://192.168.1.20:11434/v1', undefined],
  ])('accepts %s with key %s', (baseUrl, apiKey) => {
    expect(() => createOpenAiCompatibleLlm({ baseUrl, ...(apiKey ? { apiKey } : {}), models: { proposer: 'm' }, fetch })).not.toThrow();
  });
});
