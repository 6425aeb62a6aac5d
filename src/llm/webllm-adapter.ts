/**
 * `LlmPort` over WebLLM's `MLCEngine` (DESIGN.md "Engines"). The engine is injected through
 * `engineFactory` (the real one, in webllm-engine.ts, imports `@mlc-ai/web-llm`; unit tests pass
 * a fake), so this module never imports WebLLM itself.
 *
 * Before asking the engine to load anything it checks WebGPU and the model's required
 * features itself: WebLLM fetches the model config and wasm *before* it looks at the GPU, so
 * without this check a missing `shader-f16` would surface as a download of hundreds of MB (or,
 * offline, as a misleading download failure).
 */
import type { ModelIntegrity } from '../contracts/webllm-model';
import { vectorsInOrder } from './embeddings';
import { LlmError, type LlmPort, type LlmReply, type LlmRequest, type LlmTiming } from './llm-port';
import { NO_WEBGPU_ADVICE } from './webgpu-capability';
import { noShaderF16Error, toWebLlmError } from './webllm-errors';
import type { WebGpuCapability } from '../contracts/messages';

/** The slice of WebLLM's `ModelRecord` used here (field names as in `prebuiltAppConfig.model_list`). */
export interface WebLlmModelRecord {
  model_id: string;
  required_features?: string[];
  vram_required_MB?: number;
  /** Where the weights are (custom records; WebLLM's own list names Hugging Face folders). */
  model?: string;
  /** Where the compiled model library (.wasm) is. */
  model_lib?: string;
  /** WebLLM's per-model chat config overrides (here only the context window). */
  overrides?: { context_window_size?: number };
  /** SRI hashes WebLLM checks the files against (Assay's records always say `onFailure: "error"`). */
  integrity?: WebLlmIntegrity;
}

/** WebLLM's `ModelIntegrity` (web-llm 0.2.86 lib/integrity.d.ts): SRI hashes per file and what a mismatch does. */
export type WebLlmIntegrity = Omit<ModelIntegrity, 'onFailure' | 'tokenizer'> & {
  tokenizer?: Record<string, string>;
  onFailure?: 'error' | 'warn';
};

/** WebLLM's `InitProgressReport`. */
export interface WebLlmInitReport {
  progress: number;
  text: string;
  timeElapsed?: number;
}

/** A load progress report for the user: WebLLM's text and fraction, plus MB and % when the text carries them. */
export interface WebLlmProgress {
  text: string;
  /** 0..1, as WebLLM reports it. */
  progress: number;
  phase: 'download' | 'cache' | 'compile' | 'ready' | 'other';
  megabytes?: number;
  percent?: number;
}

/** The slice of WebLLM's chat completion answer used here. */
export interface WebLlmCompletion {
  model?: string;
  choices: Array<{ message: { content: string | null }; finish_reason?: string | null }>;
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    /** WebLLM's own timing of the call (seconds, tokens per second). */
    extra?: { e2e_latency_s?: number; prefill_tokens_per_s?: number; decode_tokens_per_s?: number; time_to_first_token_s?: number };
  };
}

/** GPU memory WebLLM's runtime reports for the loaded models (MB, as TVM's WebGPU context counts its buffers). */
export interface WebLlmGpuMemory {
  /** The most allocated at once since the models loaded. */
  peakMB: number;
  /** All allocated now. */
  allocatedMB: number;
}

/** The slice of `MLCEngine` used here. */
export interface WebLlmEngineLike {
  reload(modelIds: string | string[]): Promise<void>;
  unload(): Promise<void>;
  interruptGenerate?(): void;
  /** A reply, or with `stream: true` its chunks. */
  chat: { completions: { create(request: Record<string, unknown>): Promise<WebLlmCompletion | AsyncIterable<WebLlmChunk>> } };
  /** WebLLM's `engine.embeddings` (answers in OpenAI's `{ data: [{ index, embedding }] }` shape). */
  embeddings?: { create(request: { input: string[]; model?: string }): Promise<unknown> };
  /** The GPU memory the runtime reports, when the build exposes it. */
  gpuMemory?(): WebLlmGpuMemory | undefined;
}

/** One chunk of a streamed reply (OpenAI's `chat.completion.chunk`; the last one carries `usage` when asked for it). */
export interface WebLlmChunk {
  model?: string;
  choices: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
  usage?: WebLlmCompletion['usage'];
}

