/**
 * The real WebLLM engine factory and model list: the only module that imports
 * `@mlc-ai/web-llm` (DESIGN.md "Engines"). The import is dynamic so that importing this file
 * costs nothing until an engine is actually made (the library is ~6 MB of JS + wasm glue).
 */
import type { WebLlmEngineFactory, WebLlmModelRecord } from './webllm-adapter';

/** A small model that runs on adapters without shader-f16 (SwiftShader, many laptops): ~580 MB of VRAM. */
export const SMALL_F32_MODEL = 'SmolLM2-360M-Instruct-q4f32_1-MLC';

/** Make `MLCEngine`s from WebLLM's prebuilt app config (weights from Hugging Face, cached in Cache Storage). */
export function createMlcEngineFactory(): WebLlmEngineFactory {
  return async ({ initProgressCallback }) => {
    const webllm = await import('@mlc-ai/web-llm');
    return new webllm.MLCEngine({ initProgressCallback, appConfig: webllm.prebuiltAppConfig }) as unknown as Awaited<
      ReturnType<WebLlmEngineFactory>
    >;
  };
}

/** WebLLM's prebuilt model list (id, required features, VRAM in MB). */
export async function prebuiltModelRecords(): Promise<WebLlmModelRecord[]> {
  const webllm = await import('@mlc-ai/web-llm');
  return webllm.prebuiltAppConfig.model_list.map((record) => ({
    model_id: record.model_id,
    ...(record.required_features ? { required_features: record.required_features } : {}),
    ...(record.vram_required_MB !== undefined ? { vram_required_MB: record.vram_required_MB } : {}),
  }));
}

/** WebLLM's weight cache (Cache Storage or IndexedDB, as WebLLM's app config says). */
export interface WebLlmCache {
  /** True when the model's weights, config and wasm are all cached. */
  has(modelId: string): Promise<boolean>;
  /** Delete the model's weights, config, tokenizer and wasm from the cache. */
  remove(modelId: string): Promise<void>;
}

/** The cache of WebLLM's prebuilt models (`hasModelInCache` / `deleteModelAllInfoInCache`). */
export function createWebLlmCache(): WebLlmCache {
  return {
    async has(modelId) {
      const webllm = await import('@mlc-ai/web-llm');
      return webllm.hasModelInCache(modelId, webllm.prebuiltAppConfig);
    },
    async remove(modelId) {
      const webllm = await import('@mlc-ai/web-llm');
      await webllm.deleteModelAllInfoInCache(modelId, webllm.prebuiltAppConfig);
    },
  };
}
