/** The engine check: one short constrained-JSON call before a WebLLM run, its figures, and the status line. */
import { describe, expect, it } from 'vitest';
import {
  checkEngine,
  ENGINE_CHECK_MAX_TOKENS,
  ENGINE_CHECK_QUESTION,
  EngineCheckAnswerSchema,
  engineCheckText,
} from '../../../src/llm/engine-check';
import { LlmError, type LlmPort, type LlmReply, type LlmRequest, type LlmTiming } from '../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';

const MODEL = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';

/** A port that answers `replies` in order (an `LlmError` rejects) and records each request. */
function portAnswering(replies: Array<Partial<LlmReply> | LlmError>): LlmPort & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    requests,
    complete: async (request) => {
      requests.push(request);
      const next = replies[requests.length - 1];
      if (next === undefined) throw new Error(`no reply scripted for call ${requests.length}`);
      if (next instanceof LlmError) throw next;
      return { text: '', model: request.model ?? 'unknown', usage: { promptTokens: 0, completionTokens: 0 }, ...next };
    },
  };
}

/** A clock (ms) that answers `readings` in order. */
function clockReading(...readings: number[]): () => number {
  let index = 0;
  return () => {
    const reading = readings[Math.min(index, readings.length - 1)]!;
    index += 1;
    return reading;
  };
}

const TIMING: LlmTiming = { timeToFirstTokenSeconds: 0.42, prefillTokensPerSecond: 310.4, decodeTokensPerSecond: 41.2, totalSeconds: 0.9 };