/** Creates an engine that reports load progress to `initProgressCallback`. */
export type WebLlmEngineFactory = (options: { initProgressCallback: (report: WebLlmInitReport) => void }) => Promise<WebLlmEngineLike>;

export interface WebLlmOptions {
  engineFactory: WebLlmEngineFactory;
  /**
   * The models this engine may load (usually `prebuiltAppConfig.model_list`), or a function read
   * at each load, for a list that grows when the reader registers custom models.
   */
  models: readonly WebLlmModelRecord[] | (() => readonly WebLlmModelRecord[]);
  /** WebGPU check; usually `() => detectWebGpu(navigator)`. */
  capability: () => Promise<WebGpuCapability>;
  onProgress?: (progress: WebLlmProgress) => void;
  /** Model for requests that name none. */
  defaultModel?: string;
  /** Clock for load times (ms); default `performance.now`. */
  now?: () => number;
}

/** `LlmPort` plus the engine's lifecycle. */
export interface WebLlm extends LlmPort {
  /** Check WebGPU and features, then load `modelIds` together (one `reload([...])`). Rejects with `LlmError`. */
  load(modelIds: readonly string[]): Promise<void>;
  /** Re-create the engine and reload the models that were loaded (after 'device-lost'), so a run can resume. */
  reload(): Promise<void>;
  loadedModels(): readonly string[];
  /**
   * Unload every model. A call the engine is still running (one whose caller was stopped: WebLLM
   * cannot interrupt a prefill) ends when the GPU device goes, and its reply is dropped.
   */
  unload(): Promise<void>;
  /** Engine calls still running, including those whose caller was stopped and has left. */
  callsInFlight(): number;
  /** The last successful load: which models and how long it took (s), download and shader compilation included. */
  lastLoad(): { modelIds: readonly string[]; seconds: number } | undefined;
  /** The GPU memory WebLLM reports for the loaded models, when the engine exposes it. */
  gpuMemory(): WebLlmGpuMemory | undefined;
  /**
   * Embed `texts` with the embedding model `modelId` (e.g. "snowflake-arctic-embed-s-q0f32-MLC-b4"),
   * loading it beside the models already loaded when it is not. One vector per text, in order.
   * Rejects with `LlmError`: 'aborted' when `signal` fired before the call, the load's codes
   * (no-webgpu, download-failed, …), 'unavailable' when this WebLLM build has no embeddings,
   * 'http' when the answer is not one vector per text.
   */
  embed(texts: readonly string[], modelId: string, signal?: AbortSignal): Promise<number[][]>;
}

/**
 * Parse WebLLM's progress text, e.g. "Fetching param cache[3/24]: 120MB fetched. 17% completed,
 * 4 secs elapsed." → phase 'download', 120 MB, 17 %; "Loading GPU shader modules[5/30]" →
 * 'compile'; "Finish loading on WebGPU - …" → 'ready'.
 */
export function parseWebLlmProgress(report: WebLlmInitReport): WebLlmProgress {
  const { text, progress } = report;
  const phase: WebLlmProgress['phase'] = /finish loading/i.test(text)
    ? 'ready'
    : /shader|compil/i.test(text)
      ? 'compile'
      : /fetch|download/i.test(text)
        ? 'download'
        : /from cache|loading model/i.test(text)
          ? 'cache'
          : 'other';
  const megabytes = /(\d+(?:\.\d+)?)\s*MB/i.exec(text)?.[1];
  const percent = /(\d+(?:\.\d+)?)\s*%/.exec(text)?.[1];
  return {
    text,
    progress,
    phase,
    ...(megabytes !== undefined ? { megabytes: Number(megabytes) } : {}),
    ...(percent !== undefined ? { percent: Number(percent) } : {}),
  };
}

