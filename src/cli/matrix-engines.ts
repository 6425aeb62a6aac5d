/**
 * The model engines of `assay extract|eval --engine <kind>` (the CLI kinds of the engine
 * registry, src/llm/engines/registry.ts: scripted, openai): the engine flags, `--model ROLE=ID`
 * parsing, and the `LlmPort` a kind builds from the command's options (`createMatrixEngine`).
 */
import { readRegularFile } from '../capture/node/regular-file';
import type { EmbeddingPort } from '../llm/embeddings';
import { EngineUsageError, type CliEngineSources } from '../llm/engines/engine-kind';
import { engineRegistry, type EngineRegistry } from '../llm/engines/registry';
import { loadScript } from '../llm/engines/scripted-engine-kind';
import type { PromptCounter } from '../llm/context-window';
import type { LlmPort } from '../llm/llm-port';
import { tokenCounterFor, type TokenCounter } from '../llm/tokenizers';
import { presetByName } from '../matrix/presets';
import type { MatrixPreset, PresetModels } from '../contracts/matrix-preset';
import { ModelRoleSchema } from '../contracts/llm';

/** The engine sources of the command line: files from disk, the process's environment, status lines on stderr. */
export const CLI_ENGINE_SOURCES: CliEngineSources = {
  readText: (path) => readRegularFile(path, 'utf8'),
  get env() {
    return process.env;
  },
  onStatus: (line) => process.stderr.write(`assay: ${line}\n`),
  countPromptTokens: exactPromptCounter(),
};

/**
 * Exact prompt token counts from the model family's own tokenizer (`tokenCounterFor`, loaded once
 * per model), undefined for a model without one: the chars/4 estimate never decides that a
 * server cut a prompt (src/llm/context-window.ts).
 */
export function exactPromptCounter(counterFor: typeof tokenCounterFor = tokenCounterFor): PromptCounter {
  const counters = new Map<string, Promise<TokenCounter>>();
  return async (messages, model) => {
    let counter = counters.get(model);
    if (!counter) {
      counter = counterFor(model);
      counters.set(model, counter);
    }
    const loaded = await counter;
    return loaded.exact ? loaded.countChat(messages) : undefined;
  };
}

/** Read and check a script file (see `ScriptFileSchema`); throws an Error with one line saying what is wrong. */
export function loadScriptedEngine(path: string): Promise<LlmPort> {
  return loadScript(path, CLI_ENGINE_SOURCES.readText);
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

/**
 * The engine options of `assay extract` and `assay eval` (`--engine <kind>`): the shared ones,
 * then each CLI kind's own (`--base-url`, `--api-key-env` for openai, `--script` for scripted).
 * Flags a kind of another registry adds come as extra string keys.
 */
export type MatrixEngineFlags = {
  /** One or more servers (`--base-url` repeated: a pool). */
  'base-url'?: string | readonly string[] | undefined;
  'api-key-env'?: string | undefined;
  'embedding-model'?: string | undefined;
  /** Seconds per attempt of a model call (openai). */
  timeout?: string | undefined;
  /** Seconds one model call may wait on a rate limit in all (openai). */
  'rate-limit-wait'?: string | undefined;
  model?: string[] | undefined;
  preset?: string | undefined;
  script?: string | undefined;
  seed?: string | undefined;
  concurrency?: string | undefined;
};

/** `parseArgs` specs of the options every model engine shares (`--model ROLE=ID`, preset, seed, concurrency). */
const SHARED_ENGINE_OPTIONS = {
  model: { type: 'string', multiple: true },
  preset: { type: 'string' },
  seed: { type: 'string' },
  concurrency: { type: 'string' },
} as const;

/**
 * `parseArgs` option specs of the model engines of `registry` (the shared options plus every CLI
 * kind's own), for the commands that take them. Typed as the default registry's flags.
 */
export function matrixEngineOptions(registry: EngineRegistry = engineRegistry) {
  return { ...engineKindOptions(registry), ...SHARED_ENGINE_OPTIONS };
}

/** `parseArgs` option specs of every CLI kind's own flags in `registry` (no shared ones), typed as the default registry's. */
export function engineKindOptions(registry: EngineRegistry = engineRegistry) {
  return registry.cliOptions() as {
    'base-url': { type: 'string'; multiple: true };
    'api-key-env': { type: 'string' };
    'embedding-model': { type: 'string' };
    timeout: { type: 'string' };
    'rate-limit-wait': { type: 'string' };
    script: { type: 'string' };
  };
}

/** `parseArgs` option specs of `MatrixEngineFlags` (the default registry's kinds), for the commands that take them. */
export const MATRIX_ENGINE_OPTIONS = matrixEngineOptions();

/**
 * The kind ids `registry` offers the command line as words for a usage line: with `first`
 * (e.g. "rules") before them, `or` joins the last ("rules, scripted or openai") and `|` joins all
 * ("rules|scripted|openai").
 */
export function engineChoices(registry: EngineRegistry = engineRegistry, first: readonly string[] = []): { or: string; bar: string } {
  const names = [...first, ...registry.names('cli')];
  const or = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
  return { or, bar: names.join('|') };
}

/** A model engine ready for `runMatrix`: the kind's id, the port, the preset, its models and the RNG seed. */
export interface MatrixEngine {
  name: string;
  llm: LlmPort;
  preset: MatrixPreset;
  models: PresetModels;
  seed: number;
  concurrency?: number;
  /** Embeddings for retrieval (`--embedding-model` of the openai kind); absent → lexical similarity. */
  embeddings?: EmbeddingPort;
}

function nonNegativeInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new EngineUsageError(`${name} takes a non-negative integer, not "${text}"`);
  return value;
}

