/**
 * The model engines of `assay extract --engine scripted|openai`: the script file format of the
 * scripted engine, `--model ROLE=ID` parsing, and the `LlmPort` each engine runs on.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { LlmError, LlmErrorCodeSchema, ModelRoleSchema, type LlmPort, type ModelRole } from '../llm/llm-port';
import { createOpenAiCompatibleLlm } from '../llm/openai-compatible';
import { createScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import type { PresetModels } from '../matrix/presets';

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
    failAt: z.record(z.string().regex(/^\d+$/), z.object({ code: LlmErrorCodeSchema, message: z.string().default('scripted failure') })).default({}),
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
  if (!parsed.success) throw new Error(`script ${path} is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`);
  const script = parsed.data;
  const failAt: Record<number, LlmError> = Object.fromEntries(Object.entries(script.failAt).map(([index, failure]) => [Number(index), new LlmError(failure.code, failure.message)]));
  return createScriptedLlm({
    replies: script.replies as Partial<Record<ModelRole, ScriptedReply[]>>,
    failAt,
    ...(script.model ? { model: script.model } : {}),
    ...(script.delayMs ? { delayMs: script.delayMs } : {}),
    respond: (request, index) => script.fallback[request.role] ?? new LlmError('unavailable', `the script has no reply for call ${index} (role ${request.role})`),
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
