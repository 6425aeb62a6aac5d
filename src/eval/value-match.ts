/**
 * Whether a predicted value equals a true one, after conversion to SI, at a relative
 * tolerance. Rules from `docs/EVAL.md` ("Scoring rules → Values"):
 * - relative error |p − t| / |t| ≤ tolerance; exact equality when the truth is 0;
 * - an approximate value ("~1.45") is compared by its number: it matches 1.45;
 * - a range matches only a range, end by end; a number never matches a range;
 * - both sides must convert to the same SI unit; when neither unit converts, the raw numbers
 *   are compared only if the unit texts are identical (e.g. both dimensionless "").
 */
import type { ReportedValue } from '../contracts/triplet';
import type { SiConverter } from './si-conversion';

/** A value with the unit it was reported in. */
export interface ValueWithUnit {
  value: ReportedValue;
  unit: string;
}

/** Relative-error test for one pair of numbers; `tolerance` is a fraction (0.001 = 0.1%). */
export function withinTolerance(predicted: number, truth: number, tolerance: number): boolean {
  if (truth === 0) return predicted === 0;
  // The tiny epsilon absorbs binary rounding (1.001 vs 1 at 0.1% would otherwise fail).
  return Math.abs(predicted - truth) / Math.abs(truth) <= tolerance * (1 + 1e-9);
}

/** The numbers of a value in the unit given by `convert` (null if a number does not convert). */
function inUnit(value: ReportedValue, unit: string, convert: SiConverter): { numbers: number[]; unit: string } | null {
  const raw = value.kind === 'range' ? [value.low, value.high] : [value.value];
  const converted = raw.map((number) => convert(number, unit));
  if (converted.some((item) => item === null)) return { numbers: raw, unit: `raw:${unit.trim()}` };
  const siUnit = converted[0]!.unit;
  if (converted.some((item) => item!.unit !== siUnit)) return null;
  return { numbers: converted.map((item) => item!.value), unit: siUnit };
}

/**
 * True when `predicted` equals `truth` under the rules above at `tolerance` (a fraction).
 * `convert` is the SI converter (`createSiConverter`); it is never asked to throw.
 */
export function valuesMatch(predicted: ValueWithUnit, truth: ValueWithUnit, tolerance: number, convert: SiConverter): boolean {
  if (predicted.value.kind !== truth.value.kind) return false;
  const predictedSi = inUnit(predicted.value, predicted.unit, convert);
  const truthSi = inUnit(truth.value, truth.unit, convert);
  if (!predictedSi || !truthSi || predictedSi.unit !== truthSi.unit) return false;
  return truthSi.numbers.every((number, index) => withinTolerance(predictedSi.numbers[index]!, number, tolerance));
}
