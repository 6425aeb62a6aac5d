/**
 * Knowing the model server (issue 29): which server answers at a base URL — Ollama, llama.cpp's
 * server, LM Studio, vLLM, or another OpenAI-compatible one — and what it says about one model:
 * its context window (the tokens one request may use, prompt and reply together), the parallel
 * slots it serves, whether the model is there and loaded. Each server is asked at its own
 * endpoints, as its documentation gives them:
 * - Ollama: `GET /api/version` → `{ version }`; `POST /api/show { model }` → `model_info`
 *   ("<arch>.context_length", the length the model was trained for) and `parameters` (a
 *   Modelfile's "num_ctx N"); `GET /api/ps` → `models[].context_length`, the window the loaded
 *   model runs with (set by OLLAMA_CONTEXT_LENGTH or num_ctx), and 404 `model "x" not found`
 *   for a model not pulled.
 * - llama.cpp server: `GET /props` → `default_generation_settings.n_ctx` (each slot's window:
 *   `-c` split across `--parallel` slots), `total_slots`, `build_info`.
 * - LM Studio: `GET /api/v0/models` → `data[]` with `id`, `state` ("loaded" | "not-loaded"),
 *   `max_context_length`, and for a loaded model `loaded_context_length`.
 * - vLLM: `GET /v1/models` → `data[]` with `owned_by: "vllm"` and `max_model_len`.
 * - Anything else answering `GET {baseUrl}/models` with `data[]`: another OpenAI-compatible server.
 * Pure: the caller injects `fetch` (the extension's, Node's, or a test's mock). Every answer is
 * untrusted and read with zod; a field that is missing or malformed is left unknown.
 */
import { z } from 'zod';
import { LlmError } from './llm-port';
import { diagnoseNetworkFailure, httpFailure, wrongBaseUrlMessage } from './openai-failures';

/** The server families Assay tells apart. */
export type ServerFamily = 'ollama' | 'llama.cpp' | 'lm-studio' | 'vllm' | 'openai-compatible';

/** What a server told about itself and one model. Token counts are the server's own. */
export interface ServerProfile {
  family: ServerFamily;
  /** The base URL asked, e.g. "http://127.0.0.1:11434/v1". */
  baseUrl: string;
  model: string;
  /** The server's version or build, when it says ("0.6.8", "b4589"). */
  version?: string;
  /** Tokens one request may use (prompt + reply) as the server runs the model now; undefined when it does not say. */
  contextWindow?: number;
  /** Where `contextWindow` came from, in words ("Ollama's /api/ps", "llama.cpp's /props"). */
  contextSource?: string;
  /** The longest context the model supports (Ollama's model_info, LM Studio's max_context_length, vLLM's max_model_len). */
  modelMaxContext?: number;
  /** Requests the server serves at once (llama.cpp's total_slots). */
  parallelSlots?: number;
  /** Whether the server has the model: `loaded`, `not-loaded` (LM Studio, or Ollama before its first call), `missing`; undefined when unknown. */
  modelState?: 'loaded' | 'not-loaded' | 'missing';
  /** The model ids the server lists (`/v1/models`), at most 20. */
  models?: string[];
}

export interface ProbeOptions {
  /** The OpenAI-compatible base URL, e.g. "http://127.0.0.1:11434/v1". */
  baseUrl: string;
  /** The model to ask about, as the server names it. */
  model: string;
  apiKey?: string;
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
  /** Per request (ms); default 5 000. */
  timeoutMs?: number;
}

