/**
 * `generateObject`: one model call whose reply must be JSON matching a zod schema (the pattern of
 * the Vercel AI SDK's `generateObject`, STYLE.md). Parse → validate → at most ONE retry → a typed
 * `LlmError` carrying the raw text and the usage of both calls, its code saying why
 * (src/llm/reply-defects.ts): `truncated-output` (ran past max_tokens), `repetitive-output` (a
 * repetition loop), `malformed-output` (JSON that never closed, did not parse, or did not match).
 */
import { z } from 'zod';
import { LlmError, type LlmPort, type LlmRequest, type LlmUsage } from './llm-port';
import { defectCode, defectMessage, readReply, retryMessages } from './reply-defects';
import { maxTokensForSchema } from './schema-token-bound';
import type { LlmErrorCode } from '../contracts/llm';

export interface GeneratedObject<T> {
  value: T;
  /** Summed over the first call and the repair call, if one was made. */
  usage: LlmUsage;
  /** The reply text the value was parsed from (the repair reply when `repaired`). */
  rawText: string;
  repaired: boolean;
}

/**
 * Ask `llm` for a JSON value matching `schema`.
 *
 * - `request.jsonSchema` is passed through; when absent it is built from `schema` with zod 4's
 *   `z.toJSONSchema` (named "reply"), so engines with constrained decoding can enforce it.
 * - A request with no max_tokens gets the schema's bound (`maxTokensForSchema`, when the schema
 *   has one), so a model looping inside a string or a list on an engine whose grammar ignores
 *   `maxLength`/`maxItems` (WebLLM 0.2.79), or on a server whose default runs to the end of the
 *   context, stops once the reply is longer than a valid one should be. A max_tokens the caller
 *   set is kept as it is: grammars that allow any whitespace (WebLLM's XGrammar) make the bound a
 *   rule of thumb, not a proof, and a caller's budget may allow for its grammar's layout (the
 *   engine check's 32 tokens, src/llm/engine-check.ts).
 * - The reply may be bare JSON, a fenced ```json block, or JSON after/before prose
 *   (`extractJson`); nothing is silently repaired. A reply that parses and validates is used
 *   whatever its finish reason.
 * - An unusable reply is classified (`readReply`: a repetition loop, cut at max_tokens, JSON left
 *   open, invalid) and retried ONCE with the same role/model/settings and max_tokens
 *   (`retryMessages`: invalid or open JSON → the original messages + the bad reply + its problems;
 *   cut or looping → the original messages with a note asking for a short, complete reply).
 * - Still failing: rejects with `LlmError(code, message, { rawText: <last reply>, usage: <summed> })`,
 *   the code by the retry's defect (`truncated-output`, `repetitive-output`, `malformed-output`) and
 *   the message naming both tries' defects (`defectMessage`). So a request costs at most 2 calls.
 *   Errors from `llm.complete` (aborted, unreachable, …) propagate unchanged.
 */
export async function generateObject<T>(llm: LlmPort, request: LlmRequest, schema: z.ZodType<T>): Promise<GeneratedObject<T>> {
  const jsonSchema = request.jsonSchema ?? jsonSchemaFor(schema);
  const maxTokens = boundedMaxTokens(request.maxTokens, jsonSchema);
  const firstRequest: LlmRequest = {
    ...request,
    ...(jsonSchema ? { jsonSchema } : {}),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  };
  const first = await llm.complete(firstRequest);
  const firstOutcome = readReply(first, schema, maxTokens);
  if (firstOutcome.ok) return { value: firstOutcome.value, usage: first.usage, rawText: first.text, repaired: false };

  const second = await llm.complete({ ...firstRequest, messages: retryMessages(firstRequest, first.text, firstOutcome.defect) });
  const usage = sumUsage(first.usage, second.usage);
  const secondOutcome = readReply(second, schema, maxTokens);
  if (secondOutcome.ok) return { value: secondOutcome.value, usage, rawText: second.text, repaired: true };

  throw new LlmError(defectCode(secondOutcome.defect), defectMessage(request.role, firstOutcome.defect, secondOutcome.defect), {
    rawText: second.text,
    usage,
  });
}

/** `requested` when set, else the schema's token bound; undefined when neither is there. */
function boundedMaxTokens(requested: number | undefined, jsonSchema: LlmRequest['jsonSchema']): number | undefined {
  if (requested !== undefined || !jsonSchema) return requested;
  return maxTokensForSchema(jsonSchema.schema) ?? undefined;
}

/** The codes `generateObject` rejects with when the model answered but its replies stayed unusable. */
export const UNUSABLE_REPLY_CODES: readonly LlmErrorCode[] = ['malformed-output', 'truncated-output', 'repetitive-output'];

/**
 * True when `error` is `generateObject`'s verdict on the replies (`UNUSABLE_REPLY_CODES`): the
 * engine works, this one request failed, and a pipeline stage may go on without it. False for
 * engine-level errors (aborted, device-lost, unreachable, …), which should stop a run.
 */
export function isUnusableReply(error: unknown): error is LlmError {
  return error instanceof LlmError && UNUSABLE_REPLY_CODES.includes(error.code);
}

/** An unusable reply's code and message, as a run records it. */
export interface ReplyFailure {
  code: LlmErrorCode;
  message: string;
}

/** `error`'s code and message (`ReplyFailure`). */
export function replyFailure(error: LlmError): ReplyFailure {
  return { code: error.code, message: error.message };
}

/**
 * The JSON Schema of `schema` for constrained decoding, without the `$schema` key (some
 * OpenAI-compatible servers reject unknown top-level keys). Types JSON Schema cannot express
 * (dates, transforms) become `{}`; if conversion still fails, no schema is sent and validation
 * relies on zod alone.
 */
export function jsonSchemaFor(schema: z.ZodType): LlmRequest['jsonSchema'] {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
    return { name: 'reply', schema: rest };
  } catch {
    return undefined;
  }
}

export function sumUsage(...usages: LlmUsage[]): LlmUsage {
  return usages.reduce(
    (total, usage) => ({
      promptTokens: total.promptTokens + usage.promptTokens,
      completionTokens: total.completionTokens + usage.completionTokens,
    }),
    { promptTokens: 0, completionTokens: 0 },
  );
}
