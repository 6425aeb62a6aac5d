/**
 * The real dependencies of the grounding gate, wired in one place so that `ground.ts` can be
 * tested with injected ones: the quantity parser, the unit normalizer and the property schemas.
 */
import { parseQuantities, parseTableQuantities } from '../text/quantities';
import { normalizeUnit, toSI } from '../text/units';
import { loadPropertySchemas } from '../properties';
import type { GroundingDependencies } from './ground';

let propertyUnits: Map<string, string[]> | undefined;

/**
 * Whether canonical `unit` is listed among the units of built-in property `property`
 * (`src/properties/data/*.json`); undefined for a property without a built-in schema.
 */
export function unitFitsBuiltInProperty(property: string, unit: string): boolean | undefined {
  propertyUnits ??= new Map(loadPropertySchemas().map((schema) => [schema.name, schema.units]));
  const units = propertyUnits.get(property);
  return units === undefined ? undefined : units.includes(unit);
}

/** `parseQuantities`, `parseTableQuantities`, `normalizeUnit`, `toSI` and the built-in property schemas. */
export const defaultGroundingDependencies: GroundingDependencies = {
  findQuantities: parseQuantities,
  findTableQuantities: parseTableQuantities,
  normalizeUnit,
  unitFitsProperty: unitFitsBuiltInProperty,
  toSI,
};
