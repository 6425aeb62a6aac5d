/**
 * An imported row must not contradict itself (issue 27, item 10). A row with `value` 340,
 * `valueText` "3.4" and a quote saying 3.4 eV was kept, and a row claiming AlN and `verified`
 * over a quote about GaN was kept as verified. What can be worked out again from the row's own
 * fields is (the value from the value as printed when the row gives no value; the status from
 * its evidence), and what contradicts is refused with the reason.
 *
 * The status check reads only the row's evidence (the quote with its prefix and suffix), never
 * the paper, which an import does not have. The gate that verified the row (src/verify) read the
 * whole article: a table's header and caption, the sentence before a quote that says "its", an
 * abbreviation defined pages earlier. So a check on the quote alone can only find a row's claim
 * impossible in two plain ways — the quote does not print the value, or it names another
 * material and not the row's — and then sends the row to a person (`needs_review`, with the
 * reason), never rejects it and never raises a status: what the quote cannot show may still be
 * in the paper, and what the paper's gate doubted the quote alone cannot clear.
 */
import type { Article } from '../contracts/article';
import type { DatasetTriplet, ModelAnswer } from '../contracts/dataset';
import type { ReportedValue, Triplet } from '../contracts/triplet';
import { editedValue, rowReasons } from '../store/dataset-rows';
import { findMaterialMentions } from '../text/materials';
import { numberPattern, parseNumber } from '../text/quantities/number';
import { ground } from '../verify/ground';
import { defaultGroundingDependencies } from '../verify/grounding-dependencies';
import { materialNames, nameWritten, namesMaterial } from '../verify/material-named';
import { formatReportedValue, sameNumber } from '../verify/value-in-quote';

/** What the check reads of a value: the value, the value as printed, and the unit. */
type PrintedValue = Pick<ModelAnswer, 'value' | 'valueText' | 'unit'>;

/** Same number(s) within `sameNumber`'s float tolerance: a number with a number, a range with a range (both ends). Uncertainty and "~" are not compared. */
function sameValue(left: ReportedValue, right: ReportedValue): boolean {
  if (left.kind === 'number' && right.kind === 'number') return sameNumber(left.value, right.value);
  if (left.kind === 'range' && right.kind === 'range') return sameNumber(left.low, right.low) && sameNumber(left.high, right.high);
  return false;
}

/**
 * The values `valueText` can be read as (`editedValue`, the reader's own edit grammar): as
 * written, and — when it holds a comma — with the comma as a decimal mark and as a thousands
 * separator, since "1,043" is 1043 in one paper and 1.043 in another. A unit written after the
 * number (`unit`) is taken off first ("3.4 eV"). Empty when no reading is one value.
 */
function readingsOf(valueText: string, unit: string): ReportedValue[] {
  let text = valueText.trim();
  const written = unit.trim();
  if (written !== '' && text.endsWith(written)) text = text.slice(0, -written.length).trim();
  const forms = new Set([text]);
  if (text.includes(',')) {
    forms.add(text.replace(/,(?=\d{3}(?!\d))/g, ''));
    forms.add(text.replace(/,/g, '.'));
  }
  const readings: ReportedValue[] = [];
  for (const form of forms) {
    try {
      readings.push(editedValue(form));
    } catch {
      // Not one value in this reading.
    }
  }
  return readings;
}

/**
 * `row` as an object, with its `value` read from its `valueText` when it has the latter and not the
 * former (a hand-written row, or a tool that prints only the text): what can be recomputed is.
 * Anything else is returned as it is (the schema then says what is wrong). Never throws.
 */
export function withValueFromText(row: unknown): unknown {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return row;
  const fields = row as Record<string, unknown>;
  if (fields.value !== undefined || typeof fields.valueText !== 'string') return row;
  const [reading] = readingsOf(fields.valueText, typeof fields.unit === 'string' ? fields.unit : '');
  return reading === undefined ? row : { ...fields, value: reading };
}

