/**
 * The `openai` engine kind: an OpenAI-compatible server the user runs (Ollama, LM Studio,
 * llama.cpp, vLLM), offered by the browser and the CLI. Settings: `{ kind: "openai", baseUrl
 * (http(s) URL), apiKey?, roster, embeddingModel?, parallel? }` (`parallel`: the server's slots); an embedding model, when named, is asked
 * for the chunk vectors retrieval's MMR compares (`/embeddings` on the same server). The browser needs a host permission for the base URL's
 * origin. Command line: `--base-url URL [--api-key-env NAME] [--embedding-model ID]` with `--model ROLE=ID`;
 * `--embedding-model` names the server's embedding model for retrieval's MMR similarity;
 * `--timeout SECONDS` bounds each attempt of a call (default 120) and `--rate-limit-wait SECONDS`
 * the time one call waits on a rate-limiting server in all (default 300; each wait is said on
 * stderr, then the call fails 'rate-limited').
 * `--base-url` may be given more than once: the calls then go to a pool of those servers
 * (src/llm/server-pool.ts) that serve the same models under the same ids; the embedding model is
 * asked at the first one.
 * Each server is asked what it is and what context window it gives each model
 * (src/llm/server-probe.ts: at run start in the extension, and whenever a reply's prompt count
 * looks cut), so a prompt the server truncated stops the run with `context-truncated`
 * (src/llm/context-window.ts); "Test connection" (`browser.probe`) says what was found and
 * whether the server follows the JSON schema (src/llm/structured-output-check.ts).
 */
import { z } from 'zod';
import { createOpenAiCompatibleEmbeddings } from '../embeddings';
import { RosterSchema } from '../../contracts/matrix-run';
import type { LlmPort } from '../llm-port';
import { createOpenAiCompatibleLlm } from '../openai-compatible';
import { refuseKeyOverPlainHttp } from '../openai-failures';
import { describeRetry } from '../retry-after';
import type { PromptCounter } from '../context-window';
import { cachedServerProfiles, describeServer, parallelCalls, parallelCallsText, probeServer, serverPromptCounter } from '../server-probe';
import { checkStructuredOutput } from '../structured-output-check';
import { createServerPool, describeServerEvent } from '../server-pool';
import { modelListText, parseModelList, rosterToPresetModels } from '../roster';
import { EngineUsageError, type CliEngineSources, type CliFlags, type EngineKind, type RoleModels } from './engine-kind';
import type { ModelRole } from '../../contracts/llm';

/** Most parallel slots a reader may set: beyond a server's slots calls only queue there. */
export const MAX_PARALLEL = 64;

export const OpenAiSettingsSchema = z.object({
  kind: z.literal('openai'),
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().optional(),
  roster: RosterSchema,
  /** The server's embedding model for retrieval's MMR similarity (e.g. "nomic-embed-text"); absent → lexical similarity. */
  embeddingModel: z.string().trim().min(1).optional(),
  /**
   * The server's parallel slots (llama.cpp's `--parallel`, Ollama's `OLLAMA_NUM_PARALLEL`, vLLM's
   * batch): calls sent at once, the run's independent calls included (`MatrixOptions.parallel`).
   * Absent: the slots the server says it serves (llama.cpp's total_slots, `parallelCalls`); where it
   * does not say, the adapter's default limit (2 in flight) and the run's independent calls one at a time.
   */
  parallel: z.number().int().min(1).max(MAX_PARALLEL).optional(),
});
export type OpenAiSettings = z.infer<typeof OpenAiSettingsSchema>;

/** Ollama's OpenAI-compatible endpoint on this machine; LM Studio and llama.cpp use other ports. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:11434/v1';

/** No proposer named: where to find the ids, with an example. */
const NO_SERVER_MODEL = 'Name at least one model, as your server lists it (e.g. qwen2.5:7b).';

/** `parseModelList` (src/llm/roster.ts) with the server's wording for an empty list. */
export const parseServerModelList = (text: string) => parseModelList(text, NO_SERVER_MODEL);

/**
 * The "Parallel calls" input's text → `{ ok, slots }` (undefined for a blank input: the default,
 * one at a time), or `{ ok: false, message }` for anything but a whole number from 1 to
 * `MAX_PARALLEL`, in words.
 */
export function parseParallel(text: string): { ok: true; slots: number | undefined } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, slots: undefined };
  const slots = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || slots < 1 || slots > MAX_PARALLEL)
    return { ok: false, message: `Enter a whole number from 1 to ${MAX_PARALLEL}, or leave it empty for one call at a time.` };
  return { ok: true, slots };
}

