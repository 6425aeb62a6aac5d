/**
 * Scoring candidate places for a quote, and the fuzzy search, on the folded view of a text
 * (`folded-text.ts`). The scheme follows the Hypothesis client's `match-quote.ts`: a weighted
 * sum of quote, prefix, suffix and position agreement, normalized to [0, 1].
 */
import search from 'approx-string-match';

/** What a candidate is scored against; every string is already folded. */
export interface QuoteContext {
  quote: string;
  prefix: string;
  suffix: string;
  /** Where the quote is expected to start in the folded text (from a stale position), if known. */
  hint?: number;
}

/** A place in the folded text where the quote may stand (a quote match), with the edit errors of the quote there. */
export interface QuoteMatch {
  start: number;
  end: number;
  errors: number;
}

/** A scored quote match: `score` in [0, 1], `quoteSimilarity` = 1 − errors / quote length. */
export interface ScoredQuoteMatch extends QuoteMatch {
  score: number;
  quoteSimilarity: number;
}

// Weights as in Hypothesis's match-quote.ts: the quote dominates, context breaks ties between
// equally good quote matches, and position only breaks ties between equally good contexts.
const QUOTE_WEIGHT = 50;
const PREFIX_WEIGHT = 20;
const SUFFIX_WEIGHT = 20;
const POSITION_WEIGHT = 2;

/**
 * Similarity in [0, 1] of `actual` (text found next to a candidate) to `expected` (the stored
 * context): 1 − (edit errors of the best approximate occurrence of `expected` in `actual`) /
 * `expected.length`. `undefined` when nothing is expected, so an absent context neither helps
 * nor hurts.
 */
export function contextSimilarity(actual: string, expected: string): number | undefined {
  if (expected.length === 0) return undefined;
  if (actual.length === 0) return 0;
  const matches = search(actual, expected, expected.length);
  if (matches.length === 0) return 0;
  const errors = Math.min(...matches.map((match) => match.errors));
  return Math.max(0, 1 - errors / expected.length);
}

/** Score one candidate in `foldedText` against the quote, its context and the position hint. */
export function scoreQuoteMatch(foldedText: string, candidate: QuoteMatch, context: QuoteContext): ScoredQuoteMatch {
  const quoteSimilarity = context.quote.length === 0 ? 1 : Math.max(0, 1 - candidate.errors / context.quote.length);
  let weighted = QUOTE_WEIGHT * quoteSimilarity;
  let totalWeight = QUOTE_WEIGHT;
  const prefixSimilarity = contextSimilarity(
    foldedText.slice(Math.max(0, candidate.start - context.prefix.length), candidate.start),
    context.prefix,
  );
  if (prefixSimilarity !== undefined) {
    weighted += PREFIX_WEIGHT * prefixSimilarity;
    totalWeight += PREFIX_WEIGHT;
  }
  const suffixSimilarity = contextSimilarity(foldedText.slice(candidate.end, candidate.end + context.suffix.length), context.suffix);
  if (suffixSimilarity !== undefined) {
    weighted += SUFFIX_WEIGHT * suffixSimilarity;
    totalWeight += SUFFIX_WEIGHT;
  }
  if (context.hint !== undefined && foldedText.length > 0) {
    weighted += POSITION_WEIGHT * Math.max(0, 1 - Math.abs(candidate.start - context.hint) / foldedText.length);
    totalWeight += POSITION_WEIGHT;
  }
  return { ...candidate, quoteSimilarity, score: weighted / totalWeight };
}

/** The best of several scored candidates (first wins a tie), or `undefined` for none. */
export function bestQuoteMatch<Scored extends ScoredQuoteMatch>(candidates: Scored[]): Scored | undefined {
  let best: Scored | undefined;
  for (const candidate of candidates) if (!best || candidate.score > best.score) best = candidate;
  return best;
}

/**
 * The edit-error budget for a fuzzy search of a quote of `length` folded characters:
 * min(256, ⌊length / 2⌋).
 *
 * Trade-off (as Hypothesis argues in match-quote.ts): Myers' bit-parallel search costs
 * O((k / 32) · n) for k allowed errors over n characters of text, so a larger budget is slower
 * on long articles, and a match needing more than half the quote changed is not the same
 * passage any more — it would only turn up look-alike sentences. The cap of 256 bounds the cost
 * for very long quotes, whose budget would otherwise grow without limit. Candidates found within
 * the budget are then still filtered by a stricter similarity threshold (`anchor-evidence.ts`).
 */
export function errorBudget(length: number): number {
  return Math.min(256, Math.floor(length / 2));
}

/** Fuzzy occurrences of `quote` in `foldedText` with the fewest errors within the budget. */
export function fuzzyQuoteMatches(foldedText: string, quote: string): QuoteMatch[] {
  if (quote.length === 0 || foldedText.length === 0) return [];
  return search(foldedText, quote, errorBudget(quote.length));
}

/** Start offsets of every exact occurrence of `needle` in `haystack` (at most `limit`). */
export function exactOccurrences(haystack: string, needle: string, limit = 1000): number[] {
  const starts: number[] = [];
  if (needle.length === 0) return starts;
  let from = haystack.indexOf(needle);
  while (from !== -1 && starts.length < limit) {
    starts.push(from);
    from = haystack.indexOf(needle, from + 1);
  }
  return starts;
}
