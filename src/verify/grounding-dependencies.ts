/**
 * The real dependencies of the grounding gate, wired in one place so that `ground.ts` can be
 * tested with injected ones: the quantity parser, the unit normalizer and the property schemas.
 */
import { parseQuantities, parseTableQuantities } from '../text/quantities';
import { normalizeUnit, toSI } from '../text/units';
import { loadPropertySchemas } from '../properties';
import type { FindTableQuantities } from './table-evidence';
import type { QuoteQuantity, ToSI } from './value-in-quote';

let propertyUnits: Map<string, string[]> | undefined;

/** What grounding needs from the quantity, unit and property modules (injected for tests). */
export interface GroundingDependencies {
  /** Quantities written in a text (`parseQuantities` of `src/text/quantities`). */
  findQuantities: (text: string) => QuoteQuantity[];
  /**
   * Quantities of a table block's cells, a bare cell taking its column header's unit
   * (`parseTableQuantities`); used only when the quote takes in the table's header row.
   * Without it, table cells printed without a unit are not seen.
   */
  findTableQuantities?: FindTableQuantities;
  /** Canonical unit symbol for a unit as written, or null when unknown (`normalizeUnit`). */
  normalizeUnit: (text: string) => string | null;
  /** Whether a canonical unit is one the property is reported in; undefined when unknown. */
  unitFitsProperty?: (property: string, unit: string) => boolean | undefined;
  /** SI conversion (`toSI`), to recognise a value printed in another unit (11 meV = 0.011 eV). */
  toSI?: ToSI;
}

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
