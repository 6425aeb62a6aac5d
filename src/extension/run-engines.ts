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
  /** Clock (ms) for throttling status lines; default `Date.now`. */
  now?: () => number;
}

/** Shortest time between two model-load status lines written to the run row (ms). */
export const STATUS_INTERVAL_MS = 250;

/**
 * Make `createEngine` for `createMatrixRunHost`.
 * - `webllm`: no WebGPU → `LlmError('no-webgpu')` with how to enable it, before anything loads;
 *   the roster is the settings' or `defaultWebLlmRoster(shaderF16)`; `planModelLoads` over the
 *   budget (`gpuBudgetMB`, default `DEFAULT_GPU_BUDGET_MB`) throws `out-of-gpu-memory` for a model
 *   that cannot fit alone; calls go through `createModelScheduler` (one `reload([...])` when all
 *   roles fit, else model by model). `recover` reloads the engine after a lost device.
 * - `openai`: `createOpenAiCompatibleLlm` with the roster's models per role (the server loads them).
 * Load progress reaches `onStatus` (at most one line per `STATUS_INTERVAL_MS`) until the engine's
 * `dispose`; the status line is cleared by the first reply after a load. One WebLLM run at a time:
 * while one engine is not disposed, another WebLLM engine is refused with `LlmError('unavailable')`.
 */
export function createRunEngineFactory(sources: RunEngineSources) {
  /** The document has one GPU engine: a second WebLLM run would swap models under the first and its Stop would cut the other's reply. */
  let webLlmInUse = false;
  return async function createEngine(settings: EngineSettings, onStatus: (text: string | null) => void): Promise<RunEngine> {
    if (settings.kind === 'openai') {
      const { roster } = settings;
      return {
        llm: createOpenAiCompatibleLlm({
          baseUrl: settings.baseUrl,
          ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
          models: {
            proposer: roster.proposers[0]!,
            aggregator: roster.aggregator,
            generator: roster.generator,
            discriminator: roster.discriminator,
          },
          ...(sources.fetch ? { fetch: sources.fetch } : {}),
          onRetry: (event) =>
            onStatus(`The model server did not answer (${event.error.message}); retrying (attempt ${event.attempt + 1}).`),
        }),
        models: rosterToPresetModels(roster),
      };
    }
    if (webLlmInUse)
      throw new LlmError(
        'unavailable',
        'Another run is using the in-browser model engine: wait for it to finish, or stop it, then start this one.',
      );
    webLlmInUse = true;
    try {
      return await createWebLlmEngine(settings, onStatus, () => {
        webLlmInUse = false;
      });
    } catch (error) {
      webLlmInUse = false;
      throw error;
    }
  };

  async function createWebLlmEngine(
    settings: Extract<EngineSettings, { kind: 'webllm' }>,
    onStatus: (text: string | null) => void,
    release: () => void,
  ): Promise<RunEngine> {
    const capability = await sources.capability();
    if (!capability.available) throw new LlmError('no-webgpu', `${NO_WEBGPU_ADVICE} (${capability.reason})`);
    const roster = settings.roster ?? defaultWebLlmRoster(capability.shaderF16);
    const plan = planModelLoads(rosterModelIds(roster), await sources.modelRecords(), settings.gpuBudgetMB ?? DEFAULT_GPU_BUDGET_MB);
    const webLlm = await sources.webLlm();
    const scheduler = createModelScheduler(webLlm, webLlm, plan);
    let statusShown = false;
    let lastStatusAt = -Infinity;
    const stopListening = sources.onLoadProgress((text) => {
      // WebLLM reports download progress many times a second; the run row is rewritten for each
      // line shown, so at most four lines a second reach it (the phase still changes in time).
      const at = (sources.now ?? Date.now)();
      if (at - lastStatusAt < STATUS_INTERVAL_MS) return;
      lastStatusAt = at;
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
      dispose: () => {
        stopListening();
        release();
      },
      modelLoads: () => scheduler.loads(),
    };
  }
}
