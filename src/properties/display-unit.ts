/**
 * Values in the field's units: a saved triplet's value converted to its property's display unit
 * (`PropertyDefinition.displayUnit`: eV for a band gap, K for Tc, GPa for a modulus, Å for a
 * lattice constant), for the dataset table, the plot, hover cards and the CSV export. The SI base
 * value (`DatasetTriplet.si`) stays in the JSON/JSONL exports only.
 *
 * Conversion is `convertUnit` of src/text/units (the unit table reads the spellings of papers,
 * js-quantities does the dimensional algebra and the offsets of °C/°F), so a value converts only
 * between units of the same SI dimension; otherwise the answer is null and nothing is shown —
 * never a wrong number.
 *
 * Precision: the converted number keeps the resolution of the number as printed. "40 meV" is
 * known to 1 meV, so it reads "0.040 eV"; "25 °C" is known to 1 K, so "298 K" (not "3.0e2",
 * which counting significant figures would give across an offset); "1.2 kbar" → "0.12 GPa". The
 * last printed digit's place (10^(exponent − decimals)) times the conversion's slope gives the
 * place of the last digit shown (its power of ten rounded down, so a slope that is not a power of
 * ten, J → eV, may keep one digit more, never one fewer). Trailing zeros of an integer ("40")
 * count as printed digits.
 */
import type { PropertyDefinition } from '../contracts/property';
import type { ReportedValue } from '../contracts/triplet';
import { loadPropertySchemas } from './load-property-schemas';
import { describeValue } from '../text/quantities/format-quantity';
import { numberPattern, parseNumber, withDecimalPoint } from '../text/quantities/number';
import { convertUnit, normalizeUnit } from '../text/units/convert';

/** A value in a display unit: converted numbers (unrounded), the unit, and the text "0.040 eV" (rounded as printed). */
export interface DisplayValue {
  /** The reported value in `unit`: a number (with its uncertainty and "~" carried over) or a range. */
  value: ReportedValue;
  /** The display unit, as the schema names it ("eV", "g/cm³"). */
  unit: string;
  /** Number(s) rounded to the printed precision, with the unit: "0.040 eV", "~1.2–1.5 eV", "298 ± 1 K". */
  text: string;
  /** The numbers of `text` one by one ("0.040"): `value` and `uncertainty` of a number, `low` and `high` of a range (for CSV columns). */
  rounded: { value?: string; uncertainty?: string; low?: string; high?: string };
}

/** What a triplet needs for its display value: the value, how it was printed and its unit. */
export type DisplayableTriplet = { value: ReportedValue; valueText?: string | undefined; unit: string };

/** The part of a schema that names the display unit. */
export type DisplayUnitSchema = Pick<PropertyDefinition, 'canonicalUnit'> & { displayUnit?: string | undefined };

/**
 * The unit a property's values are shown in: the schema's `displayUnit`, else (a reader's own
 * property saved before the field existed, or one that gave none) its `canonicalUnit`, which the
 * schema lists first in `units` as the unit it is most reported in.
 */
export function displayUnitOf(schema: DisplayUnitSchema): string {
  return schema.displayUnit?.trim() || schema.canonicalUnit;
}

const numberRegex = new RegExp(numberPattern, 'gu');

/**
 * The place of the last printed digit of a number as printed: "3.905" → 0.001, "40" → 1,
 * "1.5e-3" → 0.0001, "1.5 × 10^3" → 100, "10,308" → 1, "3.41(2)" → 0.01, "6,2" → 0.1. Null when `text` is not
 * one number (`parseNumber`).
 */
