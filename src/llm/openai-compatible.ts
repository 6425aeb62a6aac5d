/**
 * The OpenAI-compatible HTTP engine (DESIGN.md "Engines"): Ollama, LM Studio, llama.cpp server,
 * vLLM or a hosted endpoint, through `POST {baseUrl}/chat/completions`. Retries use `p-retry`
 * (exponential backoff with jitter), the concurrency limit `p-limit`. The response is untrusted
 * and parsed with zod. Every failure surfaces as an `LlmError` with a message that says what to do.
 */
import pLimit from 'p-limit';
import pRetry from 'p-retry';
import { z } from 'zod';
import { abortedError, raceAbort, throwIfAborted } from './abort';
import { contextFitProblem, promptTruncation, type PromptCounter } from './context-window';
import { LlmError, type LlmPort, type LlmReply, type LlmRequest } from './llm-port';
import { AttemptFailure, diagnoseNetworkFailure, httpFailure, refuseKeyOverPlainHttp } from './openai-failures';
import { secondsText, type RetryEvent } from './retry-after';
import { approximateTokenCount } from './token-estimate';
import type { ModelRole } from '../contracts/llm';
import type { ServerProfiles } from './server-probe';

export interface OpenAiCompatibleOptions {
  /** e.g. "http://127.0.0.1:11434/v1" (Ollama); "/chat/completions" is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  /** Model id per role; `request.model` overrides. */
  models: Partial<Record<ModelRole, string>>;
  /** Calls in flight at once (queued beyond that); default 2 — a local server usually runs one or two. */
  concurrency?: number;
  /** Per attempt, from sending the request to reading the whole body; default 120 000 ms. */
  timeoutMs?: number;
  /** Extra attempts after the first, for 429, 5xx and network errors only; default 3. */
  retries?: number;
  fetch?: typeof globalThis.fetch;
  /** Backoff between attempts: minTimeoutMs·2^k, times a random factor in [1, 2); defaults 1 000 and 30 000 ms. */
  backoff?: { minTimeoutMs?: number; maxTimeoutMs?: number };
  /** Longest single wait a Retry-After may ask (ms); longer values are capped; default 60 000. */
  maxRetryAfterMs?: number;
  /**
   * Most time one call waits on a rate-limiting server (429), over all its attempts (ms); then it
   * fails 'rate-limited'. 429s are retried while this lasts and do not use up `retries`; default
   * 300 000 (`DEFAULT_RATE_LIMIT_WAIT_MS`); 0 gives up at the first 429.
   */
  maxRateLimitWaitMs?: number;
  /** Told about each failed attempt that will be retried (for progress lines and logs: `describeRetry`). */
  onRetry?: (event: RetryEvent) => void;
  /**
   * What the server says about a model (`cachedServerProfiles`, src/llm/server-probe.ts): a
   * profile already found fits `max_tokens` to its context window; one is asked for (again) only
   * to confirm and word a cut prompt (Ollama tells a model's window once it is loaded). Absent:
   * no context check beyond the exact count below.
   */
  serverProfiles?: ServerProfiles;
  /** Exact prompt tokens of a request for a model (the CLI's tokenizers; llama.cpp's /tokenize); undefined when unknown. */
  countPromptTokens?: PromptCounter;
}

/** Per attempt of a call, from sending the request to reading the whole body (ms). */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Most time one call waits on a rate limit in all (ms): five capped Retry-Afters of 60 s. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 300_000;

/** The subset of the chat-completions response Assay relies on (narrowed, as STYLE.md asks of third-party APIs). */
const ChatCompletionSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() }).nullish(),
});

/**
 * Build an `LlmPort` over an OpenAI-compatible endpoint.
 *
 * Request body: `{ model, messages, temperature?, max_tokens?, seed?, response_format? }`, with
 * `response_format = { type: 'json_schema', json_schema: { name, schema, strict: true } }` when the
 * request carries `jsonSchema`. (Trade-off: `strict: true` makes OpenAI itself insist that every
 * property be required; local servers — Ollama, llama.cpp, vLLM — accept optional ones.)
 * Usage comes from `usage.prompt_tokens/completion_tokens`; a server that omits it gets the
 * ceil(chars/4) approximation instead of zeros, so budgets never read as free.
 *
 * Errors (`LlmError.code`): 'unavailable' (no model for the role), 'unreachable' (refused, DNS —
 * retried), 'rate-limited' (429s retried while `maxRateLimitWaitMs` lasts, each wait its Retry-After
 * within `maxRetryAfterMs` and told to `onRetry` first), 'http' (5xx after the
 * retries; 401/403/404/other 4xx at once, never retried; or a 2xx body of the wrong shape),
 * 'timeout' (one attempt exceeded `timeoutMs`; not retried — a server that slow is not helped by
 * waiting longer), 'aborted' (`request.signal`, while queued, in flight, or between retries).
 * Throws 'unavailable' at once, sending nothing, when an `apiKey` would go over plain http to
 * another machine (`refuseKeyOverPlainHttp`).
 */
