/**
 * The model engines of `assay extract|eval --engine scripted|openai`: the script file format of
 * the scripted engine, `--model ROLE=ID` parsing, and the `LlmPort` each engine runs on
 * (`createMatrixEngine` builds it from the command's options).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { LlmError, LlmErrorCodeSchema, ModelRoleSchema, type LlmPort, type ModelRole } from '../llm/llm-port';
import { createOpenAiCompatibleLlm } from '../llm/openai-compatible';
import { createScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { presetByName, type MatrixPreset, type PresetModels } from '../matrix/presets';

/** A scripted reply in the file: a string is sent verbatim; any other JSON value is sent as its JSON text. */
const ReplyFileSchema = z.unknown().transform((value) => (typeof value === 'string' ? value : JSON.stringify(value)));

/**
 * `--script FILE` (JSON):
 * ```
 * { "replies":  { "proposer": [R, R, …], "aggregator": [R], … },  // consumed in order, per role
 *   "fallback": { "proposer": R, "generator": R, … },             // every later call of that role
 *   "failAt":   { "12": { "code": "device-lost", "message": "…" } }, // call 12 (0-based, all roles) fails
 *   "model":    "scripted",                                       // model id reported in replies
 *   "delayMs":  0 }                                               // pretend each call takes this long
 * ```
 * R is a string (sent verbatim, e.g. malformed JSON) or a JSON value (sent as its JSON text), e.g.
 * `{"triplets":[{"material":"GaN","property":"band_gap","value":"3.4","unit":"eV","quote":"…"}]}`
 * for proposers and the aggregator, `{"text":"…","triplets":[…value as a number…],"final":true}` for
 * the generator, `{"triplets":[…]}` for the discriminator. A call with no scripted reply fails
 * with `LlmError('unavailable')`.
 */
export const ScriptFileSchema = z
  .object({
    replies: z.partialRecord(ModelRoleSchema, z.array(ReplyFileSchema)).default({}),
    fallback: z.partialRecord(ModelRoleSchema, ReplyFileSchema).default({}),
    failAt: z
      .record(z.string().regex(/^\d+$/), z.object({ code: LlmErrorCodeSchema, message: z.string().default('scripted failure') }))
      .default({}),
    model: z.string().optional(),
    delayMs: z.number().int().nonnegative().optional(),
  })
  .strict();
export type ScriptFile = z.infer<typeof ScriptFileSchema>;

