/**
 * Real tokenizers (Node only). Counts were computed once with the packages and checked by hand
 * against each family's vocabulary and chat template (see the comments).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/llm/llm-port';
import { tokenCounterFor, tokenizerFamilyOf, type TokenCounter } from '../../../src/llm/tokenizers';

const SENTENCE = 'The band gap of GaN is 3.4 eV.';
const SYSTEM: ChatMessage = { role: 'system', content: 'You extract facts.' };
const USER: ChatMessage = { role: 'user', content: SENTENCE };

describe('tokenizerFamilyOf', () => {
  it.each([
    ['Qwen/Qwen2.5-7B-Instruct', 'qwen2.5'],
    ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC', 'qwen2.5'],
    ['qwen2.5:7b', 'qwen2.5'],
    ['meta-llama/Llama-3.1-8B-Instruct', 'llama-3'],
    ['meta-llama/Llama-3.2-11B-Vision-Instruct', 'llama-3'],
    ['Llama-3.2-1B-Instruct-q4f32_1-MLC', 'llama-3'],
    ['llama3.2', 'llama-3'],
    ['google/gemma-2-9b-it', 'gemma-2'],
    ['gemma-2-2b-it-q4f16_1-MLC', 'gemma-2'],
    ['gemma2:9b', 'gemma-2'],
    ['mistralai/Mistral-7B-Instruct-v0.3', 'mistral-v0.3'],
    ['Mistral-7B-Instruct-v0.3-q4f16_1-MLC', 'mistral-v0.3'],
    ['mistral:7b', 'mistral-v0.3'],
    ['gemma-3-1b-it', undefined],
    ['mistralai/Mistral-7B-Instruct-v0.1', undefined],
    ['SmolLM2-360M-Instruct-q4f32_1-MLC', undefined],
  ])('%s → %s', (id, family) => {
    expect(tokenizerFamilyOf(id)).toBe(family);
  });
});

describe('tokenCounterFor', () => {
  const counters: Record<string, TokenCounter> = {};
  beforeAll(async () => {
    for (const id of [
      'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
      'meta-llama/Llama-3.1-8B-Instruct',
      'google/gemma-2-9b-it',
      'mistralai/Mistral-7B-Instruct-v0.3',
      'SmolLM2-360M-Instruct-q4f32_1-MLC',
    ]) {
      counters[id] = await tokenCounterFor(id);
    }
  }, 60_000);
  const counter = (id: string) => counters[id]!;

  it('"Hello world" is 2 tokens in every exact family ("Hello", " world")', () => {
    for (const id of Object.keys(counters).slice(0, 4)) {
      expect(counter(id).exact).toBe(true);
      expect(counter(id).countText('Hello world'), id).toBe(2);
      expect(counter(id).countText(''), id).toBe(0);
    }
  });

  it('Qwen2.5: text and ChatML template', () => {
    const qwen = counter('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    expect(qwen.family).toBe('qwen2.5');
    // "The" " band" " gap" " of" " Ga" "N" " is" " " "3" "." "4" " e" "V" "." = 14 (digits split one by one).
    expect(qwen.countText(SENTENCE)).toBe(14);
    // <|im_start|> system \n (3) + "You extract facts." (4) + <|im_end|> \n (2)
    // + <|im_start|> user \n (3) + 14 + <|im_end|> \n (2) + <|im_start|> assistant \n (3) = 31.
    expect(qwen.countChat([SYSTEM, USER])).toBe(31);
    // No system message → the template adds Qwen's default one ("You are Qwen, created by Alibaba
    // Cloud. You are a helpful assistant.", 16 tokens instead of 4): 31 + 12 = 43.
    expect(qwen.countChat([USER])).toBe(43);
  });

  it('Llama 3.x: text and the 3.1/3.2 template with its date header', () => {
    const llama = counter('meta-llama/Llama-3.1-8B-Instruct');
    expect(llama.family).toBe('llama-3');
    expect(llama.countText(SENTENCE)).toBe(14); // the same pieces as Qwen2.5's here
    // <|begin_of_text|> (1) + <|start_header_id|> system <|end_header_id|> \n\n (4) + "Cutting
    // Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n" (20) + "You extract facts." (4)
    // + <|eot_id|> (1) + user header (4) + 14 + <|eot_id|> (1) + assistant header (4) = 53.
    expect(llama.countChat([SYSTEM, USER])).toBe(53);
    expect(llama.countChat([USER])).toBe(49); // the date header stays; the 4 system tokens go
  });

  it('Gemma 2: text and the gemma-2-it template, system folded into the user turn', () => {
    const gemma = counter('google/gemma-2-9b-it');
    expect(gemma.family).toBe('gemma-2');
    expect(gemma.countText(SENTENCE)).toBe(13); // as Qwen2.5's pieces, but " eV" is one token
    // <bos> + <start_of_turn> user \n (3) + 13 + <end_of_turn> \n (2) + <start_of_turn> model \n (3) = 22.
    expect(gemma.countChat([USER])).toBe(22);
    // + "You extract facts.\n\n" in front of the user text: You, extract, facts, ., \n\n = 5 → 27.
    expect(gemma.countChat([SYSTEM, USER])).toBe(27);
  });

  it('Mistral v0.3: text and the v3 instruct format', () => {
    const mistral = counter('mistralai/Mistral-7B-Instruct-v0.3');
    expect(mistral.family).toBe('mistral-v0.3');
    expect(mistral.countText(SENTENCE)).toBe(14);
    // <s> [INST] 14 [/INST] = 17; with the system text in front of the (last) user turn: 23.
    expect(mistral.countChat([USER])).toBe(17);
    expect(mistral.countChat([SYSTEM, USER])).toBe(23);
    // An assistant turn adds its tokens and </s>: 17 + 2 ("Hello world") + 1 + [INST] 14 [/INST] (16) = 36.
    expect(mistral.countChat([USER, { role: 'assistant', content: 'Hello world' }, USER])).toBe(36);
  });

  it('gives the prompt’s token ids, as many as countChat counts, the same ids for the same opening', () => {
    const other: ChatMessage = { role: 'user', content: `${SENTENCE} Its lattice constant is 3.19 Å.` };
    for (const id of [
      'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
      'meta-llama/Llama-3.1-8B-Instruct',
      'google/gemma-2-9b-it',
      'mistralai/Mistral-7B-Instruct-v0.3',
      'SmolLM2-360M-Instruct-q4f32_1-MLC',
    ]) {
      const tokens = counter(id).chatTokens([SYSTEM, USER]);
      expect(tokens.length, id).toBe(counter(id).countChat([SYSTEM, USER]));
      expect(
        tokens.every((token) => Number.isInteger(token)),
        id,
      ).toBe(true);
      // A user message that starts with the same sentence shares the ids up to it (the last few are the template's end of turn).
      expect(
        counter(id)
          .chatTokens([SYSTEM, other])
          .slice(0, tokens.length - 6),
        id,
      ).toEqual(tokens.slice(0, tokens.length - 6));
    }
  });

  it('an unknown model falls back to the chars/4 estimate, not exact', () => {
    const fallback = counter('SmolLM2-360M-Instruct-q4f32_1-MLC');
    expect(fallback).toMatchObject({ family: 'approximate', exact: false });
    expect(fallback.countText(SENTENCE)).toBe(8); // 30 characters → ceil(30 / 4)
    expect(fallback.countChat([SYSTEM, USER])).toBe(5 + 8); // 18 → 5, 30 → 8
  });
});
