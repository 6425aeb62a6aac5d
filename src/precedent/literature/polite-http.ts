/**
 * The one HTTP GET the literature clients share: per-attempt timeout, retries with backoff for
 * 429/5xx/network failures only (p-retry), Retry-After honoured, requests spaced by a minimum
 * interval (the providers' published rate limits) on an injected clock, and every failure turned
 * into a `LiteratureError`. Patterned on src/llm/openai-compatible.ts (not imported: the error
 * type and the spacing differ).
 */
import pLimit from 'p-limit';
import pRetry from 'p-retry';
import { parseRetryAfter } from '../../llm/retry-after';
import { foldWhitespace } from './record-text';
import { LiteratureError, type LiteratureClock, type LiteratureQuery, type LiteratureRecord, type LiteratureSource } from './types';

export interface PoliteGetterOptions {
  provider: LiteratureSource;
  fetch: typeof globalThis.fetch;
  /** Sent with every request (User-Agent, Accept). */
  headers?: Record<string, string>;
  /** Per attempt, from sending the request to reading the whole body (ms). */
  timeoutMs: number;
  /** Extra attempts after the first, for 429, 5xx and network errors only. */
  retries: number;
  /** Backoff between attempts: minTimeoutMs·2^k times a random factor in [1, 2); defaults 1 000 and 30 000 ms. */
  backoff?: { minTimeoutMs?: number; maxTimeoutMs?: number };
  /** Longest Retry-After honoured (ms); longer values are capped; default 60 000. */
  maxRetryAfterMs?: number;
  clock: LiteratureClock;
  /** Least time between the starts of two requests (ms), before any response adjusts it. */
  minIntervalMs: number;
  /** Reads a new spacing (ms) from a response's headers (Crossref's x-rate-limit-*); undefined keeps the current one. */
  intervalFromHeaders?: (headers: Headers) => number | undefined;
}

/** A successful (2xx) response body as text, with its headers. */
export interface PoliteResponse {
  body: string;
  headers: Headers;
}

/** One failed attempt: the error to surface, whether another attempt may help, and any Retry-After (ms). */
class AttemptFailure extends Error {
  constructor(
    readonly literatureError: LiteratureError,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(literatureError.message);
  }
}

