/**
 * Waiting on a server that rate-limits (HTTP 429): reading its Retry-After, and the retry event
 * the OpenAI-compatible engine reports while it waits. One reader for every HTTP client of Assay
 * (the model engine, the embeddings, the literature search), so they cannot disagree.
 */
import type { LlmError } from './llm-port';

/**
 * Retry-After (RFC 9110 §10.2.3) → milliseconds from `now`; undefined when absent or unreadable.
 * Two forms only: delta-seconds, a run of digits ("120"), and an HTTP date ("Sun, 22 Nov 2026
 * 04:00:10 GMT", in the past → 0). Anything else ("-5", "1e3", "0x10", "soon") is unreadable,
 * not a wait. The two copies this replaces (the model engine's and the literature client's) took
 * `Number(header)`, reading "1e3" as 1,000 s and "0x10" as 16 s.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names a weekday or month; a bare number of another shape is not one.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** One failed attempt of a model call that will be retried (for progress lines and logs). */
export interface RetryEvent {
  /** The attempt that failed, 1-based. */
  attempt: number;
  error: LlmError;
  /** The server's Retry-After in ms, when it sent one. */
  retryAfterMs?: number;
  /** For a 429: the wait before the next attempt (ms), the Retry-After or backoff within the caps. */
  waitMs?: number;
  /** For a 429: the most attempts the call makes if the server keeps asking to wait this long. */
  maxAttempts?: number;
  /** For a 429: the most time the call waits on the rate limit in all (ms), the bound it gives up at. */
  maxWaitMs?: number;
}

/** `milliseconds` as whole seconds for a message ("3600 s"), rounded up so a wait of 0.4 s is "1 s". */
export function secondsText(milliseconds: number): string {
  return `${Math.ceil(milliseconds / 1000)} s`;
}

/**
 * A retry in one line: for a 429, "the server asks to wait 3600 s (rate limit); retrying in 60 s
 * (attempt 2 of 6)" ("the server is rate-limiting (HTTP 429, no Retry-After)" when it named no
 * wait); for any other failure, what failed and the attempt that comes next.
 */
export function describeRetry(event: RetryEvent): string {
  const next = event.attempt + 1;
  if (event.error.code === 'rate-limited' && event.waitMs !== undefined) {
    const asked =
      event.retryAfterMs !== undefined
        ? `the server asks to wait ${secondsText(event.retryAfterMs)} (rate limit)`
        : 'the server is rate-limiting (HTTP 429, no Retry-After)';
    const of = event.maxAttempts !== undefined ? ` of ${event.maxAttempts}` : '';
    return `${asked}; retrying in ${secondsText(event.waitMs)} (attempt ${next}${of})`;
  }
  return `the model server did not answer (${event.error.message}); retrying (attempt ${next})`;
}
