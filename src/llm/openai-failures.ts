/**
 * Turning HTTP and network failures of an OpenAI-compatible endpoint into `LlmError`s whose
 * messages say what to do. Kept apart from the adapter so the wording can be read in one place.
 */
import { isSecureOrLoopbackUrl } from '../contracts/webllm-model';
import { LlmError } from './llm-port';
import { parseRetryAfter } from './retry-after';

/** One failed attempt: the error to surface, whether another attempt may help, and any Retry-After. */
export class AttemptFailure extends Error {
  constructor(
    readonly llmError: LlmError,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(llmError.message);
  }
}

/**
 * A non-2xx response → failure. 429 and 5xx are retryable (429 carries Retry-After in ms when the
 * server sent one, on the failure and in the error's `details.retryAfterMs` for a server pool);
 * every other 4xx is final, because repeating a bad request cannot succeed.
 */
export function httpFailure(status: number, body: string, url: string, model: string, retryAfterHeader: string | null): AttemptFailure {
  const snippet = bodySnippet(body);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(retryAfterHeader);
    return new AttemptFailure(
      new LlmError('rate-limited', `HTTP 429 from ${url}: the endpoint is rate-limiting requests${snippet}`, {
        status,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      }),
      true,
      retryAfterMs,
    );
  }
  if (status >= 500) return new AttemptFailure(new LlmError('http', `HTTP ${status} from ${url}${snippet}`, { status }), true);
  if (status === 401 || status === 403) {
    return new AttemptFailure(new LlmError('http', `HTTP ${status}: check the API key for ${url}${snippet}`, { status }), false);
  }
  if (status === 404) {
    // Ollama, vLLM and LM Studio answer an unknown model with 404 and a body naming the model;
    // a 404 without that usually means the base URL lacks its /v1 suffix.
    const message = /model/i.test(body)
      ? `model ${model} not found at ${url} (pull or load it first)${snippet}`
      : `no chat-completions endpoint at ${url} (HTTP 404) — does the base URL need a /v1 suffix?${snippet}`;
    return new AttemptFailure(new LlmError('http', message, { status }), false);
  }
  return new AttemptFailure(new LlmError('http', `HTTP ${status} from ${url}${snippet}`, { status }), false);
}

/**
 * A rejected `fetch` (no response at all) → failure. Node's fetch (undici) rejects with
 * `TypeError('fetch failed')` whose `cause.code` names the socket error.
 */
export function networkFailure(error: unknown, url: string): AttemptFailure {
  const code = causeCode(error);
  const origin = safeOrigin(url);
  if (code === 'ECONNREFUSED') {
    return new AttemptFailure(
      new LlmError(
        'unreachable',
        `the endpoint at ${origin} refused the connection — is Ollama (or your LM Studio / llama.cpp / vLLM server) running?`,
      ),
      true,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new AttemptFailure(
      new LlmError('unreachable', `could not resolve the host of ${origin} — check the base URL and your network`),
      true,
    );
  }
  const detail = code ?? (error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error));
  return new AttemptFailure(new LlmError('unreachable', `could not reach ${origin} (${detail})`), true);
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function bodySnippet(body: string): string {
  const trimmed = body.trim().replace(/\s+/g, ' ');
  if (trimmed === '') return '';
  return `: ${trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed}`;
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Throw `LlmError('unavailable')` when `apiKey` would travel in clear: a key is given and
 * `baseUrl` is plain http to another machine (not 127.0.0.1, localhost or [::1], where the
 * request never leaves the computer). Anyone on the network path could read the key and the
 * paper text; the reader gets the server's https address to use instead. No key, https, or
 * loopback: returns.
 */
export function refuseKeyOverPlainHttp(baseUrl: string, apiKey: string | undefined): void {
  if (!apiKey || !URL.canParse(baseUrl)) return;
  const { origin, protocol } = new URL(baseUrl);
  if (protocol !== 'http:' || isSecureOrLoopbackUrl(baseUrl)) return;
  throw new LlmError(
    'unavailable',
    `Assay will not send your API key to ${origin} over plain http, where anyone on the network could read it: use the server's https address, or leave the key empty for a server that needs none.`,
  );
}
