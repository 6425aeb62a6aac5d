import { describe, expect, it } from 'vitest';
import { loadPropertySchemas } from '../../../../src/properties';
import { chunkArticle } from '../../../../src/text/retrieval/chunk-article';
import { embeddingSimilarity, vectorCosine } from '../../../../src/text/retrieval/embedding-similarity';
import { lexicalSimilarity, rankChunks } from '../../../../src/text/retrieval/rank-chunks';
import { articleFromBlocks, paragraph } from '../article-from-blocks';

const bandGap = loadPropertySchemas().find((schema) => schema.name === 'band_gap')!;

describe('vectorCosine', () => {
  it('is 1 for parallel, 0 for orthogonal and zero vectors, −1 for opposite ones', () => {
    expect(vectorCosine([1, 2], [2, 4])).toBeCloseTo(1);
    expect(vectorCosine([1, 0], [0, 3])).toBe(0);
    expect(vectorCosine([0, 0], [1, 1])).toBe(0);
    expect(vectorCosine([1, 1], [-1, -1])).toBeCloseTo(-1);
  });

  it('refuses vectors of different lengths', () => {
    expect(() => vectorCosine([1], [1, 2])).toThrow(RangeError);
  });
});

describe('embeddingSimilarity', () => {
  const article = articleFromBlocks([
    paragraph('The band gap of the GaN films is 3.4 eV.'),
    paragraph('For the nitride layers the optical band gap measures 3.39 eV.'),
    paragraph('ZnO absorbs near 3.37 eV.'),
  ]);
  const chunks = chunkArticle(article);
  const [gan, nitride, zno] = chunks;
  // Hand-made vectors: the two GaN sentences point one way, the ZnO sentence another.
  const vectors = [
    [1, 0, 0.1],
    [0.95, 0.05, 0.1],
    [0, 1, 0],
  ];

  it('reads the cosine of the chunks’ vectors, negative cosines as 0, and falls back for unknown chunks', () => {
    const similarity = embeddingSimilarity(chunks, vectors, () => 0.42);
    expect(similarity(gan!, nitride!)).toBeGreaterThan(0.99);
    expect(similarity(gan!, zno!)).toBe(0);
    const opposite = embeddingSimilarity(
      chunks.slice(0, 2),
      [
        [1, 0],
        [-1, 0],
      ],
      () => 0.42,
    );
    expect(opposite(gan!, nitride!)).toBe(0);
    expect(opposite(gan!, zno!)).toBe(0.42);
    expect(() => embeddingSimilarity(chunks, vectors.slice(1), () => 0)).toThrow(RangeError);
  });

  it('lets MMR pass over a paraphrase the lexical similarity cannot see', () => {
    // Lexically the two GaN sentences share nothing once the query terms are out, so MMR takes both…
    expect(lexicalSimilarity(['band', 'gap', 'optical', 'ev'])(gan!, nitride!)).toBe(0);
    const lexical = rankChunks(chunks, bandGap, { k: 2 }).map((entry) => entry.chunk.id);
    expect(new Set(lexical)).toEqual(new Set([gan!.id, nitride!.id]));
    // …while with embeddings the second pick is the ZnO sentence, a different fact, not the paraphrase.
    const embedded = rankChunks(chunks, bandGap, { k: 2, similarity: embeddingSimilarity(chunks, vectors, () => 0) }).map(
      (entry) => entry.chunk.id,
    );
    expect(embedded).toHaveLength(2);
    expect(embedded[1]).toBe(zno!.id);
  });
});
