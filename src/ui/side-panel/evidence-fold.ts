/**
 * Long evidence folded to the sentence with the value: a model may quote a whole paragraph (the
 * tester's 3,336 px panel), while the reader needs the sentence that prints the number. Pure: the
 * panel's `EvidenceQuote` shows `shown` with a button to unfold the whole quote.
 */
import type { Triplet } from '../../contracts/triplet';
import { splitSentences } from '../../text/split-sentences';
import { printedValue } from '../../text/quantities/format-quantity';

/**
 * Quotes up to this many characters are shown whole: about four lines of the 420 px side panel,
 * two ordinary sentences of a paper. Longer ones are folded.
 */
export const FOLD_CHARACTERS = 280;

/** A quote as the panel shows it first: `shown` (the whole quote, or its sentence with the value) and whether anything was folded away. */
export interface FoldedEvidence {
  shown: string;
  folded: boolean;
}

/** The ways the value may be printed in the quote: as the triplet prints it, and each endpoint as a plain number. */
function valueSpellings(triplet: Pick<Triplet, 'value' | 'valueText'>): string[] {
  const endpoints = triplet.value.kind === 'number' ? [triplet.value.value] : [triplet.value.low, triplet.value.high];
  return [printedValue(triplet), ...endpoints.map(String)].filter((text) => text.trim() !== '');
}

/**
 * Fold `quote` when it is longer than `limit` characters (default `FOLD_CHARACTERS`): keep the
 * first sentence (`splitSentences`) that prints the triplet's value (as printed, else any
 * endpoint), else the first sentence; "…" marks what was left out before and after it. A quote of
 * one sentence, or one within the limit, is shown whole (`folded: false`).
 */
export function foldEvidence(quote: string, triplet: Pick<Triplet, 'value' | 'valueText'>, limit = FOLD_CHARACTERS): FoldedEvidence {
  if (quote.length <= limit) return { shown: quote, folded: false };
  const sentences = splitSentences(quote);
  if (sentences.length <= 1) return { shown: quote, folded: false };
  const spellings = valueSpellings(triplet);
  const sentence =
    spellings.flatMap((spelling) => sentences.filter((span) => quote.slice(span.start, span.end).includes(spelling)))[0] ?? sentences[0]!;
  const before = quote.slice(0, sentence.start).trim() === '' ? '' : '… ';
  const after = quote.slice(sentence.end).trim() === '' ? '' : ' …';
  return { shown: `${before}${quote.slice(sentence.start, sentence.end)}${after}`, folded: true };
}
