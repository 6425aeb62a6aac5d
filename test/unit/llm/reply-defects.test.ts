import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defectCode, defectMessage, readReply, retryMessages, type ReplyDefect } from '../../../src/llm/reply-defects';

const Answer = z.object({ triplets: z.array(z.object({ material: z.string(), value: z.string(), unit: z.string(), quote: z.string() })) });
const COMPLETE = '{"triplets":[{"material":"GaN","value":"3.4","unit":"eV","quote":"The band gap of GaN is 3.4 eV."}]}';
const stop = (text: string) => ({ text, finishReason: 'stop' });
const length = (text: string) => ({ text, finishReason: 'length' });

describe('readReply: why a literal reply is unusable', () => {
  it('reads a complete reply, even one that ended exactly at max_tokens', () => {
    expect(readReply(stop(COMPLETE), Answer)).toMatchObject({ ok: true, value: { triplets: [{ material: 'GaN' }] } });
    expect(readReply(length(COMPLETE), Answer, 40)).toMatchObject({ ok: true });
  });

  it('truncated: cut at max_tokens inside a quote', () => {
    const cut =
      '{"triplets":[{"material":"GaN","value":"3.4","unit":"eV","quote":"The band gap of GaN is 3.4 eV at room temperature, measured by';
    expect(readReply(length(cut), Answer, 1024)).toEqual({ ok: false, defect: { kind: 'truncated', maxTokens: 1024 } });
    expect(readReply(length(cut), Answer)).toEqual({ ok: false, defect: { kind: 'truncated' } });
  });

  it('repetitive: a loop is named before the cut it ran into', () => {
    const looped = '{"triplets":[{"material":"' + 'GaN GaN '.repeat(60);
    const read = readReply(length(looped), Answer, 1024);
    expect(read).toMatchObject({ ok: false, defect: { kind: 'repetitive', repeats: 120 } });
    // The shortest period: "GaN " (the tail is "GaN " 120 times).
    expect(read.ok ? null : read.defect).toMatchObject({ unit: 'GaN ' });
  });

  it('unclosed: the model stopped with its JSON still open', () => {
    expect(readReply(stop('{"triplets":[{"material":"GaN","value":"3.4"'), Answer)).toEqual({
      ok: false,
      defect: { kind: 'unclosed', open: 3, inString: false },
    });
    expect(readReply(stop('Here it is: {"triplets":[{"material":"Ga'), Answer)).toEqual({
      ok: false,
      defect: { kind: 'unclosed', open: 3, inString: true },
    });
  });

  it('invalid: JSON of the wrong shape, prose, or a bracket closed by the wrong kind', () => {
    expect(readReply(stop('{"triplets":"none"}'), Answer)).toEqual({
      ok: false,
      defect: { kind: 'invalid', problems: ['triplets: Invalid input: expected array, received string'] },
    });
    expect(readReply(stop('GaN has a band gap of 3.4 eV.'), Answer)).toMatchObject({ ok: false, defect: { kind: 'invalid' } });
    expect(readReply(stop('{"triplets":[}'), Answer)).toMatchObject({ ok: false, defect: { kind: 'invalid' } });
  });
});

describe('defectCode and defectMessage', () => {
  const truncated: ReplyDefect = { kind: 'truncated', maxTokens: 1024 };
  const repetitive: ReplyDefect = { kind: 'repetitive', unit: 'GaN ', repeats: 120, chars: 480 };
  const unclosed: ReplyDefect = { kind: 'unclosed', open: 2, inString: false };
  const invalid: ReplyDefect = { kind: 'invalid', problems: ['triplets: expected array'] };

  it('maps each defect to its error code', () => {
    expect([truncated, repetitive, unclosed, invalid].map(defectCode)).toEqual([
      'truncated-output',
      'repetitive-output',
      'malformed-output',
      'malformed-output',
    ]);
  });

  it('says what happened on both tries and what a reader can do', () => {
    expect(defectMessage('proposer', truncated, truncated)).toBe(
      "the proposer model's reply ran past its 1024-token limit before the JSON closed, on the first try and on its one retry; a larger max_tokens, fewer facts per call or another model may help",
    );
    expect(defectMessage('generator', truncated, repetitive)).toBe(
      'the generator model\'s first reply ran past its 1024-token limit before the JSON closed, and its one retry fell into a repetition loop ("GaN " 120 times over at its end) instead of closing its JSON; another model for this role, or a higher temperature (greedy decoding loops most), may help',
    );
    expect(defectMessage('aggregator', invalid, unclosed)).toBe(
      "the aggregator model's reply did not match the expected JSON after one repair attempt: the reply ended with its JSON still open (2 brackets unclosed)",
    );
  });
});

describe('retryMessages', () => {
  const request = {
    messages: [
      { role: 'system' as const, content: 'Extract triplets as JSON.' },
      { role: 'user' as const, content: 'DATA: The band gap of GaN is 3.4 eV.' },
    ],
  };

  it('sends an invalid reply back with its problems (a repair)', () => {
    const messages = retryMessages(request, '{"triplets":"none"}', { kind: 'invalid', problems: ['triplets: expected array'] });
    expect(messages.slice(0, 3)).toEqual([...request.messages, { role: 'assistant', content: '{"triplets":"none"}' }]);
    expect(messages[3]!.content).toContain('- triplets: expected array');
  });

  it('does not send a cut or looping reply back: it asks again, with a note on the last user turn', () => {
    const cut = retryMessages(request, '{"triplets":[{"quote":"The band gap', { kind: 'truncated', maxTokens: 1024 });
    expect(cut).toHaveLength(2);
    expect(cut[0]).toEqual(request.messages[0]);
    expect(cut[1]!.content).toMatch(
      /^DATA: The band gap of GaN is 3\.4 eV\.\n\nNote: an earlier reply to this request ran past its 1024-token limit/,
    );
    const looped = retryMessages(request, 'GaN GaN GaN', { kind: 'repetitive', unit: 'GaN ', repeats: 3, chars: 11 });
    expect(looped.map((message) => message.role)).toEqual(['system', 'user']);
    expect(looped[1]!.content).toContain('repeated "GaN " over and over');
    expect(looped.some((message) => message.content.includes('GaN GaN GaN'))).toBe(false);
  });
});
