import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LlmError, type LlmReply, type LlmRequest } from '../../../src/llm/llm-port';
import { createOpenAiCompatibleLlm } from '../../../src/llm/openai-compatible';
import { createServerPool, describeServerEvent, type ServerPoolEvent } from '../../../src/llm/server-pool';
import { UsageMeter } from '../../../src/llm/usage-meter';

/** One call a fake server holds until the test answers or fails it. */
interface HeldCall {
  request: LlmRequest;
  answer(text?: string): void;
  fail(error: LlmError): void;
}

/**
 * A fake server port that records its calls and counts those in flight. `script(index)` decides
 * each call at once (a reply text or an error); undefined holds the call for the test. Like the
 * HTTP adapter, it rejects with 'aborted' when the request's signal fires.
 */
function fakeServer(url: string, script: (index: number) => string | LlmError | undefined = () => undefined) {
  const state = {
    url,
    calls: [] as HeldCall[],
    inFlight: 0,
    llm: {
      complete(request: LlmRequest): Promise<LlmReply> {
        const index = state.calls.length;
        state.inFlight += 1;
        return new Promise<LlmReply>((resolve, reject) => {
          const done = (): void => {
            state.inFlight -= 1;
          };
          const call: HeldCall = {
            request,
            answer: (text = `${url} #${index}`) => {
              done();
              resolve({ text, model: request.model ?? 'm', usage: { promptTokens: 3, completionTokens: 2 } });
            },
            fail: (error) => {
              done();
              reject(error);
            },
          };
          state.calls.push(call);
          request.signal?.addEventListener('abort', () => call.fail(new LlmError('aborted', 'cancelled')), { once: true });
          const scripted = script(index);
          if (typeof scripted === 'string') queueMicrotask(() => call.answer(scripted));
          else if (scripted) queueMicrotask(() => call.fail(scripted));
        });
      },
    },
  };
  return state;
}

const http500 = (url: string) => new LlmError('http', `HTTP 500 from ${url}/chat/completions`, { status: 500 });
const refused = (url: string) => new LlmError('unreachable', `the endpoint at ${url} refused the connection`);
const request = (signal?: AbortSignal): LlmRequest => ({
  role: 'proposer',
  model: 'qwen',
  messages: [{ role: 'user', content: 'hi' }],
  ...(signal ? { signal } : {}),
});

/** The `LlmError` a call rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<LlmReply>): Promise<LlmError> {
  const outcome = await promise.then(
    (reply) => reply,
    (caught: unknown) => caught,
  );
  if (!(outcome instanceof LlmError)) throw new Error(`expected an LlmError, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** Let queued promise callbacks run (fake timers leave microtasks alone). */
async function settle(): Promise<void> {
  for (let tick = 0; tick < 50; tick += 1) await Promise.resolve();
}

