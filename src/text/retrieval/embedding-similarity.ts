/**
 * MMR's similarity from embeddings (issue 11: "an embedding similarity when the engine offers
 * one"): two chunks are alike when their quotes' embedding vectors point the same way. Lexical
 * similarity (`lexicalSimilarity`) sees "GaN films grown at 800 °C" and "the nitride layer
 * deposited at high temperature" as unrelated; an embedding model does not.
 */
import type { Chunk } from './chunk-article';

/** Cosine of two vectors of one length; 0 when either is all zeros. Throws a RangeError when the lengths differ. */
export function vectorCosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`vectors of different lengths (${a.length} and ${b.length})`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index += 1) {
    dot += a[index]! * b[index]!;
    normA += a[index]! * a[index]!;
    normB += b[index]! * b[index]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/**
 * A chunk similarity in [0, 1] for `rankChunks`' `similarity` option: the cosine of the chunks'
 * vectors (`vectors[i]` embeds `chunks[i].quote`), negative cosines read as 0 so the scale
 * matches relevance's [0, 1] and MMR's λ keeps its meaning (Carbonell & Goldstein 1998). A
 * chunk without a vector (not in `chunks`) falls back to `fallback` (e.g. `lexicalSimilarity`).
 * Throws a RangeError when `vectors` and `chunks` differ in length.
 */
export function embeddingSimilarity(
  chunks: readonly Chunk[],
  vectors: readonly (readonly number[])[],
  fallback: (a: Chunk, b: Chunk) => number,
): (a: Chunk, b: Chunk) => number {
  if (chunks.length !== vectors.length) throw new RangeError(`${vectors.length} vectors for ${chunks.length} chunks`);
  const byChunk = new Map(chunks.map((chunk, index) => [chunk, vectors[index]!]));
  return (a, b) => {
    const left = byChunk.get(a);
    const right = byChunk.get(b);
    return left && right ? Math.max(0, vectorCosine(left, right)) : fallback(a, b);
  };
}
