/** The simulated automatic prefix cache of `assay bench --presets`: whole leading blocks, per model, never the last token. */
import { describe, expect, it } from 'vitest';
import { createPrefixCache } from '../../../src/bench/prefix-cache';

const ids = (length: number, offset = 0) => Array.from({ length }, (_, index) => index + offset);

describe('createPrefixCache', () => {
  it('serves the leading full blocks an earlier prompt to the same model computed', () => {
    const cache = createPrefixCache(16);
    expect(cache.admit('qwen', ids(40))).toBe(0);
    // The same 40 tokens then 10 more: blocks 1–2 (32 tokens) are cached; the third block was never full.
    expect(cache.admit('qwen', [...ids(40), ...ids(10, 1000)])).toBe(32);
    // Now blocks 1–3 are cached: 48 of 50.
    expect(cache.admit('qwen', [...ids(40), ...ids(10, 1000)])).toBe(48);
    // Another model has its own cache.
    expect(cache.admit('llama', ids(40))).toBe(0);
  });

  it('stops at the first block that differs, even when later blocks match', () => {
    const cache = createPrefixCache(4);
    cache.admit('m', ids(16));
    const changed = ids(16);
    changed[5] = 999;
    expect(cache.admit('m', changed)).toBe(4);
  });

  it('always leaves the last token to compute, and refuses a block size below 1', () => {
    const cache = createPrefixCache(4);
    cache.admit('m', ids(8));
    expect(cache.admit('m', ids(8))).toBe(4);
    expect(cache.admit('m', ids(9))).toBe(8);
    expect(() => createPrefixCache(0)).toThrow(RangeError);
  });
});
