/**
 * Lines (in reading order) to blocks, and block kinds. Pure (no pdf.js).
 *
 * A new block starts at a region change (column or band), a vertical gap wider than 1.3× the
 * page's usual line spacing, a font-size change, an indented first line, a line that looks like
 * a section title, or a figure/table caption.
 */
import type { BlockKind } from '../../contracts/article';
import { joinLineTexts } from './join-lines';
import type { TextLine } from './text-lines';

export interface LayoutBlock {
  kind: BlockKind;
  text: string;
  /** 1-based page number. */
  page: number;
  /** Dominant font size in points. */
  fontSize: number;
  lines: TextLine[];
}

/** Typical leading is 1.1–1.25 em; a paragraph or section gap is at least ~30 % more. */
const GAP_FACTOR = 1.3;
const FALLBACK_SPACING = 1.2;

const NUMBERED_HEADING = /^(?:[IVX]{1,5}\.|\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-H]\.)\s+\p{Lu}/u;
const NAMED_HEADING =
  /^(?:abstract|introduction|experiment(?:al)?(?: details| section| methods| procedures?)?|methods?|materials and methods|theory|results(?: and discussion)?|discussion|conclusions?|summary(?: and conclusions?)?|acknowledge?ments?|references(?: and notes)?|bibliography|literature cited|appendix(?: [a-z0-9]+)?|supplementary (?:material|information)|figure captions?)\s*:?$/i;
const AFFILIATION = /universit|institut|department|laborator|college|school of|\binc\.|corporation|academy|centre|center for/i;
const CAPTION_START = /^(?:fig(?:ure)?s?\.?|table|tab\.)\s*(?:[0-9]+|[IVX]+)[a-z]?(?:\s*[.:|\u2014\u2013-]|\s*$|\s+\()/i;

/** Strip a section number ("2.1 ", "IV. ", "B. ") from a heading. */
export function stripSectionNumber(text: string): string {
  return text.replace(/^(?:[IVX]{1,5}\.|\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-H]\.)\s+/, '').trim();
}

/** True for a short line that reads as a section title whatever its font. */
export function looksLikeHeadingText(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length < 3 || trimmed.length > 100 || /[.,;:\-\u2010]$/.test(trimmed)) return false;
  if (NAMED_HEADING.test(stripSectionNumber(trimmed))) return true;
  if (!NUMBERED_HEADING.test(trimmed) || /^0/.test(trimmed) || AFFILIATION.test(trimmed)) return false;
  const words = stripSectionNumber(trimmed);
  const visible = words.replace(/\s+/g, '');
  const letters = words.match(/\p{L}/gu)?.length ?? 0;
  // "A. Smith, B. Jones" is an author list; "2.6 K is seen", "0.5 BCS" are a sentence and an axis
  // label: demand a first word of 3+ letters, mostly letters, and no commas after a letter number.
  return (
    /^\p{L}{3,}/u.test(words) && letters >= 0.6 * visible.length && !/=/.test(words) && !(/^[A-H]\./.test(trimmed) && trimmed.includes(','))
  );
}

/** True when a block's text opens like a figure or table caption ("FIG. 2.", "Table 1:"). */
export function looksLikeCaption(text: string): boolean {
  return CAPTION_START.test(text.trim());
}

/**
 * Kind of a block. `bodyFontSize` is the document's dominant size in points: a short block
 * at least 1 pt larger is a heading, as is a short all-capitals line or a numbered/named
 * section title.
 */
export function classifyBlock(text: string, lineCount: number, fontSize: number, bodyFontSize: number): BlockKind {
  if (looksLikeCaption(text)) return 'caption';
  const visible = text.replace(/\s+/g, '');
  const letterShare = (text.match(/\p{L}/gu)?.length ?? 0) / Math.max(1, visible.length);
  // Figure labels ("3.43 1.35 GPa", "10 CeCoIn5 4.2") are short and often large: headings are words.
  const short = lineCount <= 3 && text.length <= 150 && !/[.;,]$/.test(text) && /\p{L}{3}/u.test(text) && letterShare >= 0.6;
  if (!short) return 'paragraph';
  if (looksLikeHeadingText(text)) return 'heading';
  if (fontSize >= bodyFontSize + 1 && lineCount <= 2 && text.length <= 120) return 'heading';
  const letters = text.match(/\p{L}/gu) ?? [];
  const upper = text.match(/\p{Lu}/gu) ?? [];
  if (lineCount === 1 && letters.length >= 6 && upper.length / letters.length > 0.9 && text.length <= 80) return 'heading';
  return 'paragraph';
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((first, second) => first - second);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Most common left edge (rounded to 1 pt) of the lines of one region: the column margin. */
function marginOf(lines: readonly TextLine[]): Map<string, number> {
  const margins = new Map<string, number>();
  for (const region of ['full', 'left', 'right'] as const) {
    const counts = new Map<number, number>();
    for (const line of lines) if (line.region === region) counts.set(Math.round(line.x), (counts.get(Math.round(line.x)) ?? 0) + 1);
    if (counts.size)
      margins.set(
        region,
        [...counts].reduce((best, entry) => (entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0]) ? entry : best))[0],
      );
  }
  return margins;
}

