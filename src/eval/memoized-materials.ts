/**
 * Material equality remembered for one scoring run. `scoreTriplets` compares every prediction
 * with every truth of its paper at three tolerances and under two scorings, then again to find
 * each unmatched prediction's nearest truth: the same pair of names is compared up to seven
 * times, and a comparison parses both names (formulas, the lexicon, mentions). Results are
 * identical to the functions wrapped; only repeated calls are saved.
 */
import type { DefinedAlias } from '../text/materials/same-material';
import type { ScorerDependencies } from './triplet-scorer-types';

function memoize<Extra extends readonly unknown[]>(
  compare: (a: string, b: string, aliases?: string[], ...extra: Extra) => boolean,
  scopeOf: (...extra: Extra) => object,
): (a: string, b: string, aliases?: string[], ...extra: Extra) => boolean {
  const byScope = new WeakMap<object, Map<string, boolean>>();
  return (a, b, aliases = [], ...extra) => {
    const scope = scopeOf(...extra);
    let results = byScope.get(scope);
    if (!results) {
      results = new Map();
      byScope.set(scope, results);
    }
    const key = [a, b, ...aliases].join('\u0000');
    let result = results.get(key);
    if (result === undefined) {
      result = compare(a, b, aliases, ...extra);
      results.set(key, result);
    }
    return result;
  };
}

/**
 * `dependencies` with `sameMaterial` and `sameMaterialStrict` remembered per pair of names (and,
 * for strict equality, per list of the paper's defined aliases, by identity). Use one per run.
 */
export function withMemoizedMaterials(dependencies: ScorerDependencies): ScorerDependencies {
  const noAliases: readonly DefinedAlias[] = [];
  const unscoped = {};
  return {
    ...dependencies,
    sameMaterial: memoize<[]>(
      (a, b, aliases) => dependencies.sameMaterial(a, b, aliases),
      () => unscoped,
    ),
    sameMaterialStrict: memoize<[definedAliases?: readonly DefinedAlias[]]>(
      (a, b, aliases, definedAliases) => dependencies.sameMaterialStrict(a, b, aliases, definedAliases),
      (definedAliases = noAliases) => definedAliases,
    ),
  };
}
