/**
 * The fact check of the gate (issue 26), run on grounded evidence: is the number the property's
 * value (`valueRole`), which conditions does it hold under (`conditionsOfValue`, table headers
 * and captions), does the paper report it or cite it (`provenanceOf`)? STUB: being built.
 */
import type { Article } from '../contracts/article';
import type { Condition, Provenance } from '../contracts/conditions';
import type { PropertyDefinition } from '../contracts/property';
import type { Triplet } from '../contracts/triplet';
import type { Anchor } from '../text/anchoring';
import { loadPropertySchemas } from '../properties';
import { defaultAttributionDependencies, type AttributionDependencies } from './attribution';
import { defaultGroundingDependencies, type GroundingDependencies } from './grounding-dependencies';

export interface FactCheckDependencies {
  grounding: GroundingDependencies;
  attribution: AttributionDependencies;
  /** The property catalogue (built-in and the reader's own). */
  schemas: readonly PropertyDefinition[];
}

/** The built-in catalogue and the real grounding and attribution dependencies. */
export function defaultFactCheckDependencies(schemas: readonly PropertyDefinition[] = loadPropertySchemas()): FactCheckDependencies {
  return { grounding: defaultGroundingDependencies, attribution: { ...defaultAttributionDependencies(), schemas }, schemas };
}

/** The fact check's verdict: `ok`, `needs_review` (a doubt for a person) or `rejected` (another quantity). */
export interface FactCheck {
  verdict: 'ok' | 'needs_review' | 'rejected';
  reasons: string[];
  conditions: Condition[];
  provenance: Provenance;
}

/** STUB: passes every fact and keeps the triplet's own conditions. */
export function checkFact(triplet: Triplet, _article: Article, _anchor: Anchor, _dependencies: FactCheckDependencies): FactCheck {
  return { verdict: 'ok', reasons: [], conditions: triplet.conditions ?? [], provenance: triplet.provenance ?? { kind: 'unknown' } };
}
