/**
 * Running headers, footers and page numbers: lines in the top or bottom margin band that repeat
 * (with digits ignored, so "PHYSICAL REVIEW B 94, 161104 (2016)" matches across pages) on many
 * pages, or that are only a page number. Pure (no pdf.js).
 */
import type { TextLine } from './text-lines';

/** Page lines plus the page height in points. */
export interface PageLines {
  lines: TextLine[];
  height: number;
}

/** Margin bands: the top and bottom 9 % of the page (≈ 0.95 in on A4/Letter, where headers sit). */
const MARGIN_SHARE = 0.09;
/** A line must recur on at least this share of pages (alternating odd/even headers reach ~50 %). */
const MIN_REPEAT_SHARE = 0.3;

const PAGE_NUMBER = /^(?:-\s*)?(?:page\s+)?\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?(?:\s*-)?$/i;

/**
 * A line that reads as a sentence: it starts with a capital letter or a digit, ends with . ! or ?
 * (a closing bracket or quote may follow), has at least four words and three in lower case.
 * Running heads name the paper (title, journal, volume, authors, page, DOI) and carry no final
 * stop; a sentence states something, so a repeated one is kept once (issue 27, item 12: a fact
 * printed on every page was dropped everywhere, its only statement with it).
 */
export function isSentenceLine(text: string): boolean {
  const trimmed = text.trim();
  if (!/^[\p{Lu}\p{N}]/u.test(trimmed) || !/[.!?][)\]"'\u2019\u201d]?$/u.test(trimmed)) return false;
  const words = trimmed.split(/\s+/).filter((word) => /\p{L}/u.test(word));
  // Prose has lower-case words; "et al." after authors' names is not prose.
  const lowerCase = words.filter((word) => /^\p{Ll}{2,}/u.test(word) && !/^(?:et|al)\.?$/.test(word));
  return words.length >= 4 && lowerCase.length >= 3;
}

type Zone = 'top' | 'bottom';

function zoneOf(line: TextLine, height: number): Zone | null {
  return line.y >= height * (1 - MARGIN_SHARE) ? 'top' : line.y <= height * MARGIN_SHARE ? 'bottom' : null;
}

/**
 * Pieces of a margin line split at gaps wider than 2 em ("J. Phys. 28 (2016) 094014" and
 * "L-H Liu et al" are one line on a single-column page and two on a two-column page), each as
 * a comparison key with case, digits and spaces ignored.
 */
function segmentKeys(line: TextLine, zone: Zone): string[] {
  const pieces: string[][] = [[]];
  let previousEnd: number | undefined;
  for (const fragment of line.fragments) {
    if (previousEnd !== undefined && fragment.x - previousEnd > 2 * fragment.fontSize) pieces.push([]);
    pieces.at(-1)!.push(fragment.text);
    previousEnd = fragment.x + fragment.width;
  }
  return pieces.map((piece) => `${zone}:${piece.join('').toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, '')}`);
}

/**
 * Remove running headers/footers and page numbers from every page: a line in the top or bottom
 * band is dropped when each of its pieces recurs on ≥ 30 % of pages (at least 2) or is a page
 * number, except the first occurrence of a repeated sentence (`isSentenceLine`), which is kept.
 * Returns new arrays; lines outside the margin bands are never removed. With one page only bare
 * page numbers go.
 */
export function dropRunningLines(pages: readonly PageLines[]): TextLine[][] {
  const pagesPerKey = new Map<string, Set<number>>();
  pages.forEach((page, pageIndex) => {
    for (const line of page.lines) {
      const zone = zoneOf(line, page.height);
      if (!zone) continue;
      for (const key of segmentKeys(line, zone)) {
        const seen = pagesPerKey.get(key) ?? new Set<number>();
        seen.add(pageIndex);
        pagesPerKey.set(key, seen);
      }
    }
  });
  const minimumPages = Math.max(2, Math.ceil(MIN_REPEAT_SHARE * pages.length));
  const pageNumberKey = (key: string): boolean => PAGE_NUMBER.test(key.slice(key.indexOf(':') + 1).replace(/#/g, '1'));
  const sentencesKept = new Set<string>();
  return pages.map((page) =>
    page.lines.filter((line) => {
      const zone = zoneOf(line, page.height);
      if (!zone) return true;
      if (PAGE_NUMBER.test(line.text.trim())) return false;
      const keys = segmentKeys(line, zone);
      if (!keys.every((key) => pageNumberKey(key) || (pagesPerKey.get(key)?.size ?? 0) >= minimumPages)) return true;
      const sentence = line.text.replace(/\s+/g, ' ').trim();
      if (!isSentenceLine(sentence) || sentencesKept.has(sentence)) return false;
      sentencesKept.add(sentence);
      return true;
    }),
  );
}