/** Build the WebLLM `LlmPort`. Nothing is created or loaded until the first `load` or `complete`. */
export function createWebLlm(options: WebLlmOptions): WebLlm {
  const models = () => (typeof options.models === 'function' ? options.models() : options.models);
  const knownModelIds = () => models().map((model) => model.model_id);
  const now = options.now ?? (() => performance.now());
  let engine: WebLlmEngineLike | undefined;
  let loaded: string[] = [];
  let inFlight = 0;
  /** Raised by each unload: calls of an earlier generation were dropped with their engine's GPU device. */
  let engineGeneration = 0;
  let lastLoad: { modelIds: readonly string[]; seconds: number } | undefined;
  /** The models of the last `load`, kept after a device loss so `reload()` knows what to restore. */
  let requested: string[] = [];

  const initProgressCallback = (report: WebLlmInitReport) => options.onProgress?.(parseWebLlmProgress(report));
  const getEngine = async () => (engine ??= await options.engineFactory({ initProgressCallback }));

  async function preflight(modelIds: readonly string[]): Promise<void> {
    const capability = await options.capability();
    if (!capability.available) throw new LlmError('no-webgpu', `${NO_WEBGPU_ADVICE} (${capability.reason})`);
    for (const modelId of modelIds) {
      const record = models().find((model) => model.model_id === modelId);
      if (!record) throw new LlmError('unavailable', `Unknown WebLLM model ${modelId}: it is not in the model list.`);
      if (record.required_features?.includes('shader-f16') && !capability.shaderF16) throw noShaderF16Error(modelId, knownModelIds());
    }
  }

  async function load(modelIds: readonly string[]): Promise<void> {
    await preflight(modelIds);
    requested = [...modelIds];
    const first = modelIds[0] ?? '(none)';
    const started = now();
    try {
      await (await getEngine()).reload([...modelIds]);
      loaded = [...modelIds];
      lastLoad = { modelIds: [...modelIds], seconds: (now() - started) / 1000 };
    } catch (error) {
      loaded = [];
      throw toWebLlmError(error, { phase: 'load', modelId: first, knownModelIds: knownModelIds() });
    }
  }

  async function complete(request: LlmRequest): Promise<LlmReply> {
    const modelId = request.model ?? options.defaultModel ?? loaded[0];
    if (!modelId) throw new LlmError('unavailable', 'No WebLLM model named in the request and none loaded.');
    if (request.signal?.aborted) throw new LlmError('aborted', 'The run was cancelled before the model call.');
    if (!loaded.includes(modelId)) await load([modelId]);
    const current = await getEngine();
    // A Stop during the load (a download can take minutes) came before the listener below: send
    // nothing, or the engine would hold the GPU through a whole prefill for a caller that has gone.
    if (request.signal?.aborted) throw new LlmError('aborted', 'The run was cancelled before the model call.');
    const body: Record<string, unknown> = {
      model: modelId,
      messages: request.messages,
      stream: false,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      // WebLLM constrains decoding with XGrammar when given a JSON schema string (json_object mode).
      ...(request.jsonSchema ? { response_format: { type: 'json_object', schema: JSON.stringify(request.jsonSchema.schema) } } : {}),
    };
    // WebLLM checks its interrupt flag only between decoded tokens, so a stopped call may run on
    // through a long prefill: the caller is answered 'aborted' at once and the engine's reply,
    // when it comes, is dropped (`callsInFlight` counts it until then; `unload` cuts it short).
    let stopped: (() => void) | undefined;
    const stop = new Promise<never>((_resolve, reject) => {
      stopped = () => {
        current.interruptGenerate?.();
        reject(new LlmError('aborted', 'The run was cancelled during the model call.'));
      };
    });
    stop.catch(() => undefined);
    request.signal?.addEventListener('abort', stopped!, { once: true });
    const send = (stream = false) => {
      inFlight += 1;
      const generation = engineGeneration;
      const sent = stream
        ? current.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } })
        : current.chat.completions.create(body);
      const call = sent.then(wholeReply).finally(() => {
        // A call dropped by `unload` was already uncounted there.
        if (generation === engineGeneration) inFlight -= 1;
      });
      call.catch(() => undefined);
      return call;
    };
    try {
      let reply = await Promise.race([send(), stop]);
      if (request.signal?.aborted) throw new LlmError('aborted', 'The run was cancelled during the model call.');
      // An interrupt outlives the call it stopped in some WebLLM releases (0.2.79 clears its flag
      // only when a generation starts, and a non-streamed call checks it before): the next call,
      // which nobody stopped, ends at once with finish_reason 'abort' and no text, and so would
      // every later one. Such a call is sent again, once, streamed: that path clears the flag.
      if (staleInterrupt(reply)) reply = await Promise.race([send(true), stop]);
      if (request.signal?.aborted) throw new LlmError('aborted', 'The run was cancelled during the model call.');
      const choice = reply.choices[0];
      const timing = timingOf(reply);
      return {
        text: choice?.message.content ?? '',
        model: reply.model ?? modelId,
        usage: { promptTokens: reply.usage?.prompt_tokens ?? 0, completionTokens: reply.usage?.completion_tokens ?? 0 },
        ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
        ...(timing ? { timing } : {}),
      };
    } catch (error) {
      const mapped = toWebLlmError(error, { phase: 'generate', modelId, knownModelIds: knownModelIds() });
      // A lost device unloads every model (WebLLM's device.lost handler): force a reload next time.
      if (mapped.code === 'device-lost') loaded = [];
      throw mapped;
    } finally {
      request.signal?.removeEventListener('abort', stopped!);
    }
  }

  async function embed(texts: readonly string[], modelId: string, signal?: AbortSignal): Promise<number[][]> {
    if (signal?.aborted) throw new LlmError('aborted', 'The run was cancelled before the embedding call.');
    if (texts.length === 0) return [];
    if (!loaded.includes(modelId)) await load([...loaded, modelId]);
    const current = await getEngine();
    if (!current.embeddings) throw new LlmError('unavailable', 'This WebLLM build has no embeddings API.');
    try {
      return vectorsInOrder(
        await current.embeddings.create({ input: [...texts], model: modelId }),
        texts.length,
        `WebLLM model ${modelId}`,
      );
    } catch (error) {
      if (error instanceof LlmError) throw error;
      const mapped = toWebLlmError(error, { phase: 'generate', modelId, knownModelIds: knownModelIds() });
      if (mapped.code === 'device-lost') loaded = [];
      throw mapped;
    }
  }

  return {
    complete,
    embed,
    load,
    async reload() {
      const models = requested;
      const previous = engine;
      engine = undefined;
      loaded = [];
      await previous?.unload().catch(() => undefined);
      if (models.length > 0) await load(models);
    },
    loadedModels: () => loaded,
    async unload() {
      engineGeneration += 1;
      inFlight = 0;
      await engine?.unload().catch(() => undefined);
      loaded = [];
    },
    callsInFlight: () => inFlight,
    lastLoad: () => lastLoad,
    gpuMemory: () => (loaded.length > 0 ? engine?.gpuMemory?.() : undefined),
  };
}

