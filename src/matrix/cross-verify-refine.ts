/**
 * The refinement loop and the grounding gate after dual cross-verification (SLM-MATRIX Methods:
 * "if inconsistency remains, iteration continues up to a maximum of K rounds. If consistency is
 * not achieved within K iterations, the system enters a manual adjudication mode"; K = 3 in the
 * experiments). Assay adds the grounding gate: an agreed triplet is `verified` only when its
 * evidence quote anchors in the article and shows its value and unit, and — when the gate reports
 * attribution — names its material and property; a grounded quote that does not name them sends
 * the triplet to review with the reason in words ("material not in the evidence"). When the gate
 * also reports the fact check (issue 26: the number is the property's value, its conditions read
 * from the evidence, cited or not), a grounded, attributed triplet is `verified` only when the fact
 * check passes; it carries the conditions and provenance the gate read.
 */
import type { Condition, Provenance } from '../contracts/conditions';
import type { VerificationRecord } from '../contracts/verification';
import type { Article } from '../contracts/article';
import type { Triplet } from '../contracts/triplet';
import { crossVerify, pathsAgree, type CrossVerifyDependencies, type CrossVerifyEntry } from './cross-verify';

/** Maximum MoA re-runs before human adjudication (SLM-MATRIX Results: "up to K = 3 rounds of refinement"). */
export const MAX_REFINEMENT_ROUNDS = 3;

/**
 * A grounding check in the shape of `gateFact()` of `src/verify/grounding-gate.ts` (or
 * `groundAndAttribute()`, which reports no fact check, or `ground()` of `src/verify/ground.ts`,
 * which reports no attribution either). `attribution`, when given for a grounded triplet, says
 * whether the evidence names its material and property; `fact`, the fact check's verdict with the
 * conditions and provenance read from the evidence.
 */
export type GroundCheck = (
  triplet: Triplet,
  article: Article,
) => {
  grounded: boolean;
  reasons: string[];
  attribution?: { attributed: boolean; reasons: string[] };
  fact?: {
    verdict: 'ok' | 'needs_review' | 'rejected';
    reasons: string[];
    conditions: Condition[];
    provenance: Provenance;
    /** The material as the paper names it where the claim anchored, when the fact check read one. */
    material?: { text: string };
  };
};

/**
 * The triplet with the conditions and provenance the fact check read, and the paper's own name for
 * its material when the check read one (the tool's descriptor is then kept in the reasons); unchanged
 * without a fact check.
 */
function withFact(triplet: Triplet, fact: ReturnType<GroundCheck>['fact']): Triplet {
  if (!fact) return triplet;
  return {
    ...triplet,
    ...(fact.material ? { material: fact.material.text } : {}),
    conditions: fact.conditions,
    provenance: fact.provenance,
  };
}

export interface RefinementInput {
  /** The MoA path's first answer. */
  moaTriplets: Triplet[];
  /** The G–D path's answer (not re-run: the paper re-runs only the MoA path). */
  gdTriplets: Triplet[];
  /** Re-run the MoA path; `round` is 1..K, `previous` the last comparison (for a prompt hint). */
  runMoa: (round: number, previous: CrossVerifyEntry[]) => Promise<Triplet[]>;
  /** Maximum re-runs, default `MAX_REFINEMENT_ROUNDS` (3). */
  K?: number;
}

export interface RefinementResult {
  /** True when the last comparison had every entry `agreed`. */
  converged: boolean;
  /** MoA re-runs made (0 when the first answers agreed; at most K). */
  rounds: number;
  /** The last comparison. */
  entries: CrossVerifyEntry[];
  /** Agreed triplets (before grounding) and the rest, kept with both answers for adjudication. */
  candidates: VerificationRecord[];
  needsReview: VerificationRecord[];
}

function toRecords(entries: readonly CrossVerifyEntry[]): Pick<RefinementResult, 'candidates' | 'needsReview'> {
  const candidates: VerificationRecord[] = [];
  const needsReview: VerificationRecord[] = [];
  for (const entry of entries) {
    if (entry.outcome === 'agreed') {
      candidates.push({ status: 'needs_review', triplet: entry.moa!, votes: ['moa', 'gd'], reasons: [] });
      continue;
    }
    needsReview.push({
      status: 'needs_review',
      triplet: (entry.moa ?? entry.gd)!,
      votes: entry.moa ? ['moa'] : ['gd'],
      adjudication: {
        outcome: entry.outcome,
        ...(entry.moa ? { moa: entry.moa } : {}),
        ...(entry.gd ? { gd: entry.gd } : {}),
        ...(entry.reason ? { reason: entry.reason } : {}),
      },
      reasons: [
        entry.reason ??
          (entry.outcome === 'moa-only'
            ? 'only the MoA path gave this triplet'
            : 'only the generator–discriminator path gave this triplet'),
      ],
    });
  }
  return { candidates, needsReview };
}

