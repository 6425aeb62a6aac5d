/**
 * The `webllm` engine kind: WebLLM on the user's GPU, in the browser only. One shared engine per
 * offscreen document (`exclusive`), its roles scheduled within a GPU-memory budget. Settings:
 * `{ kind: "webllm", roster?, gpuBudgetMB? }` — no roster: the default roster for the adapter's
 * features; no budget: `DEFAULT_GPU_BUDGET_MB`. Needs no host permission (WebLLM fetches its
 * weights from the hosts the extension's manifest already names).
 */
import { z } from 'zod';
import { RosterSchema } from '../../contracts/matrix-run';
import { CustomWebLlmModelsSchema } from '../../contracts/webllm-model';
import { checkEngine, engineCheckText } from '../engine-check';
import { LlmError } from '../llm-port';
import { createModelScheduler } from '../model-scheduler';
import { DEFAULT_GPU_BUDGET_MB, defaultWebLlmRoster, planModelLoads, rosterModelIds, rosterToPresetModels } from '../roster';
import { NO_WEBGPU_ADVICE } from '../webgpu-capability';
import type { BrowserEngineSources, EngineKind, EngineRun } from './engine-kind';

export const WebLlmSettingsSchema = z.object({
  kind: z.literal('webllm'),
  roster: RosterSchema.optional(),
  gpuBudgetMB: z.number().int().positive().optional(),
  /** The reader's own model records (src/contracts/webllm-model.ts), which roster roles may name. */
  customModels: CustomWebLlmModelsSchema.optional(),
});
export type WebLlmSettings = z.infer<typeof WebLlmSettingsSchema>;

/** Shortest time between two model-load status lines written to the run row (ms). */
export const STATUS_INTERVAL_MS = 250;

/** The smallest GPU budget a reader may give (MB): a floor against typos such as "6" for 6 GB. */
export const MIN_GPU_BUDGET_MB = 256;

/** The budget input as a whole number of MB ≥ 256, or the problem in words. */
export function parseGpuBudget(text: string): { ok: true; megabytes: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: 'Give a whole number of MB, e.g. 6144 for 6 GB.' };
  const megabytes = Number(trimmed);
  // 256 MB: only one of WebLLM 0.2.86's prebuilt models fits below it (238.71 MB, the smallest
  // `vram_required_MB`); the default rosters' smallest, SmolLM2-360M q4f32_1, needs 579.61 MB.
  if (megabytes < MIN_GPU_BUDGET_MB)
    return { ok: false, message: 'Give at least 256 MB (e.g. 6144 for 6 GB); smaller budgets fit no model of the roster.' };
  return { ok: true, megabytes };
}

/** `DEFAULT_GPU_BUDGET_MB` as GB with two decimals (GB = 1024 MB, as WebLLM's `vram_required_MB` counts). */
const defaultBudgetGb = `${(DEFAULT_GPU_BUDGET_MB / 1024).toFixed(2)} GB`;

/**
 * Build a WebLLM engine: no WebGPU → `LlmError('no-webgpu')` with how to enable it, before
 * anything loads; the settings' custom models are registered (a clash with a prebuilt id →
 * `LlmError('unavailable')`); the roster is the settings' or `defaultWebLlmRoster(shaderF16)`;
 * `planModelLoads` over the budget throws `out-of-gpu-memory` for a model that cannot fit alone;
 * calls go through `createModelScheduler` (one `reload([...])` when all roles fit, else model by
 * model). `recover` reloads the engine after a lost device. Load progress reaches `onStatus` (at
 * most one line per `STATUS_INTERVAL_MS`) until `dispose`; the first reply after a load clears it.
 */
async function createWebLlmRun(
  settings: WebLlmSettings,
  sources: BrowserEngineSources,
  onStatus: (text: string | null) => void,
): Promise<EngineRun> {
  const capability = await sources.capability();
  if (!capability.available) throw new LlmError('no-webgpu', `${NO_WEBGPU_ADVICE} (${capability.reason})`);
  const customModels = settings.customModels ?? [];
  if (customModels.length > 0 && !sources.registerModels)
    throw new LlmError('unavailable', 'This engine document cannot load custom WebLLM models.');
  await sources.registerModels?.(customModels);
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
      // A call stopped mid-prefill goes on in WebLLM (it checks its interrupt flag only between
      // decoded tokens): unloading ends it and gives the GPU back now rather than minutes later.
      if (webLlm.callsInFlight() > 0) void webLlm.unload();
    },
    modelLoads: () => scheduler.loads(),
    check: async (llm, signal) => {
      const model = roster.proposers[0]!;
      statusShown = true;
      onStatus(`Checking that ${model} answers on this GPU…`);
      const checked = await checkEngine(llm, { model, signal });
      const load = webLlm.lastLoad();
      const memory = webLlm.gpuMemory();
      // Stays up until the run's first reply: on a slow adapter the reader sees why calls take minutes.
      statusShown = true;
      onStatus(engineCheckText(checked));
      return {
        ...checked,
        ...(load ? { loadSeconds: load.seconds } : {}),
        ...(memory ? { gpuMemoryMB: { peak: memory.peakMB, allocated: memory.allocatedMB } } : {}),
      };
    },
  };
}

export const webLlmEngineKind: EngineKind<WebLlmSettings> = {
  kind: 'webllm',
  label: 'In this browser (WebLLM)',
  schema: WebLlmSettingsSchema,
  browser: {
    create: createWebLlmRun,
    // The document has one GPU engine: a second WebLLM run would swap models under the first and its Stop would cut the other's reply.
    exclusive: {
      busyMessage: 'Another run is using the in-browser model engine: wait for it to finish, or stop it, then start this one.',
    },
    origins: () => [],
    fields: [
      {
        name: 'gpuBudgetMB',
        label: 'GPU memory for models loaded together (MB)',
        heading: 'GPU memory budget',
        input: 'number',
        idSuffix: 'budget',
        placement: 'settings',
        testId: 'gpu-budget',
        min: MIN_GPU_BUDGET_MB,
        step: 256,
        hint: `Default ${DEFAULT_GPU_BUDGET_MB} MB (${defaultBudgetGb}). Lower it on a 4 GB GPU: the models then load group by group.`,
        inactiveHint: 'Used by the in-browser engine (WebLLM); choose it under Engine to set the budget.',
        text: (settings) => String(settings?.gpuBudgetMB ?? DEFAULT_GPU_BUDGET_MB),
        apply: (settings, text) => {
          const parsed = parseGpuBudget(text);
          return parsed.ok ? { ok: true, settings: { ...settings, gpuBudgetMB: parsed.megabytes } } : parsed;
        },
      },
    ],
  },
};
