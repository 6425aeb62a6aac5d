/**
 * What the "Settings and models" section says, in words: sizes, the storage estimate, the WebLLM
 * roster as one row per model with its roles, and the GPU budget input. Pure.
 */
import type { EngineSettings, Roster } from '../../contracts/matrix-run';
import type { CustomWebLlmModel } from '../../contracts/webllm-model';
import type { PersistenceOccasion, StoragePersistence } from '../../extension/stored-settings';
import { WebLlmSettingsSchema, type WebLlmSettings } from '../../llm/engines/webllm-engine-kind';
import { DEFAULT_GPU_BUDGET_MB, defaultWebLlmRoster, rosterModelIds } from '../../llm/roster';

const MEBIBYTE = 1024 * 1024;
const GIBIBYTE = 1024 * MEBIBYTE;

/**
 * Bytes for a person: below 1 GB in MB with one decimal ("12.3 MB"), from 1 GB in GB with two
 * ("1.50 GB"). MB and GB are 2^20 and 2^30 bytes, as WebLLM's `vram_required_MB` counts.
 */
export function bytesText(bytes: number): string {
  if (bytes >= GIBIBYTE) return `${(bytes / GIBIBYTE).toFixed(2)} GB`;
  return `${(bytes / MEBIBYTE).toFixed(1)} MB`;
}

/**
 * `navigator.storage.estimate()`'s answer (bytes). `usageDetails` is Chromium's split of `usage`
 * by kind of storage (a kind with nothing stored is left out); other browsers give none.
 */
export interface StorageEstimateFigures {
  usage?: number;
  quota?: number;
  usageDetails?: { indexedDB?: number; caches?: number; serviceWorkerRegistrations?: number; fileSystem?: number };
}

/**
 * `navigator.storage.estimate()` in words: "Using 12.3 MB of 1.50 GB the browser allows Assay."
 * A missing figure → "Using 12.3 MB (the browser gives no quota)." / "The browser gives no storage figures."
 */
export function storageText(estimate: StorageEstimateFigures): string {
  const { usage, quota } = estimate;
  if (usage === undefined && quota === undefined) return 'The browser gives no storage figures.';
  if (quota === undefined) return `Using ${bytesText(usage ?? 0)} (the browser gives no quota).`;
  return `Using ${bytesText(usage ?? 0)} of ${bytesText(quota)} the browser allows Assay.`;
}

/**
 * The split of the storage used, from Chromium's `usageDetails`: WebLLM keeps model weights in
 * Cache Storage (`webllm/model`, src/llm/model-download.ts) and Assay keeps papers, runs and the
 * dataset in IndexedDB (src/store/assay-database.ts): "Models: 1.20 GB · papers, runs and
 * dataset: 25.3 MB." null when the browser gives no split.
 */
export function storageSplitText(estimate: StorageEstimateFigures): string | null {
  const details = estimate.usageDetails;
  if (!details) return null;
  return `Models: ${bytesText(details.caches ?? 0)} · papers, runs and dataset: ${bytesText(details.indexedDB ?? 0)}.`;
}

const OCCASION_WORDS: Record<PersistenceOccasion, string> = {
  'model-download': 'when a model download started',
  'first-rows': 'when rows were saved to your dataset',
  button: 'when you pressed "Keep my data"',
};

/**
 * Whether the browser keeps Assay's storage, and what it answered when Assay last asked
 * (`record`, kept by askToKeepStorage in src/extension/keep-storage.ts), in words. `persisted`:
 * `navigator.storage.persisted()`, null while not known.
 */
