/**
 * `LlmPort`: the one model interface every SLM-MATRIX path depends on (DESIGN.md "Engines"): an
 * OpenAI chat-completions subset. Adapters (WebLLM in the extension, OpenAI-compatible HTTP
 * for the CLI and labs, scripted for tests) implement it; `src/matrix/` sees nothing else.
 * Errors cross boundaries as `LlmError` values with a code, never as bare strings.
 */
import type { LlmErrorCode, ModelRole } from '../contracts/llm';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmRequest {
  /** Which role asks; the roster maps it to a model unless `model` is given. */
  role: ModelRole;
  /** Model id for this call (e.g. "Qwen2.5-1.5B-Instruct-q4f16_1-MLC"); overrides the roster. */
  model?: string;
  messages: ChatMessage[];
  /** Sampling temperature; the paper's preset uses 0.7. */
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  /** JSON Schema the reply must follow (constrained output where the engine supports it). */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  signal?: AbortSignal;
}

/** Token counts of one call, as the engine reports them (or as a tokenizer counted them). */
export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
}

/** How long a call took, as an engine that measures it reports (WebLLM's `usage.extra`). Seconds and tokens per second. */
export interface LlmTiming {
  /** Prefill time: from the request to the first generated token. */
  timeToFirstTokenSeconds: number;
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
  /** The whole call, end to end. */
  totalSeconds: number;
}

export interface LlmReply {
  text: string;
  model: string;
  usage: LlmUsage;
  finishReason?: string;
  /** Set by engines that time their own calls (WebLLM). */
  timing?: LlmTiming;
  /**
   * The base URL of the server that answered, set by a pool of several servers
   * (src/llm/server-pool.ts) so the run record can say which one answered each call.
   */
  server?: string;
}

export interface LlmPort {
  /** One chat completion. Rejects with `LlmError` (never a bare Error) on failure or abort. */
  complete(request: LlmRequest): Promise<LlmReply>;
}

/** What an `LlmError` carries besides its code and message. */
export interface LlmErrorDetails {
  rawText?: string;
  usage?: LlmUsage;
  /** The HTTP status, for errors from an HTTP engine. */
  status?: number;
  /** The server's Retry-After in ms, for a 429 that sent one. */
  retryAfterMs?: number;
  /** The base URL of the server the call failed on (set by a server pool). */
  server?: string;
}

/** A model failure in words, with its code, the raw reply text where there was one, and usage so far. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly details: LlmErrorDetails = {},
  ) {
    super(message);
  }

  toJSON(): { code: LlmErrorCode; message: string; rawText?: string } {
    return { code: this.code, message: this.message, ...(this.details.rawText !== undefined ? { rawText: this.details.rawText } : {}) };
  }
}

/**
 * `error` as an `LlmError`: itself when it is one, else `unavailable` with its message (prefixed
 * by `context` when given). For adapters and hosts that catch whatever a library throws.
 */
export function toLlmError(error: unknown, context?: string): LlmError {
  if (error instanceof LlmError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError('unavailable', context ? `${context}: ${message}` : message);
}
