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
import { vectorsInOrder } from './embeddings';
import { LlmError, type LlmPort, type LlmReply, type LlmRequest } from './llm-port';
import type { WebGpuCapability } from './webgpu-capability';
import { NO_WEBGPU_ADVICE } from './webgpu-capability';
import { noShaderF16Error, toWebLlmError } from './webllm-errors';

/** The slice of WebLLM's `ModelRecord` used here (field names as in `prebuiltAppConfig.model_list`). */
export interface WebLlmModelRecord {
  model_id: string;
  required_features?: string[];
  vram_required_MB?: number;
}

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
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** The slice of `MLCEngine` used here. */
export interface WebLlmEngineLike {
  reload(modelIds: string | string[]): Promise<void>;
  unload(): Promise<void>;
  interruptGenerate?(): void;
  chat: { completions: { create(request: Record<string, unknown>): Promise<WebLlmCompletion> } };
  /** WebLLM's `engine.embeddings` (answers in OpenAI's `{ data: [{ index, embedding }] }` shape). */
  embeddings?: { create(request: { input: string[]; model?: string }): Promise<unknown> };
}

/** Creates an engine that reports load progress to `initProgressCallback`. */
export type WebLlmEngineFactory = (options: { initProgressCallback: (report: WebLlmInitReport) => void }) => Promise<WebLlmEngineLike>;

export interface WebLlmOptions {
  engineFactory: WebLlmEngineFactory;
  /** The models this engine may load (usually `prebuiltAppConfig.model_list`). */
  models: readonly WebLlmModelRecord[];
  /** WebGPU check; usually `() => detectWebGpu(navigator)`. */
  capability: () => Promise<WebGpuCapability>;
  onProgress?: (progress: WebLlmProgress) => void;
  /** Model for requests that name none. */
  defaultModel?: string;
}

/** `LlmPort` plus the engine's lifecycle. */
export interface WebLlm extends LlmPort {
  /** Check WebGPU and features, then load `modelIds` together (one `reload([...])`). Rejects with `LlmError`. */
  load(modelIds: readonly string[]): Promise<void>;
  /** Re-create the engine and reload the models that were loaded (after 'device-lost'), so a run can resume. */
  reload(): Promise<void>;
  loadedModels(): readonly string[];
  unload(): Promise<void>;
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
  const knownModelIds = options.models.map((model) => model.model_id);
  let engine: WebLlmEngineLike | undefined;
  let loaded: string[] = [];
  /** The models of the last `load`, kept after a device loss so `reload()` knows what to restore. */
  let requested: string[] = [];

  const initProgressCallback = (report: WebLlmInitReport) => options.onProgress?.(parseWebLlmProgress(report));
  const getEngine = async () => (engine ??= await options.engineFactory({ initProgressCallback }));

  async function preflight(modelIds: readonly string[]): Promise<void> {
    const capability = await options.capability();
    if (!capability.available) throw new LlmError('no-webgpu', `${NO_WEBGPU_ADVICE} (${capability.reason})`);
    for (const modelId of modelIds) {
      const record = options.models.find((model) => model.model_id === modelId);
      if (!record) throw new LlmError('unavailable', `Unknown WebLLM model ${modelId}: it is not in the model list.`);
      if (record.required_features?.includes('shader-f16') && !capability.shaderF16) throw noShaderF16Error(modelId, knownModelIds);
    }
  }

  async function load(modelIds: readonly string[]): Promise<void> {
    await preflight(modelIds);
    requested = [...modelIds];
    const first = modelIds[0] ?? '(none)';
    try {
      await (await getEngine()).reload([...modelIds]);
      loaded = [...modelIds];
    } catch (error) {
      loaded = [];
      throw toWebLlmError(error, { phase: 'load', modelId: first, knownModelIds });
    }
  }

  async function complete(request: LlmRequest): Promise<LlmReply> {
    const modelId = request.model ?? options.defaultModel ?? loaded[0];
    if (!modelId) throw new LlmError('unavailable', 'No WebLLM model named in the request and none loaded.');
    if (request.signal?.aborted) throw new LlmError('aborted', 'The run was cancelled before the model call.');
    if (!loaded.includes(modelId)) await load([modelId]);
    const current = await getEngine();
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
    const onAbort = () => current.interruptGenerate?.();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const reply = await current.chat.completions.create(body);
      if (request.signal?.aborted) throw new LlmError('aborted', 'The run was cancelled during the model call.');
      const choice = reply.choices[0];
      return {
        text: choice?.message.content ?? '',
        model: reply.model ?? modelId,
        usage: { promptTokens: reply.usage?.prompt_tokens ?? 0, completionTokens: reply.usage?.completion_tokens ?? 0 },
        ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
      };
    } catch (error) {
      const mapped = toWebLlmError(error, { phase: 'generate', modelId, knownModelIds });
      // A lost device unloads every model (WebLLM's device.lost handler): force a reload next time.
      if (mapped.code === 'device-lost') loaded = [];
      throw mapped;
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
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
      const mapped = toWebLlmError(error, { phase: 'generate', modelId, knownModelIds });
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
      await engine?.unload().catch(() => undefined);
      loaded = [];
    },
  };
}
