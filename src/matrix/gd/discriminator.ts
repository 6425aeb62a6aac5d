/**
 * The discriminator of SLM-MATRIX (Methods, "Discriminator-based validation and dual consistency
 * mechanism"): each of the top-N trajectories has its final output S_d masked by explicit
 * substitution; the discriminator reconstructs S_d′ from x ⊕ S_1 … S_{d−1} (Eqs. 10–11); the
 * consistency of S_d′ with S_d (Eq. 12) and the MCTS reward combine into the final score
 * (Eq. 13, α = 0.7, β = 0.3), and the trajectory with the highest score is the path's answer.
 */
import type { ScoreWeights } from '../../contracts/matrix-preset';
import { generateObject, isUnusableReply, replyFailure, sumUsage, type ReplyFailure } from '../../llm/generate-object';
import type { LlmUsage } from '../../llm/llm-port';
import { sameMaterial as defaultSameMaterial } from '../../text/materials';
import { mapInSlots } from '../slots';
import { throwIfAborted } from '../../llm/abort';
import type { GdDependencies, Trajectory } from './mcts';
import { buildReconstructionMessages, ReconstructionSchema, type ExtractedTriplet, type GeneratorInput } from './prompts';

/** α and β of Eq. 13 (paper, "Experimental setup": 0.7 and 0.3, chosen on 60 BulkModulus samples). */
export const PAPER_SCORE_WEIGHTS = { alpha: 0.7, beta: 0.3 } as const;

/**
 * Eq. 12: (triplets of `original` correctly reconstructed in `reconstructed`) / |original|.
 * Correct = value exactly equal (`===`), unit exactly equal (after trimming surrounding
 * whitespace), material equivalent by `sameMaterial` (the paper asks the discriminator; we
 * inject a judge). Matching is one-to-one, so a reconstructed triplet repeated twice cannot
 * count for two originals. The property is not compared (the paper's rule names only
 * material, value and unit).
 * Empty cases (paper, after Eq. 12): original empty → 0, unless the reconstruction is empty too
 * → Not Applicable, returned as `null`.
 */
export function consistency(
  original: readonly ExtractedTriplet[],
  reconstructed: readonly ExtractedTriplet[],
  sameMaterial: (a: string, b: string) => boolean,
): number | null {
  if (original.length === 0) return reconstructed.length === 0 ? null : 0;
  const unused = [...reconstructed];
  let matched = 0;
  for (const triplet of original) {
    const index = unused.findIndex(
      (candidate) =>
        candidate.value === triplet.value &&
        candidate.unit.trim() === triplet.unit.trim() &&
        sameMaterial(candidate.material, triplet.material),
    );
    if (index >= 0) {
      unused.splice(index, 1);
      matched += 1;
    }
  }
  return matched / original.length;
}

/**
 * Eq. 13: Score_final(T) = α·Reward_MCTS(T) + β·Consistency(S_d, S_d′), α = 0.7, β = 0.3.
 * A Not Applicable consistency (`null`, both outputs empty) adds nothing: the paper does not say
 * how N/A enters Eq. 13, and counting it as 1 would reward a path that found nothing. Such a path
 * also has R_L = 0 (`reward.ts`), so it scores 0.
 */
export function scoreTrajectory(reward: number, consistencyScore: number | null, weights: ScoreWeights = PAPER_SCORE_WEIGHTS): number {
  return weights.alpha * reward + weights.beta * (consistencyScore ?? 0);
}

export interface ScoredTrajectory {
  trajectory: Trajectory;
  /** S_d′; empty when the discriminator's reply was malformed. */
  reconstructed: ExtractedTriplet[];
  /** Eq. 12, or null for Not Applicable. */
  consistency: number | null;
  /** Eq. 13. */
  score: number;
  /** The raw reply when the reconstruction could not be parsed (consistency is then 0). */
  malformedReconstruction?: string;
  /** Why the reconstruction was unusable (code and message), with `malformedReconstruction`. */
  reconstructionFailure?: ReplyFailure;
}

/**
 * The trajectory with the highest Eq. 13 score; ties go to the higher reward, then to the earlier
 * entry. `undefined` for an empty list.
 */
export function selectBest(scored: readonly ScoredTrajectory[]): ScoredTrajectory | undefined {
  let best: ScoredTrajectory | undefined;
  for (const candidate of scored) {
    if (
      best === undefined ||
      candidate.score > best.score ||
      (candidate.score === best.score && candidate.trajectory.reward > best.trajectory.reward)
    ) {
      best = candidate;
    }
  }
  return best;
}

export interface DiscriminationResult {
  scored: ScoredTrajectory[];
  usage: LlmUsage;
}

/**
 * Mask-and-reconstruct every trajectory, one discriminator call each (role "discriminator"),
 * `options.parallel` at a time (default 1; the reconstructions are independent of each other),
 * then score it (Eqs. 12–13); `scored` stays in trajectory order. A reconstruction still unusable
 * after generateObject's one retry (`isUnusableReply`) counts as a failed reconstruction:
 * consistency 0 (never N/A, since nothing was shown to be empty). Rejects with
 * `LlmError('aborted')` when `signal` fires; other LlmErrors propagate (no further call starts).
 * `options.temperature` / `maxTokens` default to the paper's 0.7 / 2048.
 */
export async function discriminate(
  input: GeneratorInput,
  trajectories: readonly Trajectory[],
  dependencies: GdDependencies,
  options: { temperature?: number; maxTokens?: number; weights?: ScoreWeights; parallel?: number } = {},
): Promise<DiscriminationResult> {
  const same = dependencies.sameMaterial ?? ((a: string, b: string) => defaultSameMaterial(a, b));
  let usage: LlmUsage = { promptTokens: 0, completionTokens: 0 };
  const scored = await mapInSlots(
    trajectories,
    options.parallel ?? 1,
    async (trajectory): Promise<ScoredTrajectory> => {
      throwIfAborted(dependencies.signal);
      const preceding = trajectory.steps.slice(0, -1);
      let reconstructed: ExtractedTriplet[] = [];
      let malformedReconstruction: string | undefined;
      let reconstructionFailure: ReplyFailure | undefined;
      try {
        const generated = await generateObject(
          dependencies.llm,
          {
            role: 'discriminator',
            messages: buildReconstructionMessages(input, preceding),
            temperature: options.temperature ?? 0.7,
            maxTokens: options.maxTokens ?? 2048,
            ...(dependencies.signal ? { signal: dependencies.signal } : {}),
          },
          ReconstructionSchema,
        );
        reconstructed = generated.value.triplets;
        usage = sumUsage(usage, generated.usage);
      } catch (error) {
        if (!isUnusableReply(error)) throw error;
        malformedReconstruction = error.details.rawText ?? '';
        reconstructionFailure = replyFailure(error);
        if (error.details.usage) usage = sumUsage(usage, error.details.usage);
      }
      const consistencyScore = malformedReconstruction === undefined ? consistency(trajectory.triplets, reconstructed, same) : 0;
      return {
        trajectory,
        reconstructed,
        consistency: consistencyScore,
        score: scoreTrajectory(trajectory.reward, consistencyScore, options.weights),
        ...(malformedReconstruction !== undefined ? { malformedReconstruction } : {}),
        ...(reconstructionFailure ? { reconstructionFailure } : {}),
      };
    },
    dependencies.signal,
  );
  return { scored, usage };
}
