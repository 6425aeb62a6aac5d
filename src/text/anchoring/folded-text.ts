/**
 * A "folded" view of a text for quote matching: whitespace removed, line-end hyphenation undone,
 * compatibility characters (ligatures, non-breaking spaces) and dash/quote variants folded to
 * one form — with a map from every folded character back to the original offsets.
 *
 * Why fold: quotes that come back from a model, or that a person typed, differ from the
 * captured text in spacing and line breaks ("1eV" vs "1 eV", a sentence broken across lines),
 * in ligatures ("ﬁeld" vs "field") and in dashes (U+2212 minus vs hyphen). Matching on the
 * folded view and mapping back keeps evidence offsets in the original `Article.text`.
 *
 * Trade-off: dropping every whitespace character makes "a bc" and "ab c" equal. For quotes of a
 * sentence or so that never picks the wrong place in practice, and it makes the common
 * model-output differences free instead of costing edit-distance errors.
 */

/** The folded text and, for each folded character, the original span it came from. */
export interface FoldedText {
  text: string;
  /** `originalStart[i]`: offset in the original of the character folded into position i. */
  originalStart: number[];
  /** `originalEnd[i]`: end offset (exclusive) in the original of that character. */
  originalEnd: number[];
}

const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D]/;
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032]/;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033]/;
const WHITESPACE = /\s/;

/** Fold one character (a code point) to the string that stands for it in the folded view. */
function foldCharacter(character: string): string {
  if (WHITESPACE.test(character)) return '';
  if (DASHES.test(character)) return '-';
  if (SINGLE_QUOTES.test(character)) return "'";
  if (DOUBLE_QUOTES.test(character)) return '"';
  // NFKC expands ligatures (ﬁ → fi) and maps compatibility forms (µ → μ, full-width digits).
  const compatible = character.normalize('NFKC');
  return compatible.replace(/\s/g, '');
}

/**
 * True at a line-end hyphen: a letter, "-", whitespace, then a lower-case letter ("unam-\nbiguously").
 * The whitespace need not hold a newline: text copied out of a PDF by a model often keeps the
 * hyphen with a space ("semi- conductor"). Both sides of a match are folded alike, so the rare
 * true "n- and p-type" only loses its hyphen on both sides.
 */
function isLineEndHyphen(text: string, index: number): boolean {
  if (text[index] !== '-' || index === 0 || !/\p{L}/u.test(text[index - 1] ?? '')) return false;
  let cursor = index + 1;
  while (cursor < text.length && WHITESPACE.test(text[cursor]!)) cursor += 1;
  return cursor > index + 1 && /\p{Ll}/u.test(text[cursor] ?? '');
}

/**
 * Fold `text` (see the file comment). Linear in the length of the text; never throws (lone
 * surrogates are kept as they are).
 */
export function foldText(text: string): FoldedText {
  const parts: string[] = [];
  const originalStart: number[] = [];
  const originalEnd: number[] = [];
  let index = 0;
  while (index < text.length) {
    const codePoint = text.codePointAt(index)!;
    const width = codePoint > 0xffff ? 2 : 1;
    const character = text.slice(index, index + width);
    const folded = isLineEndHyphen(text, index) ? '' : foldCharacter(character);
    for (const unit of folded.split('')) {
      parts.push(unit);
      originalStart.push(index);
      originalEnd.push(index + width);
    }
    index += width;
  }
  return { text: parts.join(''), originalStart, originalEnd };
}

/**
 * Map a folded span [start, end) back to the original text. `end > start` is required; returns
 * the smallest original span covering the folded characters.
 */
export function toOriginalSpan(folded: FoldedText, start: number, end: number): { start: number; end: number } {
  return { start: folded.originalStart[start]!, end: folded.originalEnd[end - 1]! };
}

/**
 * Map an original offset to the folded view: the index of the first folded character that
 * comes from at or after `offset` (binary search; `folded.text.length` past the end).
 */
export function toFoldedOffset(folded: FoldedText, offset: number): number {
  let low = 0;
  let high = folded.originalStart.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (folded.originalStart[middle]! < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
