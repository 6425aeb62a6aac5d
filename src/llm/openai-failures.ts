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

/** What a failure's wording may use besides the response: whether a key was sent, and what the server is. */
export interface FailureContext {
  /** An API key went with the request (a 401/403 is then about the key). */
  apiKey?: boolean;
  /** The server's family when known (`probeServer`, src/llm/server-probe.ts). */
  family?: string;
  /** What the server said of the model (`ServerProfile.modelState`): LM Studio's `not-loaded` names the fix whatever its error says. */
  modelState?: string;
}

/**
 * The `OLLAMA_ORIGINS` value that lets this browser's extensions in: "chrome-extension://*" in
 * Chromium browsers, "moz-extension://*" in Firefox (Ollama's FAQ, "How can I allow additional web
 * origins to access Ollama?"), read from `location` where the code runs in an extension page;
 * "chrome-extension://*" elsewhere (the command line sends no Origin, so Ollama never refuses it).
 */
export function ollamaOriginsValue(): string {
  const protocol = (globalThis as { location?: { protocol?: string } }).location?.protocol;
  return protocol === 'moz-extension:' ? 'moz-extension://*' : 'chrome-extension://*';
}

/**
 * The sentence for a 403 without a reason from a server that was sent no key: Ollama answers
 * an Origin header it does not allow this way, and a browser extension's origin is not among
 * its defaults (ollama/ollama#1797, #2308). Names `OLLAMA_ORIGINS` with the value for this browser
 * and how to set it for the three ways Ollama is run.
 *
 * Decision (issue 29): Assay does not rewrite the Origin header, as Page Assist does with
 * declarativeNetRequest. That rule would need the "declarativeNetRequest" permission (a warning
 * at install: "Block content on any page") and host access to the reader's server, and it would
 * quietly disable the one protection Ollama has against web pages driving it from the browser —
 * for every extension's requests to that port, not only Assay's. Setting OLLAMA_ORIGINS once is a
 * one-line fix the reader controls, so the refusal is explained instead.
 */
export function originRefusedMessage(origin: string): string {
  const value = ollamaOriginsValue();
  return (
    `The model server at ${origin} refused this extension (HTTP 403 with no reason, which is how Ollama answers a browser extension it has not been told to allow). ` +
    `Set OLLAMA_ORIGINS=${value} and restart Ollama: in a terminal, \`OLLAMA_ORIGINS=${value} ollama serve\`; ` +
    `as a Linux service, \`sudo systemctl edit ollama\` with Environment="OLLAMA_ORIGINS=${value}", then \`sudo systemctl restart ollama\`; ` +
    `on macOS, \`launchctl setenv OLLAMA_ORIGINS "${value}"\`, then quit and reopen Ollama. Then test the connection again.`
  );
}

/** True when `body` says the model is known but not loaded (LM Studio with just-in-time loading off). */
function saysNotLoaded(body: string): boolean {
  return /no models? (are |is )?loaded|model is (not |un)loaded|not loaded|please load a model|lms load/i.test(body);
}

/** True when `body` says there is no model of that id (Ollama: "model \"x\" not found, try pulling it first"; vLLM: "The model `x` does not exist."). */
function saysNoSuchModel(body: string): boolean {
  return /model/i.test(body) && /not found|does not exist|no such|unknown model|try pulling/i.test(body);
}

/**
 * A non-2xx response → failure. 429 and 5xx are retryable (429 carries Retry-After in ms when the
 * server sent one, on the failure and in the error's `details.retryAfterMs` for a server pool);
 * every other 4xx is final, because repeating a bad request cannot succeed. Each kind of refusal
 * has its own code and fix:
 * - 403 with an empty body and no key sent → `origin-refused` (`originRefusedMessage`);
 *   401/403 otherwise → `http`, check the API key;
 * - a body saying the model is not loaded, or LM Studio's own word that it is not
 *   (`context.modelState`) → `model-not-loaded`;
 * - 404 whose body names a missing model → `model-not-found` ("run \`ollama pull <model>\`" when
 *   the server is Ollama, by `context.family` or its wording);
 * - 400 saying the prompt exceeds the context (llama.cpp's exceed_context_size_error, vLLM's
 *   "maximum context length is …") → `context-truncated`;
 * - any other 404 → `wrong-base-url`, with the /v1 suffix suggested when the URL lacks it.
 */
