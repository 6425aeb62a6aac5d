/**
 * Re-anchoring evidence in a text, in the manner of the Hypothesis client: the stored position
 * first, then an exact search for the quote, then a fuzzy search — each scored on quote,
 * prefix, suffix and position agreement.
 */
import type { Evidence } from '../../contracts/evidence';
import { maximumElidedSpan, splitElidedQuote } from './elided-quote';
import { foldText, toFoldedOffset, toOriginalSpan, type FoldedText } from './folded-text';
import {
  bestQuoteMatch,
  exactOccurrences,
  fuzzyQuoteMatches,
  scoreQuoteMatch,
  type QuoteContext,
  type ScoredQuoteMatch,
} from './match-quote';

/** Where a quote was found: UTF-16 offsets into the text (end exclusive) and how. */
export interface Anchor {
  start: number;
  end: number;
  /** Agreement in [0, 1] of quote, context and position (1 for a position hit). */
  score: number;
  method: 'position' | 'exact' | 'fuzzy';
}

/**
 * A fuzzy match must keep at least this share of the (folded) quote unchanged. Lower lets a
 * paraphrase or a look-alike sentence anchor, which grounding must not accept; higher rejects
 * OCR slips and a model's small copying errors, which it should.
 */
export const MIN_FUZZY_QUOTE_SIMILARITY = 0.8;
/** Overall score under which a fuzzy match is rejected (quote right but context all wrong). */
export const MIN_FUZZY_SCORE = 0.5;
/**
 * Quotes shorter than this many folded characters are matched exactly only: at "3.4eV" one
 * allowed error already matches "3.5eV" anywhere in the article.
 */
export const MIN_FUZZY_QUOTE_LENGTH = 16;

function positionHit(text: string, evidence: Evidence): Anchor | null {
  const position = evidence.position;
  if (!position) return null;
  if (position.start < 0 || position.end > text.length || position.start >= position.end) return null;
  return text.slice(position.start, position.end) === evidence.quote.exact
    ? { start: position.start, end: position.end, score: 1, method: 'position' }
    : null;
}

function quoteContext(folded: FoldedText, evidence: Evidence): QuoteContext {
  const position = evidence.position;
  return {
    quote: foldText(evidence.quote.exact).text,
    prefix: foldText(evidence.quote.prefix).text,
    suffix: foldText(evidence.quote.suffix).text,
    hint: position ? toFoldedOffset(folded, position.start) : undefined,
  };
}

/** Exact occurrences in the original text, scored in the folded view; best one or null. */
function exactInOriginal(text: string, folded: FoldedText, context: QuoteContext, exact: string): Anchor | null {
  const scored: Array<ScoredQuoteMatch & { originalStart: number }> = [];
  for (const start of exactOccurrences(text, exact)) {
    const foldedStart = toFoldedOffset(folded, start);
    const foldedEnd = toFoldedOffset(folded, start + exact.length);
    scored.push({ ...scoreQuoteMatch(folded.text, { start: foldedStart, end: foldedEnd, errors: 0 }, context), originalStart: start });
  }
  const best = bestQuoteMatch(scored);
  return best ? { start: best.originalStart, end: best.originalStart + exact.length, score: best.score, method: 'exact' } : null;
}

/** Exact occurrences in the folded view (spacing, hyphenation, ligatures differ); best or null. */
function exactInFolded(folded: FoldedText, context: QuoteContext): Anchor | null {
  const scored = exactOccurrences(folded.text, context.quote).map((start) =>
    scoreQuoteMatch(folded.text, { start, end: start + context.quote.length, errors: 0 }, context),
  );
  const best = bestQuoteMatch(scored);
  return best ? { ...toOriginalSpan(folded, best.start, best.end), score: best.score, method: 'exact' } : null;
}

function fuzzy(folded: FoldedText, context: QuoteContext): Anchor | null {
  if (context.quote.length < MIN_FUZZY_QUOTE_LENGTH) return null;
  const scored = fuzzyQuoteMatches(folded.text, context.quote)
    .filter((candidate) => candidate.end > candidate.start)
    .map((candidate) => scoreQuoteMatch(folded.text, candidate, context));
  const best = bestQuoteMatch(scored);
  if (!best || best.quoteSimilarity < MIN_FUZZY_QUOTE_SIMILARITY || best.score < MIN_FUZZY_SCORE) return null;
  return { ...toOriginalSpan(folded, best.start, best.end), score: best.score, method: 'fuzzy' };
}

/** Anchor the quote as one span: position, exact, folded exact, fuzzy. */
function anchorWholeQuote(text: string, evidence: Evidence): Anchor | null {
  const exact = evidence.quote.exact;
  const byPosition = positionHit(text, evidence);
  if (byPosition) return byPosition;
  const folded = foldText(text);
  const context = quoteContext(folded, evidence);
  const inOriginal = exactInOriginal(text, folded, context, exact);
  if (inOriginal) return inOriginal;
  // A quote of whitespace only folds to nothing: only its exact occurrence (above) can anchor it.
  if (context.quote.length === 0) return null;
  return exactInFolded(folded, context) ?? fuzzy(folded, context);
}

/**
 * Anchor the pieces of an elided quote one after another, each searched after the previous
 * one; the anchor spans first to last piece, takes the weakest method and the lowest score,
 * and must stay within `maximumElidedSpan`.
 */
function anchorElidedQuote(text: string, evidence: Evidence, pieces: string[]): Anchor | null {
  let from = 0;
  let first: Anchor | undefined;
  let last: Anchor | undefined;
  let score = 1;
  let method: Anchor['method'] = 'exact';
  for (const [index, piece] of pieces.entries()) {
    const prefix = index === 0 ? evidence.quote.prefix : '';
    const suffix = index === pieces.length - 1 ? evidence.quote.suffix : '';
    const found = anchorWholeQuote(text.slice(from), { quote: { type: 'TextQuoteSelector', exact: piece, prefix, suffix } });
    if (!found) return null;
    const anchor = { ...found, start: found.start + from, end: found.end + from };
    first ??= anchor;
    last = anchor;
    score = Math.min(score, anchor.score);
    if (anchor.method === 'fuzzy') method = 'fuzzy';
    from = anchor.end;
  }
  if (!first || !last || last.end - first.start > maximumElidedSpan(evidence.quote.exact)) return null;
  return { start: first.start, end: last.end, score, method };
}

/**
 * Find `evidence` in `text`: returns the span it anchors to, or `null` when the quote is not
 * there. Order: (1) the `TextPositionSelector`, when `text.slice(start, end)` is exactly the
 * quote; (2) exact occurrences of the quote, then of its folded form (whitespace, line-end
 * hyphens, ligatures and dash variants ignored) — several hits are told apart by prefix, suffix
 * and closeness to the stale position; (3) a fuzzy match (approx-string-match, error budget
 * min(256, ⌊length / 2⌋)), rejected under `MIN_FUZZY_QUOTE_SIMILARITY` / `MIN_FUZZY_SCORE`;
 * (4) for a quote shortened with an ellipsis ("…", "..."), its pieces in order, within
 * `maximumElidedSpan`.
 *
 * Shapes: offsets are UTF-16 indices into `text`. Never throws on well-typed input (an
 * out-of-range position is ignored).
 */
export function anchorEvidence(text: string, evidence: Evidence): Anchor | null {
  if (evidence.quote.exact.length === 0 || text.length === 0) return null;
  const whole = anchorWholeQuote(text, evidence);
  if (whole) return whole;
  const pieces = splitElidedQuote(evidence.quote.exact);
  return pieces.length > 1 ? anchorElidedQuote(text, evidence, pieces) : null;
}
