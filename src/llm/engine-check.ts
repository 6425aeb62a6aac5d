/**
 * The engine check: one short model call before a WebLLM run's real work. WebLLM downloads,
 * compiles and runs a model on the reader's GPU, where anything can go wrong (a model library
 * built for another runtime, a driver that computes garbage, a software adapter 100× slower than
 * a GPU). One call with a tiny prompt and a two-choice JSON schema shows, in seconds on a real
 * GPU, that the model loads, generates and closes constrained JSON, and measures the runtime
 * (time to first token, prefill and decode tokens per second) before a run spends dozens of calls.
 *
 * The answer itself is recorded, not judged: a model that answers "no" still runs (the run's own
 * checks judge its facts); a model that cannot produce the JSON at all fails the check.
 */
import { z } from 'zod';
import type { EngineCheck } from '../contracts/run-record';
import { generateObject } from './generate-object';
import type { LlmPort, LlmTiming } from './llm-port';

/** The check's answer: one of two words. Every JSON-schema runtime can close it in a few tokens. */
export const EngineCheckAnswerSchema = z.object({ answer: z.enum(['yes', 'no']) }).strict();

/** The question (short: on a software adapter every prompt token costs about a second). */
export const ENGINE_CHECK_QUESTION = 'Is copper a metal? Answer yes or no.';

/**
 * Tokens the reply may take: `{"answer": "yes"}` is about 8 tokens in the Qwen, Llama and Gemma
 * tokenizers, and a grammar that lays the JSON out with newlines and indentation (XGrammar's
 * default) adds about 4; 32 leaves room for a tokenizer that spells it character by character
 * while still bounding a model that never closes it.
 */
export const ENGINE_CHECK_MAX_TOKENS = 32;

/**
 * Ask `model` the check question through `llm` (any `LlmPort`; the run passes its metered port,
 * so the check's tokens and time land in the run's usage). Temperature 0; at most one retry
 * (`generateObject`'s repair). `clock` gives ms (default `performance.now`).
 * → the check's figures without `loadSeconds`/`gpuMemoryMB` (the engine adds those). Rejects with
 * the call's `LlmError` (`aborted`, `malformed-output` after the retry, the engine's own codes).
 */
export async function checkEngine(
  llm: LlmPort,
  options: { model: string; signal?: AbortSignal; clock?: () => number },
): Promise<Omit<EngineCheck, 'loadSeconds' | 'gpuMemoryMB'>> {
  const clock = options.clock ?? (() => performance.now());
  let timing: LlmTiming | undefined;
  const timed: LlmPort = {
    complete: async (request) => {
      const reply = await llm.complete(request);
      timing = reply.timing ?? timing;
      return reply;
    },
  };
  const started = clock();
  const result = await generateObject(
    timed,
    {
      role: 'proposer',
      model: options.model,
      messages: [{ role: 'user', content: ENGINE_CHECK_QUESTION }],
      temperature: 0,
      maxTokens: ENGINE_CHECK_MAX_TOKENS,
      ...(options.signal ? { signal: options.signal } : {}),
    },
    EngineCheckAnswerSchema,
  );
  return {
    model: options.model,
    promptTokens: result.usage.promptTokens,
    completionTokens: result.usage.completionTokens,
    seconds: (clock() - started) / 1000,
    ...(timing
      ? {
          timeToFirstTokenSeconds: timing.timeToFirstTokenSeconds,
          prefillTokensPerSecond: timing.prefillTokensPerSecond,
          decodeTokensPerSecond: timing.decodeTokensPerSecond,
        }
      : {}),
    answer: result.value.answer,
    repaired: result.repaired,
  };
}

/** Tokens per second with two significant digits ("0.11", "3.2", "41"). */
function rate(tokensPerSecond: number): string {
  return tokensPerSecond >= 10 ? tokensPerSecond.toFixed(0) : tokensPerSecond.toPrecision(2);
}

/**
 * The check's result in one sentence for the run's status line, e.g. "Engine check passed on
 * Qwen2.5-0.5B-Instruct-q4f32_1-MLC in 2.1 s: first token after 0.4 s, prefill 310 tokens/s,
 * decode 41 tokens/s." (speeds only when the engine timed the call).
 */
export function engineCheckText(
  check: Pick<EngineCheck, 'model' | 'seconds' | 'timeToFirstTokenSeconds' | 'prefillTokensPerSecond' | 'decodeTokensPerSecond'>,
): string {
  const speeds =
    check.timeToFirstTokenSeconds !== undefined && check.prefillTokensPerSecond !== undefined && check.decodeTokensPerSecond !== undefined
      ? `: first token after ${check.timeToFirstTokenSeconds.toFixed(1)} s, prefill ${rate(check.prefillTokensPerSecond)} tokens/s, decode ${rate(check.decodeTokensPerSecond)} tokens/s`
      : '';
  return `Engine check passed on ${check.model} in ${check.seconds.toFixed(1)} s${speeds}.`;
}
