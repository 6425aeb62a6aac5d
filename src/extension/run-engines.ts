/**
 * The engines an extension run can use, built from the user's `EngineSettings`: WebLLM on the
 * user's GPU (one shared engine per offscreen document, its roles scheduled within a GPU-memory
 * budget) or an OpenAI-compatible server the user runs (Ollama, LM Studio, llama.cpp, vLLM).
 */
import type { EngineSettings } from '../contracts/matrix-run';
import { LlmError } from '../llm/llm-port';
import { createModelScheduler } from '../llm/model-scheduler';
import { createOpenAiCompatibleLlm } from '../llm/openai-compatible';
import { DEFAULT_GPU_BUDGET_MB, defaultWebLlmRoster, planModelLoads, rosterModelIds, rosterToPresetModels } from '../llm/roster';
import { NO_WEBGPU_ADVICE, type WebGpuCapability } from '../llm/webgpu-capability';
import type { WebLlm, WebLlmModelRecord } from '../llm/webllm-adapter';
import type { RunEngine } from './matrix-run-host';

export interface RunEngineSources {
  /** The document's one WebLLM engine (created on first use). */
  webLlm: () => Promise<WebLlm>;
  capability: () => Promise<WebGpuCapability>;
  /** WebLLM's model list (ids, required features, `vram_required_MB`). */
  modelRecords: () => Promise<readonly WebLlmModelRecord[]>;
  /** Tells `listener` about WebLLM load progress in words until the returned function is called. */
  onLoadProgress: (listener: (text: string) => void) => () => void;
  fetch?: typeof globalThis.fetch;
}

/**
 * Make `createEngine` for `createMatrixRunHost`.
 * - `webllm`: no WebGPU → `LlmError('no-webgpu')` with how to enable it, before anything loads;
 *   the roster is the settings' or `defaultWebLlmRoster(shaderF16)`; `planModelLoads` over the
 *   budget (`gpuBudgetMB`, default `DEFAULT_GPU_BUDGET_MB`) throws `out-of-gpu-memory` for a model
 *   that cannot fit alone; calls go through `createModelScheduler` (one `reload([...])` when all
 *   roles fit, else model by model). `recover` reloads the engine after a lost device.
 * - `openai`: `createOpenAiCompatibleLlm` with the roster's models per role (the server loads them).
 * Load progress reaches `onStatus` until the engine's `dispose`; the status line is cleared by the
 * first reply after a load.
 */
export function createRunEngineFactory(sources: RunEngineSources) {
  return async function createEngine(settings: EngineSettings, onStatus: (text: string | null) => void): Promise<RunEngine> {
    if (settings.kind === 'openai') {
      const { roster } = settings;
      return {
        llm: createOpenAiCompatibleLlm({
          baseUrl: settings.baseUrl,
          ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
          models: { proposer: roster.proposers[0]!, aggregator: roster.aggregator, generator: roster.generator, discriminator: roster.discriminator },
          ...(sources.fetch ? { fetch: sources.fetch } : {}),
          onRetry: (event) => onStatus(`The model server did not answer (${event.error.message}); retrying (attempt ${event.attempt + 1}).`),
        }),
        models: rosterToPresetModels(roster),
      };
    }
    const capability = await sources.capability();
    if (!capability.available) throw new LlmError('no-webgpu', `${NO_WEBGPU_ADVICE} (${capability.reason})`);
    const roster = settings.roster ?? defaultWebLlmRoster(capability.shaderF16);
    const plan = planModelLoads(rosterModelIds(roster), await sources.modelRecords(), settings.gpuBudgetMB ?? DEFAULT_GPU_BUDGET_MB);
    const webLlm = await sources.webLlm();
    const scheduler = createModelScheduler(webLlm, webLlm, plan);
    let statusShown = false;
    const stopListening = sources.onLoadProgress((text) => {
      statusShown = true;
      onStatus(text);
    });
    return {
      llm: {
        complete: async (request) => {
          const reply = await scheduler.complete(request);
          if (statusShown) {
            statusShown = false;
            onStatus(null);
          }
          return reply;
        },
      },
      models: rosterToPresetModels(roster),
      recover: async () => {
        onStatus('The GPU device was lost; reloading the models to resume the run…');
        await webLlm.reload();
        return true;
      },
      dispose: stopListening,
      modelLoads: () => scheduler.loads(),
    };
  };
}
