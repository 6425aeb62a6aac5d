/**
 * An SLM-MATRIX run inside the extension: the settings the side panel sends (validated with zod
 * at the message boundary), and the row the run keeps in IndexedDB (`runs` table) while it goes,
 * so progress, partial results and the final run record survive the side panel closing.
 */
import { z } from 'zod';
import { ReviewDecisionSchema } from './dataset';
import { PropertySchema } from './property';
import { MatrixProgressSchema, RunRecordSchema } from './run-record';
import { VerificationRecordSchema } from './verification';

/** Model id per SLM-MATRIX role (SLM-MATRIX Methods): one per proposer of a layer, then one each. */
export const RosterSchema = z.object({
  proposers: z.array(z.string().min(1)).min(1),
  aggregator: z.string().min(1),
  generator: z.string().min(1),
  discriminator: z.string().min(1),
});
export type Roster = z.infer<typeof RosterSchema>;

/**
 * Which engine answers the model calls, as it crosses a message boundary: `kind` names an engine
 * kind of the registry (src/llm/engines/registry.ts: `webllm`, WebLLM on the user's GPU;
 * `openai`, an OpenAI-compatible server at `baseUrl`), and the other keys are that kind's settings.
 * This bottom layer checks only the shape every kind shares (`roster`, where a kind has one, is a
 * `Roster`); the host boundary (the background's message router, `createRun`, the engine
 * factory) parses the kind's own settings with `engineRegistry.settingsSchema()` and rejects
 * bad ones there.
 */
export const EngineSettingsSchema = z.looseObject({ kind: z.string().min(1), roster: RosterSchema.optional() });
export type EngineSettings = z.infer<typeof EngineSettingsSchema>;

export const MatrixRunSettingsSchema = z.object({
  /** The saved paper to read (`papers` key: `doi:…`, `url:…`, `title:…`). */
  paperKey: z.string().min(1),
  /** Property schema names, e.g. ["band_gap"]; run in this order. */
  properties: z.array(z.string().min(1)).min(1),
  /** The reader's own property schemas (name, synonyms, unit, …) the names may refer to, besides the built-in ones. */
  extraProperties: z.array(PropertySchema).max(50).optional(),
  preset: z.enum(['paper', 'browser']),
  engine: EngineSettingsSchema,
  /** Seed of the run's RNG (MCTS), kept in the run record so a run can be repeated. */
  seed: z.number().int().nonnegative(),
});
export type MatrixRunSettings = z.infer<typeof MatrixRunSettingsSchema>;

/** `running` until it ends: `done`, `cancelled` (Stop), `interrupted` (model failure, browser closed). */
export const MatrixRunStatusSchema = z.enum(['running', 'done', 'cancelled', 'interrupted']);
export type MatrixRunStatus = z.infer<typeof MatrixRunStatusSchema>;

/** The reader's review of one record of a run: a decision, and for `edited` the corrected fields. */
export const RunReviewSchema = z.object({
  decision: ReviewDecisionSchema,
  edit: z
    .object({ material: z.string().min(1).optional(), valueText: z.string().min(1).optional(), unit: z.string().optional() })
    .optional(),
  /** ISO 8601 time of the decision. */
  at: z.string(),
});
export type RunReview = z.infer<typeof RunReviewSchema>;

/**
 * One run as stored in the `runs` table (plain JSON; written only by the run's host). The run
 * repository (src/store/run-repository.ts) parses every row it reads and writes with this schema.
 */
export const MatrixRunRowSchema = z.object({
  /** Random UUID. */
  id: z.string().min(1),
  paperKey: z.string().min(1),
  status: MatrixRunStatusSchema,
  settings: MatrixRunSettingsSchema,
  /** ISO 8601 times. */
  startedAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().optional(),
  /** The latest progress event of the pipeline, or null before the first. */
  progress: MatrixProgressSchema.nullable(),
  /** What the engine is doing in words (e.g. "Downloading Qwen2.5-1.5B: 120 MB, 17%"), or null. */
  engineStatus: z.string().nullable(),
  /** Properties finished, in run order; their records are in `records`. */
  propertiesDone: z.array(z.string()),
  /** Every verdict so far (appended as each property finishes: nothing paid for is lost). */
  records: z.array(VerificationRecordSchema),
  /** The run record (settings, models, usage, timings), set when the run ends, partial or not. */
  run: RunRecordSchema.optional(),
  /** Why the run stopped early (`aborted` for Stop), in words. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** Times the engine was reloaded after a lost GPU device and the run resumed. */
  resumes: z.number().int().nonnegative(),
  /** The reader's reviews, by index into `records` (written by the side panel, saved as they happen). */
  reviews: z.record(z.string().regex(/^\d+$/), RunReviewSchema).optional(),
  /** ISO 8601 time the run's kept triplets were last saved to the dataset. */
  savedAt: z.string().optional(),
});
export type MatrixRunRow = z.infer<typeof MatrixRunRowSchema>;
