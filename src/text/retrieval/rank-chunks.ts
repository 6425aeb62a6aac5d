/**
 * Ranking of chunks for one property: BM25 over the property's own words, a boost for chunks the
 * scan found a candidate value in, then MMR so the k chunks a model reads are not k copies of
 * the abstract's sentence (Eunomia's Doc Search, seeds/001: MMR, λ = 0.5, k ≈ 9).
 *
 * Why BM25 and not only the scan: the scan needs a property name and a value with a fitting unit
 * in one sentence, so "the optical gap opens to 2.1 eV" in a paper whose schema lacks "opens",
 * or "Eg is 2.1 eV" split from its unit by a PDF line, or a value in words reach the model only
 * through retrieval. The scan's candidates are a boost, not a filter.
 *
 * Library: MiniSearch (lucaong/minisearch, MIT). It scores with BM25+ (Lv & Zhai 2011, BM25 with
 * a lower bound on the term-frequency gain, so a long sentence is not scored below a short one
 * that lacks the term), has no dependencies, ships its own TypeScript types, and runs unchanged
 * in the extension and in Node; it is maintained and widely used. wink-bm25-text-search pulls
 * in the wink NLP stack, and okapibm25 is a single function with few users. MiniSearch multiplies
 * a document's score by the number of distinct query terms it matches, which favours a sentence
 * holding "band", "gap" and "eV" over one repeating "gap".
 */
import MiniSearch from 'minisearch';
import type { PropertyDefinition } from '../../contracts/property';
import { parseQuantities, parseTableQuantities } from '../quantities';
import { unitFitsProperty } from '../scan-fit';
import type { Candidate } from '../scan-types';
import type { Chunk } from './chunk-article';
import { maximalMarginalRelevance, MMR_K, MMR_LAMBDA } from './mmr';
import { cosineSimilarity, propertyQueryTerms, termVector, terms } from './terms';

/**
 * Added to the normalised BM25 score (in [0, 1]) of a chunk holding a scan candidate of the
 * property, before both are rescaled to [0, 1]. Our choice, not a published constant: 0.5 puts a
 * candidate sentence with half the best BM25 score level with the best sentence without one,
 * so a value the scan has already linked is preferred but a better-worded sentence still wins.
 */
export const CANDIDATE_BOOST = 0.5;

/**
 * Added, like `CANDIDATE_BOOST`, for a chunk printing a value in a unit of the property's
 * dimension ("superconductivity at 1.1 K" for Tc, whose query keeps no one-letter unit; "a gap
 * of 1.04 eV" in a sentence BM25 scores low). Such a chunk is relevant even with no query term.
 * Our choice: half the candidate boost, because a unit alone says less than the scan's link of
 * property word, value and unit ("300 K" is often a measurement temperature, not a Tc).
 */
export const UNIT_BOOST = 0.25;

export interface RankOptions {
  /** Candidates of `scanArticle` over the same article; those of `property` boost the chunk holding their value. */
  candidates?: readonly Candidate[];
  /** Default `CANDIDATE_BOOST`; 0 turns the boost off. */
  candidateBoost?: number;
  /** Default `UNIT_BOOST`; 0 turns it off (then a chunk needs a query term or a candidate to be relevant). */
  unitBoost?: number;
  /** MMR λ in [0, 1]; default 0.5 (Eunomia). */
  lambda?: number;
  /** How many chunks to return; default 9 (Eunomia). `Infinity` orders every relevant chunk. */
  k?: number;
  /** Similarity of two chunks in [0, 1]; default `lexicalSimilarity` without the query terms. An embedding cosine plugs in here. */
  similarity?: (a: Chunk, b: Chunk) => number;
}

export interface RankedChunk {
  chunk: Chunk;
  /** Raw BM25+ score (MiniSearch); 0 when no query term occurs in the chunk. */
  bm25: number;
  /** True when the scan found a candidate value of the property in the chunk. */
  candidate: boolean;
  /** True when the chunk prints a value in a unit of the property's dimension (`unitFitsProperty`). */
  unit: boolean;
  /** Normalised BM25 plus the candidate and unit boosts, rescaled to [0, 1]: what MMR weighs. */
  relevance: number;
  /** λ·relevance − (1 − λ)·(highest similarity to a chunk ranked above it). */
  marginalRelevance: number;
}

/**
 * A similarity of two chunks for MMR, in [0, 1]: the cosine of the term-frequency vectors of
 * their quotes (for a table row, the row alone, so rows of one table that share header and
 * caption still differ), leaving out `ignoredTerms`. `rankChunks` leaves out the property's own
 * query terms: every relevant chunk says "band gap … eV", and counting those words made two
 * sentences about different materials look alike, so MMR passed over the second for an
 * unrelated one. What remains — materials, numbers, conditions — is what makes a chunk a
 * near-duplicate. Term vectors are cached per chunk object for the life of the function.
 */
