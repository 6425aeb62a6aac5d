/**
 * Where a ground-truth triplet is stated in a captured article, for the attribution measurement
 * (`attribution-evaluation.ts`). A truth is **locatable** when its value as printed — any form
 * equal after SI conversion within 0.1% — and its material (any alias) occur in one sentence of
 * a prose block or one row of a table block. The located evidence is that sentence or row.
 *
 * In the truth's own evidence sentence (`truth.source`), a value of 0 also counts as printed
 * when the sentence writes it in words ("a zero gap", "zero-gap materials"): papers state metals
 * and semimetals that way more often than "0 eV". Only there: elsewhere "zero" is as often a
 * condition ("at zero field", "zero bias") as a value. Only "zero": other number words are
 * ordinary English ("one of the samples") and a property's value is printed in digits.
 *
 * When a truth is printed in several sentences or rows (and its own evidence sentence is not
 * usable), the first one that also names the truth's property by its schema's lexicon
 * (`findPropertyMentions`: synonyms and symbols, not the contextual names) is taken before the
 * first one in reading order: "0 eV" is printed for many quantities of a paper. This uses the
 * lexicon, never the attribution check itself; such truths are marked `byPropertyName` and
 * counted in the report so the effect on the measurement can be read off.
 */
import type { Article } from '../../contracts/article';
import type { PropertyDefinition } from '../../contracts/property';
import { findPropertyMentions } from '../../properties';
import { anchorQuoteInArticle, blockAt } from '../../text/anchoring';
import { parseQuantities } from '../../text/quantities';
import { findNumberTokens } from '../../text/quantities/number-tokens';
import { buildArticleIndex, type ArticleIndex } from '../../text/article-index';
import { namesMaterial } from '../../verify/material-named';
import type { SiConverter } from '../si-conversion';
import { valuesMatch } from '../value-match';
import type { TruthTriplet } from '../triplet-scorer-types';

/** A span of `Article.text` (UTF-16 offsets, end exclusive) that states a truth. */
export interface LocatedEvidence {
  start: number;
  end: number;
  /** How it was found: the dataset's own evidence sentence, a value printed with its unit, or a bare cell. */
  how: 'source' | 'quantity' | 'bare-number';
  /** True when an earlier sentence or row printing the value was passed over for this one, which names the property. */
  byPropertyName?: true;
}

/** Relative tolerance of "equal after SI conversion" (EVAL.md's headline 0.1%). */
export const LOCATE_TOLERANCE = 0.001;

/**
 * Sentences of prose blocks (headings and captions included) and non-blank data rows of table
 * blocks, as spans of `article.text`, in reading order: the units of `index` (the article's
 * `ArticleIndex`, the same the gate reads; built here when not given).
 */
export function evidenceUnits(
  article: Article,
  index: ArticleIndex = buildArticleIndex(article, []),
): Array<{ start: number; end: number }> {
  const units: Array<{ start: number; end: number }> = [];
  for (const block of article.blocks) {
    const table = index.tableOf(block);
    if (table) {
      for (const row of table.rows) if (!row.blank) units.push({ start: row.start, end: row.end });
    } else {
      for (const sentence of index.sentencesOf(block)) units.push({ start: sentence.start, end: sentence.end });
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

/** "zero" as a word: a value of 0 written out ("a zero gap", "zero-gap"). */
const ZERO_WORD = /(?<![\p{L}\p{N}])zero(?![\p{L}\p{N}])/iu;

/**
 * Does `text` print the truth's number bare (a table cell under a header unit)? Numbers only, not
 * ranges; with `inWords`, 0 written as "zero" counts too (the truth's own sentence only).
 */
function printsBareNumber(text: string, truth: TruthTriplet, inWords = false): boolean {
  if (truth.value.kind !== 'number') return false;
  const target = truth.value.value;
  if (inWords && target === 0 && ZERO_WORD.test(text)) return true;
  return findNumberTokens(text).some(
    (token) => !token.unit && Math.abs(token.number.value - target) <= LOCATE_TOLERANCE * Math.max(Math.abs(target), 1e-12),
  );
}

/**
 * Locate `truth` in `article` (see the module comment). Order: the truth's own evidence sentence
 * (`truth.source`, bandgap-200) when it anchors inside one block and shows value and material;
 * else the first sentence or row printing the value with a unit and naming the material; else
 * the first printing it as a bare number. Within each of the last two steps a
 * sentence or row that also names the property by `schema`'s lexicon comes first
 * (`byPropertyName` when that changed the choice). Null when the truth is not locatable.
 * `units` are `evidenceUnits(article)` (passed in so a paper's truths share them); `schema` is
 * the truth's property schema (without it, reading order alone decides).
 */
export function locateTruth(
  article: Article,
  truth: TruthTriplet,
  convert: SiConverter,
  units: ReadonlyArray<{ start: number; end: number }> = evidenceUnits(article),
  schema?: PropertyDefinition,
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
    const printed = (text: string) => quantity(text) || printsBareNumber(text, truth, true);
    if (anchor && block && blockAt(article, anchor.end - 1) === block && shows(anchor.start, anchor.end, printed))
      return { start: anchor.start, end: anchor.end, how: 'source' };
  }
  const namesProperty = (unit: { start: number; end: number }) =>
    schema !== undefined && findPropertyMentions(article.text.slice(unit.start, unit.end).normalize('NFKC'), [schema]).length > 0;
  for (const [how, value] of [
    ['quantity', quantity],
    ['bare-number', bare],
  ] as const) {
    const printing = units.filter((unit) => shows(unit.start, unit.end, value));
    if (printing.length === 0) continue;
    const naming = printing.find(namesProperty);
    if (naming === undefined || naming === printing[0]) return { ...printing[0]!, how };
    return { start: naming.start, end: naming.end, how, byPropertyName: true };
  }
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
