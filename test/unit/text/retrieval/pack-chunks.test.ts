import { describe, expect, it } from 'vitest';
import { chunkArticle, type Chunk } from '../../../../src/text/retrieval/chunk-article';
import { CHUNK_SEPARATOR, packChunks, renderChunk } from '../../../../src/text/retrieval/pack-chunks';
import type { RankedChunk } from '../../../../src/text/retrieval/rank-chunks';
import { articleFromBlocks, paragraph, table } from '../article-from-blocks';

/** One token per whitespace-separated word: predictable budgets. */
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

const ranked = (chunks: Chunk[]): RankedChunk[] =>
  chunks.map((chunk) => ({ chunk, bm25: 1, candidate: false, unit: false, relevance: 1, marginalRelevance: 0.5 }));

describe('renderChunk', () => {
  it('marks the previous sentence and the definitions before the chunk', () => {
    const article = articleFromBlocks([paragraph('Films of zinc blende (ZB) CdSe were grown. The ZB films have a band gap of 1.74 eV.')]);
    const chunk = chunkArticle(article).find((candidate) => candidate.quote.startsWith('The ZB films'))!;
    // Definitions come from the article; this one is given by hand in case the material test of
    // findAbbreviationDefinitions does not take "zinc blende" for a material.
    const rendered = renderChunk({ ...chunk, definitions: [{ abbreviation: 'ZB', longForm: 'zinc blende' }] });
    expect(rendered).toBe(
      '[context] Films of zinc blende (ZB) CdSe were grown.\n[defines] ZB = zinc blende\nThe ZB films have a band gap of 1.74 eV.',
    );
  });

  it('renders a table row under its caption and header', () => {
    const article = articleFromBlocks([{ kind: 'caption', text: 'Table 1. Gaps.' }, table('Compound\tEg (eV)\nGaN\t3.4')]);
    const row = chunkArticle(article).find((chunk) => chunk.kind === 'table-row')!;
    expect(renderChunk(row)).toBe('[table caption] Table 1. Gaps.\n[table header] Compound\tEg (eV)\nGaN\t3.4');
  });

  it('renders a bare sentence as itself', () => {
    const [chunk] = chunkArticle(articleFromBlocks([paragraph('The gap is 2 eV.')]));
    expect(renderChunk(chunk!)).toBe('The gap is 2 eV.');
  });
});

describe('packChunks', () => {
  const sentences = Array.from({ length: 12 }, (_, index) => `Sentence ${index} reports a band gap of ${index}.5 eV here.`);
  const chunks = ranked(
    chunkArticle(articleFromBlocks([paragraph(sentences.join(' '))])).map((chunk) => ({ ...chunk, previousSentence: undefined }) as Chunk),
  );

  it('keeps every chunk, in order, with each group within the budget', () => {
    const groups = packChunks(chunks, { maxTokensPerCall: 30, countTokens: countWords });
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.flatMap((group) => group.chunks)).toEqual(chunks);
    for (const group of groups) {
      expect(group.tokens).toBeLessThanOrEqual(30);
      expect(group.tokens).toBe(countWords(group.text));
      expect(group.text).toBe(group.chunks.map((entry) => renderChunk(entry.chunk)).join(CHUNK_SEPARATOR));
      expect(group.overBudget).toBe(false);
    }
  });

  it('puts everything in one call when it fits', () => {
    const groups = packChunks(chunks, { maxTokensPerCall: 10_000, countTokens: countWords });
    expect(groups).toHaveLength(1);
    expect(groups[0]!.chunks).toHaveLength(chunks.length);
  });

  it('sends a chunk too long for any call alone, marked over budget', () => {
    const groups = packChunks(chunks.slice(0, 3), { maxTokensPerCall: 5, countTokens: countWords });
    expect(groups).toHaveLength(3);
    expect(groups.every((group) => group.chunks.length === 1 && group.overBudget)).toBe(true);
  });

  it('returns no groups for no chunks and rejects a budget that is not positive', () => {
    expect(packChunks([], { maxTokensPerCall: 10, countTokens: countWords })).toEqual([]);
    expect(() => packChunks(chunks, { maxTokensPerCall: 0, countTokens: countWords })).toThrow(RangeError);
  });
});