const OllamaVersionSchema = z.object({ version: z.string() });
const OllamaShowSchema = z.object({
  parameters: z.string().optional(),
  model_info: z.record(z.string(), z.unknown()).optional(),
});
const OllamaPsSchema = z.object({
  models: z.array(
    z.object({ name: z.string().optional(), model: z.string().optional(), context_length: z.number().int().positive().optional() }),
  ),
});
const LlamaCppPropsSchema = z.object({
  default_generation_settings: z.object({ n_ctx: z.number().int().positive().optional() }).optional(),
  n_ctx: z.number().int().positive().optional(),
  total_slots: z.number().int().positive().optional(),
  build_info: z.string().optional(),
});
const LmStudioModelsSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      state: z.string().optional(),
      max_context_length: z.number().int().positive().optional(),
      loaded_context_length: z.number().int().positive().optional(),
    }),
  ),
});
const OpenAiModelsSchema = z.object({
  data: z.array(z.object({ id: z.string(), owned_by: z.string().optional(), max_model_len: z.number().int().positive().optional() })),
});

/** One GET or POST's outcome: the status and parsed JSON (undefined when not JSON), or the network error. */
type Answer = { status: number; body: string; json: unknown } | { error: unknown };

/**
 * Find what serves `options.baseUrl` and what it says about `options.model` (see the module
 * comment for the endpoints). The family endpoints are asked at the server's root (the base URL
 * without its /v1), then `{baseUrl}/models`. → the profile.
 * Rejects with an `LlmError` when the server cannot be used as it is: `origin-refused` (a 403
 * without a reason: Ollama without OLLAMA_ORIGINS), `unreachable` / `cors-blocked` (nothing
 * answers, or the browser kept the answer), `wrong-base-url` (no family endpoint and no
 * `/models` list), `http` (401/403 with a key: the key), `aborted`.
 */
