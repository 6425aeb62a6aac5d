/**
 * How a property's text is chosen and read (issue 11, "Retrieval"; Eunomia's Doc Search,
 * seeds/001). Before, every model call saw one passage: the blocks where the scan found a
 * candidate, cut at the preset's cap — on bandgap-200 pub dev only 35% of the locatable band gaps
 * reached a model with the browser preset. Now:
 *
 * 1. **Rank** every chunk of the article (`chunkArticle`: sentences, table rows with header and
 *    caption, captions) for the property: BM25+ with the scan's candidates and values in the
 *    property's units as boosts, ordered by MMR (λ = 0.5; `rankChunks`). Nothing relevant → the
 *    property abstains ("Not provided in this paper") with no model call; so it does when no
 *    relevant chunk can state a value of it (`mayStateValue`: "a bulk modulus of 210 GPa" is
 *    relevant to density by the word "bulk", but states no density).
 * 2. **Pack** the relevant chunks, in reading order, into calls of at most `chunkTokensPerCall`
 *    tokens (`packChunks`), splitting over several calls instead of dropping. At most
 *    `maxReadingCalls` calls: past that, sentences that state a value with a material lose
 *    their context line, then the lowest-ranked chunks are left out and named.
 * 3. One call's worth → that call is the passage MoA, MCTS and refinement read; no extra call.
 *    More → a **reading stage**: one proposer reads each group and proposes triplets with
 *    quotes (G calls), and the **focused passage** for MoA/MCTS/refinement is the chunks holding
 *    those quotes, then the best-ranked chunks (MMR order, at most k = 9), up to one call's budget.
 *
 * Why this shape and not "run MoA and MCTS over every group": the worst case per group is 22
 * calls with the browser preset, so G groups would cost 22·G; the reading stage costs G + 22 and
 * stays within issue 11's 30 calls with G ≤ 8. Why one proposer and not the whole MoA per group:
 * the reading stage only has to *find* where values are stated; checking them is what MoA, MCTS,
 * cross-verification and the grounding gate do afterwards, on the focused passage. The cost: a
 * value the reader misses in a late group reaches the later stages only if it ranks among the
 * best chunks. Pure: the model and the token counter are injected.
 */
import type { Article } from '../contracts/article';
import type { RetrievalBudget } from '../contracts/matrix-preset';
import type { PropertyDefinition } from '../contracts/property';
import type { Triplet } from '../contracts/triplet';
import { generateObject, isUnusableReply, replyFailure, type ReplyFailure } from '../llm/generate-object';
import type { LlmPort } from '../llm/llm-port';
import { anchorQuoteInArticle } from '../text/anchoring';
import { findMaterialMentions } from '../text/materials';
import { findNumberTokens } from '../text/quantities/number-tokens';
import { packChunks, rankChunks, terms, type Chunk, type ChunkGroup, type RankedChunk } from '../text/retrieval';
import type { Candidate } from '../text/scan-types';
import { MoaAnswerSchema, proposerMessages, toTriplets, type PropertyBrief } from './moa';
import { mapInSlots } from './slots';

/** Tokens of a text for the model that reads it: a tokenizer's `countText`, or chars/4. */
export type CountTokens = (text: string) => number;

/** What a property's models read, before any model call. */
export interface ReadingPlan {
  /** How many chunks the article has. */
  chunks: number;
  /** Every relevant chunk, MMR order (best first). Empty: nothing to read, the property abstains. */
  ranked: RankedChunk[];
  /**
   * The calls that read the ranked chunks, each in reading order; at most `maxReadingCalls`. None
   * when no ranked chunk `mayStateValue`. When the cap bit, a chunk here may be shown without its
   * context sentence (`planReading`).
   */
  groups: ChunkGroup[];
  /** Ranked chunks no group holds because the cap bit, in `readingPriority` order. */
  leftOut: RankedChunk[];
  /** True when the groups are more than one: a reading stage runs before MoA. */
  reading: boolean;
}

const byStart = (a: RankedChunk, b: RankedChunk) => a.chunk.start - b.chunk.start;

function pack(ranked: readonly RankedChunk[], budget: RetrievalBudget, countTokens: CountTokens): ChunkGroup[] {
  return packChunks([...ranked].sort(byStart), { maxTokensPerCall: budget.chunkTokensPerCall, countTokens });
}

