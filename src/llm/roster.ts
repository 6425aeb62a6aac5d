/**
 * The WebLLM model roster and its GPU-memory plan (DESIGN.md "Engines"). Pure: the model list
 * comes in as `WebLlmModelRecord`s (the real one from `prebuiltModelRecords()` in
 * webllm-engine.ts), so this module never imports WebLLM.
 *
 * The SLM-MATRIX paper runs five 7–11B models on a server. In a browser tab the proposers are
 * small heterogeneous models from WebLLM's prebuilt list, and the aggregator, generator and
 * discriminator reuse proposer models so that a run loads at most three models.
 */
import type { Roster } from '../contracts/matrix-run';
import type { PresetModels } from '../contracts/matrix-preset';
import { LlmError } from './llm-port';
import type { WebLlmModelRecord } from './webllm-adapter';

/**
 * GPU memory (MB) the models of a run may take together, unless the user sets another figure.
 * WebGPU does not expose the size of the adapter's memory (`GPUAdapter.limits` caps single
 * buffers, not the total), so the budget is a user setting and this is only its default:
 * 6 144 MB (6 GiB) leaves ~2 GB for the display, the browser and other tabs on an 8 GB GPU or
 * a 16 GB unified-memory laptop, and holds the default shader-f16 roster together (4 404 MB by
 * WebLLM's `vram_required_MB`: Qwen2.5-1.5B 1 629.75 + Llama-3.2-1B 879.04 + gemma-2-2b 1 895.3).
 * Users with 4 GB GPUs lower it; the scheduler then loads the models group by group.
 */
export const DEFAULT_GPU_BUDGET_MB = 6144;

/**
 * The default roster for an adapter with or without `shader-f16` (ids of WebLLM 0.2.86's
 * `prebuiltAppConfig.model_list`, all with a 4k context window).
 * - shader-f16: proposers Qwen2.5-1.5B, Llama-3.2-1B, gemma-2-2b (q4f16_1) — three families, as
 *   the paper's Qwen/Mistral/Gemma proposers; gemma-2-2b, the largest, aggregates and
 *   discriminates (the paper also gives both roles to one model, its largest); Qwen2.5-1.5B generates.
 * - no shader-f16: proposers Qwen2.5-0.5B, SmolLM2-360M, Llama-3.2-1B (q4f32_1; none needs
 *   shader-f16); Llama-3.2-1B aggregates and discriminates, Qwen2.5-0.5B generates.
 * The proposer whose model aggregates comes last: the scheduler loads one-model groups oldest
 * request first, so the aggregator finds its model already loaded.
 */
export function defaultWebLlmRoster(shaderF16: boolean): Roster {
  if (shaderF16) {
    const qwen = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
    const gemma = 'gemma-2-2b-it-q4f16_1-MLC';
    return { proposers: [qwen, 'Llama-3.2-1B-Instruct-q4f16_1-MLC', gemma], aggregator: gemma, generator: qwen, discriminator: gemma };
  }
  const qwen = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
  const llama = 'Llama-3.2-1B-Instruct-q4f32_1-MLC';
  return { proposers: [qwen, 'SmolLM2-360M-Instruct-q4f32_1-MLC', llama], aggregator: llama, generator: qwen, discriminator: llama };
}

/** The roster as the pipeline's `options.models` (same ids per role). */
export function rosterToPresetModels(roster: Roster): PresetModels {
  return {
    proposers: [...roster.proposers],
    aggregator: roster.aggregator,
    generator: roster.generator,
    discriminator: roster.discriminator,
  };
}

/** The roster's distinct model ids in first-use order: proposers, aggregator, generator, discriminator. */
export function rosterModelIds(roster: Roster): string[] {
  return [...new Set([...roster.proposers, roster.aggregator, roster.generator, roster.discriminator])];
}

/** How a run's models are loaded: all `together` in one group, or group by group within the budget. */
export interface LoadPlan {
  together: boolean;
  /** Model ids per load; together → one group holding every model, in the order given. */
  groups: string[][];
  /** Sum of `vram_required_MB` of the distinct models (MB, rounded to 0.01). */
  totalMB: number;
  budgetMB: number;
}

/**
 * Plan how to load `modelIds` (duplicates ignored) within `budgetMB` of GPU memory, by WebLLM's
 * `vram_required_MB` of each model (weights plus KV cache at its context window, as WebLLM
 * estimates them). All fit → one group, `together`. Otherwise the models are packed with
 * first-fit decreasing (bin packing: largest first, each into the first group it fits, else a
 * new group; ties keep the given order), so no group exceeds the budget and few groups are used.
 * Errors: `LlmError('unavailable')` naming a model missing from `records` or without
 * `vram_required_MB`; `LlmError('out-of-gpu-memory')` naming a model that alone needs more than
 * the budget, with its MB, the budget and what to do.
 */
