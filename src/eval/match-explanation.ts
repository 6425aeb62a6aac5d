/**
 * Why a prediction matched no truth under strict scoring (issue 26): the nearest truth of its
 * paper and the differences in words, so errors can be studied from `assay eval … --json` without
 * re-implementing the scorer.
 *
 * **Nearest truth**, among the truths of the prediction's paper, ranked by, in order:
 * 1. the same property;
 * 2. the same value (`valuesMatch` at the headline 0.1%, bound or not);
 * 3. the same material (the strict rule's base materials equal; the whole names without a
 *    condition reader);
 * 4. the smallest relative difference of the values in SI (a range by its midpoint; a value that
 *    does not convert ranks last);
 * 5. the dataset's order.
 * So: the truth with the same value, else the same material, else any — the closest number first.
 */
import type { ReportedValue } from '../contracts/triplet';
import type { DefinedAlias } from '../text/materials/same-material';
import { aliasPasses, checkAliases, type AliasCheck } from './strict-material';
import { valuesMatch } from './value-match';
import type { PredictedTriplet, ScorerDependencies, TruthTriplet } from './triplet-scorer-types';

/** The headline value tolerance (0.1%), as in `TOLERANCES`. */
const HEADLINE_TOLERANCE = 0.001;

/** What `why` says when a paper has no truth at all. */
export const NO_TRUTH_IN_PAPER = 'no truth in this paper';

function midpointSi(value: ReportedValue, unit: string, dependencies: ScorerDependencies): { value: number; unit: string } | null {
  const number = value.kind === 'range' ? (value.low + value.high) / 2 : value.value;
  return dependencies.convert(number, unit);
}

function relativeDistance(predicted: PredictedTriplet, truth: TruthTriplet, dependencies: ScorerDependencies): number {
  const left = midpointSi(predicted.value, predicted.unit, dependencies);
  const right = midpointSi(truth.value, truth.unit, dependencies);
  if (!left || !right || left.unit !== right.unit) return Number.POSITIVE_INFINITY;
  const scale = Math.max(Math.abs(left.value), Math.abs(right.value));
  return scale === 0 ? 0 : Math.abs(left.value - right.value) / scale;
}

function sameValue(predicted: PredictedTriplet, truth: TruthTriplet, dependencies: ScorerDependencies): boolean {
  return valuesMatch(predicted, truth, HEADLINE_TOLERANCE, dependencies.convert);
}

function aliasChecks(
  predicted: PredictedTriplet,
  truth: TruthTriplet,
  dependencies: ScorerDependencies,
  definedAliases: readonly DefinedAlias[],
): AliasCheck[] | null {
  return dependencies.conditions ? checkAliases(predicted, truth, dependencies, dependencies.conditions, definedAliases) : null;
}

function sameMaterialBase(
  predicted: PredictedTriplet,
  truth: TruthTriplet,
  dependencies: ScorerDependencies,
  definedAliases: readonly DefinedAlias[],
): boolean {
  const checks = aliasChecks(predicted, truth, dependencies, definedAliases);
  if (checks) return checks.some((check) => check.sameBase);
  const [name, ...others] = truth.aliases;
  return name !== undefined && dependencies.sameMaterialStrict(predicted.material, name, others, definedAliases);
}

/**
 * Index in `truths` of the truth nearest to `predicted` (ranking in the module comment), or null
 * when `truths` is empty.
 */
export function nearestTruthIndex(
  predicted: PredictedTriplet,
  truths: readonly TruthTriplet[],
  dependencies: ScorerDependencies,
  definedAliases: readonly DefinedAlias[] = [],
): number | null {
  let best: { index: number; key: number[] } | null = null;
  for (const [index, truth] of truths.entries()) {
    const key = [
      truth.property === predicted.property ? 0 : 1,
      sameValue(predicted, truth, dependencies) ? 0 : 1,
      sameMaterialBase(predicted, truth, dependencies, definedAliases) ? 0 : 1,
      relativeDistance(predicted, truth, dependencies),
    ];
    // Strictly less: on a tie the earlier truth stays.
    if (best === null || isLess(key, best.key)) best = { index, key };
  }
  return best?.index ?? null;
}