/** Read and check a script file; throws an Error with one line saying what is wrong. */
export async function loadScriptedEngine(path: string): Promise<LlmPort> {
  const text = await readFile(path, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`script ${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = ScriptFileSchema.safeParse(data);
  if (!parsed.success)
    throw new Error(
      `script ${path} is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`,
    );
  const script = parsed.data;
  const failAt: Record<number, LlmError> = Object.fromEntries(
    Object.entries(script.failAt).map(([index, failure]) => [Number(index), new LlmError(failure.code, failure.message)]),
  );
  return createScriptedLlm({
    replies: script.replies as Partial<Record<ModelRole, ScriptedReply[]>>,
    failAt,
    ...(script.model ? { model: script.model } : {}),
    ...(script.delayMs ? { delayMs: script.delayMs } : {}),
    respond: (request, index) =>
      script.fallback[request.role] ?? new LlmError('unavailable', `the script has no reply for call ${index} (role ${request.role})`),
  });
}

/**
 * `--model ROLE=ID` values over the preset's defaults. `proposer` may be given several times (one
 * per proposer, cycled when fewer than the preset's proposers); any proposer given replaces the
 * preset's list. Throws on a malformed value or an unknown role.
 */
export function parseModelOptions(values: readonly string[], defaults: PresetModels): PresetModels {
  const models: PresetModels = { ...defaults };
  const proposers: string[] = [];
  for (const value of values) {
    const match = /^([a-z]+)=(.+)$/.exec(value);
    if (!match) throw new Error(`--model takes ROLE=ID (e.g. proposer=qwen2.5:7b), not "${value}"`);
    const role = ModelRoleSchema.safeParse(match[1]);
    if (!role.success) throw new Error(`--model: unknown role "${match[1]}"; roles: ${ModelRoleSchema.options.join(', ')}`);
    const id = match[2]!.trim();
    if (role.data === 'proposer') proposers.push(id);
    else if (role.data !== 'judge') models[role.data] = id;
  }
  if (proposers.length > 0) models.proposers = proposers;
  return models;
}

/** Roles the pipeline calls that have no model; empty when all are set. */
export function missingRoles(models: PresetModels): string[] {
  const missing: string[] = [];
  if (!models.proposers?.length) missing.push('proposer');
  for (const role of ['aggregator', 'generator', 'discriminator'] as const) if (!models[role]) missing.push(role);
  return missing;
}

/** The OpenAI-compatible engine for `models` (roles mapped; each proposer call names its model). */
export function openAiEngine(baseUrl: string, apiKey: string | undefined, models: PresetModels, concurrency?: number): LlmPort {
  return createOpenAiCompatibleLlm({
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    models: {
      ...(models.proposers?.[0] ? { proposer: models.proposers[0] } : {}),
      ...(models.aggregator ? { aggregator: models.aggregator } : {}),
      ...(models.generator ? { generator: models.generator } : {}),
      ...(models.discriminator ? { discriminator: models.discriminator } : {}),
    },
    ...(concurrency ? { concurrency } : {}),
  });
}

/** The engine options shared by `assay extract` and `assay eval` (`--engine scripted|openai`). */
export interface MatrixEngineFlags {
  'base-url'?: string | undefined;
  'api-key-env'?: string | undefined;
  model?: string[] | undefined;
  preset?: string | undefined;
  script?: string | undefined;
  seed?: string | undefined;
  concurrency?: string | undefined;
}

/** `parseArgs` option specs of `MatrixEngineFlags`, for the commands that take them. */
export const MATRIX_ENGINE_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  model: { type: 'string', multiple: true },
  preset: { type: 'string' },
  script: { type: 'string' },
  seed: { type: 'string' },
  concurrency: { type: 'string' },
} as const;

/** A model engine ready for `runMatrix`: the port, the preset, its models and the RNG seed. */
export interface MatrixEngine {
  name: 'scripted' | 'openai';
  llm: LlmPort;
  preset: MatrixPreset;
  models: PresetModels;
  seed: number;
  concurrency?: number;
}

/** Bad options for a model engine; the message is one line for the user (exit code 2). */
export class MatrixEngineUsageError extends Error {}

function nonNegativeInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new MatrixEngineUsageError(`${name} takes a non-negative integer, not "${text}"`);
  return value;
}

/**
 * `--engine scripted|openai` with its options → `MatrixEngine`. Defaults: preset `paper`, seed 1.
 * Throws `MatrixEngineUsageError` (one line) for an unknown preset, a bad `--model`/`--seed`/
 * `--concurrency`, a missing or invalid `--script`, a missing `--base-url`, roles without a model,
 * or an unset `--api-key-env` variable.
 */
export async function createMatrixEngine(name: 'scripted' | 'openai', flags: MatrixEngineFlags): Promise<MatrixEngine> {
  const preset = presetByName(flags.preset ?? 'paper');
  if (!preset) throw new MatrixEngineUsageError(`unknown preset "${flags.preset}"; presets: paper, browser`);
  let models: PresetModels;
  try {
    models = parseModelOptions(flags.model ?? [], preset.models);
  } catch (error) {
    throw new MatrixEngineUsageError((error as Error).message);
  }
  const seed = nonNegativeInteger(flags.seed, '--seed') ?? 1;
  const concurrency = nonNegativeInteger(flags.concurrency, '--concurrency');
  const base = { name, preset, models, seed, ...(concurrency ? { concurrency } : {}) };
  if (name === 'scripted') {
    if (!flags.script) throw new MatrixEngineUsageError('--engine scripted needs --script FILE (a JSON script of replies per role)');
    try {
      return { ...base, llm: await loadScriptedEngine(flags.script) };
    } catch (error) {
      throw new MatrixEngineUsageError((error as Error).message.replace(/\n/g, ' '));
    }
  }
  if (!flags['base-url'])
    throw new MatrixEngineUsageError('--engine openai needs --base-url URL (e.g. http://127.0.0.1:11434/v1 for Ollama)');
  const missing = missingRoles(models);
  if (missing.length > 0)
    throw new MatrixEngineUsageError(
      `no model for ${missing.join(', ')}: pass --model ROLE=ID for each, or --preset paper for the paper's models`,
    );
  let apiKey: string | undefined;
  if (flags['api-key-env']) {
    apiKey = process.env[flags['api-key-env']];
    if (!apiKey) throw new MatrixEngineUsageError(`environment variable ${flags['api-key-env']} (--api-key-env) is not set`);
  }
  return { ...base, llm: openAiEngine(flags['base-url'], apiKey, models, concurrency) };
}