describe('checkEngine', () => {
  it('asks the question at temperature 0 with at most 32 tokens and the two-word JSON schema', async () => {
    const port = portAnswering([{ text: '{"answer": "yes"}', usage: { promptTokens: 23, completionTokens: 8 } }]);
    await checkEngine(port, { model: MODEL, clock: clockReading(0, 1) });
    expect(port.requests).toHaveLength(1);
    const [request] = port.requests;
    expect(request).toMatchObject({
      role: 'proposer',
      model: MODEL,
      messages: [{ role: 'user', content: ENGINE_CHECK_QUESTION }],
      temperature: 0,
      maxTokens: 32,
    });
    expect(ENGINE_CHECK_MAX_TOKENS).toBe(32);
    expect(request!.jsonSchema?.schema).toMatchObject({
      type: 'object',
      properties: { answer: { enum: ['yes', 'no'] } },
      required: ['answer'],
      additionalProperties: false,
    });
  });

  it('returns the answer, the token counts, the seconds from the clock and the engine’s own timing', async () => {
    const port = portAnswering([{ text: '{"answer": "yes"}', usage: { promptTokens: 23, completionTokens: 8 }, timing: TIMING }]);
    expect(await checkEngine(port, { model: MODEL, clock: clockReading(1000, 3150) })).toEqual({
      model: MODEL,
      promptTokens: 23,
      completionTokens: 8,
      seconds: 2.15,
      timeToFirstTokenSeconds: 0.42,
      prefillTokensPerSecond: 310.4,
      decodeTokensPerSecond: 41.2,
      answer: 'yes',
      repaired: false,
    });
  });

  it('records a "no" without judging it, and leaves the speeds out when the engine does not time its calls', async () => {
    const checked = await checkEngine(portAnswering([{ text: '{"answer":"no"}', usage: { promptTokens: 20, completionTokens: 6 } }]), {
      model: MODEL,
      clock: clockReading(0, 500),
    });
    expect(checked).toEqual({ model: MODEL, promptTokens: 20, completionTokens: 6, seconds: 0.5, answer: 'no', repaired: false });
  });

  it('retries a reply that is not the schema once, and counts both calls’ tokens and time', async () => {
    const port = portAnswering([
      { text: 'Yes, copper is a metal.', usage: { promptTokens: 23, completionTokens: 7 }, timing: TIMING },
      { text: '{"answer":"yes"}', usage: { promptTokens: 60, completionTokens: 8 } },
    ]);
    const checked = await checkEngine(port, { model: MODEL, clock: clockReading(0, 4000) });
    expect(checked).toMatchObject({ answer: 'yes', repaired: true, promptTokens: 83, completionTokens: 15, seconds: 4 });
    // The retry shows the model its reply and asks again, with the same settings.
    expect(port.requests[1]).toMatchObject({ temperature: 0, maxTokens: 32, model: MODEL });
    expect(port.requests[1]!.messages.slice(0, 2)).toEqual([
      { role: 'user', content: ENGINE_CHECK_QUESTION },
      { role: 'assistant', content: 'Yes, copper is a metal.' },
    ]);
    // The untimed retry keeps the first call's figures rather than dropping them.
    expect(checked.decodeTokensPerSecond).toBe(41.2);
  });

  it('takes the timing of the last timed call', async () => {
    const later: LlmTiming = { ...TIMING, decodeTokensPerSecond: 3.2 };
    const port = portAnswering([
      { text: '{"answer":"maybe"}', timing: TIMING },
      { text: '{"answer":"no"}', timing: later },
    ]);
    expect((await checkEngine(port, { model: MODEL, clock: clockReading(0, 1) })).decodeTokensPerSecond).toBe(3.2);
  });

  it('rejects with malformed-output when the retry is not the schema either', async () => {
    const port = portAnswering([{ text: '{"answer": "yes", "why": "it conducts"}' }, { text: '{"answer": "perhaps"' }]);
    const error = await checkEngine(port, { model: MODEL, clock: clockReading(0, 1) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ code: 'malformed-output', details: { rawText: '{"answer": "perhaps"' } });
    expect(port.requests).toHaveLength(2);
  });

  it('rejects with aborted when the signal has fired, making no further call', async () => {
    const llm = createScriptedLlm({ respond: () => '{"answer":"yes"}' });
    const controller = new AbortController();
    controller.abort();
    await expect(checkEngine(llm, { model: MODEL, signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
    expect(llm.calls).toHaveLength(1);
  });

  it('passes the signal to the call, so a Stop mid-call ends the check', async () => {
    const llm = createScriptedLlm({ respond: () => '{"answer":"yes"}', delayMs: 10_000 });
    const controller = new AbortController();
    const checked = checkEngine(llm, { model: MODEL, signal: controller.signal });
    controller.abort();
    await expect(checked).rejects.toMatchObject({ code: 'aborted' });
  });

  it('passes the engine’s own errors through unchanged', async () => {
    const lost = new LlmError('device-lost', 'The GPU device was lost.');
    await expect(checkEngine(portAnswering([lost]), { model: MODEL, clock: clockReading(0) })).rejects.toBe(lost);
  });

  it('accepts exactly the two answers', () => {
    expect(EngineCheckAnswerSchema.safeParse({ answer: 'yes' }).success).toBe(true);
    expect(EngineCheckAnswerSchema.safeParse({ answer: 'Yes' }).success).toBe(false);
    expect(EngineCheckAnswerSchema.safeParse({ answer: 'no', because: 'x' }).success).toBe(false);
  });
});

describe('engineCheckText', () => {
  it('gives the model and the seconds alone when the engine did not time the call', () => {
    expect(engineCheckText({ model: MODEL, seconds: 2.14 })).toBe(`Engine check passed on ${MODEL} in 2.1 s.`);
  });

  it('adds the first token, prefill and decode speeds when it did', () => {
    expect(
      engineCheckText({
        model: MODEL,
        seconds: 2.1,
        timeToFirstTokenSeconds: 0.42,
        prefillTokensPerSecond: 310.4,
        decodeTokensPerSecond: 41.2,
      }),
    ).toBe(`Engine check passed on ${MODEL} in 2.1 s: first token after 0.4 s, prefill 310 tokens/s, decode 41 tokens/s.`);
  });

  it('leaves the speeds out when one of them is missing', () => {
    expect(engineCheckText({ model: MODEL, seconds: 2.1, timeToFirstTokenSeconds: 0.42, prefillTokensPerSecond: 310.4 })).toBe(
      `Engine check passed on ${MODEL} in 2.1 s.`,
    );
  });

  it.each([
    [0.1149, '0.11'],
    [3.24, '3.2'],
    [9.4, '9.4'],
    [41.2, '41'],
    [1234.5, '1235'],
  ])('writes %f tokens/s as %s (two significant digits below 10, whole numbers above)', (rate, written) => {
    const text = engineCheckText({
      model: MODEL,
      seconds: 75.3,
      timeToFirstTokenSeconds: 61.04,
      prefillTokensPerSecond: rate,
      decodeTokensPerSecond: rate,
    });
    expect(text).toBe(
      `Engine check passed on ${MODEL} in 75.3 s: first token after 61.0 s, prefill ${written} tokens/s, decode ${written} tokens/s.`,
    );
  });
});
