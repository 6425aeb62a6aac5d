/**
 * Span scoring shared by the MeasEval, MuLMS, SOFC-Exp and MSPTC evaluations. Exact: same start
 * and end. Overlap: one-to-one greedy matching of spans that share at least one character, each
 * match scoring the SQuAD-style token F1 of the two strings (MeasEval's "overlap" measure).
 * `matchSpans` gives the whole-match counts of the re-scorable `strict`/`lenient` figures.
 */
import type { ReportedValue } from '../contracts/triplet';
import { maximumMatching } from './bipartite-matching';
import { parseValueText } from '../text/quantities/value-text';
import type { EvalPrediction } from './rescorable';

export interface Span {
  start: number;
  end: number;
  text: string;
}

export interface SpanCounts {
  predicted: number;
  gold: number;
  exactMatches: number;
  overlapScore: number;
}

/** SQuAD token F1 of two strings (whitespace tokens, case-insensitive). */
export function tokenF1(predicted: string, gold: string): number {
  const a = predicted.toLowerCase().split(/\s+/).filter(Boolean);
  const b = gold.toLowerCase().split(/\s+/).filter(Boolean);
  const counts = new Map<string, number>();
  for (const token of b) counts.set(token, (counts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of a) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      common++;
      counts.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / a.length;
  const recall = common / b.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Exact and overlap matches between predicted and gold spans of one document. */
export function countSpans(predicted: Span[], gold: Span[]): SpanCounts {
  const exactKeys = new Set(gold.map((span) => `${span.start}:${span.end}`));
  const exactMatches = new Set(predicted.map((span) => `${span.start}:${span.end}`).filter((key) => exactKeys.has(key))).size;
  const used = new Set<number>();
  let overlapScore = 0;
  for (const span of predicted) {
    let best = -1;
    let bestScore = 0;
    gold.forEach((candidate, index) => {
      if (used.has(index) || candidate.end <= span.start || candidate.start >= span.end) return;
      const score = Math.max(tokenF1(span.text, candidate.text), 1e-9);
      if (score > bestScore) {
        best = index;
        bestScore = score;
      }
    });
    if (best >= 0) {
      used.add(best);
      overlapScore += bestScore;
    }
  }
  return { predicted: predicted.length, gold: gold.length, exactMatches, overlapScore };
}

/** Precision, recall and F1 from summed counts (0 when a denominator is 0). */
export function prf(matched: number, predicted: number, gold: number): import('./rescorable').Prf {
  const precision = predicted ? matched / predicted : 0;
  const recall = gold ? matched / gold : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** Add counts together. */
export function addCounts(total: SpanCounts, counts: SpanCounts): SpanCounts {
  return {
    predicted: total.predicted + counts.predicted,
    gold: total.gold + counts.gold,
    exactMatches: total.exactMatches + counts.exactMatches,
    overlapScore: total.overlapScore + counts.overlapScore,
  };
}

export const emptyCounts: SpanCounts = { predicted: 0, gold: 0, exactMatches: 0, overlapScore: 0 };

/** Offsets of a span, end exclusive (UTF-16 code units of the document text). */
export interface Offsets {
  start: number;
  end: number;
}

/** A parsed quantity as a re-scorable prediction row, with its offsets in the document. */
export type QuantityPrediction = Omit<EvalPrediction, 'value'> & Offsets & { value: ReportedValue };

/**
 * One quantity of the parser (`parseQuantities`: `{ start, end, text, value, unit }`, offsets in
 * the text it read) as a prediction row of document `paper`: property `quantity`, no material,
 * the span text as value text and quote, status `extracted`; `offset` (default 0) is added to
 * its offsets when the parser read a slice of the document.
 */
export function quantityPrediction(
  paper: string,
  quantity: { start: number; end: number; text: string; value: ReportedValue; unit: string },
  offset = 0,
): QuantityPrediction {
  return {
    paper,
    material: '',
    property: 'quantity',
    value: quantity.value,
    valueText: quantity.text,
    unit: quantity.unit,
    quote: quantity.text,
    status: 'extracted',
    start: offset + quantity.start,
    end: offset + quantity.end,
  };
}

/**
 * How spans are matched for the re-scorable `strict`/`lenient` figures: `strict` = the same
 * start and end (the exact-span rule of conlleval, MeasEval's "exact" and the MuLMS NER
 * scorer), `lenient` = at least one shared character (MeasEval's overlap, counted as whole
 * matches here rather than weighted by token F1).
 */
export type SpanMode = 'strict' | 'lenient';

/**
 * Size of a one-to-one maximum matching between `predicted` and `gold` spans of one document
 * under `mode` (`maximumMatching`, so that one long prediction overlapping two truths counts
 * once). `sameValue`, when given, must also hold for a strict pair (the value read from the
 * span equals the truth's). Returns the matched count and the `[predicted, gold]` index pairs.
 */
export function matchSpans<P extends Offsets, G extends Offsets>(
  predicted: readonly P[],
  gold: readonly G[],
  mode: SpanMode,
  sameValue?: (prediction: P, truth: G) => boolean,
): { matched: number; pairs: Array<[number, number]> } {
  const { size, pairs } = maximumMatching(predicted.length, gold.length, (left, right) => {
    const prediction = predicted[left]!;
    const truth = gold[right]!;
    if (mode === 'lenient') return prediction.start < truth.end && prediction.end > truth.start;
    return prediction.start === truth.start && prediction.end === truth.end && (sameValue?.(prediction, truth) ?? true);
  });
  return { matched: size, pairs };
}

/**
 * The value an annotated span states, for the re-scorable truths: `parseValueText` of its text,
 * or null when it holds no leading number ("five") or more numbers after the first (a list
 * "2619.60, 2617.35 and 2614.71 m", a ratio "1:2"), which one `ReportedValue` cannot state.
 */
export function spanValue(text: string): ReportedValue | null {
  const parsed = parseValueText(text);
  return parsed && !/\d/u.test(parsed.unitText) ? parsed.value : null;
}