export function printedResolution(text: string): number | null {
  const parsed = parseNumber(text);
  if (!parsed) return null;
  // The digits as the number reader reads them: "6,2" has one decimal, "3 800" none.
  const mantissa = /^[-−+]?((?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?)/.exec(withDecimalPoint(text));
  const digits = mantissa?.[1]?.replace(/,/g, '') ?? '';
  const decimals = mantissa?.[2]?.length ?? 0;
  const mantissaValue = Number(digits);
  // The power of ten the mantissa is multiplied by ("e-3", "× 10^3"), read back from the value.
  const exponent = digits === '' || mantissaValue === 0 ? 0 : Math.round(Math.log10(Math.abs(parsed.value / mantissaValue)));
  return 10 ** (exponent - decimals);
}

/**
 * The printed resolution of `number` as it stands in `valueText` (the first printed number equal
 * to it, sign ignored), else as JavaScript's shortest form writes it (`String(number)`, which
 * drops trailing zeros: a stored 0.040 counts as known to 0.01).
 */
function resolutionOf(number: number, valueText: string | undefined): number {
  for (const match of (valueText ?? '').matchAll(numberRegex)) {
    const text = match[0].replace(/^[-−+]/, '');
    const parsed = /\d/.test(text) ? parseNumber(text) : null;
    if (parsed && Math.abs(Math.abs(parsed.value) - Math.abs(number)) <= 1e-9 * Math.abs(number)) return printedResolution(text)!;
  }
  return printedResolution(String(Math.abs(number))) ?? 1;
}

/**
 * `value` rounded to the place of `resolution` (a positive number, in the same unit) as text:
 * 0.04 at 0.001 → "0.040"; 298.15 at 1 → "298"; 50 at 10 → "50". Outside 1e-4…1e7 in magnitude,
 * e notation with the digits down to that place ("1.602e-19").
 */
export function roundToResolution(value: number, resolution: number): string {
  const place = Math.floor(Math.log10(resolution) + 1e-9);
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e7)) {
    const digits = Math.max(0, Math.min(20, Math.floor(Math.log10(magnitude)) - place));
    return value.toExponential(digits).replace('e+', 'e');
  }
  // Rounded in decimal (via the shortest 15-digit text and "e" shifts), so 398.65 → "398.7" as a
  // reader rounds it, not "398.6" as its binary double (398.6499…) would.
  const decimal = Number(value.toPrecision(15));
  const text =
    place >= 0
      ? String(Math.round(decimal / 10 ** place) * 10 ** place)
      : Number(`${Math.round(Number(`${decimal}e${-place}`))}e${place}`).toFixed(Math.min(20, -place));
  // "-0.0" for a tiny negative value reads as a sign the number does not have.
  return /^-[0.]+$/.test(text) ? text.slice(1) : text;
}

/** Unit conversions are affine: display = offset + factor × printed (offset 0 but for °C/°F ↔ K). */
interface Conversion {
  offset: number;
  factor: number;
}

/** Conversions already worked out, by "unit\u0000displayUnit": an export of 100 000 rows has a handful of unit pairs. */
const conversions = new Map<string, Conversion | null>();
/** Unit texts come from imported files too; past this many pairs the cache starts over rather than grow. */
const MAX_CACHED_CONVERSIONS = 1000;

/** The affine map from `unit` to `displayUnit` (identity for the same canonical symbol), or null when they do not convert (`convertUnit`). */
function conversionOf(unit: string, displayUnit: string): Conversion | null {
  const key = `${unit}\u0000${displayUnit}`;
  const cached = conversions.get(key);
  if (cached !== undefined) return cached;
  let conversion: Conversion | null;
  if (unit === displayUnit || (normalizeUnit(unit) ?? unit) === (normalizeUnit(displayUnit) ?? displayUnit)) {
    conversion = { offset: 0, factor: 1 };
  } else {
    const zero = convertUnit(0, unit, displayUnit);
    const one = convertUnit(1, unit, displayUnit);
    const factor = zero === null || one === null ? NaN : one - zero;
    conversion = zero !== null && Number.isFinite(factor) && factor !== 0 ? { offset: zero, factor } : null;
  }
  if (conversions.size >= MAX_CACHED_CONVERSIONS) conversions.clear();
  conversions.set(key, conversion);
  return conversion;
}

/**
 * A triplet's value in `displayUnit`, or null when its unit is empty or does not convert
 * (different dimension, unknown unit such as "mK", which the unit table lacks). A range converts
 * both ends; an uncertainty converts by the slope only (it is an interval: ±1 °C is ±1 K); "~"
 * is kept. When the printed unit already is the display unit (same canonical symbol), the numbers
 * are the printed ones. Numbers in `text` keep the printed precision (see the module comment);
 * a number's value is shown to the finer of its own and its uncertainty's places.
 */
