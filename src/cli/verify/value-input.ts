/**
 * A fact's value as other tools write it, read into a `ReportedValue` with the project's own
 * number and quantity parsers (`parseNumber`, `parseQuantities`): a number (3.4), a numeric
 * string ("3.4", "−1.5×10−3", "3.41(2)"), an approximate one ("~1.45", "≈ 2", "about 0.7"), a
 * range ("1.2–1.5", "1.2 to 1.5", {low, high}, {min, max}), Assay's own `ReportedValue`, and a
 * string that carries its unit ("3.4 eV") when the line gives none. A bound ("< 5") is refused:
 * `ReportedValue` has no place for it and a bound verified as a number would be a wrong fact.
 */
import { parseNumber } from '../../text/quantities/number';
import { parseQuantities } from '../../text/quantities/parse-quantities';
import type { ReportedValue } from '../../contracts/triplet';

export type ValueInput =
  number | string | ReportedValue | { low: number | string; high: number | string } | { min: number | string; max: number | string };

/** The value read, the unit (as given, else as printed in the value text, else ''), and the value as printed. */
export type ReadValue = { value: ReportedValue; unit: string; valueText?: string } | { error: string };

const APPROXIMATE = /^(?:~|∼|≈|≃|about\b|approximately\b|approx\.|ca\.|around\b|nearly\b|roughly\b)\s*/i;
const BOUND = /^(?:<|>|≤|≥|⩽|⩾|≲|≳|less than\b|more than\b|greater than\b|up to\b|above\b|below\b|at least\b|at most\b)/i;
/** Where a range may be cut: an en or em dash, "to", a hyphen or a tilde between two numbers. */
const RANGE_SEPARATOR = /\s*(?:–|—|‒|\bto\b|-|~)\s*/g;

function numberOf(input: number | string): number | null {
  if (typeof input === 'number') return Number.isFinite(input) ? input : null;
  return parseNumber(input.replace(APPROXIMATE, ''))?.value ?? null;
}

function range(low: number | null, high: number | null, approximate: boolean): ReportedValue | null {
  if (low === null || high === null) return null;
  const [first, second] = low <= high ? [low, high] : [high, low];
  return { kind: 'range', low: first, high: second, ...(approximate ? { approximate } : {}) };
}

/** A bare value text (no unit): one number, a number ± its uncertainty, or a range. */
function readBareText(text: string, approximate: boolean): ReportedValue | null {
  const single = parseNumber(text);
  if (single) return { kind: 'number', ...single, ...(approximate ? { approximate } : {}) };
  const plusMinus = /^(.+?)\s*(?:±|\+\/-|\+\/−)\s*(.+)$/.exec(text);
  if (plusMinus) {
    const value = parseNumber(plusMinus[1]!);
    const uncertainty = parseNumber(plusMinus[2]!);
    if (value && uncertainty) return { kind: 'number', value: value.value, uncertainty: Math.abs(uncertainty.value) };
  }
  // Each separator in turn: "1e-3-2e-3" is cut where both halves are numbers, "-1.2 - -0.5" too.
  for (const separator of text.matchAll(RANGE_SEPARATOR)) {
    if (separator.index === 0) continue;
    const low = parseNumber(text.slice(0, separator.index));
    const high = parseNumber(text.slice(separator.index + separator[0].length));
    if (low && high) return range(low.value, high.value, approximate);
  }
  return null;
}

/**
 * Read `input` (see the module comment) with the line's `unit` (undefined when the line has
 * none). Returns the value, or `{ error }` in words for a value that is not a number, a range
 * with a side that is not one, or a bound.
 */
export function readValueInput(input: ValueInput, unit: string | undefined): ReadValue {
  const givenUnit = unit?.trim() ?? '';
  if (typeof input === 'number') {
    return Number.isFinite(input)
      ? { value: { kind: 'number', value: input }, unit: givenUnit }
      : { error: 'value is not a finite number' };
  }
  if (typeof input === 'object') {
    if ('kind' in input)
      return input.kind === 'range'
        ? { value: range(input.low, input.high, input.approximate === true)!, unit: givenUnit }
        : { value: input, unit: givenUnit };
    const [low, high] = 'low' in input ? [input.low, input.high] : [input.min, input.max];
    const value = range(numberOf(low), numberOf(high), false);
    return value ? { value, unit: givenUnit } : { error: `value range ${String(low)}–${String(high)} is not two numbers` };
  }
  const text = input.trim();
  if (BOUND.test(text)) return { error: `value "${text}" is a bound, not a value: give the number the paper reports` };
  const approximate = APPROXIMATE.test(text);
  const bare = text.replace(APPROXIMATE, '');
  const value = readBareText(bare, approximate);
  if (value) return { value, unit: givenUnit, valueText: text };
  // "3.4 eV", "1.2–1.5 eV": a value printed with its unit, read as the paper's own text would be.
  const quantities = parseQuantities(bare);
  const quantity = quantities.length === 1 && quantities[0]!.start === 0 && quantities[0]!.end === bare.length ? quantities[0]! : undefined;
  if (quantity && (givenUnit === '' || givenUnit === quantity.unitText || givenUnit === quantity.unit)) {
    const read = approximate ? { ...quantity.value, approximate } : quantity.value;
    return { value: read, unit: givenUnit || quantity.unitText, valueText: quantity.valueText };
  }
  return { error: `value "${text}" is not a number or a range` };
}
