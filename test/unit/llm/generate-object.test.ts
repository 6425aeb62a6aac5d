import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateObject, isUnusableReply, jsonSchemaFor } from '../../../src/llm/generate-object';
import { extractJson } from '../../../src/llm/json-extract';
import { LlmError, type LlmRequest } from '../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';

const TripletsSchema = z.object({ triplets: z.array(z.object({ material: z.string(), value: z.number(), unit: z.string() })) });
const request: LlmRequest = { role: 'proposer', messages: [{ role: 'user', content: 'Extract band gaps.' }] };
const good = '{"triplets":[{"material":"GaN","value":3.4,"unit":"eV"}]}';

describe('extractJson', () => {
  it('reads bare JSON, fenced blocks and JSON after prose', () => {
    expect(extractJson(good)).toEqual({ ok: true, value: JSON.parse(good) });
    expect(extractJson('Here you go:\n```json\n' + good + '\n```\nHope it helps')).toEqual({ ok: true, value: JSON.parse(good) });
    expect(extractJson('The answer is ' + good + ' as requested.')).toEqual({ ok: true, value: JSON.parse(good) });
    expect(extractJson('prose with a {brace} then ' + good)).toEqual({ ok: true, value: JSON.parse(good) });
  });

  it('does not silently fix trailing commas, nor fall back to a nested object', () => {
    expect(extractJson('{"a": 1,}').ok).toBe(false);
    expect(extractJson('{"outer": {"inner": 1}, }').ok).toBe(false);
    expect(extractJson('').ok).toBe(false);
  });
});

