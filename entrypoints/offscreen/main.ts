// The offscreen document that hosts the WebLLM engine and the SLM-MATRIX runs (why here: src/extension/offscreen-engine.ts).
import { browser } from 'wxt/browser';
import { createModelEngineListener } from '../../src/extension/model-engine-host';
import { createWebLlm } from '../../src/llm/webllm-adapter';
import { createMlcEngineFactory, createWebLlmCache, prebuiltModelRecords } from '../../src/llm/webllm-engine';
import { loadPropertySchemas } from '../../src/properties';
import { createAssayDatabase } from '../../src/store/assay-database';

browser.runtime.onMessage.addListener(
  createModelEngineListener({
    navigator: navigator as never,
    createLlm: async ({ capability, onProgress }) =>
      createWebLlm({ engineFactory: createMlcEngineFactory(), models: await prebuiltModelRecords(), capability, onProgress }),
    modelRecords: prebuiltModelRecords,
    database: createAssayDatabase(),
    properties: loadPropertySchemas(),
    cache: createWebLlmCache(),
  }),
);