/**
 * Can `entry` state a value of `property`? Yes when the scan found a candidate in it, it prints
 * a value in one of the property's units, or it prints a number and is either a table row (a
 * bare cell under a header whose unit the parser may not read) or writes one of the property's
 * units as a word (a table flattened into prose by a text or PDF capture: "Eg [eV] 3.05 [38]").
 * A sentence whose only numbers are in other units, or that prints none, names the property at
 * most ("a bulk modulus of 210 GPa" is relevant to density by "bulk", but states no density).
 */
export function mayStateValue(entry: RankedChunk, property: PropertyDefinition): boolean {
  if (entry.candidate || entry.unit) return true;
  if (findNumberTokens(entry.chunk.quote).length === 0) return false;
  if (entry.chunk.kind === 'table-row') return true;
  const unitTerms = new Set(property.units.flatMap((unit) => terms(unit)));
  return terms(entry.chunk.quote).some((term) => unitTerms.has(term));
}

/**
 * Which ranked chunks a cap keeps first: a value is a number, so (1) chunks with a scan candidate
 * or a value in the property's units, then (2) other chunks that `mayStateValue` (table rows,
 * flattened tables), then (3) other chunks printing a number, then (4) chunks printing none,
 * which can name the property but state no value of it; by relevance within each tier (not MMR order: MMR's novelty
 * term is for choosing k of many, and here every chunk kept is read). → a new array.
 */
export function readingPriority(ranked: readonly RankedChunk[], property: PropertyDefinition): RankedChunk[] {
  const tier = (entry: RankedChunk) =>
    entry.candidate || entry.unit ? 0 : mayStateValue(entry, property) ? 1 : findNumberTokens(entry.chunk.quote).length > 0 ? 2 : 3;
  const tiers = new Map(ranked.map((entry) => [entry, tier(entry)]));
  return [...ranked].sort((a, b) => tiers.get(a)! - tiers.get(b)! || b.relevance - a.relevance);
}

/** `entry` with its chunk shown without the sentence before it (no `[context]` line; `shownSpan` is the chunk alone). */
function withoutContext(entry: RankedChunk): RankedChunk {
  const { previousSentence: _sentence, previousStart: _start, ...chunk } = entry.chunk;
  return { ...entry, chunk };
}

/**
 * The ranked chunks that state a value with a material: a value in the property's units or a scan
 * candidate (`entry.unit`, `entry.candidate`) in a chunk that names a material itself
 * (`findMaterialMentions`: "NbTi (Tc = 9.2 K)", "cells with a YSZ electrolyte run at 700 °C").
 * Their context sentence is what the cap gives up first: the sentence names what
 * attribution needs; one that names no material ("Its band gap is 2.1 eV") keeps it.
 */
function selfContained(ranked: readonly RankedChunk[]): Set<RankedChunk> {
  return new Set(
    ranked.filter(
      (entry) =>
        entry.chunk.previousSentence !== undefined && (entry.unit || entry.candidate) && findMaterialMentions(entry.chunk.quote).length > 0,
    ),
  );
}

/** The longest prefix of `priority` that packs into `budget.maxReadingCalls` calls, packed, and the rest. */
function capped(
  priority: readonly RankedChunk[],
  budget: RetrievalBudget,
  countTokens: CountTokens,
): { groups: ChunkGroup[]; leftOut: RankedChunk[] } {
  // Largest n whose first n chunks by priority pack into maxReadingCalls calls (n = 1 always does).
  let low = 1;
  let high = priority.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (pack(priority.slice(0, middle), budget, countTokens).length <= budget.maxReadingCalls) low = middle;
    else high = middle - 1;
  }
  return { groups: pack(priority.slice(0, low), budget, countTokens), leftOut: priority.slice(low) };
}

