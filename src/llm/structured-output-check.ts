/**
 * Does the server follow a JSON schema? (issue 29, structured output per server.) Every family
 * Assay tells apart takes the OpenAI form Assay sends — `response_format: { type: "json_schema",
 * json_schema: { name, schema, strict } }` on /v1/chat/completions: vLLM and LM Studio natively,
 * llama.cpp's server by turning the schema into a grammar, Ollama since its structured outputs
 * (0.5) by mapping it to its own `format` — so Assay sends that one form to every server and checks
 * at "Test connection", with one call, that the server honours it. A server that ignores it
 * answers in prose; the run then relies on repair (`generateObject`'s one retry), as before, and
 * the reader is told so.
 */
import { ENGINE_CHECK_MAX_TOKENS, ENGINE_CHECK_QUESTION, EngineCheckAnswerSchema } from './engine-check';
import { jsonSchemaFor } from './generate-object';
import type { LlmPort } from './llm-port';

/** The check's outcome: whether the first reply already followed the schema, and the sentence for the reader. */
export interface StructuredOutputCheck {
  follows: boolean;
  text: string;
}

/**
 * One call to `model` through `llm` (no repair, no retry): the engine check's yes/no question
 * with its two-choice schema. → `follows: true` when the reply text is JSON matching the schema
 * exactly, else false with the start of what came back. Rejects with the call's `LlmError`.
 */
export async function checkStructuredOutput(llm: LlmPort, model: string, signal?: AbortSignal): Promise<StructuredOutputCheck> {
  const reply = await llm.complete({
    role: 'proposer',
    model,
    messages: [{ role: 'user', content: ENGINE_CHECK_QUESTION }],
    temperature: 0,
    maxTokens: ENGINE_CHECK_MAX_TOKENS,
    jsonSchema: jsonSchemaFor(EngineCheckAnswerSchema)!,
    ...(signal ? { signal } : {}),
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.text);
  } catch {
    parsed = undefined;
  }
  if (EngineCheckAnswerSchema.safeParse(parsed).success)
    return { follows: true, text: `Structured output: ${model} answered in the JSON schema asked (response_format json_schema).` };
  const shown = reply.text.trim().replace(/\s+/g, ' ');
  return {
    follows: false,
    text: `Structured output: the server ignored the JSON schema and answered “${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}”, so Assay will repair replies that do not parse (one more call each). A server that follows response_format json_schema (vLLM, LM Studio, llama.cpp's server, Ollama 0.5 or later) saves those calls.`,
  };
}
