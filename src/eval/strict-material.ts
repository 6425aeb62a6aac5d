/**
 * Strict material equality with condition qualifiers (issue 26): the base materials equal under
 * `sameMaterialStrict`, every condition qualifier of the truth's name carried by the prediction,
 * and no prediction condition contradicting one (rules in src/eval/qualified-name.ts and
 * src/eval/condition-match.ts). Without a condition reader in the scorer's dependencies, the
 * names are compared whole, as before issue 26.
 */
import type { DefinedAlias } from '../text/materials/same-material';
import { compareQualifiers, distinctConditions, type QualifierComparison } from './condition-match';
import { splitQualifiedNameCached, type ConditionReader, type ScoredCondition } from './qualified-name';
import type { PredictedTriplet, ScorerDependencies, TruthTriplet } from './triplet-scorer-types';

/** One truth alias against a prediction, under the strict rule. */
export interface AliasCheck {
  /** The alias as the dataset writes it. */
  alias: string;
  /** Its base material and condition qualifiers. */
  truthBase: string;
  qualifiers: ScoredCondition[];
  /** The prediction's base material. */
  predictionBase: string;
  sameBase: boolean;
  comparison: QualifierComparison;
}

/** A prediction's conditions: its name's qualifiers, then `conditions` (without repeats). */
export function predictionConditions(
  predicted: Pick<PredictedTriplet, 'material' | 'conditions'>,
  reader: ConditionReader,
): ScoredCondition[] {
  return distinctConditions([...splitQualifiedNameCached(predicted.material, reader).qualifiers, ...(predicted.conditions ?? [])]);
}

/**
 * Each alias of `truth` checked against `predicted` with `reader` (in the dataset's order).
 * `definedAliases` are the paper's own abbreviations, passed to `sameMaterialStrict`.
 */
export function checkAliases(
  predicted: Pick<PredictedTriplet, 'material' | 'conditions'>,
  truth: Pick<TruthTriplet, 'aliases'>,
  dependencies: ScorerDependencies,
  reader: ConditionReader,
  definedAliases: readonly DefinedAlias[] = [],
): AliasCheck[] {
  const prediction = splitQualifiedNameCached(predicted.material, reader);
  const conditions = predictionConditions(predicted, reader);
  return truth.aliases.map((alias) => {
    const { base, qualifiers } = splitQualifiedNameCached(alias, reader);
    return {
      alias,
      truthBase: base,
      qualifiers,
      predictionBase: prediction.base,
      sameBase: dependencies.sameMaterialStrict(prediction.base, base, [], definedAliases),
      comparison: compareQualifiers(qualifiers, conditions, reader),
    };
  });
}

/** True when an alias check passes: same base, no truth qualifier missing, none contradicted. */
export function aliasPasses(check: AliasCheck): boolean {
  return check.sameBase && check.comparison.missing.length === 0 && check.comparison.contradicting.length === 0;
}

/** Strict material equality of a prediction and a truth, with qualifiers when the scorer has a condition reader. */
export function strictMaterialMatches(
  predicted: Pick<PredictedTriplet, 'material' | 'conditions'>,
  truth: Pick<TruthTriplet, 'aliases'>,
  dependencies: ScorerDependencies,
  definedAliases: readonly DefinedAlias[] = [],
): boolean {
  const reader = dependencies.conditions;
  if (!reader) {
    const [name, ...otherAliases] = truth.aliases;
    return name !== undefined && dependencies.sameMaterialStrict(predicted.material, name, otherAliases, definedAliases);
  }
  return checkAliases(predicted, truth, dependencies, reader, definedAliases).some(aliasPasses);
}

/** True when a truth cannot be matched without a condition: every one of its aliases states a condition qualifier. */
export function truthHasConditions(truth: Pick<TruthTriplet, 'aliases'>, reader: ConditionReader): boolean {
  return truth.aliases.length > 0 && truth.aliases.every((alias) => splitQualifiedNameCached(alias, reader).qualifiers.length > 0);
}
