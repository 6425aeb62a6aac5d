/**
 * Leave out the text a reader of the page cannot see (issue 27, item 3): pdf.js's text content
 * gives every glyph drawn, painted or not. Each text item is matched to the runs of
 * `drawn-text.ts` by its characters: pdf.js builds both from one walk of the content stream, so
 * the items' characters are the runs' characters in the same order, less whitespace and the
 * duplicate glyphs of fake bold. A whole item is found in the runs' text at or after where the
 * previous one ended; when normalisation differs it is matched character by character, and a
 * character matched to no run is kept (the capture as before). Pure.
 */
import { backgroundAt, contains, type DrawnRun, type DrawnText, type Rgb } from './drawn-text';

const WHITE: Rgb = [1, 1, 1];
import type { PdfTextItem } from './pdfjs-types';

/** Why text was left out. */
export type HiddenReason = 'invisible' | 'same-colour' | 'transparent' | 'tiny' | 'clipped' | 'hidden-layer';

export interface VisibleText {
  /** The visible items; an item part-visible is cut into its visible pieces. */
  items: PdfTextItem[];
  /** Non-whitespace characters left out, and why. */
  hiddenCharacters: number;
  reasons: HiddenReason[];
  /** True when the page's text was taken as an OCR layer (drawn invisible) and kept. */
  ocrLayer: boolean;
}

/**
 * Smallest text a reader sees: 1 pt (0.35 mm, a fifth of a 5 pt footnote); the hidden text the
 * issue found was 0.1 pt. The em of a text item is not enough: Type 3 fonts carry their size in
 * a font matrix the transform leaves out, and the ../shared PDFs have figure labels with a
 * 1.03 pt em that print about 11 pt tall (5.8 pt advance per character). So text is tiny when
 * its em is under this and so is its advance per character, or when its advance alone is under
 * a quarter of it (glyphs squeezed by horizontal scaling near 0).
 */
export const MIN_VISIBLE_FONT_SIZE = 1;
/**
 * Text and background closer than this in every RGB channel (0–1) cannot be told apart: 0.1 is
 * about 26/255, so #f0f0f0 on white is hidden while light grey (#cccccc) or yellow on white is not.
 */
export const MIN_COLOUR_DIFFERENCE = 0.1;
/** Opacity under which painted text does not show: 0.1 (a 10 % tint of black is #e6e6e6). */
export const MIN_VISIBLE_ALPHA = 0.1;
/**
 * Share of a page's characters drawn invisible (render mode 3 or 7) from which the page is an
 * OCR layer over a scanned image and is kept: 0.8, because scans often carry a visible line
 * ("Downloaded from …") while hidden text slipped into a real page is a small share of it.
 */
export const OCR_LAYER_SHARE = 0.8;

/** How far ahead in the runs' text an item is looked for (fake bold repeats a line at most). */
const SEARCH_AHEAD = 2048;
/** How far ahead a single character is looked for when its item is not found whole. */
const CHARACTER_AHEAD = 16;

interface Skeleton {
  /** Characters that count: NFKC, no whitespace or format characters. */
  text: string;
  /** For each of them, the index in the source string (item) or the run (drawn text). */
  source: number[];
}

function skeletonOf(pieces: readonly string[]): Skeleton {
  let text = '';
  const source: number[] = [];
  pieces.forEach((piece, index) => {
    for (const character of piece) {
      const code = character.charCodeAt(0);
      // ASCII needs no normalisation (most of a paper); the rest is compared in NFKC.
      const kept = code < 0x80 ? (code <= 0x20 || code === 0x7f ? '' : character) : character.normalize('NFKC').replace(/[\s\p{Cf}]/gu, '');
      text += kept;
      for (let count = 0; count < kept.length; count++) source.push(index);
    }
  });
  return { text, source };
}

/** Code units of `text` as [start, end) per code point. */
function codePointSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let at = 0;
  for (const character of text) {
    spans.push([at, at + character.length]);
    at += character.length;
  }
  return spans;
}

/**
 * The visible part of `items` (pdf.js text items of one page) given how the page drew its text
 * (`drawn`). Text is left out when drawn invisible (render mode 3 or 7, unless the page is an OCR
 * layer, `OCR_LAYER_SHARE`), in its background's colour (`MIN_COLOUR_DIFFERENCE`; the background
 * is the last filled area under it, else white paper), nearly transparent, smaller than
 * `MIN_VISIBLE_FONT_SIZE`, outside the page or its clip, or on a layer that is switched off.
 */
