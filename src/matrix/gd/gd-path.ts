/**
 * The whole generator–discriminator path of SLM-MATRIX: MCTS (`mcts.ts`) → top-N trajectories →
 * mask-and-reconstruct and Eq. 13 scoring (`discriminator.ts`) → the best trajectory's triplets.
 */
import { sumUsage } from '../../llm/generate-object';
import type { LlmUsage } from '../../llm/llm-port';
import { discriminate, PAPER_SCORE_WEIGHTS, selectBest, type ScoredTrajectory } from './discriminator';
import { runMcts, type GdDependencies, type MctsResult } from './mcts';
import type { ExtractedTriplet, GeneratorInput } from './prompts';
import type { ScoreWeights, MctsOptions } from '../../contracts/matrix-preset';

export interface GdPathResult {
  /** The best trajectory's final triplets; empty when no trajectory survived. */
  triplets: ExtractedTriplet[];
  best?: ScoredTrajectory;
  /** Every top-N trajectory with its reconstruction, consistency and score, in MCTS order. */
  scored: ScoredTrajectory[];
  mcts: MctsResult;
  /** Generator and discriminator tokens together. */
  usage: LlmUsage;
}

/**
 * `(input, options, { llm, rng, signal, ground?, sameMaterial? })` → the path's answer.
 * `options` are MCTS options plus Eq. 13 weights (default α = 0.7, β = 0.3) and `parallel`, the
 * discriminator calls in flight at once (default 1; the MCTS rollouts depend on each other and
 * stay one after another).
 * Rejects with `LlmError('aborted')` on cancellation; malformed replies are absorbed as
 * described in `runMcts` and `discriminate`.
 */
export async function runGeneratorDiscriminator(
  input: GeneratorInput,
  options: MctsOptions & { scoreWeights?: ScoreWeights; parallel?: number },
  dependencies: GdDependencies,
): Promise<GdPathResult> {
  const mcts = await runMcts(input, options, dependencies);
  const discrimination = await discriminate(input, mcts.trajectories, dependencies, {
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    weights: options.scoreWeights ?? PAPER_SCORE_WEIGHTS,
    ...(options.parallel !== undefined ? { parallel: options.parallel } : {}),
  });
  const best = selectBest(discrimination.scored);
  return {
    triplets: best?.trajectory.triplets ?? [],
    ...(best ? { best } : {}),
    scored: discrimination.scored,
    mcts,
    usage: sumUsage(mcts.usage, discrimination.usage),
  };
}
