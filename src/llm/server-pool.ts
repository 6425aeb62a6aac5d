/**
 * Several OpenAI-compatible model servers behind one `LlmPort` (issue 16, "several servers";
 * `assay extract … --base-url A --base-url B`). Each call goes to the least-loaded server that
 * is up; a server that fails as a server does (no answer, 5xx, 429, a timeout) is left out for a
 * down period that doubles per consecutive failure, and the call moves to another server. The
 * pool owns the retries (p-retry), so each server's own port should have its retries off.
 *
 * The down periods are a circuit breaker per server: up → down (no calls) → after the period,
 * the next call is its probe (one call, no others until it ends) → up on an answer, down again
 * for longer on another failure.
 */
import pLimit from 'p-limit';
import pRetry from 'p-retry';
import { abortedError, raceAbort } from './abort';
import { LlmError, toLlmError, type LlmPort, type LlmReply, type LlmRequest } from './llm-port';

/** One server of a pool. */
export interface PoolServer {
  /** Its base URL, e.g. "http://127.0.0.1:8001/v1": named in replies (`LlmReply.server`), errors and stats. */
  url: string;
  /** Its port, with its own retries off (`createOpenAiCompatibleLlm({ retries: 0 })`) so the pool decides. */
  llm: LlmPort;
}

export interface ServerPoolOptions {
  /** Calls in flight across all servers at once (queued beyond that); default 2 per server. */
  concurrency?: number;
  /**
   * Down period after a server's k-th consecutive failure: minMs·2^(k−1), capped at maxMs;
   * defaults 1 000 and 30 000 ms (the same schedule as the single server's retries). A 429's
   * Retry-After lengthens it, up to maxMs.
   */
  backoff?: { minMs?: number; maxMs?: number };
  /** Attempts after a call's first, each on a server that is up (after waiting when none is); default servers + 3. */
  retries?: number;
  /** Clock in ms, for down periods; default `Date.now`. Waits use the global `setTimeout`, so fake timers drive both. */
  now?: () => number;
  /** Told when a server goes down and when it answers again (for progress lines). */
  onEvent?: (event: ServerPoolEvent) => void;
}

/** `up`: taking calls; `down`: in its down period, or past it and waiting for a probe; `probing`: its probe call is in flight. */
export type ServerState = 'up' | 'down' | 'probing';

/** One server's counters, for progress lines (`ServerPool.stats`). */
export interface ServerStats {
  url: string;
  state: ServerState;
  inFlight: number;
  /** Calls it answered (successes; a final error such as a 404 counts as failed). */
  answered: number;
  failed: number;
  /** When its down period ends (ms on the pool's clock); absent while up. */
  downUntil?: number;
  /** Its last error's message, if it ever failed. */
  lastError?: string;
}

export type ServerPoolEvent =
  { type: 'down'; url: string; failures: number; downForMs: number; error: LlmError } | { type: 'up'; url: string };

/** An `LlmPort` over several servers, with their counters. */
export interface ServerPool extends LlmPort {
  stats(): ServerStats[];
}

interface ServerEntry extends PoolServer {
  inFlight: number;
  answered: number;
  failed: number;
  consecutiveFailures: number;
  /** 0 while up; else when the down period ends. */
  downUntil: number;
  probing: boolean;
  /** Incremented each time the server goes down; a call's outcome moves the state only if sent in the current epoch. */
  epoch: number;
  lastError?: LlmError;
}

/** A server failed as a server (retryable on another). */
class ServerFailure extends Error {
  constructor(readonly llmError: LlmError) {
    super(llmError.message);
  }
}

/**
 * Whether `error` says the server is unwell rather than the request wrong: unreachable, 5xx,
 * 429, or a timeout. Timeouts count as the server's: with several servers, one that stops
 * answering (a hung or overloaded vLLM) is what the pool is for, at the cost of sending a call
 * that is merely slow to a second server.
 */
export function isServerFailure(error: LlmError): boolean {
  if (error.code === 'unreachable' || error.code === 'timeout' || error.code === 'rate-limited') return true;
  return error.code === 'http' && (error.details.status ?? 0) >= 500;
}

