/**
 * From pdf.js text runs to text lines. Pure: no pdf.js import, so tests feed synthetic runs.
 *
 * Coordinates are PDF user-space points (1/72 inch) with the origin at the bottom-left of the
 * page box, y growing upwards; `y` is a baseline. Thresholds are expressed in ems (multiples of
 * the font size) because papers range from 6 pt footnotes to 24 pt titles.
 */
import { normalizePdfText } from '../normalize-text';
import type { PdfTextItem } from './pdfjs-types';

/** One run of text placed on the page. */
export interface TextFragment {
  text: string;
  /** Left edge and baseline, in points from the page box's bottom-left corner. */
  x: number;
  y: number;
  /** Advance width in points. */
  width: number;
  /** Font size in points: the vertical scale of the text matrix. */
  fontSize: number;
  fontName: string;
  /** Rotated or skewed text (arXiv side stamps, rotated table headers). */
  rotated: boolean;
}

/** Which part of a page a line belongs to once a column gutter is known. */
export type LineRegion = 'full' | 'left' | 'right';

/** Fragments sharing a baseline within one region, left to right. */
export interface TextLine {
  fragments: TextFragment[];
  /** Text with spaces where the runs have gaps and none before sub/superscripts. */
  text: string;
  x: number;
  right: number;
  /** Baseline of the dominant (largest) fragment. */
  y: number;
  /** Font size and font covering most characters of the line. */
  fontSize: number;
  fontName: string;
  region: LineRegion;
}

/** A vertical band with no text, splitting a page into two columns; x range in points. */
export interface Gutter {
  left: number;
  right: number;
}

/**
 * Convert a pdf.js text item to a fragment relative to the page box `[x0, y0, x1, y1]`.
 * Returns null for whitespace-only runs: spacing is re-derived from gaps, which also covers
 * producers that emit no space runs at all.
 */
export function toTextFragment(item: PdfTextItem, pageBox: readonly number[]): TextFragment | null {
  const text = normalizePdfText(item.str).normalize('NFC');
  if (text.trim().length === 0) return null;
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
  // Skew or rotation shows as off-diagonal terms; 1e-3 tolerates rounding in producers.
  const rotated = Math.abs(b) > 1e-3 * Math.abs(a || 1) || Math.abs(c) > 1e-3 * Math.abs(d || 1) || a < 0;
  const fontSize = Math.hypot(c, d) || item.height || 1;
  return { text, x: e - (pageBox[0] ?? 0), y: f - (pageBox[1] ?? 0), width: item.width, fontSize, fontName: item.fontName, rotated };
}

/**
 * Which region a fragment lies in. `full` means it crosses the gutter (or there is none).
 * One point of slack absorbs glyph overhang into the gutter.
 */
export function regionOf(fragment: TextFragment, gutter: Gutter | null): LineRegion {
  if (!gutter) return 'full';
  if (fragment.x + fragment.width <= gutter.left + 1) return 'left';
  if (fragment.x >= gutter.right - 1) return 'right';
  return 'full';
}

/**
 * Group fragments into lines. A fragment joins a line of the same region when its baseline is
 * within half an em of the line's (sub- and superscripts sit 0.2–0.4 em off the baseline, and
 * body lines are at least 1.1 em apart). A full-width line then absorbs column fragments on its
 * baseline (a wide line of an abstract is split by pdf.js into runs that may not cross the gutter).
 * Returns lines sorted top to bottom, then left to right.
 */
export function groupLines(fragments: readonly TextFragment[], gutter: Gutter | null): TextLine[] {
  const buckets: Record<LineRegion, TextFragment[][]> = { full: [], left: [], right: [] };
  const sorted = [...fragments].sort((first, second) => second.y - first.y || first.x - second.x);
  for (const fragment of sorted) {
    const lines = buckets[regionOf(fragment, gutter)];
    const line = findLine(lines, fragment);
    if (line) line.push(fragment);
    else lines.push([fragment]);
  }
  const full = buckets.full;
  joinSplitLines(buckets.left, buckets.right, full);
  for (const side of [buckets.left, buckets.right]) {
    for (let index = side.length - 1; index >= 0; index--) {
      const columnLine = side[index]!;
      const host = full.find((fullLine) => Math.abs(baseline(fullLine) - baseline(columnLine)) <= 0.5 * largestSize(fullLine));
      if (host) {
        host.push(...columnLine);
        side.splice(index, 1);
      }
    }
  }
  const lines = (['full', 'left', 'right'] as const).flatMap((region) => buckets[region].map((group) => buildLine(group, region)));
  widenParagraphEnds(lines);
  return lines.sort((first, second) => second.y - first.y || first.x - second.x);
}

