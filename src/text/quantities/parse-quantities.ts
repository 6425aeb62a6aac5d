/**
 * `parseQuantities(text)`: every value with a unit, with character offsets.
 *
 * Step 2 groups the number tokens: ranges ("1.2–1.5 eV", "1.2 to 1.5 eV", "between 1.2 and
 * 1.5 eV", "from 1 to 5 K"), uncertainties ("3.4 ± 0.1 eV", "3.41(2) Å"), lists sharing a unit
 * ("3.2, 3.4 and 3.6 eV" → three quantities), approximations ("~", "≈", "about" → flag, kept
 * in the span). Bounds ("<", "≥", "less than", "up to", "above") are LEFT OUT: a bound is not a
 * measured value and `ReportedValue` has no place for it. Bare numbers (no unit) are kept only
 * after "=", "≈" or "~" ("x = 0.15"), never when they look like a year.
 */
import type { ReportedValue } from '../../contracts/triplet';
import { formatFactors } from '../units/match-unit';
import { toSIWithDimension } from '../units/convert';
import type { NumberReading } from './number';
import { findNumberTokens, type NumberToken } from './number-tokens';
import type { Quantity } from './quantity';

const approximation = /(?:~|∼|≈|≃|\babout|\bapproximately|\bapprox\.|\bca\.|\baround|\bnearly|\broughly)\s*$/i;
const bound =
  /(?:<|>|≤|≥|⩽|⩾|≲|≳|≪|≫|\bless than|\bmore than|\bgreater than|\blower than|\bhigher than|\bup to|\babove|\bbelow|\bover|\bunder|\bexceed(?:s|ing)?|\bat least|\bat most)\s*$/i;
const equals = /[=≈~∼]\s*$/;
const rangeSeparator = /^\s*(?:–|—|−|-|~|to)\s*$/;
const uncertaintySeparator = /^\s*(?:±|\+\/-|\+\/−|\+-)\s*$/;
const listSeparator = /^\s*(?:,\s*(?:and|or)?|and|or)\s*$/;
const rangeOpener = /\b(between|from)\s+$/i;

function tokenEnd(token: NumberToken): number {
  return token.unit ? token.unit.end : token.end;
}

function gapText(text: string, left: NumberToken, right: NumberToken): string {
  return text.slice(tokenEnd(left), right.start);
}

function looksLikeYear(token: NumberToken, raw: string): boolean {
  return /^(1[89]|20)\d\d$/.test(raw) && !token.unit;
}

/**
 * Build a quantity from a span, its value and its unit token (or, for table cells, a unit
 * given by the column header), converting to SI when the unit converts.
 */
export function makeQuantity(
  text: string,
  start: number,
  end: number,
  valueEnd: number,
  value: ReportedValue,
  unitToken: NumberToken | undefined,
  givenUnit?: { unit: string; unitText: string },
): Quantity {
  const unitMatch = unitToken?.unit;
  const unit = unitMatch ? formatFactors(unitMatch.factors) : (givenUnit?.unit ?? '');
  const quantity: Quantity = {
    start,
    end,
    text: text.slice(start, end),
    value,
    valueText: text.slice(start, valueEnd),
    unit,
    unitText: unitMatch ? text.slice(unitMatch.start, unitMatch.end) : (givenUnit?.unitText ?? ''),
  };
  if (!unit) return quantity;
  const convert = (number: number) => toSIWithDimension(number, unit);
  if (value.kind === 'number') {
    const converted = convert(value.value);
    if (!converted) return quantity;
    quantity.dimension = converted.dimension;
    const siValue: ReportedValue = { ...value, value: converted.value };
    if (value.uncertainty !== undefined) {
      siValue.uncertainty = Math.abs(convert(value.uncertainty)!.value - convert(0)!.value);
    }
    quantity.si = { value: siValue, unit: converted.unit };
  } else {
    const low = convert(value.low);
    const high = convert(value.high);
    if (!low || !high) return quantity;
    quantity.dimension = low.dimension;
    quantity.si = { value: { ...value, low: low.value, high: high.value }, unit: low.unit };
  }
  return quantity;
}

