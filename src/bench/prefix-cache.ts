/**
 * A simulated automatic prefix cache, as vLLM's (Automatic Prefix Caching: the KV cache is kept in
 * blocks of 16 tokens, each full block identified by a hash of its tokens and of every token
 * before it, so a new prompt reuses the longest run of leading full blocks any earlier prompt to
 * the same model computed). llama.cpp's `cache_prompt` and Ollama reuse a slot's common prefix in
 * a similar way. For `assay bench --presets` (issue 29, item 6): how many of a paper's prompt
 * tokens a server with such a cache would still have to compute. Assumes the cache holds
 * everything a paper's calls computed (no eviction) and one cache per model.
 */
import { createHash } from 'node:crypto';

/** vLLM's default KV-cache block size (`--block-size 16`). */
export const PREFIX_CACHE_BLOCK_TOKENS = 16;

export interface PrefixCache {
  /**
   * A prompt of `tokens` (token ids, chat template applied) sent to `model`: → the tokens served
   * from the cache (a multiple of the block size; never the whole prompt: as vLLM, the last token
   * is always computed); the prompt's full blocks are cached afterwards.
   */
  admit(model: string, tokens: readonly number[]): number;
}

/** A fresh, empty cache with `blockTokens` tokens a block (default 16); throws `RangeError` for a block size below 1. */
export function createPrefixCache(blockTokens = PREFIX_CACHE_BLOCK_TOKENS): PrefixCache {
  if (!Number.isInteger(blockTokens) || blockTokens < 1)
    throw new RangeError(`a block holds a whole number ≥ 1 of tokens, not ${blockTokens}`);
  const blocksByModel = new Map<string, Set<string>>();
  return {
    admit(model, tokens) {
      let blocks = blocksByModel.get(model);
      if (!blocks) blocksByModel.set(model, (blocks = new Set()));
      // Blocks that may be served: full ones, leaving at least the last token to compute.
      const servable = Math.floor(Math.max(0, tokens.length - 1) / blockTokens);
      const full = Math.floor(tokens.length / blockTokens);
      let chain = '';
      let hits = 0;
      let missed = false;
      for (let block = 0; block < full; block += 1) {
        chain = createHash('sha1')
          .update(chain)
          .update(tokens.slice(block * blockTokens, (block + 1) * blockTokens).join(','))
          .digest('hex');
        if (!missed && block < servable && blocks.has(chain)) hits += 1;
        else missed = true;
        blocks.add(chain);
      }
      return hits * blockTokens;
    },
  };
}