export function visibleText(items: readonly PdfTextItem[], drawn: DrawnText): VisibleText {
  const runs = drawn.runs;
  const runText = skeletonOf(runs.map((run) => run.text));
  const invisibleCharacters = runText.source.filter((index) => isInvisibleMode(runs[index]!.paint.mode)).length;
  const ocrLayer = runText.text.length > 0 && invisibleCharacters >= OCR_LAYER_SHARE * runText.text.length;
  // Text can only match its background if it matches white paper or some rectangle's colour.
  const solidColours = [WHITE, ...drawn.areas.filter((area) => area.solid && area.colour).map((area) => area.colour!)];
  const page: PageContext = { drawn, ocrLayer, mayMatchBackground: (colour) => solidColours.some((solid) => !differs(colour, solid)) };

  const kept: PdfTextItem[] = [];
  const reasons = new Set<HiddenReason>();
  let hiddenCharacters = 0;
  let cursor = 0;
  for (const item of items) {
    const spans = codePointSpans(item.str);
    const itemText = skeletonOf(spans.map(([start, end]) => item.str.slice(start, end)));
    const matched = matchRuns(itemText.text, runText, cursor);
    const runOfCharacter = matched.runOfCharacter;
    cursor = matched.cursor;

    // Per code point of the item: the reason it is hidden, null when seen, undefined when neutral.
    const itemReason = sizeReason(item);
    const verdicts = new Array<HiddenReason | null | undefined>(spans.length).fill(undefined);
    const runReasons = new Map<number, HiddenReason | null>();
    for (let index = 0; index < itemText.text.length; index++) {
      const codePoint = itemText.source[index]!;
      const run = runOfCharacter[index]!;
      let reason: HiddenReason | null = itemReason;
      if (reason === null && run >= 0) {
        if (!runReasons.has(run)) runReasons.set(run, runReason(runs[run]!, item, spans, codePoint, page));
        reason = runReasons.get(run)!;
      }
      // A code point is seen if any of its characters is.
      verdicts[codePoint] = verdicts[codePoint] === null ? null : reason;
    }
    for (const piece of pieces(item, spans, verdicts)) {
      if (piece.reason === null) kept.push(piece.item);
      else {
        hiddenCharacters += piece.item.str.replace(/\s+/g, '').length;
        reasons.add(piece.reason);
      }
    }
  }
  return { items: kept, hiddenCharacters, reasons: [...reasons], ocrLayer };
}

/**
 * The run each character of `text` (an item's skeleton) was drawn by, -1 where none is found,
 * searching `runText` from `cursor`; and where the next item's search starts.
 */
function matchRuns(text: string, runText: Skeleton, cursor: number): { runOfCharacter: number[]; cursor: number } {
  const runOfCharacter = new Array<number>(text.length).fill(-1);
  const found = text ? runText.text.slice(cursor, cursor + SEARCH_AHEAD + text.length).indexOf(text) : -1;
  if (found >= 0) {
    for (let index = 0; index < text.length; index++) runOfCharacter[index] = runText.source[cursor + found + index]!;
    return { runOfCharacter, cursor: cursor + found + text.length };
  }
  for (let index = 0; index < text.length; index++) {
    const at = runText.text.slice(cursor, cursor + CHARACTER_AHEAD).indexOf(text[index]!);
    if (at < 0) continue;
    runOfCharacter[index] = runText.source[cursor + at]!;
    cursor += at + 1;
  }
  return { runOfCharacter, cursor };
}

function isInvisibleMode(mode: number): boolean {
  return mode === 3 || mode === 7;
}

/** 'tiny' when `item` is smaller than `MIN_VISIBLE_FONT_SIZE` (see there for the rule). */
function sizeReason(item: PdfTextItem): HiddenReason | null {
  const [, , c = 0, d = 1] = item.transform;
  const characters = item.str.replace(/\s+/g, '').length;
  const advance = characters > 0 && item.width > 0 ? item.width / characters : null;
  const small = Math.hypot(c, d) < MIN_VISIBLE_FONT_SIZE && (advance === null || advance < MIN_VISIBLE_FONT_SIZE);
  const squeezed = advance !== null && advance < MIN_VISIBLE_FONT_SIZE / 4;
  return small || squeezed ? 'tiny' : null;
}

