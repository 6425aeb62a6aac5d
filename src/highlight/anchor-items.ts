/**
 * Find each fact's evidence quote in the live page text and turn it into a DOM `Range`, with the
 * reason in words for every quote that cannot be placed. The search itself is the capture's
 * anchoring (src/text/anchoring: exact, whitespace-folded, then approximate quote + context);
 * this file only adds the narrowing to the printed value and the diagnosis of failures.
 */
import type { HighlightItem } from '../contracts/messages';
import { anchorEvidence, foldText, MIN_FUZZY_QUOTE_LENGTH, MIN_FUZZY_QUOTE_SIMILARITY, MIN_FUZZY_SCORE } from '../text/anchoring';
import { splitElidedQuote } from '../text/anchoring/elided-quote';
import { toOriginalSpan } from '../text/anchoring/folded-text';
import { bestQuoteMatch, fuzzyQuoteMatches, scoreQuoteMatch } from '../text/anchoring/match-quote';
import type { PageText } from './page-text';

/** A fact placed in the page: the range painted, and the span of the page text it covers. */
export interface AnchoredItem {
  item: HighlightItem;
  range: Range;
  /** [start, end) in `PageText.text` of the painted range (the mark, or the whole quote; a rejected item's mark only). */
  start: number;
  end: number;
}

/** A fact not placed, with the reason in words. */
export interface FailedItem {
  id: string;
  reason: string;
}

export interface AnchorResult {
  anchored: AnchoredItem[];
  failed: FailedItem[];
}

/** Where the mark lies in the anchored quote, as offsets into the page text, or null when it is not there. */
function markSpan(pageText: string, quoteStart: number, quoteEnd: number, mark: string | undefined): { start: number; end: number } | null {
  if (mark === undefined || mark.trim() === '') return null;
  const quote = pageText.slice(quoteStart, quoteEnd);
  const exact = quote.indexOf(mark);
  if (exact >= 0) return { start: quoteStart + exact, end: quoteStart + exact + mark.length };
  // "1.7eV" against "1.7 eV", U+2212 against "-": the same value printed with other spacing or dashes.
  const foldedQuote = foldText(quote);
  const foldedMark = foldText(mark).text;
  if (foldedMark.length === 0) return null;
  const folded = foldedQuote.text.indexOf(foldedMark);
  if (folded < 0) return null;
  const span = toOriginalSpan(foldedQuote, folded, folded + foldedMark.length);
  return { start: quoteStart + span.start, end: quoteStart + span.end };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/**
 * Why `item`'s quote did not anchor in `text`, in words: the approximate search is repeated to
 * tell "nowhere" from "only a weak likeness" (and which threshold it missed).
 */
export function failureReason(text: string, item: HighlightItem): string {
  if (text.trim().length === 0) return 'the page has no visible text';
  const folded = foldText(text);
  const quote = foldText(item.quote.exact).text;
  if (quote.length === 0) return 'the quote is only whitespace and does not occur in the page as it is';
  if (splitElidedQuote(item.quote.exact).length > 1) {
    return 'the pieces of the shortened quote (around its "…") were not all found, in order and close together, in the page';
  }
  if (quote.length < MIN_FUZZY_QUOTE_LENGTH) {
    return `the quote was not found in the page, and it is too short (under ${MIN_FUZZY_QUOTE_LENGTH} characters) to be matched approximately`;
  }
  const context = { quote, prefix: foldText(item.quote.prefix).text, suffix: foldText(item.quote.suffix).text };
  const best = bestQuoteMatch(
    fuzzyQuoteMatches(folded.text, quote)
      .filter((candidate) => candidate.end > candidate.start)
      .map((candidate) => scoreQuoteMatch(folded.text, candidate, context)),
  );
  if (!best) return 'the quote was not found in the page';
  if (best.quoteSimilarity < MIN_FUZZY_QUOTE_SIMILARITY) {
    return (
      `the page changed and the quote matched only approximately below the threshold ` +
      `(${percent(best.quoteSimilarity)} of it alike, ${percent(MIN_FUZZY_QUOTE_SIMILARITY)} needed)`
    );
  }
  if (best.score < MIN_FUZZY_SCORE) {
    return 'a passage like the quote was found, but the text around it does not match the quote’s context, so it is probably another passage';
  }
  return 'the quote was not found in the page';
}

/**
 * Anchor every item's quote in `pageText` (`anchorEvidence`: exact, whitespace-folded, then
 * approximate quote + prefix/suffix, elided quotes piece by piece) and map it to a DOM `Range`.
 * When `item.mark` (the value as printed) occurs inside the anchored quote — exactly, or with
 * other whitespace and dashes — the range covers only the mark; otherwise the whole quote. A
 * rejected item is painted on its mark or not at all, and not where its mark overlaps the mark
 * of an item that is not rejected (it goes to `failed` with the reason).
 *
 * The item's `TextPositionSelector` is not used: its offsets point into `Article.text`, and the
 * page text has other furniture before the article, so a position would only mislead.
 *
 * Shapes: `anchored` in the order of `items`; `failed` holds `{ id, reason }` with the reason in
 * words (see `failureReason`; also "the quote was found only in text that cannot be
 * highlighted" when no text node lies under it). Never throws.
 */
export function anchorItems(items: readonly HighlightItem[], pageText: PageText): AnchorResult {
  const placed: Array<{ item: HighlightItem; start: number; end: number }> = [];
  const failed: FailedItem[] = [];
  for (const item of items) {
    const anchor = anchorEvidence(pageText.text, { quote: item.quote });
    if (!anchor) {
      failed.push({ id: item.id, reason: failureReason(pageText.text, item) });
      continue;
    }
    const mark = markSpan(pageText.text, anchor.start, anchor.end, item.mark);
    // A rejected fact is marked on its value only: painted over its whole sentence it would
    // cover the sentence's good facts in red (issue 28).
    if (!mark && item.status === 'rejected') {
      failed.push({ id: item.id, reason: REJECTED_WITHOUT_VALUE });
      continue;
    }
    placed.push({ item, ...(mark ?? { start: anchor.start, end: anchor.end }) });
  }
  const anchored: AnchoredItem[] = [];
  for (const entry of placed) {
    // Nor does a rejected mark cover another fact's mark (the same number claimed for another material).
    const covers = (other: (typeof placed)[number]) =>
      other !== entry && other.item.status !== 'rejected' && other.start < entry.end && entry.start < other.end;
    if (entry.item.status === 'rejected' && placed.some(covers)) {
      failed.push({ id: entry.item.id, reason: REJECTED_UNDER_ANOTHER });
      continue;
    }
    const range = pageText.rangeOf(entry.start, entry.end);
    if (!range) {
      failed.push({ id: entry.item.id, reason: 'the quote was found only in text that cannot be highlighted (symbols drawn as images)' });
      continue;
    }
    anchored.push({ ...entry, range });
  }
  return { anchored, failed };
}

/** Why a rejected fact is not painted when its value is not printed in its quote. */
export const REJECTED_WITHOUT_VALUE = 'rejected, and its value is not printed in its quote, so there is nothing of it to mark';
/** Why a rejected fact is not painted when its value is another fact's mark. */
export const REJECTED_UNDER_ANOTHER = 'rejected, and its value is the mark of another fact here, which it would cover';
