/**
 * What an SLM-MATRIX run reports besides its verdicts (`runMatrix` in src/matrix/pipeline.ts):
 * the settings, models, usage per stage, timings and counts, and why it stopped early if it did;
 * and the progress events it emits while it goes. Plain JSON, stored with the run (`runs` table).
 */
import { z } from 'zod';
import { LlmErrorCodeSchema, UsageSnapshotSchema } from './llm';
import { MatrixPresetSchema, PresetModelsSchema } from './matrix-preset';
import { VerificationStatusSchema } from './verification';

/** Per property: what was sent and what the control flow did. */
export const PropertyRunSchema = z.object({
  property: z.string(),
  /** True when the scan found no candidate passage: no model call was made. */
  skipped: z.boolean(),
  blockIds: z.array(z.string()),
  truncatedBlockIds: z.array(z.string()),
  passageChars: z.number().int().nonnegative(),
  /** Scan candidates in the passage. */
  candidates: z.number().int().nonnegative(),
  /** The browser preset's early exit fired: the MCTS path was not run. */
  earlyExit: z.boolean(),
  /** MoA re-runs made by the refinement loop (0..K). */
  refinementRounds: z.number().int().nonnegative(),
  converged: z.boolean(),
  /** Model replies that stayed unusable after the repair attempt, and fallbacks taken. */
  problems: z.array(z.string()),
  milliseconds: z.number().nonnegative(),
});
export type PropertyRun = z.infer<typeof PropertyRunSchema>;

export const RunRecordSchema = z.object({
  engine: z.literal('slm-matrix'),
  preset: MatrixPresetSchema,
  /** The models asked for per role (undefined: the engine's roster chose). */
  models: PresetModelsSchema,
  seed: z.number().int().optional(),
  /** Calls, tokens and time per stage (`moa`, `refinement`, `mcts`, `discriminator`, `verification-questions`) and per model. */
  usage: UsageSnapshotSchema,
  calls: z.number().int().nonnegative(),
  promptTokens: z.number().nonnegative(),
  completionTokens: z.number().nonnegative(),
  milliseconds: z.number().nonnegative(),
  properties: z.array(PropertyRunSchema),
  counts: z.record(VerificationStatusSchema, z.number().int().nonnegative()),
  /** Model loads the engine made during the run (WebLLM's scheduler counts them; absent where a server loads its own models). */
  modelLoads: z.number().int().nonnegative().optional(),
  /** Set when the run stopped early: `aborted` for a cancel, else the engine's error code. */
  interrupted: z.object({ code: LlmErrorCodeSchema, message: z.string() }).optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

export const MatrixStageSchema = z.enum(['moa', 'mcts', 'discriminator', 'cross-verify', 'ground', 'verification-questions']);
export type MatrixStage = z.infer<typeof MatrixStageSchema>;

/**
 * One progress event. `moa`, `mcts`, `discriminator`: `done` model calls answered so far in this
 * stage for this property, `total` the calls the control flow plans (L·P + 1 per MoA run;
 * rollouts·depth for MCTS, an upper bound; paths for the discriminator) — raised to `done` when
 * repair calls go beyond the plan. `cross-verify`: refinement rounds started / K, and a final
 * event with `done === total`. `ground`: records decided / records. `verification-questions`
 * (Chain-of-Verification): calls answered / calls planned, from 0 when a property has verified
 * triplets to ask about.
 */
export const MatrixProgressSchema = z.object({
  stage: MatrixStageSchema,
  property: z.string(),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type MatrixProgress = z.infer<typeof MatrixProgressSchema>;
