/**
 * Conversion to SI with dimension checking.
 *
 * Trade-off (library vs own code): the dimensional algebra and the conversion factors of the
 * named units come from js-quantities (well kept, small, no dependencies, handles temperature
 * offsets); mathjs was rejected as a ~9 MB dependency for the same job. js-quantities does not
 * read the spellings of papers ("mA h g−1", "W/m.K", "cm⁻¹", "gigapascals", "Oe" as μ0H), so
 * our data table (`unit-table.json`) reads those and hands js-quantities a unit in its own
 * syntax built from unprefixed unit names (we apply SI prefixes and table scales ourselves).
 */
import Qty from 'js-quantities';
import { LRUCache } from 'lru-cache';
import { formatFactors, parseUnit, type UnitFactor } from './match-unit';

const baseOrder = ['kg', 'm', 's', 'A', 'K', 'mol', 'cd', 'rad', 'sr'];
const baseNames: Record<string, string> = {
  '<kilogram>': 'kg',
  '<meter>': 'm',
  '<second>': 's',
  '<ampere>': 'A',
  '<kelvin>': 'K',
  '<temp-K>': 'K',
  '<mole>': 'mol',
  '<candela>': 'cd',
  '<radian>': 'rad',
  '<steradian>': 'sr',
};

/** The SI base-unit text of a js-quantities base quantity: "kg m^2 s^-2", "" if dimensionless. */
function siUnitText(numerator: string[], denominator: string[]): string {
  const powers = new Map<string, number>();
  const add = (token: string, sign: number) => {
    if (token === '<1>') return;
    const name = baseNames[token] ?? token.replace(/[<>]/g, '');
    powers.set(name, (powers.get(name) ?? 0) + sign);
  };
  numerator.forEach((token) => add(token, 1));
  denominator.forEach((token) => add(token, -1));
  const names = [...powers.keys()].sort((a, b) => {
    const rank = (name: string) => (baseOrder.includes(name) ? baseOrder.indexOf(name) : baseOrder.length);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  return names
    .filter((name) => powers.get(name) !== 0)
    .map((name) => (powers.get(name) === 1 ? name : `${name}^${powers.get(name)}`))
    .join(' ');
}

/** js-quantities unit text and overall scale for factors; absolute temperature when alone. */
function libraryUnit(factors: UnitFactor[]): { units: string; scale: number; absolute: boolean } {
  let scale = 1;
  const powers = new Map<string, number>();
  const alone = factors.length === 1 && factors[0]!.exponent === 1 && factors[0]!.entry.temperature !== undefined;
  for (const factor of factors) {
    scale *= ((factor.prefix?.factor ?? 1) * (factor.entry.scale ?? 1)) ** factor.exponent;
    const qty = alone ? factor.entry.temperature! : factor.entry.qty;
    if (!qty) continue;
    for (const part of qty.split('*')) {
      const [name, power] = part.split('^');
      powers.set(name!, (powers.get(name!) ?? 0) + Number(power ?? 1) * factor.exponent);
    }
  }
  const side = (sign: number) =>
    [...powers]
      .filter(([, power]) => power * sign > 0)
      .map(([name, power]) => (Math.abs(power) === 1 ? name : `${name}^${Math.abs(power)}`))
      .join('*');
  const numerator = side(1);
  const denominator = side(-1);
  const units = denominator ? `${numerator || '1'}/${denominator}` : numerator;
  return { units, scale, absolute: alone };
}

/**
 * The canonical symbol of a unit written in any form the table knows ("mAh/g" → "mAh g^-1",
 * "electron volts" → "eV", "cm⁻¹" → "cm^-1", "℃" → "°C"); `null` when it is not a unit.
 */
export function normalizeUnit(text: string): string | null {
  const factors = parseUnit(text);
  return factors ? formatFactors(factors) : null;
}

/**
 * Units read so far (`parseUnit`, then `libraryUnit`), by the text as written: a dataset repeats a
 * handful of units, and reading one took most of a conversion (an import of 100,000 rows spent
 * ~1.4 s of its 4.4 s of checks there, Node 20). Bounded, least recently used dropped first.
 */
const readUnits = new LRUCache<string, { read: ReturnType<typeof libraryUnit> | null }>({ max: 2000 });

function readUnit(unit: string): ReturnType<typeof libraryUnit> | null {
  let entry = readUnits.get(unit);
  if (!entry) {
    const factors = parseUnit(unit);
    entry = { read: factors ? libraryUnit(factors) : null };
    readUnits.set(unit, entry);
  }
  return entry.read;
}

/** Result of a conversion: the value in SI base units and the unit text ("kg m^2 s^-2"). */
export interface SiValue {
  value: number;
  unit: string;
  dimension: string;
}

/**
 * Convert `value` in `unit` (any spelling `normalizeUnit` reads) to SI base units. Temperatures
 * standing alone are absolute (300 °C → 573.15 K); inside compounds they are intervals (K/min).
 * Returns `null` when the unit is not read or js-quantities cannot convert it. `dimension` is
 * js-quantities' kind ("energy", "pressure", …) or, when it has none, the SI base unit text.
 */
export function toSIWithDimension(value: number, unit: string): SiValue | null {
  const read = readUnit(unit);
  if (!read) return null;
  const { units, scale, absolute } = read;
  if (!units) return { value: value * scale, unit: '', dimension: 'dimensionless' };
  try {
    const quantity = Qty(value * scale, units);
    const base = absolute ? quantity.to('tempK') : quantity.toBase();
    const siUnit = siUnitText(base.numerator, base.denominator);
    return {
      value: base.scalar,
      unit: siUnit,
      dimension: quantity.kind() && quantity.kind() !== 'unitless' ? quantity.kind()! : siUnit || 'dimensionless',
    };
  } catch {
    return null;
  }
}

/**
 * `value` in `unit` as SI base units: `{ value, unit }`, e.g. toSI(1, "meV") → { 1.602e-22,
 * "kg m^2 s^-2" }; `null` when the unit is unknown. Constants: js-quantities' definitions plus
 * the scales in unit-table.json (Torr, gauss, Oe, emu, Bohr magneton — sources noted there).
 */
export function toSI(value: number, unit: string): { value: number; unit: string } | null {
  const converted = toSIWithDimension(value, unit);
  return converted ? { value: converted.value, unit: converted.unit } : null;
}

/**
 * Convert between two units of the same dimension ("eV" → "J", "°C" → "K"); `null` when either
 * unit is unknown or the dimensions differ (dimension check: equal SI base units).
 */
export function convertUnit(value: number, from: string, to: string): number | null {
  const source = toSIWithDimension(value, from);
  const unitOfTarget = toSIWithDimension(1, to);
  const zeroOfTarget = toSIWithDimension(0, to);
  if (!source || !unitOfTarget || !zeroOfTarget || source.unit !== unitOfTarget.unit) return null;
  // Affine target (°C, °F): SI = a·x + b, so x = (SI − b) / a.
  const slope = unitOfTarget.value - zeroOfTarget.value;
  return slope === 0 ? null : (source.value - zeroOfTarget.value) / slope;
}
