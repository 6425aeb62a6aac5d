/**
 * Matching a prediction to an annotated value of SOFC-Exp or MSPTC, strict and lenient.
 *
 * Triplets (an engine's material–property–value–unit against an annotated value and the
 * materials of its frame or relation). Neither corpus labels a property Assay has a schema for,
 * so the property is not compared unless the annotation's label maps to a schema
 * (`ValueTruth.schema`); the unit's dimension stands in for it:
 * - strict: the material equals one of the truth's materials by `sameMaterialStrict` (the
 *   triplet scorer's strict rule: whole formulas of equal composition with the same phase,
 *   else the same name after Unicode folding and case); AND the value is equal in SI
 *   within 0.1% (`valuesMatch`, docs/EVAL.md "Values"); AND the units have the same dimension
 *   (`sameDimension`), the unit as the tool wrote it;
 * - lenient: the earlier triplet matching (`tripletsMatch` of triplet-scorer.ts without the
 *   property): `sameMaterial` against the materials whatever their form, the value within 0.1%
 *   in SI, a missing unit read as the canonical unit of the property the tool reported.
 *
 * Quantities (the parser's number–unit spans against the annotated value spans), as the corpora
 * score spans (SOFC-Exp: conlleval exact chunks; MSPTC: span-level F1 in the LAW 2019 paper):
 * - strict: the same start and end, AND, when the truth's text holds a readable number, the
 *   parsed value equal within 0.1% in SI with the same unit dimension;
 * - lenient: the spans share at least one character.
 */
import type { ReportedValue } from '../../contracts/triplet';
import { normalizeUnit } from '../../text/units/index';
import type { SiConverter } from '../si-conversion';
import type { SpanMode } from '../span-score';
import { valuesMatch } from '../value-match';
import type { ValueTruth } from './value-corpus';
import type { ScorerDependencies } from '../triplet-scorer-types';

/** The scorer dependencies the matching reads (unit conversion, strict and lenient material equality). */
export type ValueMatchDependencies = Pick<ScorerDependencies, 'convert' | 'sameMaterial' | 'sameMaterialStrict'>;

/** The fields of a predicted triplet the matching reads. */
export interface ValuePrediction {
  material: string;
  property: string;
  value: ReportedValue;
  /** The unit as the tool wrote it ("" when none). */
  unit: string;
}

/** Relative tolerance of the headline: 0.1% (docs/EVAL.md "Values"). */
export const HEADLINE_TOLERANCE = 0.001;

/** A unit's canonical symbol (`normalizeUnit`), else its trimmed text. */
function unitKey(unit: string): string {
  return normalizeUnit(unit) ?? unit.trim();
}

/**
 * Whether two units measure the same thing: both convert to the same SI unit (`convert`), and
 * for dimensionless ones (%, cycles, a bare number) the same unit as well, since "15 cycles" is
 * not "15 %"; when neither converts, the same canonical symbol or text.
 */
export function sameDimension(a: string, b: string, convert: SiConverter): boolean {
  const siA = convert(1, a);
  const siB = convert(1, b);
  if (siA && siB) return siA.unit === siB.unit && (siA.unit !== '' || unitKey(a) === unitKey(b));
  return !siA && !siB && unitKey(a) === unitKey(b);
}

/** Whether a value with its unit equals the truth's at 0.1% in SI with the same dimension. */
export function sameValue(value: ReportedValue, unit: string, truth: ValueTruth, convert: SiConverter): boolean {
  if (truth.value === null) return false;
  return (
    valuesMatch({ value, unit }, { value: truth.value, unit: truth.unit }, HEADLINE_TOLERANCE, convert) &&
    sameDimension(unit, truth.unit, convert)
  );
}

/**
 * Whether a predicted triplet matches one annotated value under `mode`. `assumedUnit` is the
 * canonical unit of the property the tool reported (read for a missing unit, lenient only).
 * A truth without a readable value or without any material never matches.
 */
export function tripletMatchesValue(
  prediction: ValuePrediction,
  truth: ValueTruth,
  mode: SpanMode,
  dependencies: ValueMatchDependencies,
  assumedUnit?: string,
): boolean {
  if (truth.schema !== undefined && prediction.property !== truth.schema) return false;
  const aliases = truth.aliases.filter((alias) => alias.trim() !== '');
  if (aliases.length === 0) return false;
  if (mode === 'strict') {
    if (!aliases.some((alias) => dependencies.sameMaterialStrict(prediction.material, alias))) return false;
    return sameValue(prediction.value, prediction.unit, truth, dependencies.convert);
  }
  const [name, ...others] = aliases as [string, ...string[]];
  if (!dependencies.sameMaterial(prediction.material, name, others)) return false;
  const unit = prediction.unit.trim() === '' && assumedUnit !== undefined ? assumedUnit : prediction.unit;
  return sameValue(prediction.value, unit, truth, dependencies.convert);
}