export function persistenceText(persisted: boolean | null, record: StoragePersistence | null): string {
  if (persisted === null) return 'Whether your data is kept is not known yet.';
  const asked = record && `on ${record.askedAt.slice(0, 10)}, ${OCCASION_WORDS[record.occasion]}`;
  if (persisted)
    return (
      'Persistent storage is on: the browser will not clear your dataset or downloaded models to free space.' +
      (record?.granted ? ` It was granted ${asked}.` : '')
    );
  const off = 'Persistent storage is off: the browser may clear your dataset and downloaded models when space runs low.';
  if (!record) return `${off} Assay asks for it when a model download starts and when your dataset gets its first rows.`;
  if (record.granted) return `${off} It was granted ${asked}, and has been taken back since (clearing the site data does that).`;
  return (
    `${off} Assay asked ${asked}, and the browser said no: Chromium decides from how much you use Assay, without asking you. ` +
    'Assay asks again at the next model download or save; until then, export your dataset to keep a copy.'
  );
}

/** One model of the roster: its id, its roles in words ("proposer 3, aggregator, discriminator"), and what the cache said. */
export interface RosterModelRow {
  modelId: string;
  roles: string;
  /** GPU memory in MB (WebLLM's `vram_required_MB`), null when unknown or not asked yet. */
  vramMB: number | null;
  /** null until the cache status is known. */
  cached: boolean | null;
  /** Loaded on the GPU in the engine now (false until the status says so). */
  loaded: boolean;
}

/** The roster's distinct models (`rosterModelIds` order) with their roles, merged with `status` (the `model-cache-status` answer) when given. */
export function rosterModelRows(
  roster: Roster,
  status?: ReadonlyArray<{ modelId: string; cached: boolean; vramMB: number | null; loaded?: boolean }>,
): RosterModelRow[] {
  return rosterModelIds(roster).map((modelId) => {
    const roles = [
      ...roster.proposers.flatMap((id, index) => (id === modelId ? [`proposer ${index + 1}`] : [])),
      ...(['aggregator', 'generator', 'discriminator'] as const).filter((role) => roster[role] === modelId),
    ];
    const known = status?.find((model) => model.modelId === modelId);
    return {
      modelId,
      roles: roles.join(', '),
      vramMB: known?.vramMB ?? null,
      cached: known ? known.cached : null,
      loaded: known?.loaded ?? false,
    };
  });
}

/** "1630 MB of GPU memory" (rounded to whole MB), or "size unknown". */
export function vramText(vramMB: number | null): string {
  return vramMB === null ? 'size unknown' : `${Math.round(vramMB)} MB of GPU memory`;
}

/** "Downloaded", "Not downloaded", or "Checking…" while unknown; "Downloaded, loaded on the GPU" when `loaded`. */
export function cacheText(cached: boolean | null, loaded = false): string {
  if (cached === null) return 'Checking…';
  if (loaded) return 'Downloaded, loaded on the GPU';
  return cached ? 'Downloaded' : 'Not downloaded';
}

/** The reader's custom WebLLM models in `engine` (WebLLM settings), or none. */
export function customModelsOf(engine: EngineSettings): CustomWebLlmModel[] {
  return webLlmSettings(engine)?.customModels ?? [];
}

/** `engine` when it is valid WebLLM settings (this section shows WebLLM's models whatever engine is chosen), else undefined. */
function webLlmSettings(engine: EngineSettings): WebLlmSettings | undefined {
  const parsed = WebLlmSettingsSchema.safeParse(engine);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The WebLLM roster shown: the reader's own roster when the engine is WebLLM and names one, else
 * `defaultWebLlmRoster(shaderF16)` (the default the engine picks for the adapter).
 */
export function shownRoster(engine: EngineSettings, shaderF16: boolean): { roster: Roster; own: boolean } {
  const roster = webLlmSettings(engine)?.roster;
  if (roster) return { roster, own: true };
  return { roster: defaultWebLlmRoster(shaderF16), own: false };
}

/** The budget in effect: the engine's `gpuBudgetMB` when WebLLM sets it, else `DEFAULT_GPU_BUDGET_MB`. */
export function gpuBudgetOf(engine: EngineSettings): number {
  return webLlmSettings(engine)?.gpuBudgetMB ?? DEFAULT_GPU_BUDGET_MB;
}
