/**
 * The real dependencies of the grounding gate, wired in one place so that `ground.ts` can be
 * tested with injected ones: the quantity parser, the unit normalizer and the property catalogue.
 *
 * No schema is cached here: the catalogue (built-in and the reader's own properties, resolved by
 * the caller) is passed in, so a reader's property gets the same unit check as a built-in one.
 */
import type { PropertyDefinition } from '../contracts/property';
import type { ArticleIndexCache } from '../text/article-index';
import { parseQuantities, parseTableQuantities } from '../text/quantities';
import { normalizeUnit, toSI } from '../text/units';
import type { FindTableQuantities } from './table-evidence';
import type { QuoteQuantity, ToSI } from './value-in-quote';

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
  /**
   * Whether a canonical unit is one the property is reported in; undefined when unknown. When
   * absent, `catalogue` answers it (`unitFitsCatalogue`); with neither, no unit check is reported.
   */
  unitFitsProperty?: (property: string, unit: string) => boolean | undefined;
  /** The resolved property catalogue (built-in and the reader's own); the gate passes its own. */
  catalogue?: readonly PropertyDefinition[];
  /** Article indexes of the run (`createArticleIndexCache()`), shared with attribution by the gate. */
  indexes?: ArticleIndexCache;
  /** SI conversion (`toSI`), to recognise a value printed in another unit (11 meV = 0.011 eV). */
  toSI?: ToSI;
}

/**
 * Whether canonical `unit` is listed among the units of `property` in `catalogue`: a function of
 * (property, unit) → true / false, or undefined for a property the catalogue does not describe.
 */
export function unitFitsCatalogue(catalogue: readonly PropertyDefinition[]): (property: string, unit: string) => boolean | undefined {
  const units = new Map(catalogue.map((schema) => [schema.name, schema.units]));
  return (property, unit) => units.get(property)?.includes(unit);
}

/**
 * `parseQuantities`, `parseTableQuantities`, `normalizeUnit` and `toSI`: no property data. The
 * unit check comes from the catalogue a caller adds (`groundingDependencies`), or that the gate
 * adds from its own (`groundAndAttribute`, `gateFact`).
 */
export const defaultGroundingDependencies: GroundingDependencies = {
  findQuantities: parseQuantities,
  findTableQuantities: parseTableQuantities,
  normalizeUnit,
  toSI,
};

/** `defaultGroundingDependencies` with the resolved `catalogue` (and `indexes`, when given). */
export function groundingDependencies(catalogue: readonly PropertyDefinition[], indexes?: ArticleIndexCache): GroundingDependencies {
  return { ...defaultGroundingDependencies, catalogue, ...(indexes ? { indexes } : {}) };
}