export function httpFailure(
  status: number,
  body: string,
  url: string,
  model: string,
  retryAfterHeader: string | null,
  context: FailureContext = {},
): AttemptFailure {
  const snippet = bodySnippet(body);
  const notLoaded = saysNotLoaded(body) || (context.family === 'lm-studio' && context.modelState === 'not-loaded');
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
  if (status >= 500 && !notLoaded)
    return new AttemptFailure(new LlmError('http', `HTTP ${status} from ${url}${snippet}`, { status }), true);
  if (status === 403 && body.trim() === '' && !context.apiKey)
    return new AttemptFailure(new LlmError('origin-refused', originRefusedMessage(safeOrigin(url)), { status }), false);
  if (status === 401 || status === 403) {
    return new AttemptFailure(new LlmError('http', `HTTP ${status}: check the API key for ${url}${snippet}`, { status }), false);
  }
  if (notLoaded)
    return new AttemptFailure(
      new LlmError(
        'model-not-loaded',
        `The server at ${safeOrigin(url)} has not loaded ${model} (HTTP ${status}${snippet}). In LM Studio, load it (Developer tab, or \`lms load ${model}\`) or turn on just-in-time model loading, then try again.`,
        { status },
      ),
      false,
    );
  if (status === 400 && /exceeds? the available context size|maximum context length is|context length|context window/i.test(body))
    return new AttemptFailure(
      new LlmError(
        'context-truncated',
        `The server at ${safeOrigin(url)} refused a prompt longer than ${model}'s context window${snippet}. Give the model a longer context (llama.cpp: a larger -c, shared by its --parallel slots; vLLM: --max-model-len), then run again.`,
        { status },
      ),
      false,
    );
  if (status === 404 && saysNoSuchModel(body)) {
    const ollama = context.family === 'ollama' || /try pulling/i.test(body);
    const message = ollama
      ? `Ollama at ${safeOrigin(url)} has no model ${model}: run \`ollama pull ${model}\` on that computer (or correct the model name as \`ollama list\` shows it), then try again.`
      : `The server at ${safeOrigin(url)} has no model ${model}${snippet}. Name a model it lists (its /v1/models), or download and load that one, then try again.`;
    return new AttemptFailure(new LlmError('model-not-found', message, { status }), false);
  }
  if (status === 404) return new AttemptFailure(new LlmError('wrong-base-url', wrongBaseUrlMessage(url), { status }), false);
  return new AttemptFailure(new LlmError('http', `HTTP ${status} from ${url}${snippet}`, { status }), false);
}

/**
 * The sentence for a 404 on an OpenAI endpoint (`url`, e.g. "http://127.0.0.1:11434/chat/completions"):
 * nothing answers there, so the base URL is wrong; when it lacks the /v1 every local server uses,
 * the address with it is suggested.
 */
export function wrongBaseUrlMessage(url: string): string {
  const baseUrl = url.replace(/\/(chat\/completions|models|embeddings)$/, '');
  const suggestion = /\/v1\/?$/.test(baseUrl)
    ? 'Check the address and port: Ollama serves http://127.0.0.1:11434/v1, LM Studio http://127.0.0.1:1234/v1, llama.cpp and vLLM their --port with /v1.'
    : `Local servers serve it under /v1: try ${baseUrl.replace(/\/+$/, '')}/v1.`;
  return `No OpenAI-compatible API answers at ${baseUrl} (HTTP 404 from ${url}). ${suggestion}`;
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

/**
 * A browser's rejected `fetch` ("Failed to fetch", no socket code: the browser hides why) told
 * apart: a second request to the origin in `no-cors` mode succeeds when the server is up, so the
 * first was blocked by CORS (`cors-blocked`: the extension lacks the origin's permission, or the
 * server answered a preflight with a refusal); otherwise the server is not reachable
 * (`unreachable`, is it running?). Other errors (Node's, with a socket code) → `networkFailure`.
 * The probe waits at most 3 s.
 */
export async function diagnoseNetworkFailure(error: unknown, url: string, fetchImplementation: typeof fetch): Promise<AttemptFailure> {
  if (causeCode(error) !== undefined || !isBrowserFetchFailure(error)) return networkFailure(error, url);
  const origin = safeOrigin(url);
  let serverAnswered = false;
  try {
    await fetchImplementation(`${origin}/`, { mode: 'no-cors', signal: AbortSignal.timeout(3_000) });
    serverAnswered = true;
  } catch {
    serverAnswered = false;
  }
  if (!serverAnswered)
    return new AttemptFailure(
      new LlmError(
        'unreachable',
        `Nothing answers at ${origin}: is the model server (Ollama, LM Studio, llama.cpp, vLLM) running, on this address and port?`,
      ),
      true,
    );
  return new AttemptFailure(
    new LlmError(
      'cors-blocked',
      `The server at ${origin} is running, but the browser kept its answer from Assay (CORS). Allow Assay to reach ${origin} when the browser asks, or let the server answer extensions: LM Studio, turn on “Enable CORS” (Developer tab, or \`lms server start --cors\`); Ollama, set OLLAMA_ORIGINS=${ollamaOriginsValue()} and restart it.`,
    ),
    false,
  );
}

/** A browser fetch's network error: a TypeError such as "Failed to fetch" (Chromium), "NetworkError when attempting to fetch resource." (Firefox), "Load failed" (Safari). */
function isBrowserFetchFailure(error: unknown): boolean {
  return error instanceof TypeError && /failed to fetch|networkerror|load failed/i.test(error.message);
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
