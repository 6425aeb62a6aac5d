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

/**
 * How a property's text is chosen and read (src/matrix/reading.ts): the article's chunks ranked
 * for the property (BM25+, scan-candidate and unit boosts, MMR), packed into calls of at most
 * `chunkTokensPerCall` tokens; when they need more than one call, a reading stage of at most
 * `maxReadingCalls` proposer calls reads them, and MoA, MCTS and refinement read one focused
 * passage of the same budget.
 */
export const RetrievalBudgetSchema = z.object({
  /**
   * Most tokens the rendered chunks of one call may take (the prompt's instructions and property
   * lines come on top, ≈ 200 tokens). Browser: 1,200, so a call's prompt stays near 1,400 tokens
   * inside a 4k-context WebLLM model with room for a 1,024-token reply; paper: 3,000 (the
   * 12,000-character passage cap of before, by chars/4), inside an 8k context.
   */
  chunkTokensPerCall: z.number().int().positive(),
  /**
   * Most calls of the reading stage per property; chunks beyond them are left out, lowest ranked
   * first, and named in the run record. Browser: 8, so its worst case stays at 30 calls per
   * property (22 for MoA, MCTS, discriminator and one refinement round, plus 8; issue 11).
   */
  maxReadingCalls: z.number().int().positive(),
  /** MMR's k for the focused passage's best-ranked chunks (Eunomia's Doc Search, seeds/001: k ≈ 9). */
  mmrK: z.number().int().positive(),
  /** MMR's λ (Eunomia, seeds/001: 0.5, relevance and novelty weighted equally). */
  mmrLambda: z.number().min(0).max(1),
});
export type RetrievalBudget = z.infer<typeof RetrievalBudgetSchema>;

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
  /** Longest passage (characters) per property of the scan-candidate passage (`buildPassage`), the way text was chosen before retrieval. */
  maxPassageChars: z.number().int().positive(),
  /** Retrieval budgets; absent in run records stored before retrieval was wired in (those read `buildPassage`). */
  retrieval: RetrievalBudgetSchema.optional(),
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