export async function probeServer(options: ProbeOptions): Promise<ServerProfile> {
  const fetchImplementation = options.fetch ?? globalThis.fetch.bind(globalThis);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const root = baseUrl.replace(/\/v1$/, '');
  const timeoutMs = options.timeoutMs ?? 5_000;
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};

  async function ask(url: string, body?: unknown): Promise<Answer> {
    const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
    try {
      const response = await fetchImplementation(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.any(signals),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, body: text, json };
    } catch (error) {
      if (options.signal?.aborted) throw new LlmError('aborted', 'Stopped while asking the model server what it is.');
      return { error };
    }
  }

  const [version, props, lmStudio, models] = await Promise.all([
    ask(`${root}/api/version`),
    ask(`${root}/props`),
    ask(`${root}/api/v0/models`),
    ask(`${baseUrl}/models`),
  ]);
  const answers = [version, props, lmStudio, models];
  const statusOf = (answer: Answer) => ('status' in answer ? answer.status : undefined);
  // Every request failed at the network: the first one's error, diagnosed.
  if (answers.every((answer) => 'error' in answer)) {
    const failure = await diagnoseNetworkFailure((version as { error: unknown }).error, `${root}/api/version`, fetchImplementation);
    throw failure.llmError;
  }
  // A 403 without a reason to every request: the server refuses this origin (Ollama's way).
  const refusal = answers.find((answer) => statusOf(answer) === 403 || statusOf(answer) === 401);
  if (refusal && 'status' in refusal && answers.every((answer) => statusOf(answer) === refusal.status || 'error' in answer))
    throw httpFailure(refusal.status, refusal.body, `${baseUrl}/models`, options.model, null, { apiKey: Boolean(options.apiKey) }).llmError;

  const listed = okJson(models, OpenAiModelsSchema)?.data;
  const base = { baseUrl, model: options.model, ...(listed ? { models: listed.slice(0, 20).map((entry) => entry.id) } : {}) };

  const ollama = okJson(version, OllamaVersionSchema);
  if (ollama) {
    const [show, ps] = await Promise.all([ask(`${root}/api/show`, { model: options.model }), ask(`${root}/api/ps`)]);
    const shown = okJson(show, OllamaShowSchema);
    const running = okJson(ps, OllamaPsSchema)?.models.find((entry) => sameOllamaModel(entry.model ?? entry.name, options.model));
    const numCtx = shown?.parameters?.match(/(?:^|\n)\s*num_ctx\s+(\d+)/)?.[1];
    const trained = Object.entries(shown?.model_info ?? {}).find(([key]) => key.endsWith('.context_length'))?.[1];
    const window = running?.context_length
      ? { contextWindow: running.context_length, contextSource: "Ollama's /api/ps, the loaded model" }
      : numCtx
        ? { contextWindow: Number(numCtx), contextSource: "the model's num_ctx (Ollama's /api/show)" }
        : {};
    return {
      family: 'ollama',
      ...base,
      version: ollama.version,
      ...window,
      ...(typeof trained === 'number' && trained > 0 ? { modelMaxContext: trained } : {}),
      modelState: statusOf(show) === 404 ? 'missing' : running ? 'loaded' : shown ? 'not-loaded' : undefined,
    } as ServerProfile;
  }

  const llamaCpp = okJson(props, LlamaCppPropsSchema);
  if (llamaCpp && (llamaCpp.default_generation_settings?.n_ctx !== undefined || llamaCpp.total_slots !== undefined)) {
    const nCtx = llamaCpp.default_generation_settings?.n_ctx ?? llamaCpp.n_ctx;
    return {
      family: 'llama.cpp',
      ...base,
      ...(llamaCpp.build_info ? { version: llamaCpp.build_info } : {}),
      ...(nCtx ? { contextWindow: nCtx, contextSource: "llama.cpp's /props (each slot's n_ctx)" } : {}),
      ...(llamaCpp.total_slots ? { parallelSlots: llamaCpp.total_slots } : {}),
      // llama.cpp serves the one model it was started with, whatever the request names.
      modelState: 'loaded',
    };
  }

  const lmModels = okJson(lmStudio, LmStudioModelsSchema);
  if (lmModels) {
    const entry = lmModels.data.find((candidate) => candidate.id === options.model);
    const loaded = entry?.state === 'loaded';
    return {
      family: 'lm-studio',
      ...base,
      ...(entry?.loaded_context_length
        ? { contextWindow: entry.loaded_context_length, contextSource: "LM Studio's /api/v0/models (the loaded context length)" }
        : {}),
      ...(entry?.max_context_length ? { modelMaxContext: entry.max_context_length } : {}),
      modelState: !entry ? 'missing' : loaded ? 'loaded' : 'not-loaded',
    };
  }

  if (listed) {
    const entry = listed.find((candidate) => candidate.id === options.model);
    const vllm = listed.some((candidate) => candidate.owned_by === 'vllm' || candidate.max_model_len !== undefined);
    if (vllm)
      return {
        family: 'vllm',
        ...base,
        ...(entry?.max_model_len ? { contextWindow: entry.max_model_len, contextSource: "vLLM's /v1/models (max_model_len)" } : {}),
        ...(entry?.max_model_len ? { modelMaxContext: entry.max_model_len } : {}),
        modelState: entry ? 'loaded' : 'missing',
      };
    return { family: 'openai-compatible', ...base, ...(entry ? { modelState: 'loaded' as const } : {}) };
  }
  if (statusOf(models) === 404) throw new LlmError('wrong-base-url', wrongBaseUrlMessage(`${baseUrl}/models`), { status: 404 });
  // Something answers, but no endpoint Assay knows: the chat call will tell more.
  return { family: 'openai-compatible', ...base };
}

/** `answer`'s JSON parsed by `schema` when the status was 2xx; else undefined. */
function okJson<T>(answer: Answer, schema: z.ZodType<T>): T | undefined {
  if (!('status' in answer) || answer.status < 200 || answer.status >= 300) return undefined;
  const parsed = schema.safeParse(answer.json);
  return parsed.success ? parsed.data : undefined;
}

/** Ollama names a model "qwen2.5:7b" and lists "qwen2.5:7b"; a name without a tag means ":latest". */
function sameOllamaModel(listed: string | undefined, asked: string): boolean {
  if (!listed) return false;
  const withTag = (name: string) => (name.includes(':') ? name : `${name}:latest`);
  return withTag(listed) === withTag(asked);
}

