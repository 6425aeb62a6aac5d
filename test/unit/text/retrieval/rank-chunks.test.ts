import { describe, expect, it } from 'vitest';
import { loadPropertySchemas } from '../../../../src/properties';
import { scanFor } from '../../../support/scan-for';
import { chunkArticle, type Chunk } from '../../../../src/text/retrieval/chunk-article';
import { maximalMarginalRelevance } from '../../../../src/text/retrieval/mmr';
import { lexicalSimilarity, rankChunks } from '../../../../src/text/retrieval/rank-chunks';
import { propertyQueryTerms } from '../../../../src/text/retrieval/terms';
import { articleFromBlocks, paragraph, table } from '../article-from-blocks';

const bandGap = loadPropertySchemas().find((schema) => schema.name === 'band_gap')!;

describe('propertyQueryTerms', () => {
  it('takes the words of label, synonyms, symbols and units', () => {
    const query = propertyQueryTerms(bandGap);
    expect(query).toEqual(expect.arrayContaining(['band', 'gap', 'bandgap', 'optical', 'eg', 'ev', 'mev']));
    expect(new Set(query).size).toBe(query.length);
  });
});

describe('rankChunks', () => {
  const article = articleFromBlocks([
    paragraph('Thin films of CdS were deposited on glass. After annealing the gap opens to 2.1 eV.'),
    paragraph('The samples were annealed in air for two hours. The grain size grows with temperature.'),
    paragraph('The band gap of CdS is 2.42 eV. XRD shows the hexagonal phase.'),
    paragraph('Its absorption edge lies at two point four electron volts, close to the gap of bulk CdS.'),
  ]);
  const chunks = chunkArticle(article);
  const scan = scanFor(article, [bandGap]);

  it('retrieves a chunk the scan misses', () => {
    // "gap" alone is no band-gap synonym, and a value in words is no quantity: the scan links neither.
    const missed = chunks.find((chunk) => chunk.quote.startsWith('After annealing the gap opens'))!;
    const words = chunks.find((chunk) => chunk.quote.startsWith('Its absorption edge'))!;
    const scanned = new Set(scan.candidates.map((candidate) => candidate.segment.start));
    expect(scanned.has(missed.start)).toBe(false);
    expect(scanned.has(words.start)).toBe(false);
    const ranked = rankChunks(chunks, bandGap, { candidates: scan.candidates });
    const ids = ranked.map((entry) => entry.chunk.id);
    expect(ids).toContain(missed.id);
    expect(ids).toContain(words.id);
    expect(ids).not.toContain(chunks.find((chunk) => chunk.quote.startsWith('The samples were annealed'))!.id);
  });

  it("counts a value in one of the property's units as relevant, even with no query term", () => {
    // The Tc query keeps no one-letter unit ("K"), and "superconductivity" is no Tc synonym.
    const tc = loadPropertySchemas().find((schema) => schema.name === 'tc')!;
    const paper = articleFromBlocks([
      paragraph('Cd2Re2O7 exhibits type II superconductivity at 1.1 K. The crystals were grown from the melt.'),
    ]);
    const [value, other] = chunkArticle(paper);
    const ranked = rankChunks([value!, other!], tc, { k: Infinity });
    expect(ranked.map((entry) => [entry.chunk.id, entry.bm25, entry.unit])).toEqual([[value!.id, 0, true]]);
    expect(rankChunks([value!, other!], tc, { k: Infinity, unitBoost: 0 })).toEqual([]);
  });

  it('boosts the chunk holding a scan candidate', () => {
    const withCandidate = chunks.find((chunk) => chunk.quote.startsWith('The band gap of CdS'))!;
    const ranked = rankChunks(chunks, bandGap, { candidates: scan.candidates });
    expect(ranked[0]!.chunk.id).toBe(withCandidate.id);
    expect(ranked[0]!.candidate).toBe(true);
    const unboosted = rankChunks(chunks, bandGap, { candidates: scan.candidates, candidateBoost: 0 });
    const boosted = ranked.find((entry) => entry.chunk.id === withCandidate.id)!;
    const plain = unboosted.find((entry) => entry.chunk.id === withCandidate.id)!;
    expect(boosted.relevance).toBeGreaterThanOrEqual(plain.relevance);
    for (const entry of ranked) expect(entry.relevance).toBeLessThanOrEqual(1);
  });

  it('boosts a table row holding a candidate and returns at most k chunks', () => {
    const tabled = articleFromBlocks([table('Compound\tEg (eV)\nAlN\t6.2\nGaN\t3.4\nInN\t0.7')]);
    const rows = chunkArticle(tabled);
    const candidates = scanFor(tabled, [bandGap]).candidates;
    expect(candidates).toHaveLength(3);
    const ranked = rankChunks(rows, bandGap, { candidates, k: 2 });
    expect(ranked).toHaveLength(2);
    expect(ranked.every((entry) => entry.candidate)).toBe(true);
  });

  it('drops near-duplicates in favour of diverse chunks (MMR)', () => {
    const repeated = articleFromBlocks([
      paragraph('The band gap of the ZnO film is 3.30 eV.'),
      paragraph('The band gap of the ZnO film is 3.30 eV, as noted.'),
      paragraph('The band gap of the ZnO film is 3.30 eV here.'),
      paragraph('For MgZnO the gap widens to 3.9 eV.'),
    ]);
    const repeatedChunks = chunkArticle(repeated);
    const ranked = rankChunks(repeatedChunks, bandGap, { k: 2 });
    expect(ranked.map((entry) => entry.chunk.quote)).toEqual([
      'The band gap of the ZnO film is 3.30 eV.',
      'For MgZnO the gap widens to 3.9 eV.',
    ]);
    // With λ = 1 (relevance only) the duplicates come first.
    const relevanceOnly = rankChunks(repeatedChunks, bandGap, { k: 2, lambda: 1 });
    expect(relevanceOnly.map((entry) => entry.chunk.quote)).not.toContain('For MgZnO the gap widens to 3.9 eV.');
  });

  it('uses an injected similarity', () => {
    const calls: Array<[Chunk, Chunk]> = [];
    const ranked = rankChunks(chunks, bandGap, {
      similarity: (a, b) => {
        calls.push([a, b]);
        return 0;
      },
    });
    expect(calls.length).toBeGreaterThan(0);
    expect(ranked.length).toBeGreaterThan(1);
  });

  it('returns nothing for an article that never mentions the property', () => {
    const unrelated = chunkArticle(articleFromBlocks([paragraph('The lattice is cubic. Samples were polished.')]));
    expect(rankChunks(unrelated, bandGap)).toEqual([]);
  });
});

describe('lexicalSimilarity and maximalMarginalRelevance', () => {
  it('scores identical quotes 1 and disjoint ones 0', () => {
    const [a, b, c] = chunkArticle(articleFromBlocks([paragraph('Gap of ZnO.'), paragraph('Gap of ZnO.'), paragraph('Cubic lattice.')]));
    const similarity = lexicalSimilarity();
    expect(similarity(a!, b!)).toBeCloseTo(1);
    expect(similarity(a!, c!)).toBe(0);
    expect(lexicalSimilarity(['gap', 'zno'])(a!, b!)).toBe(0);
  });

  it('picks the most relevant first and rejects bad λ or k', () => {
    const items = [
      { item: 'a', relevance: 0.2 },
      { item: 'b', relevance: 0.9 },
    ];
    expect(maximalMarginalRelevance(items, () => 0).map((selection) => selection.item)).toEqual(['b', 'a']);
    expect(() => maximalMarginalRelevance(items, () => 0, { lambda: 1.5 })).toThrow(RangeError);
    expect(() => maximalMarginalRelevance(items, () => 0, { k: -1 })).toThrow(RangeError);
  });
});
