/**
 * Converting a value and its unit to SI for scoring. Two sources, in this order:
 * 1. the project's unit table (`toSI` from `src/text/units`, injected), which uses exact
 *    CODATA constants (1 eV = 1.602176634e-19 J);
 * 2. the Cornell SciLLM factor table
 *    (`cornell-scillm/supercon-extraction/scoring/si_conversion_factors.csv`, columns
 *    `property_unit,SI,conversion_factor,comments`), for units the table does not know.
 * The order matters: the CSV rounds some factors to three figures (meV → 1.60E-22 J), which is
 * 0.14% off CODATA — more than the 0.1% tolerance — so an eV truth and a meV prediction must
 * both go through the same (exact) table whenever it can.
 */
import { parse } from 'csv-parse/sync';

/** `(value, unit) → { value, unit }` in SI, or null when the unit is unknown. */
export type SiConverter = (value: number, unit: string) => { value: number; unit: string } | null;

/** The unit-table functions the converter uses (signatures of `src/text/units/index.ts`). */
export interface UnitTable {
  toSI: SiConverter;
  /** Canonical symbol for unit text ("electron volts" → "eV"), null when unknown. */
  normalizeUnit?: (text: string) => string | null;
}

/** One usable row of the factor CSV: `unit` as written there, its SI unit and the factor. */
export interface SiFactor {
  unit: string;
  siUnit: string;
  factor: number;
}

/**
 * Parse the factor CSV text. Rows without a numeric factor (material- or context-dependent
 * ones such as "erg/cc.K2", and "#N/A") are dropped. Throws when the header is not
 * `property_unit,SI,conversion_factor,…`.
 */
export function parseSiFactors(csvText: string): SiFactor[] {
  const rows = parse(csvText, { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true }) as Record<string, string>[];
  if (rows.length > 0 && !('property_unit' in rows[0]! && 'SI' in rows[0]! && 'conversion_factor' in rows[0]!)) {
    throw new Error('si_conversion_factors.csv: expected columns property_unit, SI, conversion_factor');
  }
  const factors: SiFactor[] = [];
  for (const row of rows) {
    const unit = (row.property_unit ?? '').trim();
    const factor = Number((row.conversion_factor ?? '').trim());
    const siUnit = (row.SI ?? '').trim();
    if (!unit || !siUnit || siUnit === '#N/A' || !(row.conversion_factor ?? '').trim() || !Number.isFinite(factor)) continue;
    factors.push({ unit, siUnit, factor });
  }
  return factors;
}

/**
 * Build the converter used by the scorer: unit table first (on the unit as given, then on its
 * normalized form), then the factor CSV on the exact unit text. Returns null for unknown units;
 * the scorer then compares raw values only when both sides carry the same unit text.
 * A CSV result is re-expressed through the unit table's SI spelling when the table reads it.
 */
export function createSiConverter(units: UnitTable | null, factors: readonly SiFactor[]): SiConverter {
  const byUnit = new Map(factors.map((factor) => [factor.unit, factor]));
  return (value, unit) => {
    const trimmed = unit.trim();
    if (units) {
      const direct = units.toSI(value, trimmed);
      if (direct) return direct;
      const normalized = units.normalizeUnit?.(trimmed);
      if (normalized && normalized !== trimmed) {
        const viaNormalized = units.toSI(value, normalized);
        if (viaNormalized) return viaNormalized;
      }
    }
    const factor = byUnit.get(trimmed);
    if (!factor) return null;
    const inSi = value * factor.factor;
    // The CSV names SI units its own way ("J"); re-express through the unit table when it can
    // ("kg m^2 s^-2"), so a CSV-converted value and a table-converted one compare.
    return units?.toSI(inSi, factor.siUnit) ?? { value: inSi, unit: factor.siUnit };
  };
}
