/**
 * The real WebLLM engine factory, model list and weight cache: the only module that imports
 * `@mlc-ai/web-llm` (DESIGN.md "Engines"). The import is dynamic so that importing this file
 * costs nothing until an engine is actually made (the library is ~6 MB of JS + wasm glue).
 *
 * The release build imports `@mlc-ai/web-llm` (^0.2.86). The test build (`wxt build --mode
 * test`) resolves the same import to `webllm-runtime-test`, web-llm 0.2.79 installed under an
 * npm alias, because the one real model library these machines hold (../shared/webllm-test-model,
 * built for web-llm's `v0_2_48` libraries) loads only in that release. The API used here is the
 * same in both.
 */
import type { CustomWebLlmModel } from '../contracts/webllm-model';
import type { WebLlmEngineFactory, WebLlmEngineLike, WebLlmGpuMemory, WebLlmModelRecord } from './webllm-adapter';
import { createModelCatalogue, type ModelCatalogue } from './webllm-catalogue';
import {
  checkPinnedLoad,
  MODEL_LIBRARY_PINS,
  pinModelLibraries,
  UNPINNED_LIBRARY_POLICY,
  type LibraryPin,
  type UnpinnedLibraryPolicy,
} from './webllm-library-pins';

/** A small model that runs on adapters without shader-f16 (SwiftShader, many laptops): ~580 MB of VRAM. */
export const SMALL_F32_MODEL = 'SmolLM2-360M-Instruct-q4f32_1-MLC';

/** WebLLM's prebuilt model list (id, required features, VRAM in MB), without custom models. */
export async function prebuiltModelRecords(): Promise<WebLlmModelRecord[]> {
  const webllm = await import('@mlc-ai/web-llm');
  return (webllm.prebuiltAppConfig.model_list as WebLlmModelRecord[]).map(summary);
}

/** WebLLM's weight cache (Cache Storage or IndexedDB, as WebLLM's app config says). */
export interface WebLlmCache {
  /** True when the model's weights, config and wasm are all cached. */
  has(modelId: string): Promise<boolean>;
  /** Delete the model's weights, config, tokenizer and wasm from the cache. */
  remove(modelId: string): Promise<void>;
}

/** WebLLM for one document: the engine factory, the model list (prebuilt + custom) and the cache, over one app config. */
export interface WebLlmRuntime {
  engineFactory: WebLlmEngineFactory;
  /** WebLLM's prebuilt records, then the registered custom ones. */
  modelRecords(): Promise<WebLlmModelRecord[]>;
  /** The same list, synchronously: empty until `modelRecords()` or `registerModels()` has loaded WebLLM. */
  modelRecordsNow(): readonly WebLlmModelRecord[];
  /** Make `models` the reader's custom set (see `ModelCatalogue.register`; rejects with its `LlmError`). */
  registerModels(models: readonly CustomWebLlmModel[]): Promise<void>;
  cache: WebLlmCache;
}

type WebLlmModule = typeof import('@mlc-ai/web-llm');

/** How the runtime treats WebLLM's prebuilt model libraries (webllm-library-pins.ts). */
export interface WebLlmRuntimeOptions {
  /** Default `MODEL_LIBRARY_PINS`. */
  pins?: readonly LibraryPin[];
  /** Default `UNPINNED_LIBRARY_POLICY`. */
  unpinnedPolicy?: UnpinnedLibraryPolicy;
}

/**
 * Build the runtime. Every engine it makes, and every cache call, reads the app config of the
 * moment: WebLLM's `prebuiltAppConfig` with its `model_list` replaced by the catalogue's list
 * (prebuilt records pinned by `pinModelLibraries`, then the custom ones), so a custom model
 * registered after the engine was made still loads (the engine gets the current config before
 * each `reload`). A reload of a prebuilt model whose library has no hash goes by the unpinned
 * policy (`checkPinnedLoad`: refused with `LlmError('integrity-failed')`, or allowed with a
 * warning). When WebLLM refuses a library whose hash does not match (its `IntegrityError`), the
 * cached copy of that library is deleted before the error is passed on, so a later load fetches
 * it again instead of meeting the same bad copy.
 */