/** Whether `promise` has settled yet, without waiting for it. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { promise, settled: () => settled };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createServerPool', () => {
  it('sends each call to the server with the fewest calls in flight, ties to the one that answered fewest, then list order', async () => {
    const [a, b, c] = ['http://a/v1', 'http://b/v1', 'http://c/v1'].map((url) => fakeServer(url));
    const pool = createServerPool([a!, b!, c!], { concurrency: 10 });
    const replies = Array.from({ length: 4 }, () => pool.complete(request()));
    await settle();
    // All idle: list order, then the fourth call to the first of three with one in flight each.
    expect([a!.calls.length, b!.calls.length, c!.calls.length]).toEqual([2, 1, 1]);

    a!.calls[0]!.answer();
    await expect(replies[0]).resolves.toMatchObject({ server: 'http://a/v1' });
    // Now a (1 in flight, 1 answered), b and c (1 in flight, 0 answered): b wins on answered, then order.
    void pool.complete(request());
    await settle();
    expect([a!.calls.length, b!.calls.length, c!.calls.length]).toEqual([2, 2, 1]);

    c!.calls[0]!.answer();
    await settle();
    // c has none in flight: it takes the next call although it has answered as many as a.
    void pool.complete(request());
    await settle();
    expect([a!.calls.length, b!.calls.length, c!.calls.length]).toEqual([2, 2, 2]);
    expect(pool.stats().map((server) => [server.url, server.inFlight, server.answered])).toEqual([
      ['http://a/v1', 1, 1],
      ['http://b/v1', 2, 0],
      ['http://c/v1', 1, 1],
    ]);
  });

  it('never has more calls in flight than its concurrency, across servers', async () => {
    vi.useRealTimers();
    let inFlight = 0;
    let most = 0;
    const counting = (url: string) => ({
      url,
      llm: {
        async complete(call: LlmRequest): Promise<LlmReply> {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
          inFlight -= 1;
          return { text: 'ok', model: call.model ?? 'm', usage: { promptTokens: 1, completionTokens: 1 } };
        },
      },
    });
    const pool = createServerPool([counting('http://a/v1'), counting('http://b/v1')], { concurrency: 3 });
    const replies = await Promise.all(Array.from({ length: 30 }, () => pool.complete(request())));
    expect(replies).toHaveLength(30);
    expect(most).toBe(3);
    expect(pool.stats().reduce((sum, server) => sum + server.answered, 0)).toBe(30);
  });

  it('puts a failing server down, answers on another, sends it nothing until its down period ends, then probes it', async () => {
    const events: ServerPoolEvent[] = [];
    const a = fakeServer('http://a/v1', (index) => (index === 0 ? http500('http://a/v1') : undefined));
    const b = fakeServer('http://b/v1', () => 'from b');
    const pool = createServerPool([a, b], { onEvent: (event) => events.push(event) });

    await expect(pool.complete(request())).resolves.toMatchObject({ text: 'from b', server: 'http://b/v1' });
    expect(events).toEqual([{ type: 'down', url: 'http://a/v1', failures: 1, downForMs: 1_000, error: http500('http://a/v1') }]);
    expect(pool.stats()[0]).toMatchObject({
      state: 'down',
      downUntil: 1_000,
      failed: 1,
      lastError: 'HTTP 500 from http://a/v1/chat/completions',
    });

    // While a is down, b takes every call, even several at once.
    await vi.advanceTimersByTimeAsync(999);
    await Promise.all([pool.complete(request()), pool.complete(request())]);
    expect(a.calls).toHaveLength(1);
    expect(b.calls).toHaveLength(3);

    // Its down period over, a gets the next call (its probe) and no other until the probe ends.
    await vi.advanceTimersByTimeAsync(1);
    const probe = pool.complete(request());
    const during = pool.complete(request());
    await settle();
    expect(a.calls).toHaveLength(2);
    expect(pool.stats()[0]!.state).toBe('probing');
    await expect(during).resolves.toMatchObject({ server: 'http://b/v1' });
    a.calls[1]!.answer('back');
    await expect(probe).resolves.toMatchObject({ text: 'back', server: 'http://a/v1' });
    expect(events.at(-1)).toEqual({ type: 'up', url: 'http://a/v1' });
    expect(pool.stats()[0]).toMatchObject({ state: 'up', answered: 1, failed: 1 });
    expect(pool.stats()[0]!.downUntil).toBeUndefined();
  });

  it('doubles the down period per consecutive failure up to the maximum, and a success resets it', async () => {
    const events: ServerPoolEvent[] = [];
    const a = fakeServer('http://a/v1', (index) => (index < 3 ? refused('http://a') : 'ok'));
    const b = fakeServer('http://b/v1', () => 'ok');
    const pool = createServerPool([a, b], { backoff: { minMs: 100, maxMs: 300 }, onEvent: (event) => events.push(event) });
    await pool.complete(request()); // a fails (down 100 ms), b answers
    await vi.advanceTimersByTimeAsync(100);
    await pool.complete(request()); // a's probe fails (down 200 ms), b answers
    await vi.advanceTimersByTimeAsync(200);
    await pool.complete(request()); // again (down 400 ms → capped at 300)
    await vi.advanceTimersByTimeAsync(300);
    await expect(pool.complete(request())).resolves.toMatchObject({ server: 'http://a/v1' });
    expect(events.map((event) => (event.type === 'down' ? event.downForMs : 'up'))).toEqual([100, 200, 300, 'up']);
    expect(pool.stats()[0]).toMatchObject({ state: 'up', answered: 1, failed: 3 });
  });

  it('waits out a 429 Retry-After before sending the server more calls (up to the maximum down period)', async () => {
    const a = fakeServer('http://a/v1', (index) =>
      index === 0 ? new LlmError('rate-limited', 'HTTP 429', { status: 429, retryAfterMs: 5_000 }) : 'ok',
    );
    const b = fakeServer('http://b/v1', () => 'ok');
    const pool = createServerPool([a, b]);
    await pool.complete(request());
    expect(pool.stats()[0]).toMatchObject({ state: 'down', downUntil: 5_000 });
  });

  it('does not try a final error (404, a bad request) on another server; the error names its server', async () => {
    const notFound = new LlmError('http', 'model qwen not found at http://a/v1/chat/completions (pull or load it first)', { status: 404 });
    const a = fakeServer('http://a/v1', () => notFound);
    const b = fakeServer('http://b/v1', () => 'ok');
    const pool = createServerPool([a, b]);
    const error = await rejection(pool.complete(request()));
    expect(error).toMatchObject({ code: 'http', message: notFound.message, details: { status: 404, server: 'http://a/v1' } });
    expect(b.calls).toHaveLength(0);
    expect(pool.stats()[0]).toMatchObject({ state: 'up', failed: 1 });
  });

  it('when every server is down, waits for the first to come back', async () => {
    const a = fakeServer('http://a/v1', (index) => (index === 0 ? http500('http://a/v1') : 'a again'));
    const b = fakeServer('http://b/v1', (index) => (index === 0 ? http500('http://b/v1') : 'b again'));
    const pool = createServerPool([a, b], { backoff: { minMs: 1_000 } });
    const call = tracked(pool.complete(request()));
    await settle();
    expect([a.calls.length, b.calls.length]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(999);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call.promise).resolves.toMatchObject({ text: 'a again', server: 'http://a/v1' });
  });

  it('fails after its retries with an error naming every server and its last error', async () => {
    const a = fakeServer('http://a/v1', () => http500('http://a/v1'));
    const b = fakeServer('http://b/v1', () => refused('http://b'));
    const pool = createServerPool([a, b], { retries: 3, backoff: { minMs: 10, maxMs: 10 } });
    const outcome = rejection(pool.complete(request()));
    await vi.advanceTimersByTimeAsync(100);
    const error = await outcome;
    expect(error.code).toBe('unreachable'); // the last attempt's
    expect(error.message).toBe(
      'no model server answered after 4 attempts (http://a/v1: HTTP 500 from http://a/v1/chat/completions; http://b/v1: the endpoint at http://b refused the connection)',
    );
    expect(error.details.server).toBe('http://b/v1');
    expect(a.calls.length + b.calls.length).toBe(4);
  });

  it('cancels a queued call at once, and it never reaches a server', async () => {
    const a = fakeServer('http://a/v1');
    const pool = createServerPool([a], { concurrency: 1 });
    const first = pool.complete(request());
    const controller = new AbortController();
    const queued = pool.complete(request(controller.signal));
    await settle();
    controller.abort();
    await expect(queued).rejects.toMatchObject({ code: 'aborted' });
    a.calls[0]!.answer();
    await first;
    await settle();
    expect(a.calls).toHaveLength(1);
  });

  it('cancels a call waiting for a down server, and one in flight, without putting the server down', async () => {
    const a = fakeServer('http://a/v1', (index) => (index === 0 ? http500('http://a/v1') : undefined));
    const pool = createServerPool([a]);
    const waiting = new AbortController();
    const call = pool.complete(request(waiting.signal));
    await settle();
    expect(pool.stats()[0]!.state).toBe('down');
    waiting.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });

    await vi.advanceTimersByTimeAsync(1_000);
    const inFlight = new AbortController();
    const probe = pool.complete(request(inFlight.signal));
    await settle();
    expect(pool.stats()[0]!.state).toBe('probing');
    inFlight.abort();
    await expect(probe).rejects.toMatchObject({ code: 'aborted' });
    // The cancelled probe said nothing about the server: the next call probes it again.
    const next = pool.complete(request());
    await settle();
    expect(a.calls).toHaveLength(3);
    a.calls[2]!.answer();
    await expect(next).resolves.toMatchObject({ server: 'http://a/v1' });
    expect(pool.stats()[0]).toMatchObject({ state: 'up', failed: 1 });
  });

  it('describes its events in one line', () => {
    expect(describeServerEvent({ type: 'down', url: 'http://b/v1', failures: 2, downForMs: 2_000, error: http500('http://b/v1') })).toBe(
      'model server http://b/v1 is down for 2 s after 2 failures (HTTP 500 from http://b/v1/chat/completions); its calls go to the others',
    );
    expect(describeServerEvent({ type: 'up', url: 'http://b/v1' })).toBe('model server http://b/v1 answers again');
  });
});

describe('createServerPool over real HTTP', () => {
  const servers: Server[] = [];

  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  /** A chat-completions server that answers "from NAME" after a few ms, or breaks when `breaks(n)` for its n-th request. */
  async function chatServer(
    name: string,
    breaks: (index: number) => 'http-500' | 'cut' | false,
  ): Promise<{ url: string; requests: () => number }> {
    let requests = 0;
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const failure = breaks(requests++);
        if (failure === 'http-500') return void response.writeHead(500).end('CUDA error: an illegal memory access');
        const body = JSON.stringify({
          choices: [{ message: { content: `from ${name}` } }],
          usage: { prompt_tokens: 5, completion_tokens: 1 },
        });
        if (failure === 'cut') {
          // Headers and half the body, then the connection drops (a server killed mid-answer).
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
          response.write(body.slice(0, body.length / 2));
          setTimeout(() => response.socket?.destroy(), 2);
          return;
        }
        setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(body), 2);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => requests };
  }

  it('answers every call when one server starts failing (500s, answers cut half-way), and the record says who answered', async () => {
    vi.useRealTimers();
    const steady = await chatServer('steady', () => false);
    const flaky = await chatServer('flaky', (index) => (index < 3 ? false : index % 2 === 0 ? 'http-500' : 'cut'));
    const events: ServerPoolEvent[] = [];
    const pool = createServerPool(
      [steady, flaky].map(({ url }) => ({
        url,
        llm: createOpenAiCompatibleLlm({ baseUrl: url, models: { proposer: 'qwen' }, retries: 0, concurrency: 4 }),
      })),
      { concurrency: 4, backoff: { minMs: 5, maxMs: 10 }, onEvent: (event) => events.push(event) },
    );
    const meter = new UsageMeter(pool);
    const replies = await Promise.all(Array.from({ length: 40 }, () => meter.stage('moa').complete(request())));

    // Each reply names the server whose text it carries.
    expect(replies.map((reply) => reply.text)).toEqual(
      replies.map((reply) => (reply.server === steady.url ? 'from steady' : 'from flaky')),
    );
    const { byServer, callLog, total } = meter.snapshot();
    expect(total).toMatchObject({ calls: 40, failedCalls: 0 });
    expect(byServer![steady.url]!.calls + byServer![flaky.url]!.calls).toBe(40);
    expect(byServer![flaky.url]!.calls).toBeGreaterThanOrEqual(3);
    expect(callLog!.map((call) => call.server)).toEqual(expect.arrayContaining([steady.url, flaky.url]));
    expect(callLog!.every((call) => call.stage === 'moa' && !call.failed)).toBe(true);
    // The flaky server was put down for each kind of failure (its probes after a down period alternate them).
    expect(flaky.requests()).toBeGreaterThan(byServer![flaky.url]!.calls);
    const downs = events.flatMap((event) => (event.type === 'down' ? [event] : []));
    expect(downs.every((event) => event.url === flaky.url)).toBe(true);
    expect(new Set(downs.map((event) => event.error.code))).toEqual(new Set(['http', 'unreachable']));
    expect(pool.stats()[1]!.failed).toBe(flaky.requests() - byServer![flaky.url]!.calls);
  });
});