/** Null when `text` is an http(s) URL, else the problem in words. */
export function baseUrlProblem(text: string): string | null {
  const example = `e.g. ${DEFAULT_BASE_URL}`;
  const trimmed = text.trim();
  // "localhost:11434/v1" parses as a URL with the scheme "localhost:": check the scheme first.
  if (!/^https?:\/\//i.test(trimmed)) return `Start the address with http:// or https://, ${example}.`;
  if (!URL.canParse(trimmed)) return `Enter the server's address, ${example}.`;
  return null;
}

/**
 * The host permission match pattern covering `baseUrl`'s origin, e.g. "http://127.0.0.1:11434/v1"
 * → "http://127.0.0.1:11434/*" (scheme, host and port; the path is ignored for host permissions:
 * https://developer.chrome.com/docs/extensions/develop/concepts/match-patterns). A default port
 * is dropped ("https://host:443/v1" → "https://host/*"). Chrome matches ports in patterns;
 * Firefox does not allow them. Throws `TypeError` when `baseUrl` is not a URL.
 */
export function originPattern(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}/*`;
}

/** Roles the pipeline calls that have no model; empty when all are set. */
export function missingRoles(models: RoleModels): string[] {
  const missing: string[] = [];
  if (!models.proposers?.length) missing.push('proposer');
  for (const role of ['aggregator', 'generator', 'discriminator'] as const) if (!models[role]) missing.push(role);
  return missing;
}

/** How `openAiEngine` and the judge reach their servers. */
export interface OpenAiServers {
  /** One base URL, or several serving the same models (a pool). */
  baseUrls: string | readonly string[];
  apiKey?: string | undefined;
  /** Calls in flight at once: per server with one URL (default 2), across the pool with several (default 2 per server). */
  concurrency?: number | undefined;
  /** Per attempt of a call (ms); default `DEFAULT_TIMEOUT_MS`. */
  timeoutMs?: number | undefined;
  /** Most time one call waits on a rate limit (429) in all (ms), one server; default `DEFAULT_RATE_LIMIT_WAIT_MS`. */
  maxRateLimitWaitMs?: number | undefined;
  /** Told, in one line each, about a retry (a rate limit's wait, a failed attempt) and a pooled server going down and coming back. */
  onStatus?: ((line: string) => void) | undefined;
  /** Exact prompt token counts (the CLI's tokenizers), for the context-window checks (src/llm/context-window.ts). */
  countPromptTokens?: PromptCounter | undefined;
}

/**
 * The OpenAI-compatible port for `models` (model id per role): with one base URL, that server's
 * adapter with its own retries (as before pools existed); with several, a pool of them
 * (`createServerPool`: least-loaded choice, failing servers left out while down) whose servers'
 * adapters do not retry, the pool deciding. Throws `LlmError('unavailable')` when the key would
 * go over plain http to another machine.
 */
export function openAiServersPort(servers: OpenAiServers, models: Partial<Record<ModelRole, string>>): LlmPort {
  const { apiKey, concurrency, onStatus, timeoutMs, maxRateLimitWaitMs, countPromptTokens } = servers;
  const urls = typeof servers.baseUrls === 'string' ? [servers.baseUrls] : servers.baseUrls;
  const key = apiKey ? { apiKey } : {};
  // Each server is asked once per model what it is and what context window it gives the model.
  const context = (url: string) => ({
    serverProfiles: cachedServerProfiles({ baseUrl: url, ...key }),
    ...(countPromptTokens ? { countPromptTokens } : {}),
  });
  const timeout = timeoutMs !== undefined ? { timeoutMs } : {};
  if (urls.length === 1)
    return createOpenAiCompatibleLlm({
      baseUrl: urls[0]!,
      ...key,
      models,
      ...timeout,
      ...context(urls[0]!),
      ...(concurrency ? { concurrency } : {}),
      ...(maxRateLimitWaitMs !== undefined ? { maxRateLimitWaitMs } : {}),
      ...(onStatus ? { onRetry: (event) => onStatus(describeRetry(event)) } : {}),
    });
  const poolConcurrency = concurrency || 2 * urls.length;
  return createServerPool(
    urls.map((url) => ({
      url,
      llm: createOpenAiCompatibleLlm({
        baseUrl: url,
        ...key,
        models,
        ...timeout,
        concurrency: poolConcurrency,
        retries: 0,
        ...context(url),
      }),
    })),
    { concurrency: poolConcurrency, ...(onStatus ? { onEvent: (event) => onStatus(describeServerEvent(event)) } : {}) },
  );
}

/** The OpenAI-compatible engine for `models` (roles mapped; each proposer call names its model) at one server or a pool of several. */
export function openAiEngine(servers: OpenAiServers, models: RoleModels): LlmPort {
  return openAiServersPort(servers, {
    ...(models.proposers?.[0] ? { proposer: models.proposers[0] } : {}),
    ...(models.aggregator ? { aggregator: models.aggregator } : {}),
    ...(models.generator ? { generator: models.generator } : {}),
    ...(models.discriminator ? { discriminator: models.discriminator } : {}),
  });
}

const stringFlag = (flags: CliFlags, name: string): string | undefined => (typeof flags[name] === 'string' ? flags[name] : undefined);
const listFlag = (flags: CliFlags, name: string): readonly string[] =>
  Array.isArray(flags[name]) ? (flags[name] as readonly string[]) : [];

/**
 * `--NAME SECONDS` (a number of seconds, fractions allowed) → ms, or undefined without the flag.
 * `positive`: 0 is refused (a timeout of 0 would fail every call). Throws `EngineUsageError`.
 */
function secondsFlag(flags: CliFlags, name: string, positive: boolean): number | undefined {
  const text = stringFlag(flags, name);
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || (positive && seconds === 0))
    throw new EngineUsageError(`--${name} takes a number of seconds${positive ? ' above 0' : ''}, not "${text}"`);
  return Math.round(seconds * 1000);
}

