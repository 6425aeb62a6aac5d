/**
 * ComProScanner's own composition–value matching, as its semantic evaluator does it
 * (slimeslab/ComProScanner, src/comproscanner/post_processing/evaluation/semantic_evaluator.py,
 * `_evaluate_composition_data` and `_is_value_in_range`), used as the lenient scoring of
 * `assay eval comproscanner-piezo`:
 *
 * - compositions: equal as written, or text similarity above 0.9 — its PhysBERT embedding
 *   similarity when that model loads, else difflib's `SequenceMatcher.ratio` on the texts lower
 *   cased with punctuation removed. No model weights can be loaded here, so this is the
 *   fallback: fuzzball's difflib ratio (an integer percentage, so "> 90" reads "≥ 91"; the
 *   evaluator's stop-word removal is skipped, compositions carry no English words). We also
 *   accept the strict material equality, so lenient never misses a strict match;
 * - values: the evaluator compares numbers exactly (|Δ| < 1e-6) and accepts a number inside a
 *   `[low, high]` truth range. Here: equal within the tolerance in SI (which contains exact
 *   equality at 0.1%), or a predicted number inside a true range.
 *
 * Its evaluator pairs compositions first and then checks each pair's value; we keep the
 * one-to-one maximum matching of every Assay triplet score, with an edge where both hold.
 */
import { ratio } from 'fuzzball';
import { maximumMatching } from '../bipartite-matching';
import { countsToScores, TOLERANCES, type CorpusScore, type Counts, type PaperScore, type ToleranceLabel } from '../triplet-scorer';
import { valuesMatch } from '../value-match';
import type { PaperCase, PredictedTriplet, ScorerDependencies, TruthTriplet } from '../triplet-scorer-types';

/** ComProScanner's composition-key similarity threshold (`similarity > 0.9`). */
export const COMPROSCANNER_KEY_SIMILARITY = 0.9;

/** ComProScanner's `_simple_preprocess` without its stop words: lower case, ASCII punctuation removed, white space collapsed. */
function preprocess(text: string): string {
  return text
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

/**
 * fuzzball's difflib ratio on the texts as given. Its ESM type declarations omit `ratio_alg`,
 * which its ESM build reads, so the options are a variable rather than a literal.
 */
const DIFFLIB_RATIO = { ratio_alg: 'difflib' as const, full_process: false };

/** difflib `SequenceMatcher.ratio` (as fuzzball's integer percentage / 100) of the preprocessed texts. */
export function compositionSimilarity(a: string, b: string): number {
  return ratio(preprocess(a), preprocess(b), DIFFLIB_RATIO) / 100;
}

/** Composition match: equal as written, strict material equality, or similarity above 0.9. */
export function comproscannerSameComposition(
  predicted: string,
  truth: TruthTriplet,
  dependencies: Pick<ScorerDependencies, 'sameMaterialStrict'>,
  definedAliases: PaperCase['definedAliases'] = [],
): boolean {
  const [name, ...others] = truth.aliases;
  if (name === undefined) return false;
  return (
    truth.aliases.some(
      (alias) => alias.trim() === predicted.trim() || compositionSimilarity(predicted, alias) > COMPROSCANNER_KEY_SIMILARITY,
    ) || dependencies.sameMaterialStrict(predicted, name, others, definedAliases)
  );
}

/** Value match: within `tolerance` in SI (`valuesMatch`), or a predicted number inside a true range (both converted). */
export function comproscannerSameValue(
  predicted: PredictedTriplet,
  truth: TruthTriplet,
  tolerance: number,
  dependencies: Pick<ScorerDependencies, 'convert'>,
): boolean {
  if (valuesMatch(predicted, truth, tolerance, dependencies.convert)) return true;
  if (predicted.value.kind !== 'number' || truth.value.kind !== 'range') return false;
  const number = dependencies.convert(predicted.value.value, predicted.unit);
  const low = dependencies.convert(truth.value.low, truth.unit);
  const high = dependencies.convert(truth.value.high, truth.unit);
  if (!number || !low || !high || number.unit !== low.unit) return false;
  return low.value <= number.value * (1 + 1e-9) && number.value <= high.value * (1 + 1e-9);
}

/** One paper at `tolerance`: the maximum one-to-one matching with ComProScanner's composition and value rules. */
export function scorePaperComproscanner(paperCase: PaperCase, tolerance: number, dependencies: ScorerDependencies): PaperScore {
  const { predictions, truths } = paperCase;
  const { size, pairs } = maximumMatching(predictions.length, truths.length, (left, right) => {
    const predicted = predictions[left]!;
    const truth = truths[right]!;
    return (
      predicted.property === truth.property &&
      comproscannerSameComposition(predicted.material, truth, dependencies, paperCase.definedAliases) &&
      comproscannerSameValue(predicted, truth, tolerance, dependencies)
    );
  });
  return { paper: paperCase.paper, predictions: predictions.length, truths: truths.length, matched: size, pairs };
}

/** Micro-averaged ComProScanner-style scores at each of `TOLERANCES` (0.1% the headline), shaped as the triplet scorer's `CorpusScore`. */
export function scoreCorpusComproscanner(cases: readonly PaperCase[], dependencies: ScorerDependencies): CorpusScore {
  const at = {} as Record<ToleranceLabel, Counts>;
  let headline: PaperScore[] = [];
  for (const [label, tolerance] of Object.entries(TOLERANCES) as Array<[ToleranceLabel, number]>) {
    const papers = cases.map((paperCase) => scorePaperComproscanner(paperCase, tolerance, dependencies));
    if (label === '0.1%') headline = papers;
    const sum = (field: 'predictions' | 'truths' | 'matched') => papers.reduce((total, paper) => total + paper[field], 0);
    at[label] = countsToScores(sum('predictions'), sum('truths'), sum('matched'));
  }
  const f1At = Object.fromEntries(Object.entries(at).map(([label, counts]) => [label, counts.f1])) as Record<ToleranceLabel, number>;
  return { n: cases.length, ...at['0.1%'], f1At, at, papers: headline };
}