/**
 * Why `answer`'s value contradicts the value it says was printed, or undefined: `valueText` read
 * as one value (`readingsOf`) in no reading equals `value` (340 against "3.4"; a number against a
 * range). A `valueText` that is not one value in any reading ("n/a", "< 5") is no contradiction:
 * it cannot be compared.
 */
export function valueTextMismatch(answer: PrintedValue): string | undefined {
  if (answer.valueText === undefined) return undefined;
  // The common case without the quantity parser (~80 µs a row): the text is the number as JavaScript prints it.
  if (answer.value.kind === 'number' && answer.valueText.trim() === String(answer.value.value)) return undefined;
  const readings = readingsOf(answer.valueText, answer.unit);
  if (readings.length === 0 || readings.some((reading) => sameValue(reading, answer.value))) return undefined;
  return `value ${formatReportedValue(answer.value)} contradicts valueText "${answer.valueText}" (${formatReportedValue(readings[0]!)}): which was printed cannot be told`;
}

/** Why `row` contradicts itself, or undefined: its value against its value text, and the model's original answer's against its own. */
export function rowContradiction(row: DatasetTriplet): string | undefined {
  const own = valueTextMismatch(row);
  if (own !== undefined) return own;
  const original = row.review.original && valueTextMismatch(row.review.original);
  return original === undefined ? undefined : `review.original: ${original}`;
}

/** The quote with its context as a one-paragraph article, and the quote's place in it: all an import knows of the paper. */
function evidenceArticle(evidence: NonNullable<DatasetTriplet['evidence']>): { article: Article; start: number; end: number } {
  const { prefix, exact, suffix } = evidence.quote;
  const text = `${prefix}${exact}${suffix}`;
  const article: Article = {
    doi: null,
    doiOrigin: null,
    title: 'evidence',
    authors: [],
    journal: null,
    year: null,
    url: null,
    source: 'text',
    adapter: 'import',
    blocks: [{ id: 'b0', kind: 'paragraph', text, start: 0, end: text.length }],
    text,
    abstractOnly: false,
    warnings: [],
  };
  return { article, start: prefix.length, end: prefix.length + exact.length };
}

/** `numberPattern`, tried only where a number starts (every part of it is optional, so unanchored it would match empty at every character). */
const NUMBER = new RegExp(`(?=[-−+]?\\.?\\d)${numberPattern}`, 'gu');

/** Every number printed in `text` (bare or with a unit: a table cell "3.05" counts). */
function numbersIn(text: string): number[] {
  const numbers: number[] = [];
  for (const match of text.matchAll(NUMBER)) {
    if (!/\d/.test(match[0])) continue;
    const parsed = parseNumber(match[0].replace(/^\+/, ''));
    if (parsed) numbers.push(parsed.value);
  }
  return numbers;
}

/**
 * Is `value` written in `text` as JavaScript prints it ("3.4", "0.011"), as a number of its own
 * (no digit or decimal point either side)? The common case, found without the number parser.
 */
function writtenAsIs(text: string, value: number): boolean {
  const written = String(value);
  if (written.includes('e')) return false;
  const isDigit = (character: string | undefined) => character !== undefined && character >= '0' && character <= '9';
  for (let at = text.indexOf(written); at !== -1; at = text.indexOf(written, at + 1)) {
    const before = text[at - 1];
    const after = text[at + written.length];
    const fractionAfter = (after === '.' || after === ',') && isDigit(text[at + written.length + 1]);
    if (!isDigit(before) && before !== '.' && !isDigit(after) && !fractionAfter) return true;
  }
  return false;
}

/**
 * Does the quote print the row's value? As a number anywhere in it (a bare table cell too; a
 * range needs both ends), else as the gate finds it (`ground`: with its unit, or in another unit
 * of the same dimension, "11 meV" for 0.011 eV).
 */