/** A quantity of `makeQuantity` carrying the first ambiguity among the numbers it was read from. */
function withAmbiguity(quantity: Quantity, tokens: readonly NumberToken[]): Quantity {
  const ambiguity = tokens.find((token) => token.number.ambiguity)?.number.ambiguity;
  return ambiguity ? { ...quantity, ambiguity } : quantity;
}

/**
 * Every quantity in `text`, left to right, with offsets such that
 * `text.slice(q.start, q.end) === q.text`. `reading.decimalMark` is the paper's decimal mark
 * (`decimalMarkOf`), when known; without it, digits that read two ways ("1,043 K") are read as
 * thousands and the quantity carries the `ambiguity`. Never throws.
 */
export function parseQuantities(text: string, reading: NumberReading = {}): Quantity[] {
  const tokens = findNumberTokens(text, reading);
  const quantities: Quantity[] = [];
  let index = 0;
  while (index < tokens.length) {
    const first = tokens[index]!;
    const next = tokens[index + 1];
    let consumed = 1;
    let start = first.start;
    let value: ReportedValue | null = null;
    let unitToken: NumberToken | undefined;
    let valueEnd = first.end;
    let end = tokenEnd(first);
    const opener = rangeOpener.exec(text.slice(Math.max(0, start - 12), start));
    const gap = next ? gapText(text, first, next) : '';
    const sameUnit = next && (!first.unit || !next.unit || formatFactors(first.unit.factors) === formatFactors(next.unit.factors));
    if (next && sameUnit && (first.unit || next.unit) && (opener ? /^\s*(?:and|to|–|-)\s*$/.test(gap) : rangeSeparator.test(gap))) {
      value = { kind: 'range', low: first.number.value, high: next.number.value };
      if (opener) start -= opener[0].length;
      unitToken = next.unit ? next : first;
      valueEnd = next.end;
      end = tokenEnd(next);
      consumed = 2;
    } else if (next && sameUnit && uncertaintySeparator.test(gap)) {
      value = { kind: 'number', value: first.number.value, uncertainty: Math.abs(next.number.value) };
      unitToken = next.unit ? next : first.unit ? first : undefined;
      valueEnd = next.end;
      end = tokenEnd(next);
      consumed = 2;
    } else if (!first.unit && next) {
      // A list sharing the unit of its last member: "3.2, 3.4 and 3.6 eV".
      let last = index;
      while (tokens[last + 1] && !tokens[last]!.unit && listSeparator.test(gapText(text, tokens[last]!, tokens[last + 1]!))) last++;
      const lastToken = tokens[last]!;
      // The last member must be joined by "and"/"or": "2.30, 95%" is not a list.
      const closed = last > index && /\b(?:and|or)\b/.test(gapText(text, tokens[last - 1]!, lastToken));
      if (closed && lastToken.unit && !/^\s*(?:–|-|to)/.test(text.slice(lastToken.unit.end, lastToken.unit.end + 3))) {
        for (let member = index; member <= last; member++) {
          const token = tokens[member]!;
          const memberValue: ReportedValue = {
            kind: 'number',
            value: token.number.value,
            ...(token.number.uncertainty !== undefined ? { uncertainty: token.number.uncertainty } : {}),
          };
          const memberEnd = member === last ? tokenEnd(token) : token.end;
          quantities.push(withAmbiguity(makeQuantity(text, token.start, memberEnd, token.end, memberValue, lastToken), [token]));
        }
        index = last + 1;
        continue;
      }
    }
    if (!value) {
      value = {
        kind: 'number',
        value: first.number.value,
        ...(first.number.uncertainty !== undefined ? { uncertainty: first.number.uncertainty } : {}),
      };
      unitToken = first.unit ? first : undefined;
    }
    index += consumed;
    const before = text.slice(Math.max(0, start - 20), start);
    if (bound.test(before)) continue;
    if (!unitToken) {
      if (!equals.test(before) || looksLikeYear(first, text.slice(first.start, first.end))) continue;
    }
    const approximate = approximation.exec(before);
    if (approximate) {
      start -= approximate[0].length;
      value.approximate = true;
    }
    quantities.push(withAmbiguity(makeQuantity(text, start, end, valueEnd, value, unitToken), tokens.slice(index - consumed, index)));
  }
  return quantities;
}