/**
 * Compare, and while the answers are not structurally equivalent re-run the MoA path, at most
 * K times. Returns after the first full agreement, or after exactly K re-runs. Agreed triplets
 * of the last comparison become candidates (status `needs_review` until `groundCandidates`);
 * every other entry of the last comparison is `needs_review` with both answers kept.
 * Trade-off: per-triplet rather than per-paper adjudication — the paper sends the whole sample
 * to a person; we keep the agreed part so one stubborn triplet does not hide the rest.
 */
export async function refineUntilAgreement(input: RefinementInput, dependencies: CrossVerifyDependencies): Promise<RefinementResult> {
  const K = input.K ?? MAX_REFINEMENT_ROUNDS;
  let entries = crossVerify(input.moaTriplets, input.gdTriplets, dependencies);
  let rounds = 0;
  while (!pathsAgree(entries) && rounds < K) {
    rounds += 1;
    entries = crossVerify(await input.runMoa(rounds, entries), input.gdTriplets, dependencies);
  }
  return { converged: pathsAgree(entries), rounds, entries, ...toRecords(entries) };
}

/**
 * The grounding gate over agreed candidates: a candidate becomes `verified` when `ground` passes
 * and attributes it (no `attribution`, or `attributed`) for its own quote or for the quote of any
 * triplet that voted for it (`alternatives`, same value by agreement). Otherwise, when some quote
 * grounded but did not name the material or property, it is `needs_review` with that quote and
 * the attribution's reasons in words (the first such quote, in the order tried); else `rejected`
 * with the reasons of every quote tried. A candidate with no quote at all is rejected ("no
 * evidence quote given"). Unattributed is not wrong: the value is in the quote, and a person
 * can see whom it belongs to; a quote without the value is.
 */
export function groundCandidates(
  candidates: readonly VerificationRecord[],
  article: Article,
  ground: GroundCheck,
  alternatives: (record: VerificationRecord) => readonly Triplet[] = () => [],
): VerificationRecord[] {
  return candidates.map((record) => {
    const tries = [record.triplet, ...alternatives(record)];
    const reasons: string[] = [];
    let doubted: VerificationRecord | undefined;
    let refused: VerificationRecord | undefined;
    for (const attempt of tries) {
      const triplet = { ...record.triplet, ...(attempt.evidence ? { evidence: attempt.evidence } : {}) };
      const result = ground(
        { ...record.triplet, ...(attempt.evidence ? { evidence: attempt.evidence } : { evidence: undefined }) },
        article,
      );
      const attributed = !result.attribution || result.attribution.attributed;
      const fact = result.fact;
      if (result.grounded && attributed && (!fact || fact.verdict === 'ok'))
        return {
          ...record,
          status: 'verified' as const,
          triplet: withFact(triplet, fact),
          reasons: [...(fact?.reasons ?? []), ...result.reasons],
        };
      // A quote that shows another quantity (a difference, a parameter) refuses the triplet only
      // when no other member's quote verifies or doubts it.
      if (result.grounded && fact?.verdict === 'rejected')
        refused ??= {
          ...record,
          status: 'rejected' as const,
          triplet: withFact(triplet, fact),
          reasons: [...fact.reasons, ...result.reasons],
        };
      else if (result.grounded)
        doubted ??= {
          ...record,
          status: 'needs_review' as const,
          triplet: withFact(triplet, fact),
          reasons: [...(result.attribution?.reasons ?? []), ...(fact?.reasons ?? []), ...result.reasons],
        };
      for (const reason of result.reasons) if (!reasons.includes(reason)) reasons.push(reason);
    }
    return doubted ?? refused ?? { ...record, status: 'rejected' as const, reasons };
  });
}

/** Agreed pairs of the last comparison: the G–D triplet is an alternative quote for the MoA one. */
export function pairedAlternatives(entries: readonly CrossVerifyEntry[]): (record: VerificationRecord) => Triplet[] {
  return (record) =>
    entries.filter((entry) => entry.outcome === 'agreed' && entry.moa === record.triplet && entry.gd).map((entry) => entry.gd!);
}

export interface DualVerification extends RefinementResult {
  /**
   * Every triplet's verdict: agreed ones after the grounding gate (`verified`, `rejected`, or
   * `needs_review` when grounded but not attributed), then the `needs_review` ones.
   */
  records: VerificationRecord[];
}

/**
 * The whole dual-verification stage for one article: `refineUntilAgreement` (at most K MoA
 * re-runs), then `groundCandidates` on the agreed triplets, each trying its own quote and then
 * its G–D twin's. No record is `verified` unless `ground` passed for it.
 */
export async function verifyPaths(
  input: RefinementInput & { article: Article },
  dependencies: CrossVerifyDependencies & { ground: GroundCheck },
): Promise<DualVerification> {
  const refinement = await refineUntilAgreement(input, dependencies);
  const gated = groundCandidates(refinement.candidates, input.article, dependencies.ground, pairedAlternatives(refinement.entries));
  return { ...refinement, records: [...gated, ...refinement.needsReview] };
}
