/**
 * What an SLM-MATRIX run reports besides its verdicts (`runMatrix` in src/matrix/pipeline.ts):
 * the settings, models, usage per stage, timings and counts, and why it stopped early if it did;
 * and the progress events it emits while it goes. Plain JSON, stored with the run (`runs` table).
 */
import { z } from 'zod';
import { LlmErrorCodeSchema, UsageSnapshotSchema } from './llm';
import { MatrixPresetSchema, PresetModelsSchema } from './matrix-preset';
import { VerificationStatusSchema } from './verification';

/**
 * What retrieval did for a property (src/matrix/reading.ts): chunks of the article, those ranked
 * relevant, those read, the calls they took, and what a cap left out.
 */
export const PropertyRetrievalSchema = z.object({
  /** Chunks of the article (sentences, table rows, captions). */
  chunks: z.number().int().nonnegative(),
  /** Chunks ranked relevant to the property (a query term, a scan candidate or a value in its units). */
  ranked: z.number().int().nonnegative(),
  /** Ranked chunks some model call read (the reading stage's, or the one call when all fit). */
  read: z.number().int().nonnegative(),
  /** Groups the read chunks were packed into, one call each. */
  groups: z.number().int().nonnegative(),
  /** Calls of the reading stage: `groups` when more than one, else 0 (the one group is the focused passage). */
  readingCalls: z.number().int().nonnegative(),
  /** Triplets the reading stage proposed (their chunks lead the focused passage). */
  readingTriplets: z.number().int().nonnegative(),
  /** Chunks in the focused passage MoA, MCTS and refinement read. */
  focusedChunks: z.number().int().nonnegative(),
  /** Ranked chunks no call read because the reading-call cap bit (chunk ids, lowest ranked last). */
  leftOut: z.array(z.string()),
  /** Chunks holding a reading-stage quote that did not fit in the focused passage (chunk ids). */
  quotesLeftOut: z.array(z.string()),
  /**
   * MMR's similarity of two chunks: `lexical` (term vectors) or `embedding` (the engine's
   * embedding model, named in `embeddingModel`). Absent in runs stored before embeddings: lexical.
   */
  similarity: z.enum(['lexical', 'embedding']).optional(),
  embeddingModel: z.string().optional(),
});
export type PropertyRetrieval = z.infer<typeof PropertyRetrievalSchema>;

/**
 * Why a property ended with no triplet: `nothing-relevant`, no chunk ranked relevant or none that
 * can state a value of it (no call);
 * `nothing-found`, the models read what was ranked and reported no value.
 */
export const NotProvidedSchema = z.object({
  reason: z.enum(['nothing-relevant', 'nothing-found']),
  /** Chunks ranked relevant and read, and the model calls the property made. */
  chunksRanked: z.number().int().nonnegative(),
  chunksRead: z.number().int().nonnegative(),
  calls: z.number().int().nonnegative(),
});
export type NotProvided = z.infer<typeof NotProvidedSchema>;

/**
 * Why a property ended with no decision: the model calls that had to decide it failed — e.g.
 * every proposer reply of the MoA path's last layer and the aggregator's stayed unusable (cut at
 * max_tokens, a repetition loop, malformed JSON), so the two paths could not be cross-verified.
 * Not "not provided": nobody reported that the paper has no value; the models failed to answer.
 */
export const NotDecidedSchema = z.object({
  /** The failures' code (the most frequent among them), e.g. `truncated-output`. */
  code: LlmErrorCodeSchema,
  /** What failed and why, in words a reader can act on. */
  message: z.string(),
  /** Model calls the property made (retries included). */
  calls: z.number().int().nonnegative(),
});
export type NotDecided = z.infer<typeof NotDecidedSchema>;

/** Per property: what was sent and what the control flow did. */
export const PropertyRunSchema = z.object({
  property: z.string(),
  /** True when no model call was made for the property (nothing ranked relevant; before retrieval: no scan candidate). */
  skipped: z.boolean(),
  /** Blocks of the focused passage (before retrieval: of the scan-candidate passage). */
  blockIds: z.array(z.string()),
  /** Blocks of chunks left out by a cap (before retrieval: candidate blocks cut or left out of the passage). */
  truncatedBlockIds: z.array(z.string()),
  /** Characters of the focused passage (before retrieval: of the passage). */
  passageChars: z.number().int().nonnegative(),
  /** Scan candidates of the property in the article. */
  candidates: z.number().int().nonnegative(),
  /** Retrieval's counts; absent in runs stored before retrieval was wired in. */
  retrieval: PropertyRetrievalSchema.optional(),
  /** Model calls made for this property (repairs included); absent in older runs. */
  calls: z.number().int().nonnegative().optional(),
  /** Set when the property ended with no triplet: "Not provided in this paper", with what was searched. */
  notProvided: NotProvidedSchema.optional(),
  /** Set instead of `notProvided` when failed model calls left the property with no decision; absent in older runs. */
  notDecided: NotDecidedSchema.optional(),
  /** The browser preset's early exit fired: the MCTS path was not run. */
  earlyExit: z.boolean(),
  /** MoA re-runs made by the refinement loop (0..K). */
  refinementRounds: z.number().int().nonnegative(),
  converged: z.boolean(),
  /** Model replies that stayed unusable after their one retry (with the reason in words), and fallbacks taken. */
  problems: z.array(z.string()),
  milliseconds: z.number().nonnegative(),
});
export type PropertyRun = z.infer<typeof PropertyRunSchema>;

/**
 * The engine check a WebLLM run starts with (src/llm/engine-check.ts): one short call with a
 * two-choice JSON schema to the first proposer's model, right after the models load. It shows
 * that the model loads, generates and closes constrained JSON on this GPU, and measures the
 * runtime: load time, time to first token, prefill and decode speed, GPU memory WebLLM reports.
 */
export const EngineCheckSchema = z.object({
  model: z.string(),
  /** Download (or cache read) and shader compilation of the models loaded for the check, in seconds. */
  loadSeconds: z.number().nonnegative().optional(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  /** The whole check call (both attempts when it was retried), in seconds. */
  seconds: z.number().nonnegative(),
  timeToFirstTokenSeconds: z.number().nonnegative().optional(),
  prefillTokensPerSecond: z.number().nonnegative().optional(),
  decodeTokensPerSecond: z.number().nonnegative().optional(),
  /** GPU memory WebLLM's runtime reports after the load (MB). */
  gpuMemoryMB: z.object({ peak: z.number().nonnegative(), allocated: z.number().nonnegative() }).optional(),
  /** The validated answer ("yes" or "no"); a trained model says "yes" (copper is a metal). */
  answer: z.string(),
  /** True when the first reply did not validate and the one retry did. */
  repaired: z.boolean(),
});
export type EngineCheck = z.infer<typeof EngineCheckSchema>;

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
  /** The engine check the run started with (WebLLM runs); absent for engines without one. */
  engineCheck: EngineCheckSchema.optional(),
  /** Set when the run stopped early: `aborted` for a cancel, else the engine's error code. */
  interrupted: z.object({ code: LlmErrorCodeSchema, message: z.string() }).optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

export const MatrixStageSchema = z.enum(['reading', 'moa', 'mcts', 'discriminator', 'cross-verify', 'ground', 'verification-questions']);
export type MatrixStage = z.infer<typeof MatrixStageSchema>;

/**
 * One progress event. `reading`, `moa`, `mcts`, `discriminator`: `done` model calls answered so far in this
 * stage for this property, `total` the calls the control flow plans (one per group of the reading stage; L·P + 1 per MoA run;
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
