/**
 * Seeded pseudo-random numbers for the SLM-MATRIX agents. MCTS (SLM-MATRIX Methods, "MCTS")
 * draws untried actions, rollout actions and UCT tie-breaks from an injected `() => number`, so
 * a run is reproducible from its seed; nothing here keeps module-level state.
 */

/** A source of uniform numbers in [0, 1), as `Math.random` gives them. */
export type Random = () => number;

/**
 * Mulberry32 (Tommy Ettinger's 32-bit generator, public domain): a tiny, fast PRNG with a
 * 2^32 period — plenty for a few hundred draws per paper, and not for cryptography.
 * `createSeededRandom(seed)` → `() => number` in [0, 1); the same seed gives the same sequence.
 * The seed is taken modulo 2^32 (non-integers are truncated).
 */
export function createSeededRandom(seed: number): Random {
  let state = Math.trunc(seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** An index in [0, length) drawn from `random`; `length` must be ≥ 1. */
export function randomIndex(random: Random, length: number): number {
  return Math.min(length - 1, Math.floor(random() * length));
}