export function toDisplayValue(triplet: DisplayableTriplet, displayUnit: string): DisplayValue | null {
  const unit = triplet.unit.trim();
  if (unit === '' || displayUnit.trim() === '') return null;
  const conversion = conversionOf(unit, displayUnit);
  if (!conversion) return null;
  const { offset, factor } = conversion;
  // An offset scale (°C) goes through js-quantities for each number, which refuses temperatures below absolute zero.
  const convert = (number: number): number | null => (offset === 0 ? factor * number : convertUnit(number, unit, displayUnit));
  const slope = Math.abs(factor);
  const shown = (number: number, resolution: number) => roundToResolution(number, resolution * slope);
  const { value, valueText } = triplet;
  const approximate = value.approximate ? '~' : '';
  if (value.kind === 'range') {
    const low = convert(value.low);
    const high = convert(value.high);
    if (low === null || high === null || !Number.isFinite(low) || !Number.isFinite(high)) return null;
    const rounded = { low: shown(low, resolutionOf(value.low, valueText)), high: shown(high, resolutionOf(value.high, valueText)) };
    const text = `${approximate}${rounded.low}–${rounded.high} ${displayUnit}`;
    return {
      value: { kind: 'range', low, high, ...(value.approximate !== undefined && { approximate: value.approximate }) },
      unit: displayUnit,
      text,
      rounded,
    };
  }
  const converted = convert(value.value);
  if (converted === null || !Number.isFinite(converted)) return null;
  const uncertainty = value.uncertainty === undefined ? undefined : value.uncertainty * slope;
  const ownResolution = resolutionOf(value.value, valueText);
  const uncertaintyResolution = value.uncertainty === undefined ? undefined : resolutionOf(value.uncertainty, valueText);
  const resolution = Math.min(ownResolution, uncertaintyResolution ?? ownResolution);
  const rounded = {
    value: shown(converted, resolution),
    ...(uncertainty !== undefined && { uncertainty: shown(uncertainty, uncertaintyResolution!) }),
  };
  return {
    value: {
      kind: 'number',
      value: converted,
      ...(uncertainty !== undefined && { uncertainty }),
      ...(value.approximate !== undefined && { approximate: value.approximate }),
    },
    unit: displayUnit,
    text: `${approximate}${rounded.value}${rounded.uncertainty === undefined ? '' : ` ± ${rounded.uncertainty}`} ${displayUnit}`,
    rounded,
  };
}

/**
 * `toDisplayValue` in the display unit of the triplet's property, looked up by name in `schemas`
 * (`displayUnitOf`); null for a property no schema describes, or a unit that does not convert.
 */
export function displayValueOf(
  triplet: DisplayableTriplet & { property: string },
  schemas: ReadonlyMap<string, DisplayUnitSchema>,
): DisplayValue | null {
  const schema = schemas.get(triplet.property);
  return schema ? toDisplayValue(triplet, displayUnitOf(schema)) : null;
}

/**
 * The display value's text to write beside a value as printed, or undefined when there is none
 * or it would repeat the printed one ("40 meV" → "0.040 eV"; "1.2 eV" with eV as display unit →
 * undefined). For the side panel's verdict list and the hover cards: `${describeValue(triplet)}
 * (${shown})`.
 */
export function displayTextBeside(triplet: DisplayableTriplet, schema: DisplayUnitSchema | undefined): string | undefined {
  if (!schema) return undefined;
  const display = toDisplayValue(triplet, displayUnitOf(schema));
  if (!display) return undefined;
  const unit = triplet.unit.trim();
  const sameUnit = unit === display.unit || normalizeUnit(unit) === normalizeUnit(display.unit);
  return sameUnit ? undefined : display.text;
}

/**
 * A triplet's value as the side panel's verdict list writes it (`describeValue`: "40 meV"),
 * followed by its display-unit value where that says something new: "40 meV (0.040 eV)";
 * "1.1 eV" stays "1.1 eV". Plain text for React text nodes.
 */
export function describeValueWithDisplay(triplet: DisplayableTriplet, schema: DisplayUnitSchema | undefined): string {
  const beside = displayTextBeside(triplet, schema);
  const printed = describeValue(triplet);
  return beside === undefined ? printed : `${printed} (${beside})`;
}

/**
 * The display units of a resolved catalogue (built-in and the reader's own properties) by
 * property name, for `displayValueOf`, `toCsv` and the side panel: a reader's property is shown
 * in its `displayUnit` (else its canonical unit) just as a built-in one. Later entries of the
 * same name win, so a catalogue listing the reader's properties after the built-ins lets them
 * override. Pure; nothing is cached here.
 */
export function displayUnitsOf(catalogue: readonly (DisplayUnitSchema & { name: string })[]): ReadonlyMap<string, DisplayUnitSchema> {
  return new Map(catalogue.map((schema) => [schema.name, schema]));
}

/**
 * `displayUnitsOf` the built-in schemas, read afresh on each call: the default of exports and
 * panels that have no reader's catalogue at hand. A caller that has one passes `displayUnitsOf`
 * of it instead, and one that calls this per row should call it once and keep the map.
 */
export function builtInDisplayUnits(): ReadonlyMap<string, DisplayUnitSchema> {
  return displayUnitsOf(loadPropertySchemas());
}
