/**
 * Model-side shapes that cross boundaries or are stored: the SLM-MATRIX roles, the codes of a
 * model failure (`LlmError` in src/llm/llm-port.ts carries one), and the usage a run records.
 */
import { z } from 'zod';

/** Roles of the SLM-MATRIX method (SLM-MATRIX Methods): proposers and aggregator (MoA path),
 * generator and discriminator (MCTS path), judge (precedent checks). */
export const ModelRoleSchema = z.enum(['proposer', 'aggregator', 'generator', 'discriminator', 'judge']);
export type ModelRole = z.infer<typeof ModelRoleSchema>;

export const LlmErrorCodeSchema = z.enum([
  'aborted', // the caller's AbortSignal fired
  'timeout',
  'http', // a non-2xx answer from an HTTP engine
  'rate-limited', // HTTP 429 after the retries
  'unreachable', // connection refused, DNS, offline
  'malformed-output', // the reply did not parse against the schema after one repair attempt
  'truncated-output', // the reply ran past its max_tokens (finish_reason "length") before its JSON closed, on the first try and the one retry
  'repetitive-output', // the reply fell into a degenerate repetition loop (src/llm/repetition.ts), on the first try and the one retry
  'no-webgpu',
  'no-shader-f16',
  'out-of-gpu-memory',
  'download-failed',
  'device-lost',
  'integrity-failed', // a model file (library, config, tokenizer) does not match its SRI hash, or has none where one is required
  'unavailable', // engine or model not configured
  // Model servers (src/llm/openai-failures.ts, src/llm/server-probe.ts): each its own fix.
  'origin-refused', // HTTP 403 to the extension's origin (Ollama without OLLAMA_ORIGINS)
  'cors-blocked', // the server answered, but the browser kept its reply from the extension (CORS)
  'wrong-base-url', // HTTP 404 on /chat/completions or /models: no OpenAI API at that address
  'model-not-found', // the server has no model of that id (Ollama: not pulled)
  'model-not-loaded', // the server knows the model but has not loaded it (LM Studio without JIT loading)
  'context-truncated', // the server cut the prompt to its context window (its usage.prompt_tokens says so)
]);
export type LlmErrorCode = z.infer<typeof LlmErrorCodeSchema>;

/** Totals of a set of model calls (`UsageMeter` in src/llm/usage-meter.ts). Times in ms. */
export const UsageTotalsSchema = z.object({
  calls: z.number().int().nonnegative(),
  /** Calls that rejected (their tokens count when the error carried usage, e.g. malformed-output). */
  failedCalls: z.number().int().nonnegative(),
  promptTokens: z.number().nonnegative(),
  completionTokens: z.number().nonnegative(),
  /** Sum of the calls' durations (ms). With concurrent calls this exceeds elapsed time. */
  callTimeMs: z.number().nonnegative(),
  /** Elapsed time from the first call's start to the last call's end (ms). */
  wallTimeMs: z.number().nonnegative(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

/** One model call of a run on a pool of servers: its stage, model, the server that answered (or failed), and its time in ms. */
export const ServerCallSchema = z.object({
  stage: z.string(),
  model: z.string(),
  /** The server's base URL, e.g. "http://127.0.0.1:8001/v1". */
  server: z.string(),
  ms: z.number().nonnegative(),
  failed: z.boolean(),
});
export type ServerCall = z.infer<typeof ServerCallSchema>;

/**
 * A `UsageMeter` snapshot: totals overall, per stage (`moa`, `mcts`, …) and per model id; with
 * several servers (`--base-url` more than once), also per server base URL and each call in
 * order of its end. The server fields are absent when no reply named a server (one server, the
 * extension), so records stored before them and those runs' records read the same.
 */
export const UsageSnapshotSchema = z.object({
  total: UsageTotalsSchema,
  byStage: z.record(z.string(), UsageTotalsSchema),
  byModel: z.record(z.string(), UsageTotalsSchema),
  byServer: z.record(z.string(), UsageTotalsSchema).optional(),
  callLog: z.array(ServerCallSchema).optional(),
});
export type UsageSnapshot = z.infer<typeof UsageSnapshotSchema>;