/** WebLLM's `usage.extra` as `LlmTiming`, when it has every figure as a finite number. */
function timingOf(reply: WebLlmCompletion): LlmTiming | undefined {
  const extra = reply.usage?.extra;
  if (!extra) return undefined;
  const figures = [extra.time_to_first_token_s, extra.prefill_tokens_per_s, extra.decode_tokens_per_s, extra.e2e_latency_s];
  if (!figures.every((figure) => typeof figure === 'number' && Number.isFinite(figure))) return undefined;
  return {
    timeToFirstTokenSeconds: extra.time_to_first_token_s!,
    prefillTokensPerSecond: extra.prefill_tokens_per_s!,
    decodeTokensPerSecond: extra.decode_tokens_per_s!,
    totalSeconds: extra.e2e_latency_s!,
  };
}

/** `reply` as one completion: a streamed reply's chunks joined (content concatenated, the last finish reason, model and usage). */
async function wholeReply(reply: WebLlmCompletion | AsyncIterable<WebLlmChunk>): Promise<WebLlmCompletion> {
  if (!(Symbol.asyncIterator in reply)) return reply;
  let content = '';
  let finishReason: string | null = null;
  let model: string | undefined;
  let usage: WebLlmCompletion['usage'];
  for await (const chunk of reply) {
    const choice = chunk.choices[0];
    content += choice?.delta?.content ?? '';
    finishReason = choice?.finish_reason ?? finishReason;
    model = chunk.model ?? model;
    usage = chunk.usage ?? usage;
  }
  return { ...(model ? { model } : {}), choices: [{ message: { content }, finish_reason: finishReason }], ...(usage ? { usage } : {}) };
}

/**
 * True for a reply that a stale interrupt ended before it began: every choice finished with
 * 'abort' and holds no text (WebLLM 0.2.79's `chatCompletion` checks `interruptSignal` before
 * `_generate` clears it, so a Stop that came after its own call had ended stops the next call).
 */
function staleInterrupt(reply: WebLlmCompletion): boolean {
  return reply.choices.length > 0 && reply.choices.every((choice) => choice.finish_reason === 'abort' && !choice.message.content);
}