export function createWebLlmRuntime(options: WebLlmRuntimeOptions = {}): WebLlmRuntime {
  const policy = options.unpinnedPolicy ?? UNPINNED_LIBRARY_POLICY;
  let ready: Promise<{ webllm: WebLlmModule; catalogue: ModelCatalogue<WebLlmModelRecord>; unpinned: ReadonlySet<string> }> | undefined;
  let catalogue: ModelCatalogue<WebLlmModelRecord> | undefined;
  const load = () =>
    (ready ??= import('@mlc-ai/web-llm').then((webllm) => {
      const pinned = pinModelLibraries(webllm.prebuiltAppConfig.model_list as WebLlmModelRecord[], options.pins ?? MODEL_LIBRARY_PINS);
      catalogue = createModelCatalogue(pinned.records);
      return { webllm, catalogue, unpinned: pinned.unpinned };
    }));
  const appConfig = async () => {
    const { webllm, catalogue } = await load();
    return { ...webllm.prebuiltAppConfig, model_list: catalogue.list() } as unknown as WebLlmModule['prebuiltAppConfig'];
  };

  const engineFactory: WebLlmEngineFactory = async ({ initProgressCallback }) => {
    const { webllm, unpinned } = await load();
    const engine = new webllm.MLCEngine({ initProgressCallback, appConfig: await appConfig() });
    const like = engine as unknown as WebLlmEngineLike;
    return {
      reload: async (modelIds) => {
        checkPinnedLoad(typeof modelIds === 'string' ? [modelIds] : modelIds, unpinned, policy);
        const config = await appConfig();
        engine.setAppConfig(config);
        try {
          await engine.reload(modelIds as string[]);
        } catch (error) {
          await forgetRefusedLibrary(webllm, error, config);
          throw error;
        }
      },
      unload: () => engine.unload(),
      interruptGenerate: () => void engine.interruptGenerate(),
      chat: like.chat,
      ...(like.embeddings ? { embeddings: like.embeddings } : {}),
      gpuMemory: () => gpuMemoryOf(engine),
    };
  };

  return {
    engineFactory,
    async modelRecords() {
      return (await load()).catalogue.list().map(summary);
    },
    modelRecordsNow: () => (catalogue ? catalogue.list().map(summary) : []),
    async registerModels(models) {
      (await load()).catalogue.register(models);
    },
    cache: {
      async has(modelId) {
        const { webllm } = await load();
        return webllm.hasModelInCache(modelId, await appConfig());
      },
      async remove(modelId) {
        const { webllm } = await load();
        await webllm.deleteModelAllInfoInCache(modelId, await appConfig());
      },
    },
  };
}

/**
 * After WebLLM's `IntegrityError` on a model library (its `url` is a record's `model_lib`): delete
 * that library from WebLLM's cache (WebLLM caches a file before checking it). Anything else, or a
 * cache that cannot be changed, is left alone: the error that follows says what matters.
 */
async function forgetRefusedLibrary(webllm: WebLlmModule, error: unknown, config: WebLlmModule['prebuiltAppConfig']): Promise<void> {
  const url = (error as { name?: unknown; url?: unknown } | null)?.url;
  if ((error as { name?: unknown } | null)?.name !== 'IntegrityError' || typeof url !== 'string') return;
  const record = config.model_list.find((candidate) => candidate.model_lib === url);
  if (record) await webllm.deleteModelWasmInCache(record.model_id, config).catch(() => undefined);
}

/** The fields of a record the adapter and planner read (id, features, VRAM, custom URLs). */
function summary(record: WebLlmModelRecord): WebLlmModelRecord {
  return {
    model_id: record.model_id,
    ...(record.required_features ? { required_features: record.required_features } : {}),
    ...(record.vram_required_MB !== undefined ? { vram_required_MB: record.vram_required_MB } : {}),
    ...(record.model !== undefined ? { model: record.model } : {}),
    ...(record.model_lib !== undefined ? { model_lib: record.model_lib } : {}),
  };
}

/**
 * The GPU memory WebLLM's runtime reports for the loaded models: TVM's WebGPU context counts
 * every buffer it allocates (`runtimeStatsText()`: "peak-memory=N MB, all-memory=M MB"). That
 * context is not public API (`MLCEngine.loadedModelIdToPipeline[…].tvm`), so this reads it
 * defensively and answers undefined when a release moves it.
 */
function gpuMemoryOf(engine: unknown): WebLlmGpuMemory | undefined {
  try {
    const pipelines = (engine as { loadedModelIdToPipeline?: Map<string, { tvm?: { runtimeStatsText?: () => string } }> })
      .loadedModelIdToPipeline;
    if (!(pipelines instanceof Map) || pipelines.size === 0) return undefined;
    let peakMB = 0;
    let allocatedMB = 0;
    for (const pipeline of pipelines.values()) {
      const text = pipeline.tvm?.runtimeStatsText?.() ?? '';
      const peak = /peak-memory=(\d+(?:\.\d+)?)\s*MB/.exec(text);
      const all = /all-memory=(\d+(?:\.\d+)?)\s*MB/.exec(text);
      if (!peak || !all) return undefined;
      peakMB += Number(peak[1]);
      allocatedMB += Number(all[1]);
    }
    return { peakMB, allocatedMB };
  } catch {
    return undefined;
  }
}
