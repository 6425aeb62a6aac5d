/**
 * Eq. 2 of SLM-MATRIX: S(A_i) = α·Rel(A_i, T) + β·Cov(A_i, A), with α = 0.7, β = 0.3 (the
 * weights the paper's experimental setup gives for the aggregator's composite score). The paper
 * does not define Rel and Cov numerically (its aggregator scores "implicitly" in the LLM); the
 * definitions here are Assay's, chosen to be checkable without a model:
 * - Rel(A_i, T): share of A_i's triplets whose quote occurs in T (whitespace- and
 *   case-insensitive) and shows the printed value — relevance to the input text;
 * - Cov(A_i, A): share of the distinct triplets proposed across all candidates A that A_i
 *   contains (agreement by `tripletsAgree`) — how much of the candidate set it covers.
 * An empty answer scores Rel = 0 and Cov = 0 (it covers nothing), unless every candidate is
 * empty, when every Cov is 1 (nothing to cover).
 */
import type { Triplet } from '../../contracts/triplet';
import { tripletsAgree, type CrossVerifyDependencies } from '../cross-verify';

/** Eq. 2 weights (SLM-MATRIX experimental setup: α = 0.7, β = 0.3). */
export const RELEVANCE_WEIGHT = 0.7;
export const COVERAGE_WEIGHT = 0.3;

export interface CandidateScore {
  relevance: number;
  coverage: number;
  /** α·relevance + β·coverage (Eq. 2). */
  score: number;
}

function fold(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Rel(A_i, T): share of triplets whose quote is in `text` and contains the printed value (or a number of it). */
export function relevance(candidate: readonly Triplet[], text: string): number {
  if (candidate.length === 0) return 0;
  const folded = fold(text);
  const supported = candidate.filter((triplet) => {
    const quote = fold(triplet.evidence?.quote.exact ?? '');
    if (quote === '' || !folded.includes(quote)) return false;
    const printed = triplet.valueText?.trim() ?? '';
    const numbers = triplet.value.kind === 'number' ? [triplet.value.value] : [triplet.value.low, triplet.value.high];
    return (printed !== '' && quote.includes(fold(printed))) || numbers.every((number) => quote.includes(String(number)));
  });
  return supported.length / candidate.length;
}

/** Eq. 2 scores of each candidate answer of one layer, in input order. */
export function scoreCandidates(
  candidates: ReadonlyArray<readonly Triplet[]>,
  text: string,
  dependencies: CrossVerifyDependencies,
  weights = { alpha: RELEVANCE_WEIGHT, beta: COVERAGE_WEIGHT },
): CandidateScore[] {
  const distinct: Triplet[] = [];
  for (const candidate of candidates)
    for (const triplet of candidate) if (!distinct.some((seen) => tripletsAgree(seen, triplet, dependencies))) distinct.push(triplet);
  return candidates.map((candidate) => {
    const rel = relevance(candidate, text);
    const coverage =
      distinct.length === 0
        ? 1
        : distinct.filter((triplet) => candidate.some((own) => tripletsAgree(own, triplet, dependencies))).length / distinct.length;
    return { relevance: rel, coverage, score: weights.alpha * rel + weights.beta * coverage };
  });
}

/** Index of A* = argmax S(A_i) (Eq. 2); the first on ties; -1 for no candidates. */
export function bestCandidate(scores: readonly CandidateScore[]): number {
  let best = -1;
  scores.forEach((score, index) => {
    if (best === -1 || score.score > scores[best]!.score) best = index;
  });
  return best;
}