describe('generateObject', () => {
  it('returns a valid reply unrepaired, passing a JSON schema built from zod', async () => {
    const llm = createScriptedLlm({ replies: { proposer: [good] } });
    const result = await generateObject(llm, request, TripletsSchema);
    expect(result).toMatchObject({ value: { triplets: [{ material: 'GaN', value: 3.4, unit: 'eV' }] }, repaired: false, rawText: good });
    expect(llm.calls).toHaveLength(1);
    const sent = llm.calls[0]!.request.jsonSchema!;
    expect(sent.name).toBe('reply');
    expect(sent.schema).toMatchObject({ type: 'object', required: ['triplets'] });
    expect(sent.schema).not.toHaveProperty('$schema');
  });

  it('keeps a caller-supplied JSON schema', async () => {
    const llm = createScriptedLlm({ replies: { proposer: [good] } });
    const jsonSchema = { name: 'triplets', schema: { type: 'object' } };
    await generateObject(llm, { ...request, jsonSchema }, TripletsSchema);
    expect(llm.calls[0]!.request.jsonSchema).toEqual(jsonSchema);
  });

  it('accepts a fenced ```json reply', async () => {
    const llm = createScriptedLlm({ replies: { proposer: ['Sure!\n```json\n' + good + '\n```'] } });
    const result = await generateObject(llm, request, TripletsSchema);
    expect(result.value.triplets[0]!.material).toBe('GaN');
    expect(result.repaired).toBe(false);
  });

  it('repairs a malformed reply with one call that names the problem, summing usage', async () => {
    const bad = '{"triplets":[{"material":"GaN","value":"3.4 eV","unit":"eV"}]}';
    const llm = createScriptedLlm({ replies: { proposer: [bad, good] } });
    const result = await generateObject(llm, request, TripletsSchema);
    expect(result.repaired).toBe(true);
    expect(result.value.triplets[0]!.value).toBe(3.4);
    expect(llm.calls).toHaveLength(2);
    const repairMessages = llm.calls[1]!.request.messages;
    expect(repairMessages.slice(0, 2)).toEqual([request.messages[0], { role: 'assistant', content: bad }]);
    expect(repairMessages[2]!.role).toBe('user');
    expect(repairMessages[2]!.content).toContain('triplets.0.value');
    expect(repairMessages[2]!.content).toContain('JSON only');
    expect(llm.calls[1]!.request.role).toBe('proposer');
    const firstUsage = llm.calls[0]!.reply!.usage;
    const secondUsage = llm.calls[1]!.reply!.usage;
    expect(result.usage).toEqual({
      promptTokens: firstUsage.promptTokens + secondUsage.promptTokens,
      completionTokens: firstUsage.completionTokens + secondUsage.completionTokens,
    });
    // By hand: prompt "Extract band gaps." = 18 chars → ceil(18/4) = 5 tokens on the first call.
    expect(firstUsage.promptTokens).toBe(5);
  });

  it('repairs a trailing comma rather than fixing it silently', async () => {
    const llm = createScriptedLlm({ replies: { proposer: ['{"triplets":[],}', '{"triplets":[]}'] } });
    const result = await generateObject(llm, request, TripletsSchema);
    expect(result).toMatchObject({ value: { triplets: [] }, repaired: true });
  });

  it('throws malformed-output with the raw text and summed usage after a failed repair', async () => {
    const llm = createScriptedLlm({ replies: { proposer: ['I think GaN has 3.4 eV', 'Still prose, sorry'] } });
    const error = await generateObject(llm, request, TripletsSchema).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LlmError);
    const llmError = error as LlmError;
    expect(llmError.code).toBe('malformed-output');
    expect(llmError.details.rawText).toBe('Still prose, sorry');
    const usages = llm.calls.map((call) => call.reply!.usage);
    expect(llmError.details.usage).toEqual({
      promptTokens: usages[0]!.promptTokens + usages[1]!.promptTokens,
      completionTokens: usages[0]!.completionTokens + usages[1]!.completionTokens,
    });
    expect(llm.calls).toHaveLength(2);
  });

  it('retries a reply cut at max_tokens once, then throws truncated-output with words a reader can act on', async () => {
    const cut = { text: '{"triplets":[{"material":"GaN","value":3.4,"unit":"e', finishReason: 'length' };
    const llm = createScriptedLlm({ replies: { proposer: [cut, cut, good] } });
    const error = await generateObject(llm, { ...request, maxTokens: 64 }, TripletsSchema).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({
      code: 'truncated-output',
      message:
        "the proposer model's reply ran past its 64-token limit before the JSON closed, on the first try and on its one retry; a larger max_tokens, fewer facts per call or another model may help",
      details: { rawText: cut.text },
    });
    expect(isUnusableReply(error)).toBe(true);
    // One retry, not more: the third scripted reply (a good one) was never asked for.
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls.map((call) => call.request.maxTokens)).toEqual([64, 64]);
  });

  it('retries a looping reply once without sending the loop back, then throws repetitive-output', async () => {
    const loop = '{"triplets":[{"material":"' + 'GaN '.repeat(80);
    const llm = createScriptedLlm({ replies: { proposer: [loop, loop] } });
    const error = await generateObject(llm, request, TripletsSchema).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'repetitive-output',
      message: expect.stringContaining('fell into a repetition loop ("GaN " 80 times over'),
    });
    const retry = llm.calls[1]!.request.messages;
    expect(retry).toHaveLength(1);
    expect(retry[0]!.content).toMatch(/^Extract band gaps\.\n\nNote: an earlier reply to this request repeated "GaN "/);
  });

  it('uses the retry when it succeeds after a cut reply', async () => {
    const cut = { text: '{"triplets":[{"material":"GaN","val', finishReason: 'length' };
    const llm = createScriptedLlm({ replies: { proposer: [cut, good] } });
    const result = await generateObject(llm, { ...request, maxTokens: 64 }, TripletsSchema);
    expect(result).toMatchObject({ value: { triplets: [{ material: 'GaN' }] }, repaired: true, rawText: good });
    expect(llm.calls[1]!.request.messages[0]!.content).toContain('ran past its 64-token limit');
  });

  it('calls JSON that the model left open malformed-output after the one repair', async () => {
    const open = '{"triplets":[{"material":"GaN"';
    const llm = createScriptedLlm({ replies: { proposer: [open, open] } });
    await expect(generateObject(llm, request, TripletsSchema)).rejects.toMatchObject({
      code: 'malformed-output',
      message:
        "the proposer model's reply did not match the expected JSON after one repair attempt: the reply ended with its JSON still open (3 brackets unclosed)",
    });
  });

  it("gives a request with no max_tokens the schema's token bound (maxTokensForSchema), and keeps one the caller set", async () => {
    const Short = z.object({ answer: z.enum(['yes', 'no']) });
    // {"answer":"yes"}: 16 characters, + 1 for the comma the bound counts after every member,
    // + 2 values × 2 whitespace tokens + 1 end token = 22.
    for (const [maxTokens, sent] of [
      [undefined, 22],
      [32, 32],
      [8, 8],
    ] as const) {
      const llm = createScriptedLlm({ replies: { proposer: ['{"answer":"yes"}'] } });
      await generateObject(llm, { ...request, ...(maxTokens === undefined ? {} : { maxTokens }) }, Short);
      expect(llm.calls[0]!.request.maxTokens).toBe(sent);
    }
    // An unbounded schema (strings with no maxLength) leaves the request without one.
    const llm = createScriptedLlm({ replies: { proposer: [good] } });
    await generateObject(llm, request, TripletsSchema);
    expect(llm.calls[0]!.request).not.toHaveProperty('maxTokens');
  });

  it('lets engine errors through untouched', async () => {
    const lost = new LlmError('device-lost', 'GPU device lost');
    const llm = createScriptedLlm({ failAt: { 0: lost } });
    await expect(generateObject(llm, request, TripletsSchema)).rejects.toBe(lost);
  });

  it('builds a schema even where JSON Schema cannot express a type (a date becomes {})', () => {
    expect(jsonSchemaFor(z.object({ when: z.date() }))?.schema).toMatchObject({ type: 'object' });
  });
});
