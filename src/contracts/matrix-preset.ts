/**
 * The settings of an SLM-MATRIX run (a named preset, SLM-MATRIX "Experimental setup"), as stored
 * in every run record. The named presets themselves (`paper`, `browser`) are data in
 * src/matrix/presets.ts; this module holds only their shape.
 */
import { z } from 'zod';

/** Role → model id defaults. `proposers` has one entry per proposer of a layer (heterogeneous). */
export const PresetModelsSchema = z.object({
  proposers: z.array(z.string()).readonly().optional(),
  aggregator: z.string().optional(),
  generator: z.string().optional(),
  discriminator: z.string().optional(),
});
export type PresetModels = z.infer<typeof PresetModelsSchema>;

/** Weights of the MCTS reward's parts (src/matrix/gd/reward.ts); they sum to 1. */
export const RewardWeightsSchema = z.object({ completeness: z.number(), format: z.number(), grounding: z.number() });
export type RewardWeights = z.infer<typeof RewardWeightsSchema>;

/** The MCTS generator's search (SLM-MATRIX Eqs. 5–9). */
export const MctsOptionsSchema = z.object({
  /** Rollouts per input (paper: 16; each simulation gives one trajectory). */
  rollouts: z.number().int().nonnegative(),
  /** Maximum steps per trajectory (paper: search depth 5). */
  depth: z.number().int().nonnegative(),
  /** How many trajectories to return, best reward first (paper: 3 reasoning paths). */
  paths: z.number().int().nonnegative(),
  /** UCT exploration constant (paper: c = 1.5, Eq. 6). */
  c: z.number(),
  /** Sampling temperature (paper: 0.7 for all models). */
  temperature: z.number().optional(),
  /** Paper: max_tokens 2048 for all models. */
  maxTokens: z.number().int().positive().optional(),
  rewardWeights: RewardWeightsSchema.optional(),
});
export type MctsOptions = z.infer<typeof MctsOptionsSchema>;

/** α and β of SLM-MATRIX Eq. 13 (final score = α·reward + β·consistency). */
export const ScoreWeightsSchema = z.object({ alpha: z.number(), beta: z.number() });
export type ScoreWeights = z.infer<typeof ScoreWeightsSchema>;

export const MatrixPresetNameSchema = z.enum(['paper', 'browser']);

export const MatrixPresetSchema = z.object({
  name: MatrixPresetNameSchema,
  /** MoA proposer layers L (Eq. 1–4 path). */
  layers: z.number().int().positive(),
  /** Proposers P per layer. */
  proposers: z.number().int().positive(),
  /** MCTS: rollouts, depth, paths (top N), c of Eq. 6. */
  mcts: MctsOptionsSchema,
  /** α, β of Eq. 13. */
  scoreWeights: ScoreWeightsSchema,
  /** Maximum MoA re-runs before `needs_review` (Methods, refinement loop). */
  K: z.number().int().nonnegative(),
  /** Sampling temperature for every role. */
  temperature: z.number(),
  maxTokens: z.number().int().positive(),
  /**
   * Skip the MCTS path when every proposer of the last MoA layer gave a non-empty answer, all
   * answers agree pairwise (cross-verification rules) and every triplet of them grounds. The
   * unanimous proposer answer then stands in for the G–D answer in cross-verification.
   */
  earlyExit: z.boolean(),
  /** Longest passage (characters) sent to the models per property; see `buildPassage`. */
  maxPassageChars: z.number().int().positive(),
  /** Model per role for the OpenAI-compatible engine; `--model ROLE=ID` overrides. */
  models: PresetModelsSchema,
  /**
   * Chain-of-Verification after cross-verification (Eunomia; src/matrix/chain-of-verification):
   * the verified triplets' questions asked in as few calls per property as fit (`per-property`),
   * one call per triplet (`per-triplet`), or not at all (`off`). Absent in runs stored before it
   * was added: read as `per-property`.
   */
  verificationQuestions: z.enum(['per-property', 'per-triplet', 'off']).optional(),
});
export type MatrixPreset = z.infer<typeof MatrixPresetSchema>;