const FAMILY_NAMES: Record<ServerFamily, string> = {
  ollama: 'Ollama',
  'llama.cpp': 'llama.cpp server',
  'lm-studio': 'LM Studio',
  vllm: 'vLLM',
  'openai-compatible': 'an OpenAI-compatible server',
};

/** The family's name in words: "Ollama", "llama.cpp server", "LM Studio", "vLLM", "an OpenAI-compatible server". */
export function serverFamilyName(family: ServerFamily): string {
  return FAMILY_NAMES[family];
}

/** The family's name at the start of a sentence: "Ollama", "vLLM", "An OpenAI-compatible server". */
export function serverFamilyTitle(family: ServerFamily): string {
  return FAMILY_NAMES[family].replace(/^an /, 'An ');
}

/** A token count with thousands separators, as the reader reads it ("32,768"). */
export function tokensText(count: number): string {
  return count.toLocaleString('en-US');
}

/**
 * What was found, in words, e.g. "Ollama 0.6.8 at http://127.0.0.1:11434/v1. qwen2.5:7b is
 * loaded with a context window of 2,048 tokens (from Ollama's /api/ps, the loaded model). The model
 * supports 32,768: set OLLAMA_CONTEXT_LENGTH or num_ctx higher to use more." or "llama.cpp server
 * b4589 at …: 2 parallel slots of 4,096 tokens each." Ends with a period.
 */
export function describeServer(profile: ServerProfile): string {
  const head = `${serverFamilyTitle(profile.family)}${profile.version ? ` ${profile.version}` : ''} at ${profile.baseUrl}.`;
  const parts: string[] = [head];
  const { model } = profile;
  if (profile.modelState === 'missing')
    parts.push(
      profile.family === 'ollama'
        ? `It has no model ${model}: run \`ollama pull ${model}\`.`
        : `It does not list ${model}${profile.models?.length ? ` (it lists ${profile.models.slice(0, 5).join(', ')})` : ''}.`,
    );
  else if (profile.modelState === 'not-loaded')
    parts.push(
      profile.family === 'lm-studio'
        ? `${model} is downloaded but not loaded: load it in LM Studio (or \`lms load ${model}\`).`
        : `${model} is there, not loaded yet (it loads at the first call).`,
    );
  if (profile.family === 'llama.cpp' && profile.parallelSlots !== undefined && profile.contextWindow !== undefined)
    parts.push(
      `${profile.parallelSlots} parallel slot${profile.parallelSlots === 1 ? '' : 's'} of ${tokensText(profile.contextWindow)} tokens each (its -c context split across --parallel slots).`,
    );
  else if (profile.contextWindow !== undefined)
    parts.push(`${model} runs with a context window of ${tokensText(profile.contextWindow)} tokens (from ${profile.contextSource}).`);
  else parts.push(`It does not say ${model}'s context window; Assay will check each reply's prompt token count instead.`);
  if (profile.family === 'ollama' && profile.modelMaxContext && (profile.contextWindow ?? 0) < profile.modelMaxContext)
    parts.push(
      `The model supports ${tokensText(profile.modelMaxContext)}; Ollama uses ${profile.contextWindow ? tokensText(profile.contextWindow) : 'its default (a few thousand)'} unless OLLAMA_CONTEXT_LENGTH or the model's num_ctx says more.`,
    );
  return parts.join(' ');
}

/**
 * The parallel calls a run sends to one server: the reader's setting (`chosen`, the "Parallel
 * calls" field or `--concurrency`) wins; else the slots the server says it serves (llama.cpp's
 * `/props` `total_slots`), at most `max`; else undefined (the adapter's default, and the run's
 * independent calls one at a time). `source` says which, for the status line.
 */
