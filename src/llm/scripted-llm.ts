/**
 * The scripted engine: an `LlmPort` for tests and `--engine scripted`. Replies come from a script
 * (per-role lists, a function, or recorded replies keyed by a hash of the messages); every call is
 * recorded so tests can assert what the pipeline asked. No module-level state: each
 * `createScriptedLlm` owns its counters.
 */
import { throwIfAborted } from './abort';
import { LlmError, type ChatMessage, type LlmPort, type LlmReply, type LlmRequest } from './llm-port';
import { approximateTokenCount } from './token-estimate';
import type { ModelRole } from '../contracts/llm';

/**
 * A scripted reply: the text the model "says" (finish reason "stop"), the text with the finish
 * reason the engine reports (e.g. `{ text, finishReason: 'length' }` for a reply cut at
 * max_tokens), or an error the call rejects with.
 */
export type ScriptedReply = string | { text: string; finishReason: string } | LlmError;

export interface LlmScript {
  /** Replies per role, consumed in order (the k-th proposer call gets `replies.proposer[k]`). */
  replies?: Partial<Record<ModelRole, ScriptedReply[]>>;
  /** Fallback when the role's list is exhausted or absent; `callIndex` counts all calls from 0. */
  respond?: (request: LlmRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>;
  /** Recorded replies keyed by `hashMessages(request.messages)`; checked before `replies`. */
  recorded?: Record<string, string>;
  /**
   * Replies by the request's `jsonSchema.name`, for every call that names one (e.g. the
   * "verification_answers" of Chain-of-Verification, asked of the discriminator role); checked
   * after `recorded` and before `replies`, so such calls take nothing from the role's list.
   */
  bySchema?: Record<string, ScriptedReply>;
  /** Reject call number `callIndex` (0-based, over all roles) with this error, e.g. device-lost. */
  failAt?: Record<number, LlmError>;
  /** Model id reported in replies when the request names none; default "scripted". */
  model?: string;
  /** Pretend each call takes this long (ms), so tests can abort mid-call; default 0. */
  delayMs?: number;
  /**
   * Act as an engine does at max_tokens: a reply longer than `request.maxTokens` tokens (by
   * `countTokens`) is cut to its longest prefix within them, with finish reason "length". Off by
   * default (a script's reply is sent whole).
   */
  cutAtMaxTokens?: boolean;
  /**
   * Token count of `text` for `model` (the reply's model id), e.g. a real tokenizer's
   * `countText`; default `approximateTokenCount` (ceil(chars / 4)).
   */
  countTokens?: (text: string, model: string) => number;
}

export interface RecordedCall {
  index: number;
  /** The request without its AbortSignal (plain data, safe to snapshot). */
  request: Omit<LlmRequest, 'signal'>;
  reply?: LlmReply;
  error?: LlmError;
}

/**
 * Build a scripted engine. Reply selection for call `i`, first match wins:
 * `failAt[i]` → `recorded[hashMessages(messages)]` → `bySchema[jsonSchema.name]` → next unused
 * `replies[role]` → `respond(request, i)`
 * → `LlmError('unavailable')` naming the call. Usage is `script.countTokens` (default
 * `approximateTokenCount`, ceil(chars/4): an approximation, but deterministic) of the message
 * contents joined with "\n" (prompt; no chat template) and of the reply (completion). The finish
 * reason is "stop" unless the reply names one or `cutAtMaxTokens` cut it ("length"). An aborted
 * `signal` (before or during `delayMs`) rejects with `LlmError('aborted')`.
 */
export function createScriptedLlm(script: LlmScript): LlmPort & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const consumedPerRole = new Map<ModelRole, number>();

  async function choose(request: LlmRequest, index: number): Promise<ScriptedReply> {
    const injected = script.failAt?.[index];
    if (injected) return injected;
    const recorded = script.recorded?.[hashMessages(request.messages)];
    if (recorded !== undefined) return recorded;
    const bySchema = request.jsonSchema ? script.bySchema?.[request.jsonSchema.name] : undefined;
    if (bySchema !== undefined) return bySchema;
    const list = script.replies?.[request.role];
    const consumed = consumedPerRole.get(request.role) ?? 0;
    if (list && consumed < list.length) {
      consumedPerRole.set(request.role, consumed + 1);
      return list[consumed] as ScriptedReply;
    }
    if (script.respond) return script.respond(request, index);
    return new LlmError(
      'unavailable',
      `the scripted engine has no reply for call ${index} (role ${request.role}, ${consumed} scripted replies used)`,
    );
  }

  async function complete(request: LlmRequest): Promise<LlmReply> {
    const index = calls.length;
    const { signal, ...plainRequest } = request;
    const call: RecordedCall = { index, request: plainRequest };
    calls.push(call);
    try {
      throwIfAborted(signal);
      if (script.delayMs) await abortableDelay(script.delayMs, signal);
      const chosen = await choose(request, index);
      throwIfAborted(signal);
      if (chosen instanceof LlmError) throw chosen;
      const model = request.model ?? script.model ?? 'scripted';
      const count = script.countTokens ?? approximateTokenCount;
      let { text, finishReason } = typeof chosen === 'string' ? { text: chosen, finishReason: 'stop' } : chosen;
      if (script.cutAtMaxTokens && request.maxTokens !== undefined && count(text, model) > request.maxTokens) {
        text = longestPrefixWithin(text, request.maxTokens, (prefix) => count(prefix, model));
        finishReason = 'length';
      }
      const reply: LlmReply = {
        text,
        model,
        usage: {
          promptTokens: count(request.messages.map((message) => message.content).join('\n'), model),
          completionTokens: count(text, model),
        },
        finishReason,
      };
      call.reply = reply;
      return reply;
    } catch (error) {
      const llmError = error instanceof LlmError ? error : new LlmError('unavailable', `scripted reply failed: ${String(error)}`);
      call.error = llmError;
      throw llmError;
    }
  }

  return { complete, calls };
}

/**
 * A stable key for a conversation: cyrb53 (a 53-bit non-cryptographic string hash) of the
 * messages' roles and contents, as 14 hex digits. Used to key recorded replies; collisions are
 * irrelevant at test-fixture scale and it needs no `node:crypto`, so it runs in the extension too.
 */
export function hashMessages(messages: ChatMessage[]): string {
  const text = JSON.stringify(messages.map((message) => [message.role, message.content]));
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/** The longest prefix of `text` that `count` puts at no more than `tokens` (binary search; counts grow with length). */
function longestPrefixWithin(text: string, tokens: number, count: (prefix: string) => number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (count(text.slice(0, middle)) <= tokens) low = middle;
    else high = middle - 1;
  }
  return text.slice(0, low);
}

function abortableDelay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new LlmError('aborted', 'the call was cancelled'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