function startsNewBlock(
  previous: TextLine,
  line: TextLine,
  spacing: number,
  margins: Map<string, number>,
  rightEdges: Map<string, number>,
): boolean {
  if (line.region !== previous.region || line.y >= previous.y - 0.1) return true;
  if (Math.abs(line.fontSize - previous.fontSize) > 0.9) return true;
  if ((previous.y - line.y) / line.fontSize > spacing * GAP_FACTOR) return true;
  if (looksLikeHeadingText(line.text) || looksLikeCaption(line.text)) return true;
  // After a heading-like line, unless it runs to the column edge (a heading wrapped over lines).
  if (looksLikeHeadingText(previous.text) && previous.right < (rightEdges.get(previous.region) ?? Infinity) - 2 * previous.fontSize)
    return true;
  const margin = margins.get(line.region) ?? line.x;
  const indent = (line.x - margin) / line.fontSize;
  const previousIndent = (previous.x - margin) / previous.fontSize;
  // A first-line indent (0.6–4 em) after a line flush with the margin opens a paragraph.
  return indent > 0.6 && indent < 4 && Math.abs(previousIndent) < 0.3;
}

/**
 * Group one page's lines (already in reading order, running headers removed) into blocks.
 * `hyphenatedWords` feeds de-hyphenation (see `joinLineTexts`).
 */
export function buildPageBlocks(
  lines: readonly TextLine[],
  page: number,
  bodyFontSize: number,
  hyphenatedWords: ReadonlySet<string>,
): LayoutBlock[] {
  const ratios: number[] = [];
  for (let index = 1; index < lines.length; index++) {
    const previous = lines[index - 1]!;
    const line = lines[index]!;
    if (previous.region === line.region && previous.y > line.y && Math.abs(previous.fontSize - line.fontSize) < 0.5) {
      ratios.push((previous.y - line.y) / line.fontSize);
    }
  }
  const spacing = median(ratios) ?? FALLBACK_SPACING;
  const margins = marginOf(lines);
  const rightEdges = new Map<string, number>();
  for (const line of lines) rightEdges.set(line.region, Math.max(rightEdges.get(line.region) ?? -Infinity, line.right));
  const groups: TextLine[][] = [];
  lines.forEach((line, index) => {
    const previous = lines[index - 1];
    if (!previous || startsNewBlock(previous, line, spacing, margins, rightEdges)) groups.push([line]);
    else groups.at(-1)!.push(line);
  });
  const blocks = groups.map((group) => {
    const text = joinLineTexts(
      group.map((line) => line.text),
      hyphenatedWords,
    );
    const fontSize = dominantFontSize(group);
    return { kind: classifyBlock(text, group.length, fontSize, bodyFontSize), text, page, fontSize, lines: group };
  });
  return mergeContinuations(blocks, hyphenatedWords);
}

/**
 * Re-join a paragraph broken by a column or band change on the same page: the first part ends
 * mid-sentence (no final punctuation, or a hyphen) and the next starts in lower case. Blocks on
 * different pages stay apart so each keeps its page number.
 */
export function mergeContinuations(blocks: readonly LayoutBlock[], hyphenatedWords: ReadonlySet<string>): LayoutBlock[] {
  const merged: LayoutBlock[] = [];
  const unfinished = (block: LayoutBlock | undefined): block is LayoutBlock =>
    block?.kind === 'paragraph' && !/[.!?:]["”')\]]?$/.test(block.text);
  for (const block of blocks) {
    const continuation = block.kind === 'paragraph' && /^\p{Ll}/u.test(block.text);
    // A footnote in a smaller font at the foot of the first column may sit in between: the
    // paragraph is re-joined and the footnote follows it.
    const last = merged.at(-1);
    const footnoteBetween = last !== undefined && last.fontSize < block.fontSize - 0.5 && unfinished(merged.at(-2));
    const targetIndex = footnoteBetween ? merged.length - 2 : merged.length - 1;
    const target = merged[targetIndex];
    if (continuation && unfinished(target) && Math.abs(target.fontSize - block.fontSize) < 0.5) {
      merged[targetIndex] = {
        ...target,
        text: joinLineTexts([target.text, block.text], hyphenatedWords),
        lines: [...target.lines, ...block.lines],
      };
    } else {
      merged.push(block);
    }
  }
  return merged;
}

/** The font size carrying most characters over some lines (the body size, for a whole document). */
export function dominantFontSize(lines: Iterable<TextLine>): number {
  const weights = new Map<number, number>();
  for (const line of lines) {
    const size = Math.round(line.fontSize * 10) / 10;
    weights.set(size, (weights.get(size) ?? 0) + line.text.length);
  }
  let best = 10;
  let bestWeight = -1;
  for (const [size, weight] of weights) if (weight > bestWeight) [best, bestWeight] = [size, weight];
  return best;
}