/**
 * Plan the reading of `property` in an article cut into `chunks` (`chunkArticle`): rank them
 * (`rankChunks` with `candidates`, every relevant chunk, λ of `budget`), pack them in reading
 * order into calls of `budget.chunkTokensPerCall` tokens counted by `countTokens`, and when that
 * takes more than `budget.maxReadingCalls` calls keep the longest prefix of `readingPriority`
 * that packs into that many (binary search over the prefix length, each candidate packed for real).
 * When that still leaves out a chunk that `mayStateValue`, the chunks that state a value with a
 * material (`selfContained`) are shown without their context sentence and the prefix is sought
 * again: in a long paper (a review, a thesis) the context lines of value sentences take about
 * half of the reading budget, and a value shown without its context beats a value not shown.
 * No groups when no ranked chunk `mayStateValue` (the property abstains). `similarity` is MMR's
 * chunk similarity (default `lexicalSimilarity`; `embeddingSimilarity` when the engine embeds),
 * which orders the best-ranked chunks the focused passage takes. The one
 * function the pipeline and `assay eval --context` both call. Pure; throws only what
 * `rankChunks`/`packChunks` throw for a bad budget (RangeError).
 */
export function planReading(
  chunks: readonly Chunk[],
  property: PropertyDefinition,
  candidates: readonly Candidate[],
  budget: RetrievalBudget,
  countTokens: CountTokens,
  similarity?: (a: Chunk, b: Chunk) => number,
): ReadingPlan {
  const ranked = rankChunks(chunks, property, { candidates, k: Infinity, lambda: budget.mmrLambda, ...(similarity ? { similarity } : {}) });
  if (!ranked.some((entry) => mayStateValue(entry, property)))
    return { chunks: chunks.length, ranked, groups: [], leftOut: [], reading: false };
  let groups = pack(ranked, budget, countTokens);
  let leftOut: RankedChunk[] = [];
  if (groups.length > budget.maxReadingCalls) {
    const priority = readingPriority(ranked, property);
    ({ groups, leftOut } = capped(priority, budget, countTokens));
    const bare = selfContained(ranked);
    if (bare.size > 0 && leftOut.some((entry) => mayStateValue(entry, property))) {
      const shorter = capped(
        priority.map((entry) => (bare.has(entry) ? withoutContext(entry) : entry)),
        budget,
        countTokens,
      );
      groups = shorter.groups;
      // Left out as ranked (with their context), so that a caller's ids and spans are the ranking's.
      const left = new Set(shorter.leftOut.map((entry) => entry.chunk.id));
      leftOut = priority.filter((entry) => left.has(entry.chunk.id));
    }
  }
  return { chunks: chunks.length, ranked, groups, leftOut, reading: groups.length > 1 };
}

/**
 * A chunk as a focused-passage entry: its ranking when it was ranked, else a zero-relevance entry
 * (a quote the reader took from a `[context]` line).
 */
function rankedEntry(chunk: Chunk, byId: ReadonlyMap<string, RankedChunk>): RankedChunk {
  return byId.get(chunk.id) ?? { chunk, bm25: 0, candidate: false, unit: false, relevance: 0, marginalRelevance: 0 };
}

/** The focused passage, and the quote chunks that did not fit in it. */
export interface FocusedPassage {
  group: ChunkGroup;
  /** Chunks holding a reading-stage quote left out for the budget. */
  quotesLeftOut: Chunk[];
}

/**
 * The one passage MoA, MCTS and refinement read after a reading stage: first the chunks holding
 * the reader's quotes (`quoteChunks`, in their order), then the best-ranked chunks of
 * `plan.ranked` in MMR order (at most `budget.mmrK` of them, Eunomia's k), each added while the
 * rendered passage stays within `budget.chunkTokensPerCall` tokens; rendered in reading order.
 * A first chunk longer than the budget is sent alone (as `packChunks` does). Empty group when
 * there is nothing at all. Pure; never throws for a valid budget.
 */