export function createOpenAiCompatibleLlm(options: OpenAiCompatibleOptions): LlmPort {
  refuseKeyOverPlainHttp(options.baseUrl, options.apiKey);
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const fetchImplementation = options.fetch ?? globalThis.fetch.bind(globalThis);
  const limit = pLimit(Math.max(1, options.concurrency ?? 2));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;
  const minBackoffMs = options.backoff?.minTimeoutMs ?? 1_000;
  const maxBackoffMs = options.backoff?.maxTimeoutMs ?? 30_000;

  async function attempt(request: LlmRequest, model: string): Promise<LlmReply> {
    throwIfAborted(request.signal);
    // The exact prompt count and the window as last found, when known: a prompt that cannot fit
    // is not sent, and max_tokens is cut to what the window leaves.
    const sentTokens = await options.countPromptTokens?.(request.messages, model).catch(() => undefined);
    // Only a profile already found (the extension asks at run start): a call never waits on a probe.
    const profile = options.serverProfiles?.known(model);
    const fit = contextFitProblem(profile, sentTokens, request.maxTokens);
    if (fit.problem) throw new AttemptFailure(fit.problem, false);
    const sent = fit.maxTokens !== undefined ? { ...request, maxTokens: fit.maxTokens } : request;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort();
    request.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      let response: Response;
      let body: string;
      try {
        response = await fetchImplementation(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify(requestBody(sent, model)),
          signal: controller.signal,
        });
        body = await response.text();
      } catch (error) {
        if (request.signal?.aborted) throw new AttemptFailure(abortedError(), false);
        if (timedOut)
          throw new AttemptFailure(
            new LlmError('timeout', `no complete answer from ${url} within ${timeoutMs} ms (model ${model})`),
            false,
          );
        throw await diagnoseNetworkFailure(error, url, fetchImplementation);
      }
      if (!response.ok) {
        // A refusal (4xx but 429) is final: what the server is and says of the model (asked once
        // and kept) picks its fix, e.g. LM Studio's model not loaded, whatever its error's words.
        const refused = response.status >= 400 && response.status < 500 && response.status !== 429;
        const known = profile ?? (refused ? await options.serverProfiles?.get(model).catch(() => undefined) : undefined);
        throw httpFailure(response.status, body, url, model, response.headers.get('retry-after'), {
          apiKey: Boolean(options.apiKey),
          ...(known ? { family: known.family, ...(known.modelState ? { modelState: known.modelState } : {}) } : {}),
        });
      }
      const { reply, reportedPromptTokens } = parseCompletion(body, model, request);
      if (reportedPromptTokens !== undefined) {
        const truncated = await promptTruncation({
          reportedTokens: reportedPromptTokens,
          sentTokens,
          messages: request.messages,
          maxTokens: sent.maxTokens,
          model,
          profile: (refresh) => options.serverProfiles?.get(model, refresh) ?? Promise.resolve(undefined),
        });
        // The server did read (part of) the prompt and answered: its usage counts in the run's tokens.
        if (truncated)
          throw new AttemptFailure(new LlmError(truncated.code, truncated.message, { ...truncated.details, usage: reply.usage }), false);
      }
      return reply;
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** The reply, and the prompt tokens the server reported (undefined when it sent no usage). */
  function parseCompletion(body: string, model: string, request: LlmRequest): { reply: LlmReply; reportedPromptTokens?: number } {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new AttemptFailure(
        new LlmError('http', `the answer from ${url} was not JSON (is the base URL an OpenAI-compatible API?)`, { status: 200 }),
        false,
      );
    }
    const parsed = ChatCompletionSchema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
      throw new AttemptFailure(
        new LlmError('http', `the answer from ${url} is not a chat completion (${problems})`, { status: 200 }),
        false,
      );
    }
    const choice = parsed.data.choices[0]!;
    const text = choice.message.content ?? '';
    const reply: LlmReply = {
      text,
      model: parsed.data.model ?? model,
      usage: parsed.data.usage
        ? { promptTokens: parsed.data.usage.prompt_tokens, completionTokens: parsed.data.usage.completion_tokens }
        : {
            promptTokens: approximateTokenCount(request.messages.map((message) => message.content).join('\n')),
            completionTokens: approximateTokenCount(text),
          },
      ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
    };
    return parsed.data.usage ? { reply, reportedPromptTokens: parsed.data.usage.prompt_tokens } : { reply };
  }

  /**
   * After a 429: tell `onRetry` and wait the Retry-After (or, when the server named no wait, the
   * backoff: 1 s, 2 s, 4 s, … up to its cap), capped at `maxRetryAfterMs` and at what is left of
   * `maxRateLimitWaitMs`; `spent` (the call's rate-limit waits so far) grows by the wait. Throws
   * the final 'rate-limited' failure once the bound is used up.
   */
  async function waitOutRateLimit(
    failure: AttemptFailure,
    attemptNumber: number,
    spent: RateLimitSpent,
    signal?: AbortSignal,
  ): Promise<void> {
    const left = maxRateLimitWaitMs - spent.waitedMs;
    if (left <= 0) {
      const asked = failure.retryAfterMs !== undefined ? `; it asked to wait ${secondsText(failure.retryAfterMs)}` : '';
      throw new AttemptFailure(
        new LlmError(
          'rate-limited',
          `${failure.llmError.message}${asked}; gave up after waiting ${secondsText(spent.waitedMs)}, the most allowed (${secondsText(maxRateLimitWaitMs)})`,
          failure.llmError.details,
        ),
        false,
      );
    }
    const wanted = failure.retryAfterMs ?? Math.min(maxBackoffMs, minBackoffMs * 2 ** spent.retries);
    const waitMs = Math.min(wanted, maxRetryAfterMs, left);
    options.onRetry?.({
      attempt: attemptNumber,
      error: failure.llmError,
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
      waitMs,
      // If the server keeps asking this wait, the bound allows this many attempts in all.
      maxAttempts: attemptNumber + Math.ceil(left / Math.max(1, waitMs)),
      maxWaitMs: maxRateLimitWaitMs,
    });
    await abortableDelay(waitMs, signal);
    spent.waitedMs += waitMs;
    spent.retries += 1;
  }

  async function withRetries(request: LlmRequest, model: string): Promise<LlmReply> {
    let attempts = 0;
    const rateLimit: RateLimitSpent = { waitedMs: 0, retries: 0 };
    try {
      return await pRetry(
        () => {
          attempts += 1;
          return attempt(request, model);
        },
        {
          retries: options.retries ?? 3,
          factor: 2,
          minTimeout: minBackoffMs,
          maxTimeout: maxBackoffMs,
          randomize: true,
          ...(request.signal ? { signal: request.signal } : {}),
          shouldRetry: ({ error }) => error instanceof AttemptFailure && error.retryable,
          // A 429 is bounded by the time waited on it (`maxRateLimitWaitMs`), not by the count, and
          // its wait is the one `waitOutRateLimit` announced: p-retry adds no backoff to it.
          shouldConsumeRetry: ({ error }) => !isRateLimit(error),
          onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
            if (!(error instanceof AttemptFailure) || !error.retryable || retriesLeft === 0) return;
            if (isRateLimit(error)) {
              await waitOutRateLimit(error, attemptNumber, rateLimit, request.signal);
              return;
            }
            options.onRetry?.({ attempt: attemptNumber, error: error.llmError });
          },
        },
      );
    } catch (error) {
      if (request.signal?.aborted) throw abortedError();
      if (error instanceof AttemptFailure) {
        const { llmError } = error;
        if (attempts <= 1) throw llmError;
        throw new LlmError(llmError.code, `${llmError.message} (after ${attempts} attempts)`, llmError.details);
      }
      if (error instanceof LlmError) throw error;
      throw new LlmError('unreachable', `calling ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return {
    async complete(request: LlmRequest): Promise<LlmReply> {
      const model = request.model ?? options.models[request.role];
      if (!model) {
        throw new LlmError(
          'unavailable',
          `no model configured for the ${request.role} role at ${options.baseUrl} (pass --model ${request.role}=<model id>)`,
        );
      }
      throwIfAborted(request.signal);
      // The slot is held across retries on purpose: when the server is rate-limiting or failing,
      // queued calls should wait rather than pile on.
      return raceAbort(
        limit(() => withRetries(request, model)),
        request.signal,
      );
    },
  };
}

function requestBody(request: LlmRequest, model: string): Record<string, unknown> {
  return {
    model,
    messages: request.messages,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.jsonSchema
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: true },
          },
        }
      : {}),
  };
}

/** What one call has spent on 429s: time waited (ms) and retries made. */
interface RateLimitSpent {
  waitedMs: number;
  retries: number;
}

function isRateLimit(error: unknown): boolean {
  return error instanceof AttemptFailure && error.llmError.code === 'rate-limited';
}

function abortableDelay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
