// The offscreen document that hosts the WebLLM engine and the SLM-MATRIX runs, and reads the PDFs shown in the browser’s viewer (why here: src/extension/offscreen-engine.ts).
import { browser } from 'wxt/browser';
import { startImportWorker } from '../../src/extension/import-worker-client';
import { createModelEngineListener } from '../../src/extension/model-engine-host';
import { createWebLlm } from '../../src/llm/webllm-adapter';
import { createWebLlmRuntime } from '../../src/llm/webllm-engine';
import { loadPropertySchemas } from '../../src/properties';
import { createAssayDatabase } from '../../src/store/assay-database';

const webLlm = createWebLlmRuntime();

browser.runtime.onMessage.addListener(
  createModelEngineListener({
    extensionOrigin: browser.runtime.getURL('/'),
    navigator: navigator as never,
    createLlm: async ({ capability, onProgress }) => {
      await webLlm.modelRecords();
      return createWebLlm({ engineFactory: webLlm.engineFactory, models: webLlm.modelRecordsNow, capability, onProgress });
    },
    modelRecords: webLlm.modelRecords,
    registerModels: webLlm.registerModels,
    database: createAssayDatabase(),
    properties: loadPropertySchemas(),
    cache: webLlm.cache,
    runImport: startImportWorker(),
  }),
);
