/**
 * The WebLLM runtime of webllm-engine.ts over a stand-in for `@mlc-ai/web-llm`: the app config
 * each engine and cache call gets (custom models included), and the GPU memory read from TVM's
 * runtime stats text.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CustomWebLlmModel } from '../../../src/contracts/webllm-model';
import { LlmError } from '../../../src/llm/llm-port';
import { createWebLlmRuntime } from '../../../src/llm/webllm-engine';

interface AppConfig {
  model_list: Array<{ model_id: string }>;
}

/** The stand-in MLCEngines made so far and the cache calls, shared with the hoisted module mock. */
const made = vi.hoisted(() => ({
  engines: [] as Array<{
    appConfigs: AppConfig[];
    reloads: string[][];
    loadedModelIdToPipeline: Map<string, unknown>;
  }>,
  cacheConfigs: [] as Array<{ call: string; modelId: string; appConfig: AppConfig }>,
  /** What the next `reload` throws, if anything. */
  reloadError: undefined as Error | undefined,
}));

vi.mock('@mlc-ai/web-llm', () => {
  class MLCEngine {
    appConfigs: AppConfig[] = [];
    reloads: string[][] = [];
    loadedModelIdToPipeline = new Map<string, unknown>();
    chat = { completions: { create: async () => ({ choices: [] }) } };
    constructor(options: { appConfig: AppConfig }) {
      this.appConfigs.push(options.appConfig);
      made.engines.push(this);
    }
    setAppConfig(appConfig: AppConfig) {
      this.appConfigs.push(appConfig);
    }
    async reload(modelIds: string[]) {
      this.reloads.push(modelIds);
      if (made.reloadError) throw made.reloadError;
    }
    async unload() {}
    interruptGenerate() {}
  }
  return {
    MLCEngine,
    prebuiltAppConfig: {
      useIndexedDBCache: false,
      model_list: [
        {
          model_id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
          model: 'https://huggingface.co/mlc-ai/q',
          model_lib:
            'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v9_9_9/base/Made-Up-0.5B-q4f32_1_cs1k-webgpu.wasm',
          vram_required_MB: 1060.2,
        },
      ],
    },
    deleteModelWasmInCache: async (modelId: string, appConfig: AppConfig) => {
      made.cacheConfigs.push({ call: 'remove-wasm', modelId, appConfig });
    },
    hasModelInCache: async (modelId: string, appConfig: AppConfig) => {
      made.cacheConfigs.push({ call: 'has', modelId, appConfig });
      return true;
    },
    deleteModelAllInfoInCache: async (modelId: string, appConfig: AppConfig) => {
      made.cacheConfigs.push({ call: 'remove', modelId, appConfig });
    },
  };
});

const OWN: CustomWebLlmModel = {
  model_id: 'tiny-own',
  model: 'http://127.0.0.1:8000/tiny-own/',
  model_lib: 'http://127.0.0.1:8000/tiny-own/tiny-own-webgpu.wasm',
  vram_required_MB: 700,
  context_window_size: 1024,
};

/** A loaded model's pipeline whose TVM instance reports `stats`. */
const pipeline = (stats: () => string) => ({ tvm: { runtimeStatsText: stats } });

beforeEach(() => {
  made.engines.length = 0;
  made.cacheConfigs.length = 0;
  made.reloadError = undefined;
});

async function engineOf(runtime: ReturnType<typeof createWebLlmRuntime>) {
  const engine = await runtime.engineFactory({ initProgressCallback: () => undefined });
  return { engine, mlc: made.engines.at(-1)! };
}

