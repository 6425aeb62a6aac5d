/**
 * Where a ground-truth triplet is stated in a captured article, for the attribution measurement
 * (`attribution-evaluation.ts`). A truth is **locatable** when its value as printed — any form
 * equal after SI conversion within 0.1% — and its material (any alias) occur in one sentence of
 * a prose block or one row of a table block. The located evidence is that sentence or row.
 */
import type { Article } from '../../contracts/article';
import { anchorQuoteInArticle, blockAt } from '../../text/anchoring';
import { parseQuantities } from '../../text/quantities';
import { findNumberTokens } from '../../text/quantities/number-tokens';
import { splitSentences } from '../../text/scan-sentences';
import { namesMaterial } from '../../verify/material-named';
import type { SiConverter } from '../si-conversion';
import type { TruthTriplet } from '../triplet-scorer';
import { valuesMatch } from '../value-match';

/** A span of `Article.text` (UTF-16 offsets, end exclusive) that states a truth. */
export interface LocatedEvidence {
  start: number;
  end: number;
  /** How it was found: the dataset's own evidence sentence, a value printed with its unit, or a bare cell. */
  how: 'source' | 'quantity' | 'bare-number';
}

/** Relative tolerance of "equal after SI conversion" (EVAL.md's headline 0.1%). */
export const LOCATE_TOLERANCE = 0.001;

/** Sentences of prose blocks and data rows of table blocks, as spans of `article.text`. */
export function evidenceUnits(article: Article): Array<{ start: number; end: number }> {
  const units: Array<{ start: number; end: number }> = [];
  for (const block of article.blocks) {
    if (block.kind === 'table') {
      let start = block.start;
      for (const [index, line] of block.text.split('\n').entries()) {
        if (index > 0 && line.trim()) units.push({ start, end: start + line.length });
        start += line.length + 1;
      }
    } else {
      for (const sentence of splitSentences(block.text))
        units.push({ start: block.start + sentence.start, end: block.start + sentence.end });
    }
  }
  return units;
}

/** Does `text` print the truth's value with a unit that converts to the same SI value (0.1%)? */
function printsQuantity(text: string, truth: TruthTriplet, convert: SiConverter): boolean {
  return parseQuantities(text).some(
    (quantity) => quantity.unit !== '' && valuesMatch({ value: quantity.value, unit: quantity.unit }, truth, LOCATE_TOLERANCE, convert),
  );
}

/** Does `text` print the truth's number bare (a table cell under a header unit)? Numbers only, not ranges. */
function printsBareNumber(text: string, truth: TruthTriplet): boolean {
  if (truth.value.kind !== 'number') return false;
  const target = truth.value.value;
  return findNumberTokens(text).some(
    (token) => !token.unit && Math.abs(token.number.value - target) <= LOCATE_TOLERANCE * Math.max(Math.abs(target), 1e-12),
  );
}

/**
 * Locate `truth` in `article` (see the module comment). Order: the truth's own evidence sentence
 * (`truth.source`, bandgap-200) when it anchors inside one block and shows value and material;
 * else the first sentence or row printing the value with a unit and naming the material; else
 * the first printing it as a bare number. Null when the truth is not locatable. `units` are
 * `evidenceUnits(article)` (passed in so a paper's truths share them).
 */
export function locateTruth(
  article: Article,
  truth: TruthTriplet,
  convert: SiConverter,
  units: ReadonlyArray<{ start: number; end: number }> = evidenceUnits(article),
): LocatedEvidence | null {
  const shows = (start: number, end: number, value: (text: string) => boolean) => {
    const text = article.text.slice(start, end);
    return value(text) && namesMaterial(text, truth.aliases);
  };
  const quantity = (text: string) => printsQuantity(text, truth, convert);
  const bare = (text: string) => printsBareNumber(text, truth);
  if (truth.source && !/^Table\s/iu.test(truth.source)) {
    const anchor = anchorQuoteInArticle(article, truth.source);
    const block = anchor ? blockAt(article, anchor.start) : null;
    if (anchor && block && blockAt(article, anchor.end - 1) === block && shows(anchor.start, anchor.end, (t) => quantity(t) || bare(t)))
      return { start: anchor.start, end: anchor.end, how: 'source' };
  }
  for (const unit of units) if (shows(unit.start, unit.end, quantity)) return { ...unit, how: 'quantity' };
  for (const unit of units) if (shows(unit.start, unit.end, bare)) return { ...unit, how: 'bare-number' };
  return null;
}

/**
 * Every span of `article.text` that states `truth`: its own evidence sentence when `locateTruth`
 * would take it, and each sentence or table row printing the value (with a unit, or bare) and
 * naming the material, in reading order without repeats. Empty when the truth is not locatable.
 * For context recall (src/eval/context/): a truth stated twice is read when either place is.
 */
export function locateTruthEverywhere(
  article: Article,
  truth: TruthTriplet,
  convert: SiConverter,
  units: ReadonlyArray<{ start: number; end: number }> = evidenceUnits(article),
): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  const first = locateTruth(article, truth, convert, units);
  if (first?.how === 'source') spans.push({ start: first.start, end: first.end });
  for (const unit of units) {
    const text = article.text.slice(unit.start, unit.end);
    if (!namesMaterial(text, truth.aliases)) continue;
    if (printsQuantity(text, truth, convert) || printsBareNumber(text, truth)) spans.push({ start: unit.start, end: unit.end });
  }
  return spans.filter((span, index) => spans.findIndex((other) => other.start === span.start && other.end === span.end) === index);
}