/**
 * The short last line of a full-width paragraph (an abstract's "length due to disorder.") does
 * not cross the gutter, so it looks like a left-column line. Relabel a column line as full when
 * a full line sits just above it (within 2 em) and the other column has no line beside it.
 */
function widenParagraphEnds(lines: TextLine[]): void {
  const near = (first: TextLine, second: TextLine): number => (first.y - second.y) / Math.max(first.fontSize, second.fontSize);
  for (let changed = true; changed;) {
    changed = false;
    for (const line of lines) {
      if (line.region === 'full') continue;
      const other = line.region === 'left' ? 'right' : 'left';
      const continuesFull = lines.some((above) => above.region === 'full' && near(above, line) > 0 && near(above, line) <= 2);
      const besideOther = lines.some((beside) => beside.region === other && Math.abs(near(beside, line)) <= 2);
      if (continuesFull && !besideOther) {
        line.region = 'full';
        changed = true;
      }
    }
  }
}

/**
 * A full-width line whose runs happen to break at a word space inside the gutter band arrives
 * as a left and a right line on one baseline less than 0.8 em apart; a real gutter is wider.
 * Such pairs become one full line.
 */
function joinSplitLines(left: TextFragment[][], right: TextFragment[][], full: TextFragment[][]): void {
  for (let leftIndex = left.length - 1; leftIndex >= 0; leftIndex--) {
    const leftLine = left[leftIndex]!;
    const size = largestSize(leftLine);
    const leftEdge = Math.max(...leftLine.map((fragment) => fragment.x + fragment.width));
    const rightIndex = right.findIndex(
      (rightLine) =>
        Math.abs(baseline(rightLine) - baseline(leftLine)) <= 0.5 * size &&
        Math.min(...rightLine.map((fragment) => fragment.x)) - leftEdge < 0.8 * size,
    );
    if (rightIndex < 0) continue;
    full.push([...leftLine, ...right[rightIndex]!]);
    left.splice(leftIndex, 1);
    right.splice(rightIndex, 1);
  }
}

function findLine(lines: TextFragment[][], fragment: TextFragment): TextFragment[] | undefined {
  let best: TextFragment[] | undefined;
  let bestDistance = Infinity;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!;
    const distance = Math.abs(baseline(line) - fragment.y);
    if (distance > 3 * largestSize(line)) break; // lines are sorted top-down: older ones are further up
    if (distance <= 0.5 * Math.max(largestSize(line), fragment.fontSize) && distance < bestDistance) {
      best = line;
      bestDistance = distance;
    }
  }
  return best;
}

function largestSize(line: readonly TextFragment[]): number {
  return Math.max(...line.map((fragment) => fragment.fontSize));
}

/** Baseline of the largest fragment: sub/superscripts must not move the line. */
function baseline(line: readonly TextFragment[]): number {
  let main = line[0]!;
  for (const fragment of line) if (fragment.fontSize > main.fontSize + 0.1) main = fragment;
  return main.y;
}

function buildLine(group: TextFragment[], region: LineRegion): TextLine {
  const fragments = [...group].sort((first, second) => first.x - second.x);
  const weights = new Map<string, number>();
  const sizes = new Map<number, number>();
  for (const fragment of fragments) {
    weights.set(fragment.fontName, (weights.get(fragment.fontName) ?? 0) + fragment.text.length);
    const size = Math.round(fragment.fontSize * 10) / 10;
    sizes.set(size, (sizes.get(size) ?? 0) + fragment.text.length);
  }
  return {
    fragments,
    text: joinFragments(fragments),
    x: fragments[0]!.x,
    right: Math.max(...fragments.map((fragment) => fragment.x + fragment.width)),
    y: baseline(fragments),
    fontSize: heaviest(sizes),
    fontName: heaviest(weights),
    region,
  };
}

function heaviest<Key>(weights: Map<Key, number>): Key {
  return [...weights].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/**
 * Concatenate fragments left to right, inserting a space where the gap exceeds 0.15 em of the
 * smaller font: word spaces are ≥ 0.2 em, while a subscript or superscript (`T`+`c`, `MgB`+`2`,
 * `10`+`-3`) starts right where its base ends.
 */
export function joinFragments(fragments: readonly TextFragment[]): string {
  let text = '';
  let previous: TextFragment | undefined;
  for (const fragment of fragments) {
    if (previous) {
      const gap = fragment.x - (previous.x + previous.width);
      const threshold = 0.15 * Math.min(previous.fontSize, fragment.fontSize);
      if (gap > threshold && !text.endsWith(' ') && !fragment.text.startsWith(' ')) text += ' ';
    }
    text += fragment.text;
    previous = fragment;
  }
  return text.replace(/\s+/g, ' ').trim();
}