describe('createWebLlmRuntime', () => {
  it('loads a custom model registered after the engine was made: the engine gets the current model list before each reload', async () => {
    const runtime = createWebLlmRuntime();
    const { engine, mlc } = await engineOf(runtime);
    expect(mlc.appConfigs[0]!.model_list.map((record) => record.model_id)).toEqual(['Qwen2.5-0.5B-Instruct-q4f32_1-MLC']);
    await runtime.registerModels([OWN]);
    await engine.reload(['tiny-own']);
    expect(mlc.reloads).toEqual([['tiny-own']]);
    expect(mlc.appConfigs.at(-1)!.model_list).toEqual([
      expect.objectContaining({ model_id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' }),
      {
        model_id: 'tiny-own',
        model: OWN.model,
        model_lib: OWN.model_lib,
        vram_required_MB: 700,
        overrides: { context_window_size: 1024 },
      },
    ]);
  });

  it('lists the custom models after the prebuilt ones, and refuses one named like a prebuilt model', async () => {
    const runtime = createWebLlmRuntime();
    expect(runtime.modelRecordsNow()).toEqual([]);
    await runtime.registerModels([OWN]);
    expect((await runtime.modelRecords()).map((record) => record.model_id)).toEqual(['Qwen2.5-0.5B-Instruct-q4f32_1-MLC', 'tiny-own']);
    expect(runtime.modelRecordsNow().map((record) => record.model_id)).toEqual(['Qwen2.5-0.5B-Instruct-q4f32_1-MLC', 'tiny-own']);
    const clash = runtime.registerModels([{ ...OWN, model_id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' }]);
    await expect(clash).rejects.toBeInstanceOf(LlmError);
    await expect(clash).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('asks the cache about a custom model with the app config that names it', async () => {
    const runtime = createWebLlmRuntime();
    await runtime.registerModels([OWN]);
    expect(await runtime.cache.has('tiny-own')).toBe(true);
    await runtime.cache.remove('tiny-own');
    expect(made.cacheConfigs.map(({ call, modelId, appConfig }) => [call, modelId, appConfig.model_list.at(-1)?.model_id])).toEqual([
      ['has', 'tiny-own', 'tiny-own'],
      ['remove', 'tiny-own', 'tiny-own'],
    ]);
  });

  describe('model library pins', () => {
    const PREBUILT = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
    /** A made-up pin of the stand-in's library: neither the commit nor the hash names a real file. */
    const pin = {
      library: 'v9_9_9/base/Made-Up-0.5B-q4f32_1_cs1k-webgpu.wasm',
      commit: 'fedcba9876543210fedcba9876543210fedcba98',
      integrity: `sha256-${Buffer.alloc(32, 1).toString('base64')}`,
    };

    it('gives the engine the pinned library: the file at the pin’s commit, with its hash and onFailure "error"', async () => {
      const { engine, mlc } = await engineOf(createWebLlmRuntime({ pins: [pin], unpinnedPolicy: 'refuse' }));
      await engine.reload([PREBUILT]);
      expect(mlc.reloads).toEqual([[PREBUILT]]);
      expect(mlc.appConfigs.at(-1)!.model_list[0]).toMatchObject({
        model_lib: `https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/${pin.commit}/web-llm-models/${pin.library}`,
        integrity: { model_lib: pin.integrity, onFailure: 'error' },
      });
    });

    it('refuses an unpinned prebuilt model under "refuse" without asking WebLLM to fetch anything', async () => {
      const { engine, mlc } = await engineOf(createWebLlmRuntime({ pins: [], unpinnedPolicy: 'refuse' }));
      const refused = engine.reload([PREBUILT]);
      await expect(refused).rejects.toBeInstanceOf(LlmError);
      await expect(refused).rejects.toMatchObject({ code: 'integrity-failed' });
      expect(mlc.reloads).toEqual([]);
    });

    it('loads an unpinned prebuilt model under "allow" with a warning, and a custom model either way', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const runtime = createWebLlmRuntime({ pins: [], unpinnedPolicy: 'allow' });
      const { engine, mlc } = await engineOf(runtime);
      await engine.reload([PREBUILT]);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining(`${PREBUILT}'s model library comes from binary-mlc-llm-libs' main branch`));
      warn.mockRestore();
      const strict = createWebLlmRuntime({ pins: [], unpinnedPolicy: 'refuse' });
      await strict.registerModels([OWN]);
      const { engine: strictEngine, mlc: strictMlc } = await engineOf(strict);
      await strictEngine.reload(['tiny-own']);
      expect([mlc.reloads, strictMlc.reloads]).toEqual([[[PREBUILT]], [['tiny-own']]]);
    });

    it('deletes the cached copy of a library WebLLM refused for its hash, then passes the error on', async () => {
      const { engine } = await engineOf(createWebLlmRuntime({ pins: [pin] }));
      const url = `https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/${pin.commit}/web-llm-models/${pin.library}`;
      made.reloadError = Object.assign(new Error(`Integrity verification failed for ${url}`), {
        name: 'IntegrityError',
        url,
        expected: pin.integrity,
        actual: 'sha256-x',
      });
      await expect(engine.reload([PREBUILT])).rejects.toBe(made.reloadError);
      expect(made.cacheConfigs.map(({ call, modelId }) => [call, modelId])).toEqual([['remove-wasm', PREBUILT]]);
      // Any other failure leaves the cache alone.
      made.reloadError = new Error('Failed to fetch');
      await expect(engine.reload([PREBUILT])).rejects.toThrow('Failed to fetch');
      expect(made.cacheConfigs).toHaveLength(1);
    });
  });

  describe('gpuMemory', () => {
    it('adds up "peak-memory=N MB, all-memory=M MB" over the loaded models’ runtimes', async () => {
      const { engine, mlc } = await engineOf(createWebLlmRuntime());
      mlc.loadedModelIdToPipeline.set(
        'a',
        pipeline(() => 'peak-memory=812 MB, all-memory=640 MB, shader-submissions=31'),
      );
      mlc.loadedModelIdToPipeline.set(
        'b',
        pipeline(() => 'peak-memory=300.5 MB, all-memory=250 MB, shader-submissions=2'),
      );
      expect(engine.gpuMemory!()).toEqual({ peakMB: 1112.5, allocatedMB: 890 });
    });

    it('is undefined with no model loaded', async () => {
      const { engine } = await engineOf(createWebLlmRuntime());
      expect(engine.gpuMemory!()).toBeUndefined();
    });

    it('is undefined, not a partial sum, when one runtime does not report its memory', async () => {
      const { engine, mlc } = await engineOf(createWebLlmRuntime());
      mlc.loadedModelIdToPipeline.set(
        'a',
        pipeline(() => 'peak-memory=812 MB, all-memory=640 MB'),
      );
      // TVM answers "" when the instance has no WebGPU context.
      mlc.loadedModelIdToPipeline.set(
        'b',
        pipeline(() => ''),
      );
      expect(engine.gpuMemory!()).toBeUndefined();
    });

    it('is undefined when a WebLLM release moves or breaks what it reads', async () => {
      const { engine, mlc } = await engineOf(createWebLlmRuntime());
      mlc.loadedModelIdToPipeline.set('a', { tvm: {} });
      expect(engine.gpuMemory!()).toBeUndefined();
      mlc.loadedModelIdToPipeline.set(
        'a',
        pipeline(() => {
          throw new Error('disposed');
        }),
      );
      expect(engine.gpuMemory!()).toBeUndefined();
      (mlc as { loadedModelIdToPipeline: unknown }).loadedModelIdToPipeline = {};
      expect(engine.gpuMemory!()).toBeUndefined();
    });
  });
});
