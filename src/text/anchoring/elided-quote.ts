/**
 * Quotes with omissions: curators and models shorten a long passage with an ellipsis ("...",
 * "…", "[...]"). Such a quote is not one span of the text, but its pieces are, in order.
 */

const ELLIPSIS = /\s*(?:\[\s*(?:\.\s*){3}\]|\[…\]|(?:\.\s*){3}|…)\s*/u;

/**
 * The pieces of a quote between ellipses, trimmed, in order; a quote without an ellipsis (or
 * with nothing on one side of it) gives one piece, itself. Pieces shorter than `minimumLength`
 * characters are dropped: a lone "the" cannot be placed.
 */
export function splitElidedQuote(exact: string, minimumLength = 8): string[] {
  const pieces = exact
    .split(ELLIPSIS)
    .map((piece) => piece.trim())
    .filter((piece) => piece.length >= minimumLength);
  return pieces.length > 1 ? pieces : [exact];
}

/**
 * Longest stretch of text an elided quote may cover: the quote's own length twice over plus
 * 1,000 characters (about a paragraph). Wider, and pieces of unrelated sentences pages apart
 * would pass for one quote, and the value check would read everything in between.
 */
export function maximumElidedSpan(exact: string): number {
  return 2 * exact.length + 1000;
}
