import { describe, expect, it } from 'vitest';
import { LlmError, type LlmRequest } from '../../../src/llm/llm-port';
import { createScriptedLlm, hashMessages } from '../../../src/llm/scripted-llm';

const ask = (role: LlmRequest['role'], content: string, extra: Partial<LlmRequest> = {}): LlmRequest => ({
  role,
  messages: [{ role: 'user', content }],
  ...extra,
});

describe('createScriptedLlm', () => {
  it('replies from each role list in order, independently per role', async () => {
    const llm = createScriptedLlm({ replies: { proposer: ['p1', 'p2'], aggregator: ['a1'] } });
    const texts = [];
    texts.push((await llm.complete(ask('proposer', 'x'))).text);
    texts.push((await llm.complete(ask('aggregator', 'x'))).text);
    texts.push((await llm.complete(ask('proposer', 'x'))).text);
    expect(texts).toEqual(['p1', 'a1', 'p2']);
    await expect(llm.complete(ask('proposer', 'x'))).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('falls back to a reply function given the request and the global call index', async () => {
    const llm = createScriptedLlm({
      replies: { judge: ['j1'] },
      respond: (request, callIndex) => `${request.role}#${callIndex}:${request.messages[0]!.content}`,
    });
    expect((await llm.complete(ask('judge', 'a'))).text).toBe('j1');
    expect((await llm.complete(ask('judge', 'b'))).text).toBe('judge#1:b');
    expect((await llm.complete(ask('generator', 'c'))).text).toBe('generator#2:c');
  });

  it('serves recorded replies by message hash', async () => {
    const request = ask('discriminator', 'reconstruct the masked triplets');
    const llm = createScriptedLlm({
      recorded: { [hashMessages(request.messages)]: 'recorded!' },
      replies: { discriminator: ['scripted'] },
    });
    expect((await llm.complete(request)).text).toBe('recorded!');
    expect((await llm.complete(ask('discriminator', 'something else'))).text).toBe('scripted');
    expect(hashMessages(request.messages)).toMatch(/^[0-9a-f]{14}$/);
    expect(hashMessages(request.messages)).not.toBe(hashMessages([{ role: 'system', content: 'reconstruct the masked triplets' }]));
  });

  it('serves replies by JSON schema name before the role list, which such calls leave untouched', async () => {
    const llm = createScriptedLlm({ replies: { discriminator: ['first', 'second'] }, bySchema: { verification_answers: 'checked' } });
    const named = { jsonSchema: { name: 'verification_answers', schema: {} } };
    expect((await llm.complete(ask('discriminator', 'a', named))).text).toBe('checked');
    expect((await llm.complete(ask('discriminator', 'b', { jsonSchema: { name: 'reply', schema: {} } }))).text).toBe('first');
    expect((await llm.complete(ask('discriminator', 'c', named))).text).toBe('checked');
    expect((await llm.complete(ask('discriminator', 'd'))).text).toBe('second');
  });

  it('records every call with its request (without the signal), reply, usage and model', async () => {
    const llm = createScriptedLlm({ replies: { proposer: ['12345678'] }, model: 'tiny-model' });
    const controller = new AbortController();
    await llm.complete(ask('proposer', 'abcde', { temperature: 0.7, seed: 3, signal: controller.signal }));
    expect(llm.calls).toHaveLength(1);
    const call = llm.calls[0]!;
    expect(call.index).toBe(0);
    expect(call.request).toEqual({ role: 'proposer', messages: [{ role: 'user', content: 'abcde' }], temperature: 0.7, seed: 3 });
    // By hand: 5 prompt chars → ceil(5/4) = 2; 8 reply chars → 2.
    expect(call.reply).toEqual({
      text: '12345678',
      model: 'tiny-model',
      usage: { promptTokens: 2, completionTokens: 2 },
      finishReason: 'stop',
    });
  });

  it('counts usage with countTokens when given, per model', async () => {
    const seen: Array<[string, string]> = [];
    // A word counter: "a b c" → 3, "x y" → 2; the model is the request's.
    const countTokens = (text: string, model: string) => (seen.push([text, model]), text.split(/\s+/).filter(Boolean).length);
    const llm = createScriptedLlm({ replies: { proposer: ['x y'] }, countTokens });
    const reply = await llm.complete({
      role: 'proposer',
      model: 'm-1',
      messages: [
        { role: 'system', content: 'a b' },
        { role: 'user', content: 'c' },
      ],
    });
    // Prompt: the contents joined with "\n" → "a b\nc" → 3 words.
    expect(reply.usage).toEqual({ promptTokens: 3, completionTokens: 2 });
    expect(seen).toEqual([
      ['a b\nc', 'm-1'],
      ['x y', 'm-1'],
    ]);
  });

  it('throws an injected error at call N and records it', async () => {
    const lost = new LlmError('device-lost', 'the GPU device was lost');
    const llm = createScriptedLlm({ replies: { proposer: ['a', 'b'] }, failAt: { 1: lost } });
    expect((await llm.complete(ask('proposer', 'x'))).text).toBe('a');
    await expect(llm.complete(ask('proposer', 'x'))).rejects.toBe(lost);
    expect((await llm.complete(ask('proposer', 'x'))).text).toBe('b');
    expect(llm.calls.map((call) => call.error?.code)).toEqual([undefined, 'device-lost', undefined]);
  });

  it('rejects scripted LlmError replies', async () => {
    const llm = createScriptedLlm({ replies: { proposer: [new LlmError('timeout', 'slow')] } });
    await expect(llm.complete(ask('proposer', 'x'))).rejects.toMatchObject({ code: 'timeout' });
  });

  it('honours an abort signal, before and during a call', async () => {
    const llm = createScriptedLlm({ respond: () => 'late', delayMs: 10_000 });
    const already = new AbortController();
    already.abort();
    await expect(llm.complete(ask('proposer', 'x', { signal: already.signal }))).rejects.toMatchObject({ code: 'aborted' });

    const controller = new AbortController();
    const pending = llm.complete(ask('proposer', 'x', { signal: controller.signal }));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(LlmError);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(llm.calls.map((call) => call.error?.code)).toEqual(['aborted', 'aborted']);
  });
  it('reports a scripted finish reason, and cuts a reply at max_tokens when asked to, as an engine does', async () => {
    const named = createScriptedLlm({ replies: { proposer: [{ text: '{"triplets":[', finishReason: 'length' }] } });
    expect(await named.complete(ask('proposer', 'x'))).toMatchObject({ text: '{"triplets":[', finishReason: 'length' });

    const long = '{"quote":"' + 'abcd'.repeat(10) + '"}';
    const cutting = createScriptedLlm({ respond: () => long, cutAtMaxTokens: true });
    // ceil(chars / 4) ≤ 5 tokens: the longest prefix is 20 characters.
    expect(await cutting.complete(ask('proposer', 'x', { maxTokens: 5 }))).toMatchObject({
      text: long.slice(0, 20),
      finishReason: 'length',
      usage: { completionTokens: 5 },
    });
    expect(await cutting.complete(ask('proposer', 'x', { maxTokens: 100 }))).toMatchObject({ text: long, finishReason: 'stop' });
    expect(await cutting.complete(ask('proposer', 'x'))).toMatchObject({ text: long, finishReason: 'stop' });
  });
});
