/**
 * The `webllm` engine kind: WebLLM on the user's GPU, in the browser only. One shared engine per
 * offscreen document (`exclusive`), its roles scheduled within a GPU-memory budget. Settings:
 * `{ kind: "webllm", roster?, gpuBudgetMB?, customModels? }` — no roster: the default roster for the adapter's
 * features; no budget: `DEFAULT_GPU_BUDGET_MB`. Needs no host permission (WebLLM fetches its
 * weights from the hosts the extension's manifest already names).
 */
import { z } from 'zod';
import { RosterSchema } from '../../contracts/matrix-run';
import { CustomWebLlmModelsSchema, type CustomWebLlmModel } from '../../contracts/webllm-model';
import { checkEngine, engineCheckText } from '../engine-check';
import { LlmError } from '../llm-port';
import { createModelScheduler } from '../model-scheduler';
import {
  DEFAULT_GPU_BUDGET_MB,
  defaultWebLlmRoster,
  modelListText,
  parseModelList,
  planModelLoads,
  rosterModelIds,
  rosterToPresetModels,
} from '../roster';
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

/**
 * The "Your own models" input: empty → none; else a JSON array of WebLLM model records
 * (`CustomWebLlmModelsSchema`: `model_id`, `model`, `model_lib`, `vram_required_MB`, optional
 * `required_features`, `context_window_size`). → `{ ok: true, models }`, or `{ ok: false, message }`
 * naming the first problem: not JSON, not an array, or the record and field at fault.
 */
export function parseCustomModelsText(text: string): { ok: true; models: CustomWebLlmModel[] } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, models: [] };
  let data: unknown;
  try {
    data = JSON.parse(trimmed);
  } catch (error) {
    return { ok: false, message: `Not JSON (${(error as Error).message}): give an array of model records, [{"model_id": …}].` };
  }
  if (!Array.isArray(data)) return { ok: false, message: 'Give an array of model records, [{"model_id": …}, …], not a single value.' };
  const parsed = CustomWebLlmModelsSchema.safeParse(data);
  if (parsed.success) return { ok: true, models: parsed.data };
  const issue = parsed.error.issues[0]!;
  const [index, field] = issue.path;
  const where = typeof index === 'number' ? `Model ${index + 1}${field === undefined ? '' : `, ${String(field)}`}: ` : '';
  return { ok: false, message: `${where}${issue.message}.` };
}

/** What a reader names when the WebLLM "Models" input is empty of ids. */
const NO_WEBLLM_MODEL =
  'Name at least one WebLLM model id (e.g. Qwen2.5-1.5B-Instruct-q4f16_1-MLC), or leave the field empty for the default roster.';

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
        name: 'webllmModels',
        label: 'Models',
        input: 'text',
        idSuffix: 'webllm-models',
        placement: 'run',
        testId: 'webllm-models',
        placeholder: 'Default roster for this GPU',
        hint: 'Empty: the default roster for your GPU. Or WebLLM model ids, comma-separated; each is a proposer, and “generator=…”, “aggregator=…”, “discriminator=…” name those roles. Your own models (Settings) may be named by their model_id.',
        text: (settings) => (settings?.roster ? modelListText(settings.roster) : ''),
        apply: (settings, text) => {
          const { roster: _roster, ...rest } = settings;
          if (text.trim() === '') return { ok: true, settings: rest };
          const parsed = parseModelList(text, NO_WEBLLM_MODEL);
          return parsed.ok ? { ok: true, settings: { ...rest, roster: parsed.roster } } : parsed;
        },
      },
      {
        name: 'customModels',
        label: 'Your own WebLLM models (JSON)',
        heading: 'Your own models',
        input: 'text',
        idSuffix: 'custom-models',
        placement: 'settings',
        testId: 'custom-models',
        placeholder: '[{"model_id": "…", "model": "https://…", "model_lib": "https://….wasm", "vram_required_MB": 1000}]',
        hint: 'A JSON array of WebLLM model records (model_id, model, model_lib, vram_required_MB; optional required_features, context_window_size), from https or from this machine (127.0.0.1). The library must be built for the WebLLM release this extension runs. Name a model_id under Models to use it.',
        inactiveHint: 'Used by the in-browser engine (WebLLM); choose it under Engine to add models.',
        text: (settings) => (settings?.customModels?.length ? JSON.stringify(settings.customModels) : ''),
        apply: (settings, text) => {
          const { customModels: _customModels, ...rest } = settings;
          const parsed = parseCustomModelsText(text);
          if (!parsed.ok) return parsed;
          return { ok: true, settings: parsed.models.length > 0 ? { ...rest, customModels: parsed.models } : rest };
        },
      },
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
