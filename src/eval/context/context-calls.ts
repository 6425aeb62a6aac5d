/**
 * What a property's model calls show, for `assay eval … --context`, as `ContextCall`s with their
 * prompt size counted over the proposer's real messages (system prompt, property lines and the
 * delimited text): what the SLM-MATRIX pipeline sends (`planReading` of src/matrix/reading.ts,
 * the function `runMatrix` calls: the reading stage's calls and the focused passage), the
 * scan-candidate passage it sent before retrieval (`buildPassage`), and the retrieval layer at
 * other budgets (ranked, MMR-selected chunks packed into token-budgeted calls) for the curve.
 */
import type { Article } from '../../contracts/article';
import type { PropertyDefinition } from '../../contracts/property';
import type { ChatMessage } from '../../llm/llm-port';
import { propertyCatalogue } from '../../properties';
import { propertyBrief, proposerMessages } from '../../matrix/moa/moa-prompts';
import { buildPassage } from '../../matrix/passages';
import { retrievalOf } from '../../matrix/presets';
import { focusedPassage, planReading } from '../../matrix/reading';
import { packChunks, rankChunks, shownSpan, type Chunk, type ChunkGroup } from '../../text/retrieval';
import { buildArticleIndex } from '../../text/article-index';
import { scanArticle } from '../../text/scan';
import type { Candidate } from '../../text/scan-types';
import type { ContextCall } from './context-recall';
import type { MatrixPreset } from '../../contracts/matrix-preset';

/** Counts a conversation's prompt tokens (`TokenCounter.countChat` of src/llm/tokenizers.ts). */
export type CountChat = (messages: ChatMessage[]) => number;

/** The scan's candidates of `property` in `article`, scanning for that property alone (as a run of it does). */
export function propertyCandidates(article: Article, property: PropertyDefinition): Candidate[] {
  const index = buildArticleIndex(article, propertyCatalogue([property]));
  return scanArticle(index, { properties: [property] }).candidates.filter((candidate) => candidate.property === property.name);
}

/**
 * The calls of before retrieval for `property`: none when the scan found no candidate, else one
 * call showing `buildPassage(article, candidates, preset.maxPassageChars)` (every MoA call saw it).
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

/**
 * A group of chunks as a context call: the spans a model reads (`shownSpan`: each chunk with its
 * `[context]` sentence) and the proposer prompt's tokens.
 */
function groupCall(group: ChunkGroup, property: PropertyDefinition, countChat: CountChat): ContextCall {
  return {
    ranges: group.chunks.map(({ chunk }) => shownSpan(chunk)),
    promptTokens: countChat(proposerMessages(group.text, [propertyBrief(property)], [])),
  };
}

/**
 * The calls the pipeline makes for `property` with `preset`, as `runMatrix` chooses them
 * (`planReading` with `retrievalOf(preset)`): nothing ranked → none; one group → that one call
 * (MoA, MCTS and refinement all read it); several → one reading call per group, plus the focused
 * passage (`focusedPassage`). Without a model the reader's quotes are unknown, so the focused
 * passage here is the best-ranked chunks alone; every chunk it could hold was already read by a
 * reading call, so recall does not depend on it. Tokens of chunks by `count.countText`.
 */
export function pipelineCalls(
  chunks: readonly Chunk[],
  property: PropertyDefinition,
  candidates: readonly Candidate[],
  preset: MatrixPreset,
  count: { countText: (text: string) => number; countChat: CountChat },
): ContextCall[] {
  const budget = retrievalOf(preset);
  const plan = planReading(chunks, property, candidates, budget, count.countText);
  const calls = plan.groups.map((group) => groupCall(group, property, count.countChat));
  if (plan.reading) calls.push(groupCall(focusedPassage(plan, [], budget, count.countText).group, property, count.countChat));
  return calls;
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
  return packChunks(ranked, { maxTokensPerCall: budget.maxTokensPerCall, countTokens: count.countText }).map((group) =>
    groupCall(group, property, count.countChat),
  );
}
