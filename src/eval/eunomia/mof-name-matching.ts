/**
 * Pairing predicted MOF names with the ground truth's, per paper, the way Eunomia's
 * `match_MOF_names` does (AI4ChemS/Eunomia, eunomia/general.py): predictions are taken in
 * order; each takes the still-unpaired truth of highest fuzzywuzzy `token_sort_ratio` if that
 * score is ABOVE the threshold (`similarity > threshold`, default 80; the ratio is an integer
 * 0–100, so "> 80" means "≥ 81"); ties go to the first truth. The ratio is fuzzball's port of
 * fuzzywuzzy's `token_sort_ratio` with fuzzywuzzy's defaults (full processing: lower case,
 * non-alphanumerics to spaces, ASCII only; tokens sorted, then the Levenshtein ratio).
 *
 * The strict pairing uses the same greedy order with exact equality of normalized names
 * (`normalizeMofName`). Either way a pair is a name match only; whether its label is right is
 * the scorer's question.
 */
import { token_sort_ratio } from 'fuzzball';

/** Eunomia's default name-similarity threshold (eunomia/general.py, `threshold=80`). */
export const EUNOMIA_NAME_THRESHOLD = 80;

/**
 * A MOF name for exact comparison: Unicode NFKC (subscripts and full-width forms to ASCII), the
 * Unicode dashes and minus to "-", white space collapsed and trimmed, lower case.
 */
export function normalizeMofName(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * Eunomia's name similarity: fuzzywuzzy's `token_sort_ratio` (integer 0–100), except that names
 * equal after `normalizeMofName` score 100 (full processing drops non-ASCII, so two equal names
 * written only in non-ASCII would otherwise score 0).
 */
export function mofNameSimilarity(a: string, b: string): number {
  if (normalizeMofName(a) === normalizeMofName(b)) return 100;
  return token_sort_ratio(a, b);
}

/**
 * Pairs `[predictionIndex, truthIndex]` in prediction order. `similarity(a, b)` scores a pair
 * and `accept(score)` says whether it may pair; among acceptable unpaired truths the highest
 * score wins, the first on ties. Each truth is paired at most once.
 */
export function greedyNamePairs(
  predictions: readonly string[],
  truths: readonly string[],
  similarity: (prediction: string, truth: string) => number,
  accept: (score: number) => boolean,
): Array<[number, number]> {
  const taken = new Set<number>();
  const pairs: Array<[number, number]> = [];
  predictions.forEach((prediction, predictionIndex) => {
    let best = -1;
    let bestScore = -Infinity;
    truths.forEach((truth, truthIndex) => {
      if (taken.has(truthIndex)) return;
      const score = similarity(prediction, truth);
      if (accept(score) && score > bestScore) {
        best = truthIndex;
        bestScore = score;
      }
    });
    if (best >= 0) {
      taken.add(best);
      pairs.push([predictionIndex, best]);
    }
  });
  return pairs;
}

/** Strict pairs: normalized names equal (`normalizeMofName`). */
export function strictNamePairs(predictions: readonly string[], truths: readonly string[]): Array<[number, number]> {
  return greedyNamePairs(
    predictions,
    truths,
    (a, b) => (normalizeMofName(a) === normalizeMofName(b) ? 1 : 0),
    (score) => score === 1,
  );
}

/** Eunomia's pairs: `mofNameSimilarity > threshold` (default `EUNOMIA_NAME_THRESHOLD`). */
export function eunomiaNamePairs(
  predictions: readonly string[],
  truths: readonly string[],
  threshold: number = EUNOMIA_NAME_THRESHOLD,
): Array<[number, number]> {
  return greedyNamePairs(predictions, truths, mofNameSimilarity, (score) => score > threshold);
}
