/**
 * A run's defaults from the page and the machine, as pure rules: which properties the run
 * controls preselect from what the quick scan found ("Curie temperature ×4"), and which engine a
 * reader who has not chosen one gets — WebLLM where WebGPU can run it, the model-server setup
 * screen where it cannot. No React, so every rule is unit-tested.
 */
import type { EngineSettings } from '../../contracts/matrix-run';
import type { WebGpuCapability } from '../../contracts/messages';

/** At most this many found properties are preselected: each one is a pass of model calls over the paper. */
export const MAX_DEFAULT_PROPERTIES = 3;

/**
 * A found property is preselected only when it has at least this share of the most frequent
 * one's candidates: a paper about band gaps that mentions one Curie temperature in passing
 * (rsc c1jm13879k: band gap ×9, Curie temperature ×1) starts with Band gap only.
 */
export const MIN_SHARE_OF_TOP = 0.25;

/** The property preselected when the scan found nothing (or has not answered). */
export const FALLBACK_PROPERTY = 'band_gap';

/**
 * WebLLM's own floor for `maxStorageBufferBindingSize` (web-llm `detectGPUDevice`: it asks for
 * 1 GiB, falls back to 128 MiB and refuses to start below that). The adapter reports no memory
 * size, so this limit is the one figure that says a model cannot run here.
 */
export const WEBLLM_MIN_STORAGE_BUFFER_BYTES = 128 * 2 ** 20;

/** How many quick-scan candidates each property has, by schema name. */
export type PropertyCounts = ReadonlyMap<string, number>;

/** Count `candidates` by their `property` (schema name); → a map in first-seen order. */
export function countByProperty(candidates: Iterable<{ property: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { property } of candidates) counts.set(property, (counts.get(property) ?? 0) + 1);
  return counts;
}

/**
 * The found properties among `offered` (schema names, in display order), most candidates first
 * (ties: in `offered` order), each with its count; properties the picker does not offer, or
 * with no candidate, are left out.
 */
export function rankedFound(counts: PropertyCounts, offered: readonly string[]): Array<{ name: string; count: number }> {
  return offered
    .map((name, order) => ({ name, count: counts.get(name) ?? 0, order }))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .map(({ name, count }) => ({ name, count }));
}

/**
 * The properties a run starts with: the found ones (`rankedFound`) with at least
 * `MIN_SHARE_OF_TOP` of the top count, at most `MAX_DEFAULT_PROPERTIES`, most candidates first;
 * when the scan found none of `offered` (or `counts` is undefined: no scan yet), `FALLBACK_PROPERTY`
 * when offered, else the first offered property, else none.
 */
export function defaultRunProperties(counts: PropertyCounts | undefined, offered: readonly string[]): string[] {
  const found = counts ? rankedFound(counts, offered) : [];
  if (found.length > 0) {
    const floor = found[0]!.count * MIN_SHARE_OF_TOP;
    return found
      .filter((entry) => entry.count >= floor)
      .slice(0, MAX_DEFAULT_PROPERTIES)
      .map((entry) => entry.name);
  }
  if (offered.includes(FALLBACK_PROPERTY)) return [FALLBACK_PROPERTY];
  return offered[0] ? [offered[0]] : [];
}

/** "Curie temperature ×4": a label with its quick-scan count; the label alone without one. */
export function countedLabel(label: string, count: number | undefined): string {
  return count ? `${label} ×${count}` : label;
}

/** What the panel knows of WebGPU here: not asked (no checker), being checked, or the answer. */
export type WebGpuState =
  { phase: 'unknown' } | { phase: 'checking' } | { phase: 'done'; capability: WebGpuCapability } | { phase: 'failed'; message: string };

/**
 * Whether WebLLM can run on `capability`: WebGPU is available and the adapter's
 * `maxStorageBufferBindingSize` reaches `WEBLLM_MIN_STORAGE_BUFFER_BYTES`. → `{ ok: true }` or
 * `{ ok: false, reason }`, the reason in words for the setup screen.
 */
export function webLlmRunsHere(capability: WebGpuCapability): { ok: true } | { ok: false; reason: string } {
  if (!capability.available) return { ok: false, reason: `This browser has no WebGPU (${capability.reason}).` };
  if (capability.maxStorageBufferBindingSize < WEBLLM_MIN_STORAGE_BUFFER_BYTES)
    return {
      ok: false,
      reason: `This GPU adapter allows storage buffers of ${Math.floor(capability.maxStorageBufferBindingSize / 2 ** 20)} MB; WebLLM needs at least 128 MB.`,
    };
  return { ok: true };
}

/** The engine a run uses, and why; or the setup screen, and why. */
export type EngineChoice =
  { phase: 'engine'; engine: EngineSettings; why: 'chosen' | 'webgpu' | 'unchecked' } | { phase: 'setup'; reason: string };

/**
 * The run's engine:
 * - `chosen` (the engine the reader saved: the run form's or the setup screen's choice, or a
 *   model server) wins, whatever the machine;
 * - else WebLLM (`webLlm`, its default settings) when WebGPU can run it (`webLlmRunsHere`), and
 *   while WebGPU is not known (no checker, or the check has not answered: `why: 'unchecked'`);
 * - else the setup screen, with the reason (no WebGPU, too small a GPU, or the check failed).
 */
export function chooseRunEngine(chosen: EngineSettings | null, webGpu: WebGpuState, webLlm: EngineSettings): EngineChoice {
  if (chosen) return { phase: 'engine', engine: chosen, why: 'chosen' };
  if (webGpu.phase === 'unknown' || webGpu.phase === 'checking') return { phase: 'engine', engine: webLlm, why: 'unchecked' };
  if (webGpu.phase === 'failed') return { phase: 'setup', reason: `WebGPU could not be checked: ${webGpu.message}` };
  const runs = webLlmRunsHere(webGpu.capability);
  return runs.ok ? { phase: 'engine', engine: webLlm, why: 'webgpu' } : { phase: 'setup', reason: runs.reason };
}
