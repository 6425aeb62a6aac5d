/**
 * Aborting a model call: the one `LlmError('aborted')` and a race that rejects with it as soon
 * as the caller's signal fires, and the check between calls. Shared by the adapters that queue calls (OpenAI-compatible, the
 * server pool).
 */
import { LlmError } from './llm-port';

/** The error of a call cancelled by its `AbortSignal`. */
export function abortedError(): LlmError {
  return new LlmError('aborted', 'the call was cancelled');
}

/**
 * Throws `abortedError()` when `signal` has fired; returns otherwise (no signal: never throws).
 * The one check every model adapter and the SLM-MATRIX pipeline make between calls.
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError();
}

/**
 * `promise`, or a rejection with `abortedError()` as soon as `signal` fires, even while the work
 * is still queued behind a concurrency limit (the queued work then sees the aborted signal when
 * it starts, and must return at once).
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