/** `--timeout SECONDS` and `--rate-limit-wait SECONDS` as `OpenAiServers` fields (absent flags: the defaults). */
function waitsOf(flags: CliFlags): Pick<OpenAiServers, 'timeoutMs' | 'maxRateLimitWaitMs'> {
  const timeoutMs = secondsFlag(flags, 'timeout', true);
  const maxRateLimitWaitMs = secondsFlag(flags, 'rate-limit-wait', false);
  return { ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(maxRateLimitWaitMs !== undefined ? { maxRateLimitWaitMs } : {}) };
}

const NEEDS_BASE_URL = '--engine openai needs --base-url URL (e.g. http://127.0.0.1:11434/v1 for Ollama)';

/**
 * The `--base-url` values (one string, or a list when the flag is repeatable), at least one.
 * Throws `EngineUsageError` when there is none or one is given twice.
 */
function baseUrlsOf(flags: CliFlags): string[] {
  const value = flags['base-url'];
  const urls = (typeof value === 'string' ? [value] : Array.isArray(value) ? [...(value as readonly string[])] : []).filter(
    (url) => url !== '',
  );
  if (urls.length === 0) throw new EngineUsageError(NEEDS_BASE_URL);
  const repeated = urls.find((url, index) => urls.indexOf(url) !== index);
  if (repeated !== undefined) throw new EngineUsageError(`--base-url ${repeated} is given twice; name each server once`);
  return urls;
}

/**
 * `--api-key-env NAME` → the variable's value (undefined without the flag), sent to every
 * `--base-url`. Throws `EngineUsageError` for an unset variable, and for a key that would go
 * over plain http to another machine (any `--base-url http://…`; `refuseKeyOverPlainHttp`), in one line.
 */
function apiKeyFromEnv(flags: CliFlags, sources: CliEngineSources, baseUrls: readonly string[]): string | undefined {
  const name = stringFlag(flags, 'api-key-env');
  if (!name) return undefined;
  const apiKey = sources.env[name];
  if (!apiKey) throw new EngineUsageError(`environment variable ${name} (--api-key-env) is not set`);
  try {
    for (const baseUrl of baseUrls) refuseKeyOverPlainHttp(baseUrl, apiKey);
  } catch (error) {
    throw new EngineUsageError((error as Error).message);
  }
  return apiKey;
}