export function planModelLoads(modelIds: readonly string[], records: readonly WebLlmModelRecord[], budgetMB: number): LoadPlan {
  if (!(Number.isFinite(budgetMB) && budgetMB > 0))
    throw new LlmError('unavailable', `The GPU memory budget must be a positive number of MB, not ${budgetMB}.`);
  const ids = [...new Set(modelIds)];
  const sizes = new Map<string, number>();
  for (const id of ids) {
    const record = records.find((candidate) => candidate.model_id === id);
    if (!record)
      throw new LlmError(
        'unavailable',
        `The model ${id} is not in WebLLM's model list, so its GPU memory is unknown; choose a model from the list.`,
      );
    const megabytes = record.vram_required_MB;
    if (megabytes === undefined || !Number.isFinite(megabytes) || megabytes <= 0)
      throw new LlmError(
        'unavailable',
        `WebLLM's model list gives no GPU memory (vram_required_MB) for ${id}, so it cannot be planned; choose another model.`,
      );
    sizes.set(id, megabytes);
  }
  for (const id of ids) {
    const megabytes = sizes.get(id)!;
    if (megabytes > budgetMB) {
      throw new LlmError(
        'out-of-gpu-memory',
        `The model ${id} alone needs ${megabytes} MB of GPU memory, more than the budget of ${budgetMB} MB. Choose a smaller model for its role, or raise the GPU memory budget if your GPU has more memory.`,
      );
    }
  }
  const totalMB = Math.round(ids.reduce((total, id) => total + sizes.get(id)!, 0) * 100) / 100;
  if (totalMB <= budgetMB) return { together: true, groups: ids.length > 0 ? [ids] : [], totalMB, budgetMB };
  // First-fit decreasing; Array.prototype.sort is stable, so equal sizes keep the given order.
  const byDecreasingSize = [...ids].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
  const groups: Array<{ ids: string[]; megabytes: number }> = [];
  for (const id of byDecreasingSize) {
    const megabytes = sizes.get(id)!;
    const group = groups.find((candidate) => candidate.megabytes + megabytes <= budgetMB);
    if (group) {
      group.ids.push(id);
      group.megabytes += megabytes;
    } else {
      groups.push({ ids: [id], megabytes });
    }
  }
  return { together: false, groups: groups.map((group) => group.ids), totalMB, budgetMB };
}

const roles = ['proposer', 'aggregator', 'generator', 'discriminator'] as const;
type Role = (typeof roles)[number];

/**
 * Parse the models input into a roster. Entries are comma-separated; a bare id is a proposer
 * (one per proposer of a MoA layer, cycled when fewer than the preset's proposers), `role=id`
 * names a role's model (`proposer`, `aggregator`, `generator`, `discriminator`, as the CLI's
 * `--model ROLE=ID`). Roles left unnamed use the first proposer.
 * Example: "qwen2.5:7b, llama3.2:3b, generator=llama3.1:8b".
 * Used by the server's and WebLLM's "Models" inputs.
 * → `{ ok: true, roster }`, or `{ ok: false, message }` for no proposer (`noModelMessage`, which
 * says where the ids come from), an unknown role or an empty id.
 */
export function parseModelList(text: string, noModelMessage: string): { ok: true; roster: Roster } | { ok: false; message: string } {
  const proposers: string[] = [];
  const named: Partial<Record<Exclude<Role, 'proposer'>, string>> = {};
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const equals = entry.indexOf('=');
    // Model ids such as "qwen2.5:7b" contain ':' and '/', never '='.
    if (equals < 0) {
      proposers.push(entry);
      continue;
    }
    const role = entry.slice(0, equals).trim().toLowerCase();
    const id = entry.slice(equals + 1).trim();
    if (!roles.includes(role as Role))
      return { ok: false, message: `Unknown role “${role}”: use proposer, aggregator, generator or discriminator.` };
    if (id === '') return { ok: false, message: `Give a model id after “${role}=”.` };
    if (role === 'proposer') proposers.push(id);
    else named[role as Exclude<Role, 'proposer'>] = id;
  }
  const first = proposers[0];
  if (first === undefined) return { ok: false, message: noModelMessage };
  return {
    ok: true,
    roster: {
      proposers,
      aggregator: named.aggregator ?? first,
      generator: named.generator ?? first,
      discriminator: named.discriminator ?? first,
    },
  };
}

/** The models input for a roster, the inverse of `parseModelList`: proposers, then `role=id` for roles not played by the first proposer. */
export function modelListText(roster: Roster): string {
  const first = roster.proposers[0];
  const named = (['aggregator', 'generator', 'discriminator'] as const)
    .filter((role) => roster[role] !== first)
    .map((role) => `${role}=${roster[role]}`);
  return [...roster.proposers, ...named].join(', ');
}
