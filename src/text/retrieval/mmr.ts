/**
 * Maximal Marginal Relevance (Carbonell & Goldstein, "The use of MMR, diversity-based reranking
 * for reordering documents and producing summaries", SIGIR 1998), as Eunomia's Doc Search uses it
 * to pick the passages an agent reads (seeds/001: MMR with λ = 0.5 over the top-k passages).
 */

/** λ of MMR: relevance and novelty weighted equally (Eunomia, seeds/001, Doc Search). */
export const MMR_LAMBDA = 0.5;

/** Passages MMR selects (Eunomia's k ≈ 9, seeds/001, Doc Search). */
export const MMR_K = 9;

/** An item with its relevance to the query, and its MMR score once selected. */
export interface MmrSelection<T> {
  item: T;
  relevance: number;
  /** λ·relevance − (1 − λ)·max similarity to the items selected before it. */
  marginalRelevance: number;
}

/**
 * Select up to `k` of `items` greedily, each time the one maximising
 * `λ·relevance(d) − (1 − λ)·max_{s ∈ selected} similarity(d, s)` (Eq. 1 of Carbonell &
 * Goldstein 1998; the max term is 0 for the first pick, which is the most relevant item).
 * `relevance` and `similarity` should share a scale (both in [0, 1]) for λ to mean what it says.
 * Ties keep input order. Returns the selection in the order picked. O(k·n) similarity calls.
 * Throws a RangeError when λ is outside [0, 1] or k is negative.
 */
export function maximalMarginalRelevance<T>(
  items: readonly { item: T; relevance: number }[],
  similarity: (a: T, b: T) => number,
  options: { lambda?: number; k?: number } = {},
): MmrSelection<T>[] {
  const lambda = options.lambda ?? MMR_LAMBDA;
  const k = options.k ?? MMR_K;
  if (!(lambda >= 0 && lambda <= 1)) throw new RangeError(`MMR λ must lie in [0, 1], got ${lambda}`);
  if (!(k >= 0)) throw new RangeError(`MMR k must not be negative, got ${k}`);
  const remaining = [...items];
  // Highest similarity of each remaining item to anything selected so far, updated per pick.
  const redundancy = remaining.map(() => 0);
  const selected: MmrSelection<T>[] = [];
  while (selected.length < k && remaining.length > 0) {
    let best = 0;
    let bestScore = -Infinity;
    remaining.forEach((candidate, index) => {
      const score = lambda * candidate.relevance - (1 - lambda) * redundancy[index]!;
      if (score > bestScore) {
        best = index;
        bestScore = score;
      }
    });
    const [pick] = remaining.splice(best, 1);
    redundancy.splice(best, 1);
    selected.push({ item: pick!.item, relevance: pick!.relevance, marginalRelevance: bestScore });
    remaining.forEach((candidate, index) => {
      redundancy[index] = Math.max(redundancy[index]!, similarity(candidate.item, pick!.item));
    });
  }
  return selected;
}