/** The real clock: `Date.now` and an abortable `setTimeout`. */
export function createSystemClock(): LiteratureClock {
  return {
    now: () => Date.now(),
    sleep: (milliseconds, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new Error('aborted'));
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, milliseconds);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

/**
 * Build `get(url, signal)` → `PoliteResponse`. Requests run one at a time (a provider's rate
 * limit is per client, so concurrent searches queue), each start at least the current interval
 * after the previous start. Rejects only with `LiteratureError`: 'rate-limited' (429 after the
 * retries), 'http' (5xx after the retries, other 4xx at once; the status is in the message),
 * 'unreachable' (fetch rejected, after the retries), 'timeout' (not retried), 'aborted'.
 */
export function createPoliteGetter(options: PoliteGetterOptions): (url: string, signal?: AbortSignal) => Promise<PoliteResponse> {
  const { provider, clock } = options;
  const slot = pLimit(1);
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  let intervalMs = options.minIntervalMs;
  let lastStart: number | undefined;

  async function waitForTurn(signal: AbortSignal | undefined): Promise<void> {
    if (lastStart !== undefined) {
      const waitMs = lastStart + intervalMs - clock.now();
      if (waitMs > 0) await sleepOrAbort(clock, waitMs, signal, provider);
    }
    lastStart = clock.now();
  }

  async function attempt(url: string, signal: AbortSignal | undefined): Promise<PoliteResponse> {
    if (signal?.aborted) throw new AttemptFailure(abortedError(provider), false);
    await waitForTurn(signal);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    const onCallerAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      let response: Response;
      let body: string;
      try {
        response = await options.fetch(url, { method: 'GET', headers: { accept: '*/*', ...options.headers }, signal: controller.signal });
        body = await response.text();
      } catch (error) {
        if (signal?.aborted) throw new AttemptFailure(abortedError(provider), false);
        if (timedOut)
          throw new AttemptFailure(
            new LiteratureError('timeout', provider, `no complete answer from ${origin(url)} within ${options.timeoutMs} ms`),
            false,
          );
        const detail = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
        throw new AttemptFailure(new LiteratureError('unreachable', provider, `could not reach ${origin(url)} (${detail})`), true);
      }
      const newInterval = options.intervalFromHeaders?.(response.headers);
      if (newInterval !== undefined) intervalMs = Math.max(options.minIntervalMs, newInterval);
      if (!response.ok) throw httpFailure(provider, response.status, body, url, response.headers.get('retry-after'), clock.now());
      return { body, headers: response.headers };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  async function withRetries(url: string, signal: AbortSignal | undefined): Promise<PoliteResponse> {
    let attempts = 0;
    try {
      return await pRetry(
        () => {
          attempts += 1;
          return attempt(url, signal);
        },
        {
          retries: options.retries,
          factor: 2,
          minTimeout: options.backoff?.minTimeoutMs ?? 1_000,
          maxTimeout: options.backoff?.maxTimeoutMs ?? 30_000,
          randomize: true,
          ...(signal ? { signal } : {}),
          shouldRetry: ({ error }) => error instanceof AttemptFailure && error.retryable,
          onFailedAttempt: async ({ error, retriesLeft }) => {
            if (!(error instanceof AttemptFailure) || !error.retryable || retriesLeft === 0) return;
            // Retry-After means "not before": wait it out on the clock, then p-retry's own backoff.
            if (error.retryAfterMs !== undefined)
              await sleepOrAbort(clock, Math.min(error.retryAfterMs, maxRetryAfterMs), signal, provider);
          },
        },
      );
    } catch (error) {
      if (signal?.aborted) throw abortedError(provider);
      if (error instanceof AttemptFailure) {
        const inner = error.literatureError;
        if (attempts <= 1) throw inner;
        throw new LiteratureError(inner.code, provider, `${inner.message} (after ${attempts} attempts)`, inner.status);
      }
      if (error instanceof LiteratureError) throw error;
      throw new LiteratureError(
        'unreachable',
        provider,
        `calling ${origin(url)} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  return (url, signal) => {
    if (signal?.aborted) return Promise.reject(abortedError(provider));
    return slot(() => withRetries(url, signal));
  };
}

export function abortedError(provider: string): LiteratureError {
  return new LiteratureError('aborted', provider, `the ${provider} search was cancelled`);
}

function httpFailure(
  provider: LiteratureSource,
  status: number,
  body: string,
  url: string,
  retryAfter: string | null,
  now: number,
): AttemptFailure {
  const snippet = bodySnippet(body);
  if (status === 429) {
    return new AttemptFailure(
      new LiteratureError(
        'rate-limited',
        provider,
        `HTTP 429 from ${origin(url)}: ${provider} is rate-limiting requests${snippet}`,
        status,
      ),
      true,
      parseRetryAfter(retryAfter, now),
    );
  }
  // 5xx may pass; any other 4xx is a bad request (or key) that repeating cannot fix.
  return new AttemptFailure(new LiteratureError('http', provider, `HTTP ${status} from ${origin(url)}${snippet}`, status), status >= 500);
}

async function sleepOrAbort(
  clock: LiteratureClock,
  milliseconds: number,
  signal: AbortSignal | undefined,
  provider: string,
): Promise<void> {
  try {
    await clock.sleep(milliseconds, signal);
  } catch {
    throw new AttemptFailure(abortedError(provider), false);
  }
  if (signal?.aborted) throw new AttemptFailure(abortedError(provider), false);
}

function bodySnippet(body: string): string {
  const trimmed = body.trim().split(/\s+/).join(' ');
  if (trimmed === '') return '';
  return `: ${trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed}`;
}

/** Origin and path without the query (the query can hold an api_key). */
function origin(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

/** The free-text query Crossref and OpenAlex are sent: material, property and terms, folded to single spaces. */
export function freeTextQuery(query: LiteratureQuery): string {
  return foldWhitespace([query.material, query.property, ...query.terms].join(' '));
}

/** One page of a cursor-paged provider: its items, the provider's total, and the next cursor if any. */
export interface CursorPage<Item> {
  items: readonly Item[];
  total: number;
  next: string | undefined;
}

/**
 * Read a cursor-paged search (Crossref's `next-cursor`, OpenAlex's `meta.next_cursor`) from `*`
 * until `wanted` records are kept, a page comes back empty, there is no next cursor, or the items
 * seen reach the provider's total (items seen, titled or not: `toRecord` may skip some, and
 * counting only the kept ones would ask for pages that do not exist). `fetchPage(cursor, rows)`
 * asks for at most `rows` items. → the kept records and the provider's total.
 */
export async function collectCursorPages<Item>(
  wanted: number,
  pageSize: number,
  fetchPage: (cursor: string, rows: number) => Promise<CursorPage<Item>>,
  toRecord: (item: Item) => LiteratureRecord | null,
): Promise<{ records: LiteratureRecord[]; total: number }> {
  const records: LiteratureRecord[] = [];
  let total = 0;
  let seen = 0;
  let cursor = '*';
  while (records.length < wanted) {
    const page = await fetchPage(cursor, Math.min(pageSize, wanted));
    total = page.total;
    for (const item of page.items) {
      const record = toRecord(item);
      if (record && records.length < wanted) records.push(record);
    }
    seen += page.items.length;
    if (page.items.length === 0 || !page.next || seen >= total) break;
    cursor = page.next;
  }
  return { records, total };
}