export function lexicalSimilarity(ignoredTerms: readonly string[] = []): (a: Chunk, b: Chunk) => number {
  const ignored = new Set(ignoredTerms);
  const vectors = new WeakMap<Chunk, Map<string, number>>();
  const vectorOf = (chunk: Chunk) => {
    let vector = vectors.get(chunk);
    if (!vector) {
      vector = termVector(chunk.quote);
      for (const term of ignored) vector.delete(term);
      vectors.set(chunk, vector);
    }
    return vector;
  };
  return (a, b) => cosineSimilarity(vectorOf(a), vectorOf(b));
}

/** BM25+ score of every chunk matching at least one query term, by chunk id. */
function bm25Scores(chunks: readonly Chunk[], query: readonly string[]): Map<string, number> {
  const index = new MiniSearch<Chunk>({
    fields: ['text'],
    idField: 'id',
    tokenize: terms,
    processTerm: (term) => term,
  });
  index.addAll(chunks);
  const scores = new Map<string, number>();
  for (const result of index.search({ combineWith: 'OR', queries: [...query] })) scores.set(String(result.id), result.score);
  return scores;
}

/** Ids of the chunks holding the value of a candidate of `property`. */
function candidateChunks(chunks: readonly Chunk[], candidates: readonly Candidate[], property: string): Set<string> {
  const ids = new Set<string>();
  for (const candidate of candidates) {
    if (candidate.property !== property) continue;
    const { start, end } = candidate.quantity;
    const holder = chunks.find((chunk) => chunk.blockId === candidate.blockId && start >= chunk.start && end <= chunk.end);
    if (holder) ids.add(holder.id);
  }
  return ids;
}

/** Does `chunk` print a value whose unit fits `property` (for a table row, a bare cell under a header unit counts)? */
function printsPropertyUnit(chunk: Chunk, property: PropertyDefinition): boolean {
  const quantities = chunk.table?.header ? parseTableQuantities(`${chunk.table.header}\n${chunk.quote}`) : parseQuantities(chunk.quote);
  return quantities.some((quantity) => quantity.unit !== '' && unitFitsProperty(quantity, property));
}

/**
 * The chunks worth reading for `property`, best first: BM25+ over `chunk.text` with the distinct
 * terms of the property's label, synonyms, symbols and units as the query (`propertyQueryTerms`),
 * normalised by the best score; plus `candidateBoost` for a chunk holding the value of one of
 * `options.candidates` of this property, and `unitBoost` for a chunk printing a value in a unit
 * of the property (`UNIT_BOOST`); the sum divided by 1 + both boosts; then MMR (λ, k; Carbonell &
 * Goldstein 1998, as in Eunomia) with `options.similarity`, by default
 * `lexicalSimilarity(query terms)`. Chunks with no query term, no candidate and no value in the
 * property's units are never returned, so fewer than k may come back. Chunk ids must be unique
 * (as `chunkArticle` makes them). Throws a RangeError for λ outside [0, 1] or a negative k.
 */
export function rankChunks(chunks: readonly Chunk[], property: PropertyDefinition, options: RankOptions = {}): RankedChunk[] {
  const boost = options.candidateBoost ?? CANDIDATE_BOOST;
  const unitBoost = options.unitBoost ?? UNIT_BOOST;
  const query = propertyQueryTerms(property);
  const scores = bm25Scores(chunks, query);
  const withCandidate = candidateChunks(chunks, options.candidates ?? [], property.name);
  const best = Math.max(0, ...scores.values());
  const scored = chunks
    .map((chunk) => {
      const bm25 = scores.get(chunk.id) ?? 0;
      const candidate = withCandidate.has(chunk.id);
      const unit = unitBoost > 0 && printsPropertyUnit(chunk, property);
      const relevance = ((best > 0 ? bm25 / best : 0) + (candidate ? boost : 0) + (unit ? unitBoost : 0)) / (1 + boost + unitBoost);
      return { chunk, bm25, candidate, unit, relevance };
    })
    .filter((entry) => entry.relevance > 0)
    .sort((a, b) => b.relevance - a.relevance);
  const byChunk = new Map(scored.map((entry) => [entry.chunk, entry]));
  const selection = maximalMarginalRelevance(
    scored.map((entry) => ({ item: entry.chunk, relevance: entry.relevance })),
    options.similarity ?? lexicalSimilarity(query),
    { lambda: options.lambda ?? MMR_LAMBDA, k: options.k ?? MMR_K },
  );
  return selection.map(({ item, marginalRelevance }) => ({ ...byChunk.get(item)!, marginalRelevance }));
}
