/**
 * The whole grounding gate a triplet passes before it is `verified`: `ground()` (the quote
 * re-anchors and shows the value and unit) and, for a grounded triplet, the attribution check
 * (`checkAttribution`: the anchored evidence names the material and the property). The two stay
 * apart in the result because they lead to different verdicts: a quote that does not show the
 * value is wrong (`rejected`), while one that shows it without naming the material or property
 * may still be right and is sent to a person (`needs_review`, issue 11: "Otherwise the verdict
 * is needs_review with the reason in words").
 */
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';
import { checkAttribution, defaultAttributionDependencies, type AttributionDependencies, type AttributionResult } from './attribution';
import { checkFact, defaultFactCheckDependencies, type FactCheck, type FactCheckDependencies } from './fact-check';
import { ground, type GroundingResult } from './ground';
import { defaultGroundingDependencies, type GroundingDependencies } from './grounding-dependencies';
import { withValueDoubts } from './value-doubts';

/** `ground()`'s verdict, plus the attribution verdict when the triplet grounded. */
export interface GateResult extends GroundingResult {
  /** Set only when `grounded`: whether the evidence at `anchor` names the material and property. */
  attribution?: AttributionResult;
}

/**
 * Ground `triplet` in `article` and, when it grounds, check its attribution at the same anchor
 * (offsets of `article.text`, so the article's own words are judged, and a quote over two
 * blocks is refused). Grounding's unit check uses `attribution.schemas` (the resolved catalogue)
 * unless `grounding` carries its own `catalogue` or `unitFitsProperty`. `attribution` is absent when the triplet did not ground. Never throws for
 * a valid triplet and article.
 */
export function groundAndAttribute(
  triplet: Triplet,
  article: Article,
  grounding: GroundingDependencies = defaultGroundingDependencies,
  attribution: AttributionDependencies = defaultAttributionDependencies(),
): GateResult {
  // One catalogue and one index cache for the whole gate: the attribution check's, unless the
  // grounding dependencies name their own.
  const result = ground(triplet, article, {
    catalogue: attribution.schemas,
    ...(attribution.indexes ? { indexes: attribution.indexes } : {}),
    ...grounding,
  });
  if (!result.grounded) return result;
  return { ...result, attribution: checkAttribution(triplet, article, result.anchor, attribution) };
}

/** `groundAndAttribute`'s verdict, plus the fact check when the triplet grounded. */
export interface FactGateResult extends GateResult {
  /** Set only when `grounded`: the fact check (`checkFact`): value role, conditions, provenance. */
  fact?: FactCheck;
}

/**
 * The whole gate (issue 26): `groundAndAttribute`, then, for a grounded triplet, `checkFact` at
 * the same anchor (is the number the property's value, which conditions hold for it, is it cited)
 * and the value's doubts (`withValueDoubts`: digits that read two ways, a value outside the
 * property's plausible range: review). `fact` is absent when the triplet did not ground. Never
 * throws for a valid triplet and article.
 */
export function gateFact(
  triplet: Triplet,
  article: Article,
  dependencies: FactCheckDependencies = defaultFactCheckDependencies(),
): FactGateResult {
  const result = groundAndAttribute(triplet, article, dependencies.grounding, dependencies.attribution);
  if (!result.grounded || !result.anchor) return result;
  const fact = checkFact(triplet, article, result.anchor, dependencies);
  // The number as read ("1,043 K" reads two ways) and against the property's range (issue 27).
  return { ...result, fact: withValueDoubts(fact, triplet, article, result.anchor, dependencies.schemas) };
}
