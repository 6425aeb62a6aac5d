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
 * What the chunks before this one in the same call have already shown the model, so that
 * `renderChunk` need not repeat it.
 */
export interface ShownBefore {
  /** The chunk rendered right before this one in the call, if any. */
  previous?: Chunk;
  /** Abbreviations the call has already defined (`[defines]` lines of earlier chunks). */
  defined?: ReadonlySet<string>;
}

/**
 * Does `chunk` carry on from `previous`, the chunk rendered right before it: the next sentence of
 * the same block (its `[context]` line would repeat `previous`), or another row of the same
 * table (its caption and header lines would repeat those of `previous`)? Pure.
 */
export function continuesFrom(chunk: Chunk, previous: Chunk | undefined): boolean {
  if (!previous || previous.blockId !== chunk.blockId) return false;
  if (chunk.kind === 'table-row') return previous.kind === 'table-row';
  return chunk.previousStart !== undefined && chunk.previousStart === previous.start;
}

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
 * Lines appear only when the chunk has them and `before` (what the call showed before it) has
 * not shown them already: no `[context]` or caption and header when the chunk `continuesFrom` the
 * previous one, and no definition the call has given. Every repeated line costs the tokens of a
 * further chunk: a table's rows each repeating a long caption and header, or consecutive
 * sentences each carrying the one before, filled a call with copies and left the cap on reading
 * calls to drop chunks that print values. Pure; never throws.
 */
export function renderChunk(chunk: Chunk, before: ShownBefore = {}): string {
  const continues = continuesFrom(chunk, before.previous);
  const definitions = chunk.definitions.filter((definition) => !before.defined?.has(definition.abbreviation));
  const lines: string[] = [];
  if (chunk.previousSentence && !continues) lines.push(`[context] ${chunk.previousSentence}`);
  if (definitions.length > 0) {
    lines.push(`[defines] ${definitions.map((definition) => `${definition.abbreviation} = ${definition.longForm}`).join('; ')}`);
  }
  if (chunk.table?.caption && !continues) lines.push(`[table caption] ${chunk.table.caption}`);
  if (chunk.table?.header && !continues) lines.push(`[table header] ${chunk.table.header}`);
  lines.push(chunk.quote);
  return lines.join('\n');
}

/**
 * `chunks` as the text of one call, in the order given: each rendered after the ones before it
 * (`renderChunk`), joined by a line break to the chunk it `continuesFrom` (the next sentence, the
 * next row of the table) and by `CHUNK_SEPARATOR` otherwise. Pure; "" for no chunks.
 */
export function renderChunks(chunks: readonly Chunk[]): string {
  const defined = new Set<string>();
  let text = '';
  chunks.forEach((chunk, index) => {
    const previous = chunks[index - 1];
    const rendered = renderChunk(chunk, { ...(previous ? { previous } : {}), defined });
    text += index === 0 ? rendered : (continuesFrom(chunk, previous) ? '\n' : CHUNK_SEPARATOR) + rendered;
    for (const definition of chunk.definitions) defined.add(definition.abbreviation);
  });
  return text;
}

/** The chunks of one model call and their rendered text. */
export interface ChunkGroup {
  chunks: RankedChunk[];
  /** The chunks rendered as one call's text (`renderChunks`), in the order given. */
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
 * the group's text (`renderChunks`: what the group showed before it is not repeated) stays within
 * `maxTokensPerCall` tokens, else it starts the next group, where it is rendered whole. A chunk too long for any call is sent alone, marked `overBudget`. Greedy first-fit in
 * order, so the best chunks share the first call. Returns [] for no chunks.
 * Throws a RangeError when `maxTokensPerCall` is not a positive number.
 */
export function packChunks(ranked: readonly RankedChunk[], options: PackOptions): ChunkGroup[] {
  const { maxTokensPerCall, countTokens } = options;
  if (!(maxTokensPerCall > 0)) throw new RangeError(`maxTokensPerCall must be positive, got ${maxTokensPerCall}`);
  const groups: ChunkGroup[] = [];
  let current: ChunkGroup | null = null;
  // What the current group has shown: its last chunk and the abbreviations it has defined.
  let defined = new Set<string>();
  for (const entry of ranked) {
    const { chunk } = entry;
    if (current) {
      const previous = current.chunks[current.chunks.length - 1]!.chunk;
      const join = continuesFrom(chunk, previous) ? '\n' : CHUNK_SEPARATOR;
      const text = current.text + join + renderChunk(chunk, { previous, defined });
      const tokens = countTokens(text);
      if (tokens <= maxTokensPerCall) {
        current.chunks.push(entry);
        current.text = text;
        current.tokens = tokens;
        for (const definition of chunk.definitions) defined.add(definition.abbreviation);
        continue;
      }
    }
    const rendered = renderChunk(chunk);
    const tokens = countTokens(rendered);
    current = { chunks: [entry], text: rendered, tokens, overBudget: tokens > maxTokensPerCall };
    defined = new Set(chunk.definitions.map((definition) => definition.abbreviation));
    groups.push(current);
  }
  return groups;
}
