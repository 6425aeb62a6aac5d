/**
 * `generateObject`: one model call whose reply must be JSON matching a zod schema (the pattern of
 * the Vercel AI SDK's `generateObject`, STYLE.md). Parse → validate → at most ONE repair call →
 * typed `LlmError('malformed-output')` carrying the raw text and the usage of both calls.
 */
import { z } from 'zod';
import { extractJson } from './json-extract';
import { LlmError, type ChatMessage, type LlmPort, type LlmRequest, type LlmUsage } from './llm-port';

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
 * - The reply may be bare JSON, a fenced ```json block, or JSON after/before prose
 *   (`extractJson`); nothing is silently repaired.
 * - On a parse or validation failure: one repair call with the same role/model/settings, whose
 *   messages are the original ones + the bad reply (assistant) + a user message naming the
 *   problems and asking for corrected JSON only.
 * - Still failing: rejects with `LlmError('malformed-output', message, { rawText: <last reply>,
 *   usage: <summed> })`. Errors from `llm.complete` (aborted, unreachable, …) propagate unchanged.
 */
export async function generateObject<T>(llm: LlmPort, request: LlmRequest, schema: z.ZodType<T>): Promise<GeneratedObject<T>> {
  const jsonSchema = request.jsonSchema ?? jsonSchemaFor(schema);
  const firstRequest: LlmRequest = jsonSchema ? { ...request, jsonSchema } : request;
  const first = await llm.complete(firstRequest);
  const firstOutcome = parseReply(first.text, schema);
  if (firstOutcome.ok) return { value: firstOutcome.value, usage: first.usage, rawText: first.text, repaired: false };

  const repairMessages: ChatMessage[] = [
    ...request.messages,
    { role: 'assistant', content: first.text },
    { role: 'user', content: repairInstruction(firstOutcome.problems) },
  ];
  const second = await llm.complete({ ...firstRequest, messages: repairMessages });
  const usage = sumUsage(first.usage, second.usage);
  const secondOutcome = parseReply(second.text, schema);
  if (secondOutcome.ok) return { value: secondOutcome.value, usage, rawText: second.text, repaired: true };

  throw new LlmError(
    'malformed-output',
    `the ${request.role} model's reply did not match the expected JSON after one repair attempt: ${secondOutcome.problems.join('; ')}`,
    { rawText: second.text, usage },
  );
}

type ParseOutcome<T> = { ok: true; value: T } | { ok: false; problems: string[] };

function parseReply<T>(text: string, schema: z.ZodType<T>): ParseOutcome<T> {
  const extracted = extractJson(text);
  if (!extracted.ok) return { ok: false, problems: [extracted.problem] };
  const parsed = schema.safeParse(extracted.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`),
  };
}

function repairInstruction(problems: string[]): string {
  return [
    'Your previous reply could not be used:',
    ...problems.map((problem) => `- ${problem}`),
    'Reply again with the corrected JSON only: no prose, no code fences, no comments, no trailing commas.',
  ].join('\n');
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
