/**
 * One fact, judged whole (issue 26): the grounding gate (`ground`: the quote re-anchors and shows
 * the value and unit), the attribution check (the evidence names the material and property) and
 * the fact check (`checkFact`: the number is the property's value — not a difference, a
 * parameter or a measurement condition —, its conditions are read from the evidence, and a
 * value the paper cites is marked so). This is what `assay verify` reports for any tool's facts
 * and what the SLM-MATRIX paths and the replay vote decide `verified` with.
 */
import type { Article } from '../contracts/article';
import type { Condition, Provenance } from '../contracts/conditions';
import type { Evidence } from '../contracts/evidence';
import type { Triplet } from '../contracts/triplet';
import type { VerificationStatus } from '../contracts/verification';
import { defaultFactCheckDependencies, type FactCheckDependencies } from './fact-check';
import { gateFact, type FactGateResult } from './grounding-gate';

/** The verdict on one fact. */
export interface FactVerdict {
  /** `verified` only when grounded, attributed and the fact check passed; see `judgeFact`. */
  status: VerificationStatus;
  /** Every reason, in words for a reader ("value 0.3 eV is a difference ('narrower than … by')"). */
  reasons: string[];
  /** The conditions the gate read from the evidence (and those the triplet stated that re-anchored). */
  conditions: Condition[];
  provenance: Provenance;
  /**
   * The material as the paper names it where the claim anchored ("BPN-GaN" for a tool's "Gallium
   * nitride (BPN-GaN)"), to store in place of the tool's string; the reasons then say what the tool
   * named it. Absent when not grounded, or when the evidence names no token of it unambiguously.
   */
  material?: string;
  /** The anchored evidence: the article's own words at the anchor, with their position. Absent when not anchored. */
  evidence?: Evidence;
  /** The gate's parts, for callers that report them apart (ablations). */
  gate: FactGateResult;
}

/**
 * Judge `triplet` against `article`:
 * - not grounded (quote not found, value or unit not in it) → `rejected`;
 * - grounded but the evidence does not name the material or property → `needs_review`;
 * - the fact check rejects (the number is another quantity: a difference, a ratio, a model
 *   parameter, a measurement condition) → `rejected`; it doubts (conditions cannot be paired
 *   with the value, a cited value, a material that is not a sample) → `needs_review`;
 * - else `verified`.
 * Never throws for a valid triplet and article.
 */
export function judgeFact(
  triplet: Triplet,
  article: Article,
  dependencies: FactCheckDependencies = defaultFactCheckDependencies(),
): FactVerdict {
  const gate = gateFact(triplet, article, dependencies);
  const unknown: Provenance = { kind: 'unknown' };
  if (!gate.grounded || !gate.anchor || !gate.fact)
    return { status: 'rejected', reasons: gate.reasons, conditions: [], provenance: unknown, gate };
  const evidence: Evidence = {
    quote: { type: 'TextQuoteSelector', exact: article.text.slice(gate.anchor.start, gate.anchor.end), prefix: '', suffix: '' },
    position: { type: 'TextPositionSelector', start: gate.anchor.start, end: gate.anchor.end },
  };
  const fact = gate.fact;
  const reasons = [...(gate.attribution?.reasons ?? []), ...fact.reasons, ...gate.reasons];
  const attributed = !gate.attribution || gate.attribution.attributed;
  const status: VerificationStatus =
    fact.verdict === 'rejected' ? 'rejected' : attributed && fact.verdict === 'ok' ? 'verified' : 'needs_review';
  return {
    status,
    reasons,
    conditions: fact.conditions,
    provenance: fact.provenance,
    ...(fact.material ? { material: fact.material.text } : {}),
    evidence,
    gate,
  };
}
