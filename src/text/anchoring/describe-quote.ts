import type { Evidence } from '../../contracts/evidence';

/**
 * Describe the span [start, end) of `text` as evidence selectors (W3C Web Annotation model, as
 * the Hypothesis client stores them): a `TextQuoteSelector` with `context` characters of prefix
 * and suffix, and a `TextPositionSelector` with the UTF-16 offsets.
 *
 * Shapes: `text` is `Article.text`; 0 ≤ start < end ≤ text.length; `context` ≥ 0 characters.
 * Errors: throws `RangeError` for an empty or out-of-range span (a quote cannot be empty).
 */
export function describeQuote(text: string, start: number, end: number, context = 32): Evidence {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > text.length || start >= end) {
    throw new RangeError(`cannot describe span [${start}, ${end}) of a text of ${text.length} characters`);
  }
  const contextLength = Math.max(0, Math.floor(context));
  return {
    quote: {
      type: 'TextQuoteSelector',
      exact: text.slice(start, end),
      prefix: text.slice(Math.max(0, start - contextLength), start),
      suffix: text.slice(end, Math.min(text.length, end + contextLength)),
    },
    position: { type: 'TextPositionSelector', start, end },
  };
}
