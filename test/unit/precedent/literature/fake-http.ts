/**
 * Test doubles for the literature clients: a scripted `fetch` that records each request (URL,
 * headers, the fake time it was sent) and a fake clock whose `sleep` advances time at once and
 * records how long it was asked to wait.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LiteratureClock } from '../../../../src/precedent/literature/types';

export function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), 'utf8');
}

export type Step =
  | { status: number; body: string; headers?: Record<string, string> }
  | { network: string }
  /** Never answers; rejects when the request's signal aborts (timeout, caller abort). */
  | { hang: true };

export interface RecordedRequest {
  url: URL;
  headers: Record<string, string>;
  at: number;
}

export interface FakeClock extends LiteratureClock {
  sleeps: number[];
}

export function createFakeClock(start = 0): FakeClock {
  let time = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time,
    sleep: (milliseconds, signal) => {
      if (signal?.aborted) return Promise.reject(new Error('aborted'));
      sleeps.push(milliseconds);
      time += milliseconds;
      return Promise.resolve();
    },
  };
}

/** A fetch answering with `steps` in order (the last step repeats), recording each request. */
export function scriptedFetch(steps: Step[], clock?: LiteratureClock): { fetch: typeof globalThis.fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetchImplementation = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    requests.push({ url: new URL(String(input)), headers, at: clock?.now() ?? 0 });
    const step = steps[Math.min(requests.length - 1, steps.length - 1)]!;
    if ('network' in step) return Promise.reject(new TypeError('fetch failed', { cause: new Error(step.network) }));
    if ('hang' in step) {
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
      });
    }
    return Promise.resolve(new Response(step.body, { status: step.status, headers: step.headers ?? {} }));
  };
  return { fetch: fetchImplementation as typeof globalThis.fetch, requests };
}

export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
