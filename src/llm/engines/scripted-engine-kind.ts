/**
 * The `scripted` engine kind: replies read from a JSON script, for tests and demos; command line
 * only (`--engine scripted --script FILE`). The script format is `ScriptFileSchema`.
 */
import { z } from 'zod';
import { LlmError, type LlmPort } from '../llm-port';
import { createScriptedLlm, type ScriptedReply } from '../scripted-llm';
import { EngineUsageError, type CliFlags, type EngineKind } from './engine-kind';
import { LlmErrorCodeSchema, ModelRoleSchema, type ModelRole } from '../../contracts/llm';

/** A scripted reply in the file: a string is sent verbatim; any other JSON value is sent as its JSON text. */
const ReplyFileSchema = z.unknown().transform((value) => (typeof value === 'string' ? value : JSON.stringify(value)));

/**
 * `--script FILE` (JSON):
 * ```
 * { "replies":  { "proposer": [R, R, …], "aggregator": [R], … },  // consumed in order, per role
 *   "fallback": { "proposer": R, "generator": R, … },             // every later call of that role
 *   "bySchema": { "verification_answers": R },                    // every call whose JSON schema has that name
 *   "failAt":   { "12": { "code": "device-lost", "message": "…" } }, // call 12 (0-based, all roles) fails
 *   "model":    "scripted",                                       // model id reported in replies
 *   "delayMs":  0 }                                               // pretend each call takes this long
 * ```
 * R is a string (sent verbatim, e.g. malformed JSON) or a JSON value (sent as its JSON text), e.g.
 * `{"triplets":[{"material":"GaN","property":"band_gap","value":"3.4","unit":"eV","quote":"…"}]}`
 * (optionally with `"conditions":[{"kind":"method","value":"HSE06","text":"…"}],"provenance":"computed"`)
 * for proposers and the aggregator, `{"text":"…","triplets":[…value as a number…],"final":true}` for
 * the generator, `{"triplets":[…]}` for the discriminator, and for "verification_answers"
 * `{"facts":[{"fact":1,"origin":{"answer":"measured","quote":"…"},…}]}`. A call with no scripted reply fails
 * with `LlmError('unavailable')`.
 */
export const ScriptFileSchema = z
  .object({
    replies: z.partialRecord(ModelRoleSchema, z.array(ReplyFileSchema)).default({}),
    fallback: z.partialRecord(ModelRoleSchema, ReplyFileSchema).default({}),
    bySchema: z.record(z.string(), ReplyFileSchema).default({}),
    failAt: z
      .record(z.string().regex(/^\d+$/), z.object({ code: LlmErrorCodeSchema, message: z.string().default('scripted failure') }))
      .default({}),
    model: z.string().optional(),
    delayMs: z.number().int().nonnegative().optional(),
  })
  .strict();
export type ScriptFile = z.infer<typeof ScriptFileSchema>;

/**
 * The port of the script at `path`, read with `readText` (UTF-8). Rejects with `readText`'s error
 * for an unreadable file, and with an Error of one line saying what is wrong for a script that is
 * not JSON or does not match `ScriptFileSchema`.
 */
export async function loadScript(path: string, readText: (path: string) => Promise<string>): Promise<LlmPort> {
  const text = await readText(path);
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
    bySchema: script.bySchema,
    failAt,
    ...(script.model ? { model: script.model } : {}),
    ...(script.delayMs ? { delayMs: script.delayMs } : {}),
    respond: (request, index) =>
      script.fallback[request.role] ?? new LlmError('unavailable', `the script has no reply for call ${index} (role ${request.role})`),
  });
}

const scriptFlag = (flags: CliFlags): string | undefined => (typeof flags.script === 'string' && flags.script ? flags.script : undefined);

export const ScriptedSettingsSchema = z.object({ kind: z.literal('scripted') });
export type ScriptedSettings = z.infer<typeof ScriptedSettingsSchema>;

export const scriptedEngineKind: EngineKind<ScriptedSettings> = {
  kind: 'scripted',
  label: 'Scripted replies (tests)',
  schema: ScriptedSettingsSchema,
  cli: {
    options: { script: { type: 'string' } },
    matrix: async (flags, _context, sources) => {
      const path = scriptFlag(flags);
      if (!path) throw new EngineUsageError('--engine scripted needs --script FILE (a JSON script of replies per role)');
      try {
        return await loadScript(path, sources.readText);
      } catch (error) {
        throw new EngineUsageError((error as Error).message.replace(/\n/g, ' '));
      }
    },
    judge: async (flags, sources) => {
      const path = scriptFlag(flags);
      if (!path) throw new EngineUsageError('--engine scripted needs --script FILE (replies for the "judge" role)');
      try {
        return await loadScript(path, sources.readText);
      } catch (error) {
        throw new EngineUsageError((error as Error).message.replace(/\s*\n\s*/g, ' '));
      }
    },
  },
};