/**
 * An `LlmPort` over `servers` (at least one; list order breaks ties).
 *
 * Choice: the up server with the fewest calls in flight; ties go to the one that has answered
 * fewest, then to list order. At most `concurrency` calls are in flight across the pool (the
 * batch's N), the rest queued; a call holds its place across its retries.
 * Failures: a server failure (`isServerFailure`) puts the server down (see `backoff`) and the
 * call is tried again at once on another up server, or, when none is up, when the first down
 * period ends (p-retry counts the attempts, `retries`). A final error (400, 404, a reply that is
 * not a chat completion, no model for the role) is not tried elsewhere: it surfaces as is, with
 * `details.server` set. Replies carry `server` (the URL that answered).
 * Errors (`LlmError`): 'aborted' at once when `request.signal` fires (queued, waiting for a
 * server, or in flight); after the retries, the last failure's code with a message naming every
 * server and its last error, and `details.server` the last one tried. Throws `LlmError('unavailable')`
 * when `servers` is empty.
 */
export function createServerPool(servers: readonly PoolServer[], options: ServerPoolOptions = {}): ServerPool {
  if (servers.length === 0) throw new LlmError('unavailable', 'a server pool needs at least one server');
  const entries: ServerEntry[] = servers.map((server) => ({
    ...server,
    inFlight: 0,
    answered: 0,
    failed: 0,
    consecutiveFailures: 0,
    downUntil: 0,
    probing: false,
    epoch: 0,
  }));
  const now = options.now ?? (() => Date.now());
  const minDownMs = options.backoff?.minMs ?? 1_000;
  const maxDownMs = options.backoff?.maxMs ?? 30_000;
  const retries = options.retries ?? servers.length + 3;
  const limit = pLimit(Math.max(1, options.concurrency ?? 2 * servers.length));
  const waiters = new Set<() => void>();

  const isEligible = (entry: ServerEntry): boolean => entry.downUntil === 0 || (entry.downUntil <= now() && !entry.probing);

  /** Reserve the least-loaded eligible server (its probe when past its down period), or null. */
  function reserve(): { entry: ServerEntry; epoch: number } | null {
    let best: ServerEntry | null = null;
    for (const entry of entries) {
      if (!isEligible(entry)) continue;
      if (!best || entry.inFlight < best.inFlight || (entry.inFlight === best.inFlight && entry.answered < best.answered)) best = entry;
    }
    if (!best) return null;
    if (best.downUntil !== 0) best.probing = true;
    best.inFlight += 1;
    return { entry: best, epoch: best.epoch };
  }

  /** Resolves when a server may have become eligible: a probe ended, or the first down period ran out. */
  function nextChange(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const ends = entries.filter((entry) => entry.downUntil !== 0 && !entry.probing).map((entry) => entry.downUntil);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const cleanup = (): void => {
        waiters.delete(wake);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const wake = (): void => {
        cleanup();
        resolve();
      };
      const onAbort = (): void => {
        cleanup();
        reject(abortedError());
      };
      waiters.add(wake);
      if (ends.length > 0) timer = setTimeout(wake, Math.max(0, Math.min(...ends) - now()));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function notify(): void {
    for (const wake of [...waiters]) wake();
  }

  async function acquire(signal: AbortSignal | undefined): Promise<{ entry: ServerEntry; epoch: number }> {
    for (;;) {
      if (signal?.aborted) throw abortedError();
      const reserved = reserve();
      if (reserved) return reserved;
      await nextChange(signal);
    }
  }

  function markUp(entry: ServerEntry): void {
    const wasDown = entry.downUntil !== 0;
    entry.consecutiveFailures = 0;
    entry.downUntil = 0;
    entry.probing = false;
    if (wasDown) options.onEvent?.({ type: 'up', url: entry.url });
  }

  function markDown(entry: ServerEntry, error: LlmError): void {
    entry.consecutiveFailures += 1;
    entry.epoch += 1;
    entry.probing = false;
    const backoff = Math.min(maxDownMs, minDownMs * 2 ** (entry.consecutiveFailures - 1));
    const downForMs = Math.max(backoff, Math.min(error.details.retryAfterMs ?? 0, maxDownMs));
    entry.downUntil = now() + downForMs;
    options.onEvent?.({ type: 'down', url: entry.url, failures: entry.consecutiveFailures, downForMs, error });
  }

  /** One attempt on a reserved server. Throws `ServerFailure` (retryable) or a final `LlmError`. */
  async function attempt(request: LlmRequest, { entry, epoch }: { entry: ServerEntry; epoch: number }): Promise<LlmReply> {
    const current = (): boolean => epoch === entry.epoch;
    try {
      const reply = await entry.llm.complete(request);
      entry.answered += 1;
      if (current()) markUp(entry);
      return { ...reply, server: entry.url };
    } catch (caught) {
      const error = toLlmError(caught);
      if (request.signal?.aborted || error.code === 'aborted') {
        if (current()) entry.probing = false;
        throw abortedError();
      }
      entry.failed += 1;
      entry.lastError = error;
      const named = new LlmError(error.code, error.message, { ...error.details, server: entry.url });
      if (isServerFailure(error)) {
        if (current()) markDown(entry, error);
        throw new ServerFailure(named);
      }
      // A final error with a status is the server answering (it is up); one without (no model
      // for the role) says nothing about it.
      if (current()) {
        if (error.details.status !== undefined) markUp(entry);
        else entry.probing = false;
      }
      throw named;
    } finally {
      entry.inFlight -= 1;
      notify();
    }
  }

  async function withRetries(request: LlmRequest): Promise<LlmReply> {
    let attempts = 0;
    try {
      return await pRetry(
        async () => {
          const reserved = await acquire(request.signal);
          attempts += 1;
          return attempt(request, reserved);
        },
        {
          retries,
          // No wait of p-retry's own: the next attempt goes to another server at once, and
          // `acquire` waits out the down periods when every server is down.
          minTimeout: 0,
          ...(request.signal ? { signal: request.signal } : {}),
          shouldRetry: ({ error }) => error instanceof ServerFailure,
        },
      );
    } catch (error) {
      if (request.signal?.aborted) throw abortedError();
      if (error instanceof ServerFailure) throw poolFailure(error.llmError, attempts);
      throw toLlmError(error);
    }
  }

  /** The last server failure, its message replaced by every server's last error. */
  function poolFailure(last: LlmError, attempts: number): LlmError {
    const each = entries.map((entry) => `${entry.url}: ${entry.lastError?.message ?? 'no failure'}`).join('; ');
    return new LlmError(last.code, `no model server answered after ${attempts} attempts (${each})`, last.details);
  }

  return {
    complete(request: LlmRequest): Promise<LlmReply> {
      if (request.signal?.aborted) return Promise.reject(abortedError());
      return raceAbort(
        limit(() => withRetries(request)),
        request.signal,
      );
    },
    stats: () =>
      entries.map((entry) => ({
        url: entry.url,
        state: entry.downUntil === 0 ? 'up' : entry.probing ? 'probing' : 'down',
        inFlight: entry.inFlight,
        answered: entry.answered,
        failed: entry.failed,
        ...(entry.downUntil !== 0 ? { downUntil: entry.downUntil } : {}),
        ...(entry.lastError ? { lastError: entry.lastError.message } : {}),
      })),
  };
}

/**
 * A pool event as one line for stderr, e.g. "model server http://127.0.0.1:8002/v1 is down for 2 s after
 * 2 failures (HTTP 500 from …); its calls go to the others" or "model server … answers again".
 */
export function describeServerEvent(event: ServerPoolEvent): string {
  if (event.type === 'up') return `model server ${event.url} answers again`;
  const seconds = Math.round(event.downForMs / 100) / 10;
  const failures = event.failures === 1 ? '1 failure' : `${event.failures} failures`;
  return `model server ${event.url} is down for ${seconds} s after ${failures} (${event.error.message}); its calls go to the others`;
}
