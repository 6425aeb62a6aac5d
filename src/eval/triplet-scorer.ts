/**
 * The triplet scorer of `docs/EVAL.md`: per paper, a ONE-TO-ONE maximum matching between
 * predicted and true triplets (same property, same material, value equal in SI within the
 * tolerance), then micro-averaged precision, recall and F1 over papers, at 0.1% (the headline)
 * and side by side at 1% and 10% (as the reliability-gap paper reports). Pure: unit conversion
 * and material equality are injected.
 */
import type { ReportedValue } from '../contracts/triplet';
import { maximumMatching } from './bipartite-matching';
import type { SiConverter } from './si-conversion';
import { valuesMatch } from './value-match';

/** A ground-truth triplet: `aliases` are the accepted names of the material (at least one). */
export interface TruthTriplet {
  aliases: string[];
  property: string;
  value: ReportedValue;
  unit: string;
  /** Evidence as the dataset gives it (a sentence, or "Table 1"). */
  source?: string;
}

/** The fields of a predicted `Triplet` the scorer reads. */
export interface PredictedTriplet {
  material: string;
  property: string;
  value: ReportedValue;
  unit: string;
}

/** One paper's predictions and ground truth; `paper` is an identifier such as "14/10.1039/…". */
export interface PaperCase {
  paper: string;
  truths: TruthTriplet[];
  predictions: PredictedTriplet[];
}

export interface ScorerDependencies {
  /** `toSI`-style converter built by `createSiConverter`. */
  convert: SiConverter;
  /** `sameMaterial(a, b, aliases)` from `src/text/materials`. */
  sameMaterial: (a: string, b: string, aliases?: string[]) => boolean;
}

/** Tolerances reported, as fractions; the first is the headline. */
export const TOLERANCES = { '0.1%': 0.001, '1%': 0.01, '10%': 0.1 } as const;
export type ToleranceLabel = keyof typeof TOLERANCES;

export interface PaperScore {
  paper: string;
  predictions: number;
  truths: number;
  /** Size of the maximum matching at the headline tolerance (0.1%). */
  matched: number;
  /** `[predictionIndex, truthIndex]` pairs of that matching. */
  pairs: Array<[number, number]>;
}

export interface Counts {
  predictions: number;
  truths: number;
  matched: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface CorpusScore extends Counts {
  /** Number of papers scored. */
  n: number;
  f1At: Record<ToleranceLabel, number>;
  at: Record<ToleranceLabel, Counts>;
  papers: PaperScore[];
}

/** Whether one prediction may be matched to one truth at `tolerance`. */
export function tripletsMatch(
  predicted: PredictedTriplet,
  truth: TruthTriplet,
  tolerance: number,
  dependencies: ScorerDependencies,
): boolean {
  if (predicted.property !== truth.property) return false;
  const [name, ...otherAliases] = truth.aliases;
  if (name === undefined || !dependencies.sameMaterial(predicted.material, name, otherAliases)) return false;
  return valuesMatch(predicted, truth, tolerance, dependencies.convert);
}

/** Maximum one-to-one matching for one paper at `tolerance` (a fraction). */
export function scorePaper(paperCase: PaperCase, tolerance: number, dependencies: ScorerDependencies): PaperScore {
  const { predictions, truths } = paperCase;
  const { size, pairs } = maximumMatching(predictions.length, truths.length, (left, right) =>
    tripletsMatch(predictions[left]!, truths[right]!, tolerance, dependencies),
  );
  return { paper: paperCase.paper, predictions: predictions.length, truths: truths.length, matched: size, pairs };
}

/**
 * Precision = matched / predictions, recall = matched / truths, F1 their harmonic mean.
 * Convention: a ratio with a zero denominator is 0 (no predictions → precision 0), and F1 is 0
 * when precision + recall is 0; the raw counts are always reported beside the ratios.
 */
export function countsToScores(predictions: number, truths: number, matched: number): Counts {
  const precision = predictions === 0 ? 0 : matched / predictions;
  const recall = truths === 0 ? 0 : matched / truths;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { predictions, truths, matched, precision, recall, f1 };
}

/** Micro-average over papers: counts are summed first, then turned into P/R/F1 per tolerance. */
export function scoreCorpus(cases: readonly PaperCase[], dependencies: ScorerDependencies): CorpusScore {
  const at = {} as Record<ToleranceLabel, Counts>;
  let headlinePapers: PaperScore[] = [];
  for (const [label, tolerance] of Object.entries(TOLERANCES) as Array<[ToleranceLabel, number]>) {
    const papers = cases.map((paperCase) => scorePaper(paperCase, tolerance, dependencies));
    if (label === '0.1%') headlinePapers = papers;
    const sum = (field: 'predictions' | 'truths' | 'matched') => papers.reduce((total, paper) => total + paper[field], 0);
    at[label] = countsToScores(sum('predictions'), sum('truths'), sum('matched'));
  }
  const f1At = Object.fromEntries(Object.entries(at).map(([label, counts]) => [label, counts.f1])) as Record<ToleranceLabel, number>;
  return { n: cases.length, ...at['0.1%'], f1At, at, papers: headlinePapers };
}