export function focusedPassage(
  plan: ReadingPlan,
  quoteChunks: readonly Chunk[],
  budget: RetrievalBudget,
  countTokens: CountTokens,
): FocusedPassage {
  const byId = new Map(plan.ranked.map((entry) => [entry.chunk.id, entry]));
  const chosen: RankedChunk[] = [];
  const quotesLeftOut: Chunk[] = [];
  const taken = new Set<string>();
  const fits = (entry: RankedChunk) => {
    const trial = [...chosen, entry];
    return chosen.length === 0 || pack(trial, budget, countTokens).length === 1;
  };
  for (const chunk of quoteChunks) {
    if (taken.has(chunk.id)) continue;
    const entry = rankedEntry(chunk, byId);
    if (fits(entry)) {
      chosen.push(entry);
      taken.add(chunk.id);
    } else quotesLeftOut.push(chunk);
  }
  let filled = 0;
  for (const entry of plan.ranked) {
    if (filled >= budget.mmrK) break;
    if (taken.has(entry.chunk.id)) continue;
    if (!fits(entry)) continue;
    chosen.push(entry);
    taken.add(entry.chunk.id);
    filled += 1;
  }
  const [group] = pack(chosen, budget, countTokens);
  return { group: group ?? { chunks: [], text: '', tokens: 0, overBudget: false }, quotesLeftOut };
}

/**
 * The chunks holding `triplets`' quotes: each quote re-anchored in `article`
 * (`anchorQuoteInArticle`: exact, then fuzzy) and every chunk overlapping it, in the triplets'
 * order without repeats. A quote that does not anchor (a model's paraphrase) selects nothing.
 */
export function quoteChunks(article: Article, chunks: readonly Chunk[], triplets: readonly Triplet[]): Chunk[] {
  const found: Chunk[] = [];
  for (const triplet of triplets) {
    const quote = triplet.evidence?.quote.exact;
    const anchor = quote ? anchorQuoteInArticle(article, quote) : null;
    if (!anchor) continue;
    for (const chunk of chunks) {
      if (chunk.start < anchor.end && anchor.start < chunk.end && !found.includes(chunk)) found.push(chunk);
    }
  }
  return found;
}

export interface ReadingOptions {
  /** The proposer model that reads (the preset's first proposer; undefined: the roster's). */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  /** Reading calls in flight at once (the server's parallel slots, `mapInSlots`); default 1. */
  parallel?: number;
}

/** What the reading stage found: triplets with quotes, and replies that stayed unusable. */
export interface ReadingResult {
  triplets: Triplet[];
  problems: string[];
  /** One per reading call whose reply stayed unusable (its group was not read), in call order. */
  failures: ReplyFailure[];
}

/**
 * The reading stage: one proposer call per group (the MoA proposer prompt over the group's
 * chunks, `proposerMessages`; JSON answer `MoaAnswerSchema` with a quote per triplet),
 * `options.parallel` at a time (default 1: one after another); triplets, problems and failures in
 * group order whatever order the replies came in. A reply that stays unusable after
 * `generateObject`'s one retry (`isUnusableReply`: cut at max_tokens, a repetition loop,
 * malformed) is a problem in words and a failure with its code, and the stage goes on; any other
 * `LlmError` (aborted, device lost, …) rejects, and no further group's call starts. Calls: one per
 * group (+ retries).
 */
export async function readGroups(
  groups: readonly ChunkGroup[],
  brief: PropertyBrief,
  options: ReadingOptions,
  deps: { llm: LlmPort; signal?: AbortSignal },
): Promise<ReadingResult> {
  type GroupOutcome = { triplets: Triplet[] } | { failure: ReplyFailure; problem: string };
  const outcomes = await mapInSlots(
    groups,
    options.parallel ?? 1,
    async (group, index): Promise<GroupOutcome> => {
      try {
        const reply = await generateObject(
          deps.llm,
          {
            role: 'proposer',
            ...(options.model ? { model: options.model } : {}),
            messages: proposerMessages(group.text, [brief], []),
            ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
            ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
            ...(deps.signal ? { signal: deps.signal } : {}),
          },
          MoaAnswerSchema,
        );
        return { triplets: toTriplets(reply.value, `reading-${index + 1}`) };
      } catch (error) {
        if (!isUnusableReply(error)) throw error;
        return { failure: replyFailure(error), problem: `reading call ${index + 1} of ${groups.length}: ${error.message}` };
      }
    },
    deps.signal,
  );
  const triplets: Triplet[] = [];
  const problems: string[] = [];
  const failures: ReplyFailure[] = [];
  for (const outcome of outcomes) {
    if ('triplets' in outcome) triplets.push(...outcome.triplets);
    else {
      failures.push(outcome.failure);
      problems.push(outcome.problem);
    }
  }
  return { triplets, problems, failures };
}