export function parallelCalls(
  chosen: number | undefined,
  profile: ServerProfile | undefined,
  max: number,
): { slots: number; source: 'chosen' | 'server' } | undefined {
  if (chosen !== undefined && chosen > 0) return { slots: chosen, source: 'chosen' };
  const found = profile?.parallelSlots;
  if (found !== undefined && found >= 1) return { slots: Math.min(found, max), source: 'server' };
  return undefined;
}

/** "Sending up to 2 calls at once, as its slots allow." when the slots are the server's (`parallelCalls`); empty otherwise. */
export function parallelCallsText(parallel: ReturnType<typeof parallelCalls>): string {
  if (parallel?.source !== 'server') return '';
  return parallel.slots === 1
    ? 'Sending one call at a time, as its one slot allows.'
    : `Sending up to ${parallel.slots} calls at once, as its slots allow.`;
}

/** A server's profiles per model, asked once and kept (`cachedServerProfiles`). */
export interface ServerProfiles {
  /** The profile for `model`: the kept one, else asked; `refresh` asks again. Resolves undefined when the server could not be asked. */
  get(model: string, refresh?: boolean): Promise<ServerProfile | undefined>;
  /** The profile already found for `model`, without asking (undefined when not asked yet or unknown). */
  known(model: string): ServerProfile | undefined;
}

/**
 * `probeServer` for one server, kept per model: a run asks once per model, not once per call
 * (the extension asks at run start; the adapter asks again only when a reply's prompt count looks
 * cut). A probe that fails is kept as unknown (undefined) until a `refresh`: the chat call says
 * what is wrong, in its own words.
 */
export function cachedServerProfiles(options: Omit<ProbeOptions, 'model' | 'signal'>): ServerProfiles {
  const asked = new Map<string, Promise<ServerProfile | undefined>>();
  const found = new Map<string, ServerProfile>();
  return {
    get(model, refresh = false) {
      const cached = asked.get(model);
      if (cached && !refresh) return cached;
      const probed = probeServer({ ...options, model }).then(
        (profile) => {
          found.set(model, profile);
          return profile;
        },
        () => undefined,
      );
      asked.set(model, probed);
      return probed;
    },
    known: (model) => found.get(model),
  };
}

const ApplyTemplateSchema = z.object({ prompt: z.string() });
const TokenizeSchema = z.object({ tokens: z.array(z.unknown()) });

/**
 * Exact prompt token counts from the server itself where it can give them: llama.cpp's server
 * (`POST /apply-template { messages }` → `{ prompt }`, the model's chat template applied; then
 * `POST /tokenize { content, add_special, parse_special }` → `{ tokens }`). For a model whose
 * kept profile (`profiles.known`) is another family, or when either request fails, undefined: the
 * extension has no tokenizer of its own and never calls a cut on an estimate. Builds without
 * /apply-template count the messages' contents alone (a slight undercount: fewer cuts called).
 */
export function serverPromptCounter(
  options: Omit<ProbeOptions, 'model' | 'signal'> & { profiles: ServerProfiles },
): (messages: ReadonlyArray<{ role: string; content: string }>, model: string) => Promise<number | undefined> {
  const fetchImplementation = options.fetch ?? globalThis.fetch.bind(globalThis);
  const root = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
  };
  const post = async <T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T | undefined> => {
    try {
      const response = await fetchImplementation(`${root}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
      if (!response.ok) return undefined;
      const parsed = schema.safeParse(await response.json());
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  };
  return async (messages, model) => {
    if (options.profiles.known(model)?.family !== 'llama.cpp') return undefined;
    const templated = await post('/apply-template', { messages }, ApplyTemplateSchema);
    const content = templated?.prompt ?? messages.map((message) => message.content).join('\n');
    const tokenized = await post('/tokenize', { content, add_special: true, parse_special: true }, TokenizeSchema);
    return tokenized?.tokens.length;
  };
}
