/**
 * Context recall, measured without a model (issue 11): does a property's model call ever show
 * the models the sentence or table row that states a true value?
 *
 * - A truth is *locatable* when its value as printed (any form equal after SI conversion within
 *   0.1%) and its material (any alias) occur in one sentence or table row of the captured text
 *   (`locateTruthEverywhere`, the same definition the attribution measurement uses).
 * - It is *in context* when one such span lies inside what one model call for that property
 *   shows (`ContextCall.ranges`, spans of `article.text`, taken together).
 * `contextRecall` = in context ÷ locatable. Truths that are not locatable (the value is in a
 * figure, or printed in another form than the truth's) cannot be recalled by any passage: they
 * are left out of the ratio but counted in `truths`.
 */
import type { TextSpan } from '../../contracts/text-span';
import type { TruthTriplet } from '../triplet-scorer-types';

/** One model call's view of the paper for a property: the spans of `article.text` it shows, and its prompt size. */
export interface ContextCall {
  ranges: readonly TextSpan[];
  /** Prompt tokens of the call (chat template included), counted with a real tokenizer where one is known. */
  promptTokens: number;
}

/** One paper for one property: its truths with the spans that state each, and the calls that property's run makes. */
export interface ContextCase {
  paper: string;
  truths: readonly { truth: TruthTriplet; located: readonly TextSpan[] }[];
  calls: readonly ContextCall[];
}

/** The figures of `assay eval <dataset> --context` for one way of building the calls. */
export interface ContextRecall {
  truths: number;
  locatable: number;
  inContext: number;
  /** inContext ÷ locatable (0 when nothing is locatable). */
  contextRecall: number;
  promptTokensPerCall: { median: number; p90: number };
  callsPerPaper: { median: number };
}

/**
 * Does `call` show all of `span`: is it covered by the call's ranges taken together? A sentence
 * longer than a chunk is cut into pieces, each shown with the piece before it (`shownSpan`), so
 * the pieces of one call overlap and together show a sentence no single piece holds.
 */
function inside(span: TextSpan, call: ContextCall): boolean {
  const ranges = call.ranges.filter((range) => range.start < span.end && span.start < range.end).sort((a, b) => a.start - b.start);
  let reached = span.start;
  for (const range of ranges) {
    if (range.start > reached) return false;
    reached = Math.max(reached, range.end);
    if (reached >= span.end) return true;
  }
  return false;
}

/** Nearest-rank quantile: the smallest value with at least `q` of the values at or below it (0 for none). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Score `cases` (one per paper and property). `promptTokensPerCall` is over every call of every
 * case; `callsPerPaper` sums the calls of a paper's properties (cases sharing `paper`), papers
 * with no call included.
 */
export function scoreContextRecall(cases: readonly ContextCase[]): ContextRecall {
  let truths = 0;
  let locatable = 0;
  let inContext = 0;
  const tokens: number[] = [];
  const callsByPaper = new Map<string, number>();
  for (const entry of cases) {
    for (const { located } of entry.truths) {
      truths += 1;
      if (located.length === 0) continue;
      locatable += 1;
      if (located.some((span) => entry.calls.some((call) => inside(span, call)))) inContext += 1;
    }
    tokens.push(...entry.calls.map((call) => call.promptTokens));
    callsByPaper.set(entry.paper, (callsByPaper.get(entry.paper) ?? 0) + entry.calls.length);
  }
  return {
    truths,
    locatable,
    inContext,
    contextRecall: locatable === 0 ? 0 : inContext / locatable,
    promptTokensPerCall: { median: quantile(tokens, 0.5), p90: quantile(tokens, 0.9) },
    callsPerPaper: { median: quantile([...callsByPaper.values()], 0.5) },
  };
}
