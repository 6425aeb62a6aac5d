/**
 * How much a WebLLM roster downloads, per role, for the welcome page. Pure.
 *
 * WebLLM's model list gives each model's GPU memory (`vram_required_MB`: weights plus KV cache)
 * but not its download size, so the download is estimated from the model id the way MLC names
 * its builds: the parameter count in the name ("1.5B", "360M") times the bits per weight of its
 * quantization code. MLC's group quantization (mlc-llm `quantization.py`, `GroupQuantize`) stores
 * 4-bit weights in groups of 32 with one scale per group: `q4f16_1` → 4 + 16/32 = 4.5 bits per
 * weight, `q4f32_1` → 4 + 32/32 = 5; `q0f16` and `q0f32` are unquantized 16 and 32 bits. The name
 * gives the nominal size (Llama-3.2-1B has 1.24 billion parameters), so the figure is an estimate
 * to plan a download by, shown with "about".
 */
import type { Roster } from '../../contracts/matrix-run';
import { rosterModelRows } from '../settings/settings-model';

/** Bits per weight of MLC's quantization codes (see the module comment). */
const BITS_PER_WEIGHT: Record<string, number> = { q4f16_1: 4.5, q4f32_1: 5, q0f16: 16, q0f32: 32, q3f16_1: 3.5 };

const SIZE_IN_NAME = /(?:^|[-_])(\d+(?:\.\d+)?)([BM])(?=[-_]|$)/i;
const QUANTIZATION_IN_NAME = /(?:^|-)(q\d+f(?:16|32)(?:_\d+)?)(?:-|$)/;

/**
 * The estimated download of WebLLM model `modelId` in MB (2^20 bytes, as WebLLM counts), rounded
 * to whole MB; `null` when the id names no parameter count or a quantization code this module
 * knows (a reader's own model with another naming).
 * e.g. "Qwen2.5-1.5B-Instruct-q4f16_1-MLC" → 1.5e9 × 4.5 / 8 bytes ≈ 805 MB.
 */
export function estimatedDownloadMB(modelId: string): number | null {
  const size = SIZE_IN_NAME.exec(modelId);
  const quantization = QUANTIZATION_IN_NAME.exec(modelId);
  if (!size || !quantization) return null;
  const bits = BITS_PER_WEIGHT[quantization[1]!];
  if (bits === undefined) return null;
  const parameters = Number(size[1]) * (size[2]!.toUpperCase() === 'B' ? 1e9 : 1e6);
  return Math.round((parameters * bits) / 8 / 2 ** 20);
}

/** One model of a roster on the welcome page: its roles in words, its estimated download and GPU memory. */
export interface ModelDownloadRow {
  modelId: string;
  /** "proposer 1, generator" */
  roles: string;
  downloadMB: number | null;
  /** WebLLM's `vram_required_MB` from the engine's answer, null until known. */
  vramMB: number | null;
  cached: boolean | null;
}

/**
 * The distinct models of `roster` (proposers first, as loaded) with roles, estimated downloads
 * and, when `status` (the `model-cache-status` answer) is given, GPU memory and whether the model
 * is already downloaded; `totalDownloadMB` sums the models not yet downloaded (all, while unknown),
 * or is null when any of those has no estimate.
 */
export function modelDownloads(
  roster: Roster,
  status?: ReadonlyArray<{ modelId: string; cached: boolean; vramMB: number | null }>,
): { rows: ModelDownloadRow[]; totalDownloadMB: number | null } {
  const rows = rosterModelRows(roster, status).map((row) => ({
    modelId: row.modelId,
    roles: row.roles,
    downloadMB: estimatedDownloadMB(row.modelId),
    vramMB: row.vramMB,
    cached: row.cached,
  }));
  const pending = rows.filter((row) => row.cached !== true);
  const totalDownloadMB = pending.some((row) => row.downloadMB === null)
    ? null
    : pending.reduce((sum, row) => sum + (row.downloadMB ?? 0), 0);
  return { rows, totalDownloadMB };
}

/** "about 805 MB", "about 1.4 GB" (from 1024 MB, one decimal), or "size unknown". */
export function downloadText(megabytes: number | null): string {
  if (megabytes === null) return 'size unknown';
  return megabytes >= 1024 ? `about ${(megabytes / 1024).toFixed(1)} GB` : `about ${megabytes} MB`;
}
