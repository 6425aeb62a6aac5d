/**
 * The shape every scoring run of `assay eval … --json` shares (EVAL.md, "Command contracts
 * added with the second round of work"): per result, `strict` and `lenient` figures, each with
 * `precision`, `recall` and `f1`; and beside the scores the run's `predictions` and `truths`, so
 * anyone can score the same run again with their own scorer.
 *
 * Strict is the headline. What "strict" and "lenient" mean is the dataset's own: for triplets
 * see `src/eval/triplet-scorer.ts`; for spans, exact offsets versus overlap; for NERRE, whole
 * entities versus words. Each evaluator says so in its module comment and in `scoring`.
 */
import type { Condition, Provenance } from '../contracts/conditions';
import type { ReportedValue } from '../contracts/triplet';

/**
 * Precision, recall and F1, ratios in [0, 1]: the one declaration of the three figures. Every
 * result type extends it (a scoring run's top-level figures are its strict, headline figures).
 */
export interface Prf {
  precision: number;
  recall: number;
  f1: number;
}

/** Precision, recall and F1 with the counts they come from (ratios in [0, 1]). */
export interface PrfFigures extends Prf {
  /** Number of predictions, truths and matched pairs the ratios were computed from. */
  predictions: number;
  truths: number;
  matched: number;
}

/** Both scorings of one result; `strict` is the headline. */
export interface StrictAndLenient {
  strict: PrfFigures;
  lenient: PrfFigures;
}

/**
 * One prediction as the run produced it. `value` is the parsed value (a `ReportedValue`), or a
 * label for categorical datasets (eunomia's "Stable"), or null when the prediction has none
 * (an entity without a value); `valueText` is the value as printed when known.
 */
export interface EvalPrediction {
  /** The dataset's paper or document id, as in `truths`. */
  paper: string;
  material: string;
  property: string;
  value: ReportedValue | string | null;
  valueText?: string;
  /** Set when the value is a bound (`< 5 K` → `upper`); `value` then holds the limit. */
  bound?: 'upper' | 'lower';
  /** Unit as the tool wrote it; "" when it gave none (never defaulted). */
  unit: string;
  /** Evidence quote, or null when the tool gave none. */
  quote: string | null;
  /** The triplet's verdict (`verified`, `needs_review`, `rejected`), `extracted` for an engine without a verdict, `recorded` for a replay. */
  status: string;
  /** The conditions the triplet carries (`Triplet.conditions`, issue 26), when it has any. */
  conditions?: Condition[];
  /** Where the value comes from (`Triplet.provenance`), when the triplet says. */
  provenance?: Provenance;
  /**
   * Triplet scoring (issue 26): the truth this prediction was matched to under strict scoring
   * (with its position in `truths`), or null when it matched none.
   */
  matched?: IndexedTruth | null;
  /** When `matched` is null: the truth of the same paper nearest to it (src/eval/match-explanation.ts), null when the paper has none. */
  nearest?: IndexedTruth | null;
  /** When `matched` is null: why not, in words ("truth qualifier HSE06 not in the prediction's conditions"; "no truth in this paper"). */
  why?: string;
}

/** One ground-truth record: every accepted name of the material, and the value as the dataset gives it. */
export interface EvalTruth {
  paper: string;
  /** Accepted names of the material (at least one; "" only for datasets without a material). */
  aliases: string[];
  property: string;
  value: ReportedValue | string | null;
  valueText?: string;
  bound?: 'upper' | 'lower';
  unit: string;
}

/** A truth as a prediction's `matched` or `nearest` names it: the record, and its 0-based position in the run's `truths`. */
export interface IndexedTruth extends EvalTruth {
  index: number;
}

/**
 * Precision = matched / predictions, recall = matched / truths, F1 their harmonic mean; a zero
 * denominator gives 0 (no predictions → precision 0), and F1 is 0 when P + R is 0.
 */
export function prfFigures(predictions: number, truths: number, matched: number): PrfFigures {
  const precision = predictions === 0 ? 0 : matched / predictions;
  const recall = truths === 0 ? 0 : matched / truths;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, predictions, truths, matched };
}
