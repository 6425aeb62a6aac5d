/**
 * Two-column detection and reading order. Pure (no pdf.js).
 *
 * A gutter is a vertical band in the middle of the page that few text runs cross. Counting runs
 * that cross each candidate x (rather than looking for blank pixels) tolerates the full-width
 * title, abstract and wide figures that interrupt the columns on many pages.
 */
import type { Gutter, TextFragment, TextLine } from './text-lines';

/** Gutters are searched between 30 % and 70 % of the page width (asymmetric columns included). */
const SEARCH_FROM = 0.3;
const SEARCH_TO = 0.7;
/** At most this share of the page's text rows may cross the gutter (title, abstract, wide figures). */
const MAX_CROSSING_SHARE = 0.3;
/** Each column must hold at least this share of the runs and this many distinct baselines. */
const MIN_COLUMN_SHARE = 0.15;
const MIN_COLUMN_ROWS = 6;

/**
 * Find the gutter of a two-column page, or null for a single-column page.
 * `pageWidth` in points. Rotated fragments are ignored.
 */
export function findGutter(fragments: readonly TextFragment[], pageWidth: number): Gutter | null {
  const upright = fragments.filter((fragment) => !fragment.rotated && fragment.width > 0);
  if (upright.length < 2 * MIN_COLUMN_ROWS) return null;
  const rows = new Set(upright.map((fragment) => Math.round(fragment.y))).size;
  const from = Math.floor(pageWidth * SEARCH_FROM);
  const to = Math.ceil(pageWidth * SEARCH_TO);
  let best = Infinity;
  let bestRun: [number, number] = [from, from];
  let runStart = -1;
  for (let x = from; x <= to + 1; x++) {
    const crossing = x > to ? Infinity : upright.filter((fragment) => fragment.x + 1 < x && fragment.x + fragment.width - 1 > x).length;
    if (crossing < best) {
      best = crossing;
      bestRun = [x, x];
      runStart = x;
    } else if (crossing === best) {
      if (runStart < 0) runStart = x;
      if (x - runStart > bestRun[1] - bestRun[0]) bestRun = [runStart, x];
    } else {
      runStart = -1;
    }
  }
  if (best > MAX_CROSSING_SHARE * rows) return null;
  const center = (bestRun[0] + bestRun[1]) / 2;
  const leftRuns = upright.filter((fragment) => fragment.x + fragment.width <= center);
  const rightRuns = upright.filter((fragment) => fragment.x >= center);
  const enough = (runs: TextFragment[]): boolean =>
    runs.length >= MIN_COLUMN_SHARE * upright.length && new Set(runs.map((fragment) => Math.round(fragment.y))).size >= MIN_COLUMN_ROWS;
  if (!enough(leftRuns) || !enough(rightRuns)) return null;
  // Widen the band to the nearest text on each side, so `regionOf` has the real edges.
  const left = Math.max(...leftRuns.map((fragment) => fragment.x + fragment.width).filter((edge) => edge <= center));
  const right = Math.min(...rightRuns.map((fragment) => fragment.x).filter((edge) => edge >= center));
  return { left, right };
}

/** An empty strip across both columns taller than 2.5 em separates stacked column bands. */
const BAND_GAP = 2.5;

/**
 * Reading order of a page's lines: full-width lines cut the page into horizontal bands, and so
 * does an empty strip across both columns (a full-width figure, or the end of the body above a
 * two-column reference list on the last page); within a band the left column is read before
 * the right one. Input lines in any order; output is a new array.
 */
export function orderLines(lines: readonly TextLine[]): TextLine[] {
  const byHeight = [...lines].sort((first, second) => second.y - first.y || first.x - second.x);
  const ordered: TextLine[] = [];
  let band: TextLine[] = [];
  const flush = (): void => {
    for (const part of splitAtEmptyStrips(band)) {
      ordered.push(...part.filter((line) => line.region === 'left'), ...part.filter((line) => line.region === 'right'));
    }
    band = [];
  };
  for (const line of byHeight) {
    if (line.region === 'full') {
      flush();
      ordered.push(line);
    } else {
      band.push(line);
    }
  }
  flush();
  return ordered;
}

/** Split column lines (sorted top-down) where no line of either column sits for 2.5 em. */
function splitAtEmptyStrips(lines: readonly TextLine[]): TextLine[][] {
  const parts: TextLine[][] = [];
  let previous: TextLine | undefined;
  for (const line of lines) {
    if (!previous || previous.y - line.y > BAND_GAP * Math.max(previous.fontSize, line.fontSize)) parts.push([]);
    parts.at(-1)!.push(line);
    previous = line;
  }
  return parts;
}