function isLess(a: readonly number[], b: readonly number[]): boolean {
  for (let position = 0; position < a.length; position += 1) {
    if (a[position]! !== b[position]!) return a[position]! < b[position]!;
  }
  return false;
}

/** "2.31 eV", "1.5–2.3 eV", "< 0.002 eV", "1.4 (no unit)": a value as printed, for reasons. */
export function describeValue(triplet: Pick<TruthTriplet, 'value' | 'unit' | 'valueText' | 'bound'>): string {
  const { value } = triplet;
  const printed =
    triplet.valueText?.trim() ||
    (value.kind === 'range'
      ? `${value.low}–${value.high}`
      : `${triplet.bound === 'upper' ? '< ' : triplet.bound === 'lower' ? '> ' : ''}${value.value}`);
  const unit = triplet.unit.trim();
  if (unit === '') return `${printed} (no unit)`;
  // Some datasets print the unit with the value ("1.27 eV").
  return printed.endsWith(unit) ? printed : `${printed} ${unit}`;
}

/** The alias that explains best: same base first, then the fewest unmet qualifiers, then the dataset's order. */
function closestAlias(checks: readonly AliasCheck[]): AliasCheck | undefined {
  const cost = (check: AliasCheck) => (check.sameBase ? 0 : 1000) + check.comparison.missing.length + check.comparison.contradicting.length;
  return [...checks].sort((a, b) => cost(a) - cost(b))[0];
}

function materialReasons(
  predicted: PredictedTriplet,
  truth: TruthTriplet,
  dependencies: ScorerDependencies,
  definedAliases: readonly DefinedAlias[],
): string[] {
  const checks = aliasChecks(predicted, truth, dependencies, definedAliases);
  if (!checks) {
    return sameMaterialBase(predicted, truth, dependencies, definedAliases)
      ? []
      : [`material differs: ${predicted.material} vs ${truth.aliases[0] ?? ''}`];
  }
  if (checks.some(aliasPasses)) return [];
  const alias = closestAlias(checks);
  if (!alias || !alias.sameBase)
    return [`material differs: ${checks[0]?.predictionBase ?? predicted.material} vs ${checks[0]?.truthBase ?? truth.aliases[0] ?? ''}`];
  return [
    ...alias.comparison.contradicting.map(
      ({ condition, qualifier }) => `condition ${condition.value} contradicts truth qualifier ${qualifier.value}`,
    ),
    ...alias.comparison.missing.map((qualifier) => `truth qualifier ${qualifier.value} not in the prediction's conditions`),
  ];
}

/**
 * Why `predicted` was not matched to `truth` under strict scoring, in words, most decisive first:
 * property, material (base material, contradicted and missing condition qualifiers), bound, value
 * and unit ("value 2.30 eV vs 2.31 eV"). When nothing differs, the truth went to another
 * prediction of the one-to-one matching. Never empty.
 */
export function whyUnmatched(
  predicted: PredictedTriplet,
  truth: TruthTriplet,
  dependencies: ScorerDependencies,
  definedAliases: readonly DefinedAlias[] = [],
): string {
  const reasons: string[] = [];
  if (predicted.property !== truth.property) reasons.push(`property differs: ${predicted.property} vs ${truth.property}`);
  reasons.push(...materialReasons(predicted, truth, dependencies, definedAliases));
  if ((predicted.bound ?? null) !== (truth.bound ?? null)) {
    reasons.push(
      `bound differs: ${predicted.bound ? `${predicted.bound} bound` : 'a plain value'} vs ${truth.bound ? `${truth.bound} bound` : 'a plain value'}`,
    );
  }
  if (!sameValue(predicted, truth, dependencies)) reasons.push(`value ${describeValue(predicted)} vs ${describeValue(truth)}`);
  if (reasons.length === 0) reasons.push('truth matched to another prediction (one-to-one matching)');
  return reasons.join('; ');
}
