/**
 * Doubts about a fact's number that the quote showing it does not settle (issue 27), each in
 * words for a reader, each sending the fact to review (never a silent wrong number):
 * - digits that read two ways ("1,043 K": 1043 with a comma between thousands, or 1.043 with a
 *   decimal comma; `parseNumber`), unless the paper's other numbers show its decimal mark
 *   (`decimalMarkOf`) and that mark gives the value claimed;
 * - a value outside the property's plausible range (`PropertyDefinition.plausibleRange`, in the
 *   canonical unit, with the source of its bounds): a misread number, a wrong unit, or a value the
 *   model made up.
 */
import type { Article } from '../contracts/article';
import type { PropertyDefinition } from '../contracts/property';
import type { ReportedValue, Triplet } from '../contracts/triplet';
import { decimalMarkOf, findNumberTokens } from '../text/quantities/number-tokens';
import type { Anchor } from '../text/anchoring';
import { convertUnit, normalizeUnit } from '../text/units';
import type { FactCheck } from './fact-check';
import { formatReportedValue, sameNumber } from './value-in-quote';

/** The numbers of a reported value: the value, or both ends of a range. */
function numbersOf(value: ReportedValue): number[] {
  return value.kind === 'number' ? [value.value] : [value.low, value.high];
}

/**
 * Why the number `value` claims is read from `quote` with a doubt, or undefined: every number of
 * `quote` equal to one of the value's numbers reads two ways (`NumberAmbiguity`), and `paperText`
 * (the whole article's text, read only then) does not show a decimal mark that settles it for the
 * value claimed. A quote that also prints the value plainly raises no doubt.
 */
export function numberReadingDoubt(value: ReportedValue, quote: string, paperText: string): string | undefined {
  const claimed = numbersOf(value);
  const shown = findNumberTokens(quote).filter((token) => claimed.some((number) => sameNumber(number, token.number.value)));
  const ambiguity = shown.length > 0 && shown.every((token) => token.number.ambiguity) ? shown[0]!.number.ambiguity : undefined;
  if (!ambiguity) return undefined;
  const mark = decimalMarkOf(paperText);
  if (mark === undefined) return `${ambiguity.reason}, and the paper's other numbers do not say which: check the number`;
  if (mark !== ambiguity.alternativeMark) return undefined;
  const marks = mark === ',' ? 'decimal commas' : 'decimal points';
  return `the paper writes ${marks}, so the number it prints reads ${ambiguity.alternative}, not ${formatReportedValue(value)} (${ambiguity.reason})`;
}

/**
 * `value` in `unit` as numbers in `schema.canonicalUnit` (`convertUnit`; equal units as they
 * are), or null when the unit does not convert (a unit the unit table lacks, such as mK).
 */
function inCanonicalUnit(value: ReportedValue, unit: string, schema: PropertyDefinition): number[] | null {
  const numbers = numbersOf(value);
  if ((normalizeUnit(unit) ?? unit) === (normalizeUnit(schema.canonicalUnit) ?? schema.canonicalUnit)) return numbers;
  const converted = numbers.map((number) => convertUnit(number, unit, schema.canonicalUnit));
  return converted.every((number): number is number => number !== null) ? converted : null;
}

/**
 * Why `triplet`'s value is implausible for `schema`, or undefined: a number of it, converted to
 * the canonical unit, lies outside `schema.plausibleRange` (inclusive). The reason gives the
 * range and its source. A value whose unit does not convert is not judged here (the unit check of
 * the gate speaks for it).
 */
export function implausibleValue(triplet: Pick<Triplet, 'value' | 'unit'>, schema: PropertyDefinition): string | undefined {
  const numbers = inCanonicalUnit(triplet.value, triplet.unit, schema);
  const { min, max, source } = schema.plausibleRange;
  if (!numbers || numbers.every((number) => number >= min && number <= max)) return undefined;
  const unit = triplet.unit === '' ? '' : ` ${triplet.unit}`;
  return (
    `${formatReportedValue(triplet.value)}${unit} is outside the plausible range of the ${schema.label.toLowerCase()}, ` +
    `${min < 0 ? `from ${min} to ${max}` : `${min}–${max}`} ${schema.canonicalUnit}${source ? ` (${source})` : ''}: check the number and its unit`
  );
}

/**
 * The doubts of both kinds (module comment) about `triplet`, whose value `quote` shows, in a paper
 * whose text is `paperText`; `schema` is the triplet's property (none: no range check). [] when
 * none.
 */
export function valueDoubts(triplet: Triplet, quote: string, paperText: string, schema: PropertyDefinition | undefined): string[] {
  const reading = numberReadingDoubt(triplet.value, quote, paperText);
  const range = schema ? implausibleValue(triplet, schema) : undefined;
  return [reading, range].filter((reason): reason is string => reason !== undefined);
}

/**
 * `fact` (the fact check of `triplet` at `anchor`) with the value's doubts (`valueDoubts`) added:
 * each a reason, and a verdict of `needs_review` unless it was `rejected`. The triplet's schema is
 * looked up in `schemas` by name. Unchanged when there is no doubt.
 */
export function withValueDoubts(
  fact: FactCheck,
  triplet: Triplet,
  article: Article,
  anchor: Anchor,
  schemas: readonly PropertyDefinition[],
): FactCheck {
  const schema = schemas.find((candidate) => candidate.name === triplet.property);
  const doubts = valueDoubts(triplet, article.text.slice(anchor.start, anchor.end), article.text, schema);
  if (doubts.length === 0) return fact;
  return { ...fact, verdict: fact.verdict === 'rejected' ? 'rejected' : 'needs_review', reasons: [...fact.reasons, ...doubts] };
}
