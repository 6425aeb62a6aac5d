/**
 * What a property's model calls show, for `assay eval … --context`, as `ContextCall`s with their
 * prompt size counted over the proposer's real messages (system prompt, property lines and the
 * delimited text): the passage the SLM-MATRIX pipeline sends today (`buildPassage` over the
 * scan's candidates, one passage per property, seen by every MoA call), and the retrieval path
 * of src/text/retrieval (ranked, MMR-selected chunks packed into token-budgeted calls).
 */
import type { Article } from '../../contracts/article';
import type { PropertyDefinition } from '../../contracts/property';
import type { ChatMessage } from '../../llm/llm-port';
import { propertyBrief, proposerMessages } from '../../matrix/moa/moa-prompts';
import { buildPassage } from '../../matrix/passages';
import type { MatrixPreset } from '../../matrix/presets';
import { packChunks, rankChunks, type Chunk } from '../../text/retrieval';
import { scanArticle } from '../../text/scan';
import type { Candidate } from '../../text/scan-types';
import type { ContextCall } from './context-recall';

/** Counts a conversation's prompt tokens (`TokenCounter.countChat` of src/llm/tokenizers.ts). */
export type CountChat = (messages: ChatMessage[]) => number;

/** The scan's candidates of `property` in `article`, scanning for that property alone (as a run of it does). */
export function propertyCandidates(article: Article, property: PropertyDefinition): Candidate[] {
  return scanArticle(article, { properties: [property] }).candidates.filter((candidate) => candidate.property === property.name);
}

/**
 * Today's calls for `property`: none when the scan found no candidate (the pipeline then makes no
 * call), else one call showing `buildPassage(article, candidates, preset.maxPassageChars)`.
 * `candidates` are `propertyCandidates(article, property)`.
 */
export function passageCalls(
  article: Article,
  property: PropertyDefinition,
  candidates: readonly Candidate[],
  preset: MatrixPreset,
  countChat: CountChat,
): ContextCall[] {
  const passage = buildPassage(article, candidates, preset.maxPassageChars);
  if (passage.text === '') return [];
  return [{ ranges: passage.ranges, promptTokens: countChat(proposerMessages(passage.text, [propertyBrief(property)], [])) }];
}

/** How the retrieval path reads a property: MMR's k and each call's token budget for the chunks. */
export interface RetrievalBudget {
  /** Chunks kept after MMR (Eunomia: k ≈ 9); `Infinity` keeps every relevant chunk. */
  k: number;
  /** Most tokens the rendered chunks of one call may take (`packChunks`). */
  maxTokensPerCall: number;
}

/**
 * The calls of the retrieval path for `property`: the article's chunks (`chunkArticle`) ranked
 * by BM25 with the scan's `candidates` (`propertyCandidates`) as a boost and MMR (`rankChunks`, k of `budget`), put back in
 * reading order and packed into calls of at most `budget.maxTokensPerCall` chunk tokens
 * (`packChunks`, counted with `countText`); each call's prompt is the proposer's messages over
 * the packed chunks. No relevant chunk → no call.
 */
export function retrievalCalls(
  chunks: readonly Chunk[],
  property: PropertyDefinition,
  candidates: readonly Candidate[],
  budget: RetrievalBudget,
  count: { countText: (text: string) => number; countChat: CountChat },
): ContextCall[] {
  const ranked = rankChunks(chunks, property, { candidates, k: budget.k }).sort((a, b) => a.chunk.start - b.chunk.start);
  return packChunks(ranked, { maxTokensPerCall: budget.maxTokensPerCall, countTokens: count.countText }).map((group) => ({
    ranges: group.chunks.map(({ chunk }) => ({ start: chunk.start, end: chunk.end })),
    promptTokens: count.countChat(proposerMessages(group.text, [propertyBrief(property)], [])),
  }));
}