function valuePrinted(row: DatasetTriplet, evidence: NonNullable<DatasetTriplet['evidence']>): boolean {
  const quote = evidence.quote.exact.normalize('NFKC');
  let numbers: number[] | undefined;
  const shown = (value: number) => writtenAsIs(quote, value) || (numbers ??= numbersIn(quote)).some((number) => sameNumber(number, value));
  if (row.value.kind === 'number' ? shown(row.value.value) : shown(row.value.low) && shown(row.value.high)) return true;
  const { article, start, end } = evidenceArticle(evidence);
  const triplet: Triplet = {
    material: row.material,
    property: row.property,
    value: row.value,
    unit: row.unit,
    engine: 'import',
    evidence: { quote: evidence.quote, position: { type: 'TextPositionSelector', start, end } },
  };
  return ground(triplet, article, defaultGroundingDependencies).valueInQuote;
}

/**
 * The materials the quote names when none of them is the row's, or undefined when the quote or
 * its context names the row's material (`materialNames`, `namesMaterial`: formula, qualifier-free
 * form, equal composition, an abbreviation the context defines) or names no material at all ("its
 * gap is 3.4 eV" refers to a sentence the import does not have).
 */
function otherMaterials(row: DatasetTriplet, evidence: NonNullable<DatasetTriplet['evidence']>): string[] | undefined {
  const { article } = evidenceArticle(evidence);
  const context = article.text.normalize('NFKC');
  // Most quotes hold the material as written (NFKC folds "TiO₂" to "TiO2"): settled without the
  // formula parser, which costs about a millisecond a row, a minute and more on a large import.
  if (context.includes(row.material.normalize('NFKC').trim())) return undefined;
  if (nameWritten(context, row.material) || namesMaterial(context, materialNames(row.material, article))) return undefined;
  const mentions = [...new Set(findMaterialMentions(evidence.quote.exact.normalize('NFKC')).map((mention) => mention.text))];
  return mentions.length === 0 ? undefined : mentions;
}

/**
 * Why a row that says `verified` cannot be, from its own evidence (module comment): a quote that
 * does not print its value; a quote that names other materials and not its own. A row the reader
 * edited is checked with its `review.original` (the answer the quote was read for). Empty for a row
 * whose evidence does not contradict it, for a row without evidence, and for every row that does
 * not say `verified`. Never throws for a row that passed `DatasetTripletSchema`.
 */
export function evidenceDoubts(row: DatasetTriplet): string[] {
  if (row.status !== 'verified') return [];
  const evidence = row.evidence;
  // Without a quote there is nothing the row could contradict (a reader's own row, a CSV without its quote column).
  if (!evidence) return [];
  // A row the reader edited holds the reader's value, and its quote the one the paper printed
  // (kept in `review.original`): the quote is checked against what it was read for, so the
  // reader's correction survives an export and an import unchanged.
  const original = row.review.decision === 'edited' ? row.review.original : undefined;
  if (original) return evidenceDoubts({ ...row, ...original, review: { ...row.review, decision: 'accepted' } });
  const doubts: string[] = [];
  if (!valuePrinted(row, evidence)) {
    const value = `${row.valueText?.trim() || formatReportedValue(row.value)} ${row.unit}`.trim();
    doubts.push(`imported as verified, but its quote does not print the value ${value}`);
  }
  const others = otherMaterials(row, evidence);
  if (others) doubts.push(`imported as verified, but its quote names ${others.slice(0, 3).join(', ')}, not ${row.material}`);
  return doubts;
}

/**
 * `row` with the status its evidence allows (`evidenceDoubts`): a `verified` row whose own quote
 * contradicts it becomes `needs_review`, the doubts put before its reasons; any other row is
 * returned as it is. `doubts` is empty when nothing changed.
 */
export function withImportedStatus(row: DatasetTriplet): { row: DatasetTriplet; doubts: string[] } {
  const doubts = evidenceDoubts(row);
  if (doubts.length === 0) return { row, doubts };
  // The doubts first, so the reasons' bound (`rowReasons`) never cuts them off.
  return { row: { ...row, status: 'needs_review', reasons: rowReasons([...doubts, ...(row.reasons ?? [])]) }, doubts };
}
