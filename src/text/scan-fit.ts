/**
 * Whether a quantity's unit fits a property, and its value in the property's canonical unit.
 */
import type { PropertyDefinition } from '../contracts/property';
import type { ReportedValue } from '../contracts/triplet';
import type { ScanQuantity } from './scan-types';
import { normalizeUnit, toSI } from './units';

function canonical(unit: string): string {
  return normalizeUnit(unit) ?? unit;
}

/**
 * True when `quantity` has a unit listed for `schema` (compared after `normalizeUnit`, so
 * "g/cm^3" and "g cm−3" both count), a `dimension` equal to the schema's, or a unit whose SI
 * base units equal those of the canonical unit ("J" for eV). A bare number never fits.
 */
export function unitFitsProperty(quantity: Pick<ScanQuantity, 'unit' | 'dimension'>, schema: PropertyDefinition): boolean {
  if (quantity.unit === '') return false;
  if (quantity.dimension !== undefined && quantity.dimension === schema.dimension) return true;
  const unit = canonical(quantity.unit);
  if (schema.units.some((listed) => listed === quantity.unit || canonical(listed) === unit)) return true;
  // Any other unit of the same SI dimension ("kJ/mol" is not energy per particle and does not
  // match eV's kg m^2 s^-2, while "K" and "°C" both give K).
  const si = toSI(1, quantity.unit);
  const canonicalSi = toSI(1, schema.canonicalUnit);
  return si !== null && canonicalSi !== null && si.unit === canonicalSi.unit;
}

/**
 * `value` (in `unit`) converted to the schema's canonical unit via SI (`toSI(value, unit).value /
 * toSI(1, canonicalUnit).value`; the canonical units are not offset units, so the ratio is
 * exact for °C → K too). Null when a unit is unknown to `toSI` and differs from the canonical one.
 */
export function toCanonicalNumber(value: number, unit: string, schema: PropertyDefinition): number | null {
  if (canonical(unit) === canonical(schema.canonicalUnit)) return value;
  const si = toSI(value, unit);
  const unitSi = toSI(1, schema.canonicalUnit);
  if (!si || !unitSi || unitSi.value === 0 || si.unit !== unitSi.unit) return null;
  return si.value / unitSi.value;
}

/** True when every number of `value` lies in the schema's plausible range; false when it cannot be converted. */
export function isPlausible(value: ReportedValue, unit: string, schema: PropertyDefinition): boolean {
  const numbers = value.kind === 'number' ? [value.value] : [value.low, value.high];
  return numbers.every((number) => {
    const converted = toCanonicalNumber(number, unit, schema);
    return converted !== null && converted >= schema.plausibleRange.min && converted <= schema.plausibleRange.max;
  });
}
