/**
 * Chunks as a model reads them, and packed into calls that fit its context. A small model's
 * window (a few thousand tokens on WebLLM) cannot hold every chunk worth reading at once;
 * dropping the ones that do not fit would lose values, so they go into further calls instead.
 */
import type { Chunk } from './chunk-article';
import type { RankedChunk } from './rank-chunks';

/** Between two rendered chunks of one call. */
export const CHUNK_SEPARATOR = '\n\n';

/**
 * `chunk` as prompt text: the chunk itself last, after what attribution needs, each line of
 * context marked so a model does not quote it as the chunk's evidence:
 *
 *     [context] ZnO films were grown by pulsed laser deposition.
 *     [defines] ZB = zinc blende; BFO = bismuth ferrite
 *     [table caption] Table 1. Band gaps of the films.
 *     [table header] Compound	Eg (eV)
 *     ZnO	3.37
 *
 * Lines appear only when the chunk has them. Pure; never throws.
 */
export function renderChunk(chunk: Chunk): string {
  const lines: string[] = [];
  if (chunk.previousSentence) lines.push(`[context] ${chunk.previousSentence}`);
  if (chunk.definitions.length > 0) {
    lines.push(`[defines] ${chunk.definitions.map((definition) => `${definition.abbreviation} = ${definition.longForm}`).join('; ')}`);
  }
  if (chunk.table?.caption) lines.push(`[table caption] ${chunk.table.caption}`);
  if (chunk.table?.header) lines.push(`[table header] ${chunk.table.header}`);
  lines.push(chunk.quote);
  return lines.join('\n');
}

/** The chunks of one model call and their rendered text. */
export interface ChunkGroup {
  chunks: RankedChunk[];
  /** The chunks rendered (`renderChunk`) and joined by `CHUNK_SEPARATOR`, in the order given. */
  text: string;
  /** `countTokens(text)`. */
  tokens: number;
  /** True only for a single chunk that alone exceeds the budget; it is still sent, alone. */
  overBudget: boolean;
}

export interface PackOptions {
  /** Most tokens the rendered chunks of one call may take (the prompt's other parts excluded); positive. */
  maxTokensPerCall: number;
  /** Tokens of a text for the model that will read it (e.g. `TokenCounter.countText` of src/llm). */
  countTokens: (text: string) => number;
}

/**
 * Split `ranked` into groups, one per model call, keeping every chunk and the given order (rank
 * order; sort by `chunk.start` first for reading order): a chunk joins the current group while
 * the group's rendered text stays within `maxTokensPerCall` tokens, else it starts the next
 * group. A chunk too long for any call is sent alone, marked `overBudget`. Greedy first-fit in
 * order, so the best chunks share the first call. Returns [] for no chunks.
 * Throws a RangeError when `maxTokensPerCall` is not a positive number.
 */
export function packChunks(ranked: readonly RankedChunk[], options: PackOptions): ChunkGroup[] {
  const { maxTokensPerCall, countTokens } = options;
  if (!(maxTokensPerCall > 0)) throw new RangeError(`maxTokensPerCall must be positive, got ${maxTokensPerCall}`);
  const groups: ChunkGroup[] = [];
  let current: ChunkGroup | null = null;
  for (const entry of ranked) {
    const rendered = renderChunk(entry.chunk);
    if (current) {
      const text = current.text + CHUNK_SEPARATOR + rendered;
      const tokens = countTokens(text);
      if (tokens <= maxTokensPerCall) {
        current.chunks.push(entry);
        current.text = text;
        current.tokens = tokens;
        continue;
      }
    }
    const tokens = countTokens(rendered);
    current = { chunks: [entry], text: rendered, tokens, overBudget: tokens > maxTokensPerCall };
    groups.push(current);
  }
  return groups;
}