/**
 * `--engine <kind>` with its options → `MatrixEngine`, the port built by the kind's `cli.matrix`
 * in `registry`. Defaults: preset `paper`, seed 1, and `concurrency` the slots the kind's
 * `cli.probe` found at the server (printed on stderr with what the server is) when
 * `--concurrency` is not given. Throws `EngineUsageError` (one line)
 * for a kind the registry does not offer the CLI, an unknown preset, a bad `--model`/`--seed`/
 * `--concurrency`, or what the kind refuses (scripted: a missing or invalid `--script`; openai:
 * a missing `--base-url`, roles without a model, an unset `--api-key-env` variable).
 */
export async function createMatrixEngine(
  name: string,
  flags: MatrixEngineFlags,
  registry: EngineRegistry = engineRegistry,
  sources: CliEngineSources = CLI_ENGINE_SOURCES,
): Promise<MatrixEngine> {
  const kind = registry.get(name, 'cli');
  if (!kind?.cli) throw new EngineUsageError(`unknown engine '${name}'; use --engine ${engineChoices(registry).or}`);
  const preset = presetByName(flags.preset ?? 'paper');
  if (!preset) throw new EngineUsageError(`unknown preset "${flags.preset}"; presets: paper, browser`);
  let models: PresetModels;
  try {
    models = parseModelOptions(flags.model ?? [], preset.models);
  } catch (error) {
    throw new EngineUsageError((error as Error).message);
  }
  const seed = nonNegativeInteger(flags.seed, '--seed') ?? 1;
  const chosen = nonNegativeInteger(flags.concurrency, '--concurrency');
  let llm = await kind.cli.matrix(flags, { models, ...(chosen ? { concurrency: chosen } : {}) }, sources);
  // The server says what it is, and its slots stand for --concurrency when none was given (issue 29).
  const slots = await kind.cli.probe?.(flags, { models, ...(chosen ? { concurrency: chosen } : {}) }, sources);
  const concurrency = chosen || slots;
  if (!chosen && slots) llm = await kind.cli.matrix(flags, { models, concurrency: slots }, sources);
  const embeddings = kind.cli.embeddings?.(flags, sources);
  return { name, preset, models, seed, ...(concurrency ? { concurrency } : {}), ...(embeddings ? { embeddings } : {}), llm };
}