/**
 * Where on the page code point `index` of `item` is: its middle along the baseline, lifted by
 * `lift` ems ((c, d) of the transform is the text's "up" vector, one em long).
 */
function pointOf(item: PdfTextItem, spans: ReadonlyArray<[number, number]>, index: number, lift: number): [number, number] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
  const along = item.str.length ? (((spans[index]![0] + spans[index]![1]) / 2) * item.width) / item.str.length : 0;
  const scale = Math.hypot(a, b) || 1;
  return [e + (a / scale) * along + lift * c, f + (b / scale) * along + lift * d];
}

interface PageContext {
  drawn: DrawnText;
  ocrLayer: boolean;
  /** False when `colour` differs from white and from every filled rectangle of the page. */
  mayMatchBackground: (colour: Rgb | null) => boolean;
}

function runReason(
  run: DrawnRun,
  item: PdfTextItem,
  spans: ReadonlyArray<[number, number]>,
  index: number,
  page: PageContext,
): HiddenReason | null {
  const paint = run.paint;
  if (paint.hiddenLayer) return 'hidden-layer';
  if (isInvisibleMode(paint.mode)) return page.ocrLayer ? null : 'invisible';
  // A glyph's body lies between 0.1 and 0.6 em above the baseline; clipped when its middle is.
  const [x, y] = pointOf(item, spans, index, 0.35);
  if (!contains(paint.clip, x, y, 1)) return 'clipped';
  const fills = [0, 2, 4, 6].includes(paint.mode);
  const strokes = [1, 2, 5, 6].includes(paint.mode);
  const painted: Array<[Rgb | null, number]> = [];
  if (fills) painted.push([paint.fill, paint.fillAlpha]);
  if (strokes) painted.push([paint.stroke, paint.strokeAlpha]);
  const opaque = painted.filter(([, alpha]) => alpha >= MIN_VISIBLE_ALPHA);
  if (opaque.length === 0) return 'transparent';
  if (!opaque.some(([colour]) => colour !== null && page.mayMatchBackground(colour))) return null;
  // Hidden only when the text matches what is surely under it and no shape that may be under it
  // differs: a shape's bounding box says where it may be, not where it is.
  const background = backgroundAt(page.drawn.areas, [pointOf(item, spans, index, 0.1), pointOf(item, spans, index, 0.6)], run.order);
  const seen = opaque.some(([colour]) => [background.solid, ...background.shapes].some((under) => differs(colour, under)));
  return seen ? null : 'same-colour';
}

function differs(colour: Rgb | null, background: Rgb | null): boolean {
  if (colour === null || background === null) return true;
  return colour.some((channel, index) => Math.abs(channel - background[index]!) >= MIN_COLOUR_DIFFERENCE);
}

/**
 * Cut `item` where its verdict changes. Neutral code points (whitespace, characters matched to
 * no run) take the verdict before them, at the start the one after; a neutral item is seen.
 * Pieces keep the item's transform moved along the baseline and a proportional width.
 */
function pieces(
  item: PdfTextItem,
  spans: ReadonlyArray<[number, number]>,
  verdicts: ReadonlyArray<HiddenReason | null | undefined>,
): Array<{ item: PdfTextItem; reason: HiddenReason | null }> {
  const first = verdicts.find((verdict) => verdict !== undefined) ?? null;
  const filled: Array<HiddenReason | null> = [];
  let previous: HiddenReason | null = first;
  for (const verdict of verdicts) {
    if (verdict !== undefined) previous = verdict;
    filled.push(previous);
  }
  if (filled.every((verdict) => verdict === filled[0])) return [{ item, reason: filled[0] ?? null }];
  const result: Array<{ item: PdfTextItem; reason: HiddenReason | null }> = [];
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
  const scale = Math.hypot(a, b) || 1;
  let start = 0;
  for (let index = 1; index <= filled.length; index++) {
    if (index < filled.length && filled[index] === filled[start]) continue;
    const from = spans[start]![0];
    const to = spans[index - 1]![1];
    const offset = item.str.length ? (from / item.str.length) * item.width : 0;
    result.push({
      item: {
        ...item,
        str: item.str.slice(from, to),
        width: item.str.length ? ((to - from) / item.str.length) * item.width : 0,
        transform: [a, b, c, d, e + (a / scale) * offset, f + (b / scale) * offset],
        hasEOL: index === filled.length ? item.hasEOL : false,
      },
      reason: filled[start]!,
    });
    start = index;
  }
  return result;
}