export const openAiEngineKind: EngineKind<OpenAiSettings> = {
  kind: 'openai',
  label: 'OpenAI-compatible server',
  schema: OpenAiSettingsSchema,
  browser: {
    create: async (settings, sources, onStatus) => {
      const { roster } = settings;
      const serverProfiles = cachedServerProfiles({
        baseUrl: settings.baseUrl,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...(sources.fetch ? { fetch: sources.fetch } : {}),
      });
      // At run start: what the server is and the window it gives the first proposer, said in words
      // (cached for the run's calls). A server that cannot be asked is left to the first call's error.
      const profile = await serverProfiles.get(roster.proposers[0]!);
      // The reader's "Parallel calls" wins; else the slots the server says it serves (llama.cpp).
      const parallel = parallelCalls(settings.parallel, profile, MAX_PARALLEL);
      if (profile) onStatus([describeServer(profile), parallelCallsText(parallel)].filter(Boolean).join(' '));
      return {
        llm: createOpenAiCompatibleLlm({
          baseUrl: settings.baseUrl,
          serverProfiles,
          // The extension has no tokenizer: llama.cpp's server counts the prompt itself (/tokenize).
          countPromptTokens: serverPromptCounter({
            baseUrl: settings.baseUrl,
            profiles: serverProfiles,
            ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
            ...(sources.fetch ? { fetch: sources.fetch } : {}),
          }),
          ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
          models: {
            proposer: roster.proposers[0]!,
            aggregator: roster.aggregator,
            generator: roster.generator,
            discriminator: roster.discriminator,
          },
          ...(sources.fetch ? { fetch: sources.fetch } : {}),
          ...(parallel ? { concurrency: parallel.slots } : {}),
          onRetry: (event) => {
            const line = describeRetry(event);
            onStatus(`${line.charAt(0).toUpperCase()}${line.slice(1)}.`);
          },
        }),
        models: rosterToPresetModels(roster),
        ...(parallel ? { parallel: parallel.slots } : {}),
        ...(settings.embeddingModel
          ? {
              embeddings: createOpenAiCompatibleEmbeddings({
                baseUrl: settings.baseUrl,
                model: settings.embeddingModel,
                ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
                ...(sources.fetch ? { fetch: sources.fetch } : {}),
              }),
            }
          : {}),
      };
    },
    origins: (settings) => [originPattern(settings.baseUrl)],
    secretKeys: ['apiKey'],
    // Each model of the roster once, in the roster's order; the first failure (a refusal) rejects.
    probe: async (settings, fetch) => {
      const { roster } = settings;
      const models = [...new Set([...roster.proposers, roster.aggregator, roster.generator, roster.discriminator])];
      const found: string[] = [];
      for (const model of models) {
        const profile = await probeServer({
          baseUrl: settings.baseUrl,
          model,
          fetch,
          ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        });
        // The first model's line says how many calls a run will send at once when the server's slots decide.
        const parallel = found.length === 0 ? parallelCallsText(parallelCalls(settings.parallel, profile, MAX_PARALLEL)) : '';
        found.push([describeServer(profile), parallel].filter(Boolean).join(' '));
      }
      // One call: does the server follow the JSON schema Assay sends with every request?
      const llm = createOpenAiCompatibleLlm({
        baseUrl: settings.baseUrl,
        models: {},
        fetch,
        retries: 0,
        timeoutMs: 60_000,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      });
      const structured = await checkStructuredOutput(llm, models[0]!);
      return [...found, structured.text].join(' ');
    },
    fields: [
      {
        name: 'baseUrl',
        label: 'Base URL',
        input: 'url',
        idSuffix: 'url',
        placement: 'run',
        testId: 'engine-base-url',
        text: (settings) => settings?.baseUrl ?? DEFAULT_BASE_URL,
        apply: (settings, text) => {
          const problem = baseUrlProblem(text);
          return problem === null ? { ok: true, settings: { ...settings, baseUrl: text.trim() } } : { ok: false, message: problem };
        },
      },
      {
        name: 'apiKey',
        label: 'API key (optional)',
        input: 'password',
        idSuffix: 'key',
        placement: 'run',
        autoComplete: 'off',
        hint: "Kept in this browser's extension storage.",
        text: (settings) => settings?.apiKey ?? '',
        apply: (settings, text) => {
          // A blank key is left out.
          const { apiKey: _apiKey, ...rest } = settings;
          const apiKey = text.trim();
          return { ok: true, settings: apiKey === '' ? rest : { ...rest, apiKey } };
        },
      },
      {
        name: 'models',
        label: 'Models',
        input: 'text',
        idSuffix: 'models',
        placement: 'run',
        testId: 'engine-models',
        placeholder: 'qwen2.5:7b, llama3.2:3b',
        hint: 'Comma-separated model ids as the server names them. Each one is a proposer; the first also plays aggregator, generator and discriminator unless you name one, e.g. “generator=llama3.1:8b”.',
        text: (settings) => (settings ? modelListText(settings.roster) : ''),
        apply: (settings, text) => {
          const parsed = parseServerModelList(text);
          return parsed.ok ? { ok: true, settings: { ...settings, roster: parsed.roster } } : parsed;
        },
      },
      {
        name: 'embeddingModel',
        label: 'Embedding model (optional)',
        input: 'text',
        idSuffix: 'embedding-model',
        placement: 'run',
        testId: 'engine-embedding-model',
        placeholder: 'nomic-embed-text',
        hint: 'An embedding model on the same server lets retrieval tell paraphrases of one fact apart from different facts. Leave empty to compare passages by their words.',
        text: (settings) => settings?.embeddingModel ?? '',
        apply: (settings, text) => {
          const { embeddingModel: _embeddingModel, ...rest } = settings;
          const embeddingModel = text.trim();
          return { ok: true, settings: embeddingModel === '' ? rest : { ...rest, embeddingModel } };
        },
      },
      {
        name: 'parallel',
        label: 'Parallel calls (optional)',
        input: 'number',
        idSuffix: 'parallel',
        placement: 'run',
        testId: 'engine-parallel',
        min: 1,
        step: 1,
        hint: "The server's parallel slots (llama.cpp --parallel, OLLAMA_NUM_PARALLEL): that many independent calls of a paper are sent at once. Leave empty to use the slots the server tells (llama.cpp), else one at a time.",
        text: (settings) => (settings?.parallel ? String(settings.parallel) : ''),
        apply: (settings, text) => {
          const { parallel: _parallel, ...rest } = settings;
          const parsed = parseParallel(text);
          if (!parsed.ok) return parsed;
          return { ok: true, settings: parsed.slots === undefined ? rest : { ...rest, parallel: parsed.slots } };
        },
      },
    ],
  },
  cli: {
    options: {
      'base-url': { type: 'string', multiple: true },
      'api-key-env': { type: 'string' },
      'embedding-model': { type: 'string' },
      // Seconds each attempt of a model call may take (default DEFAULT_TIMEOUT_MS), and that one
      // call may wait on a rate-limiting server in all (default DEFAULT_RATE_LIMIT_WAIT_MS).
      timeout: { type: 'string' },
      'rate-limit-wait': { type: 'string' },
    },
    matrix: async (flags, { models, concurrency }, sources) => {
      const baseUrls = baseUrlsOf(flags);
      const missing = missingRoles(models);
      if (missing.length > 0)
        throw new EngineUsageError(
          `no model for ${missing.join(', ')}: pass --model ROLE=ID for each, or --preset paper for the paper's models`,
        );
      const apiKey = apiKeyFromEnv(flags, sources, baseUrls);
      return openAiEngine(
        { baseUrls, apiKey, concurrency, ...waitsOf(flags), onStatus: sources.onStatus, countPromptTokens: sources.countPromptTokens },
        models,
      );
    },
    // What each server is, in one line each; the slots count only for one server (a pool shares
    // its calls by its own limit).
    probe: async (flags, { models, concurrency }, sources) => {
      const baseUrls = baseUrlsOf(flags);
      const apiKey = apiKeyFromEnv(flags, sources, baseUrls);
      const model = models.proposers?.[0];
      if (!model) return undefined;
      const profiles = await Promise.all(
        baseUrls.map((baseUrl) => probeServer({ baseUrl, model, ...(apiKey ? { apiKey } : {}) }).catch(() => undefined)),
      );
      const parallel = baseUrls.length === 1 ? parallelCalls(concurrency, profiles[0], MAX_PARALLEL) : undefined;
      for (const profile of profiles)
        if (profile) sources.onStatus?.([describeServer(profile), parallelCallsText(parallel)].filter(Boolean).join(' '));
      return parallel?.source === 'server' ? parallel.slots : undefined;
    },
    // Embeddings (a few calls per paper) go to the first server only: a pool for them would be
    // a second copy of the pool's logic for little gain.
    embeddings: (flags, sources) => {
      const model = stringFlag(flags, 'embedding-model')?.trim();
      if (!model) return undefined;
      const baseUrls = baseUrlsOf(flags);
      const apiKey = apiKeyFromEnv(flags, sources, baseUrls);
      return createOpenAiCompatibleEmbeddings({ baseUrl: baseUrls[0]!, model, ...(apiKey ? { apiKey } : {}) });
    },
    judge: async (flags, sources) => {
      const baseUrls = baseUrlsOf(flags);
      const given = listFlag(flags, 'model');
      const models = given.map((value) => value.replace(/^judge=/, '').trim()).filter((value) => value !== '');
      if (models.length !== 1 || given.some((value) => /^[a-z]+=/.test(value) && !value.startsWith('judge=')))
        throw new EngineUsageError('--engine openai needs exactly one --model judge=ID (the judge model)');
      const apiKey = apiKeyFromEnv(flags, sources, baseUrls);
      return openAiServersPort({ baseUrls, apiKey, ...waitsOf(flags), onStatus: sources.onStatus }, { judge: models[0]! });
    },
  },
};
