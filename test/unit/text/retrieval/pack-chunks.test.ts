import { describe, expect, it } from 'vitest';
import { chunkArticle, type Chunk } from '../../../../src/text/retrieval/chunk-article';
import { CHUNK_SEPARATOR, continuesFrom, packChunks, renderChunk, renderChunks } from '../../../../src/text/retrieval/pack-chunks';
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

describe('renderChunks', () => {
  it('shows a table caption and header once for rows of one table that follow each other', () => {
    const article = articleFromBlocks([
      { kind: 'caption', text: 'Table 2. Optical band gaps of the films annealed at four temperatures.' },
      table('Film\tEg (eV)\nZnO\t3.30\nZnS\t3.61\nCdS\t2.42'),
    ]);
    const rows = chunkArticle(article).filter((chunk) => chunk.kind === 'table-row');
    expect(rows).toHaveLength(3);
    expect(renderChunks(rows)).toBe(
      '[table caption] Table 2. Optical band gaps of the films annealed at four temperatures.\n' +
        '[table header] Film\tEg (eV)\nZnO\t3.30\nZnS\t3.61\nCdS\t2.42',
    );
    // Alone, or after a chunk of another block, a row still carries its caption and header.
    expect(renderChunks([rows[2]!])).toContain('[table header] Film\tEg (eV)');
  });

  it('drops the context line of a sentence that follows its previous sentence, and keeps it otherwise', () => {
    const article = articleFromBlocks([
      paragraph('CsPbBr3 nanocrystals were grown by hot injection. Their band gap is 2.3 eV. The PL peak lies at 2.4 eV. Growth took 5 s.'),
    ]);
    const [first, second, third, fourth] = chunkArticle(article);
    expect(continuesFrom(third!, second)).toBe(true);
    expect(continuesFrom(fourth!, second)).toBe(false);
    expect(renderChunks([second!, third!])).toBe(
      '[context] CsPbBr3 nanocrystals were grown by hot injection.\nTheir band gap is 2.3 eV.\nThe PL peak lies at 2.4 eV.',
    );
    expect(renderChunks([second!, fourth!])).toBe(
      `[context] ${first!.quote}\n${second!.quote}${CHUNK_SEPARATOR}[context] ${third!.quote}\n${fourth!.quote}`,
    );
  });

  it('defines an abbreviation once per call', () => {
    const article = articleFromBlocks([paragraph('The BFO films are thin. The BFO gap is 2.7 eV.'), paragraph('Thicker BFO has 2.6 eV.')]);
    const definitions = [{ abbreviation: 'BFO', longForm: 'bismuth ferrite' }];
    const chunks = chunkArticle(article).map((chunk) => ({ ...chunk, definitions }));
    const text = renderChunks([chunks[1]!, chunks[2]!]);
    expect(text.match(/\[defines\] BFO = bismuth ferrite/g)).toHaveLength(1);
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
      expect(group.text).toBe(renderChunks(group.chunks.map((entry) => entry.chunk)));
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

  it('fits more rows of a table in a call than when every row repeats caption and header', () => {
    const body = Array.from({ length: 40 }, (_, index) => `Film ${index}\t${(1 + index / 20).toFixed(2)}`).join('\n');
    const article = articleFromBlocks([
      { kind: 'caption', text: 'Table 1. Band gaps of the forty films, measured by UV-vis absorption at room temperature.' },
      table(`Film\tEg (eV)\n${body}`),
    ]);
    const rows = ranked(chunkArticle(article).filter((chunk) => chunk.kind === 'table-row'));
    const groups = packChunks(rows, { maxTokensPerCall: 200, countTokens: countWords });
    const repeated = rows.reduce((sum, entry) => sum + countWords(renderChunk(entry.chunk)), 0);
    // Every row rendered whole would take ~18 words each: 40 rows need 4 calls of 200; shown once, 1.
    expect(repeated).toBeGreaterThan(600);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.chunks).toHaveLength(40);
  });

  it('returns no groups for no chunks and rejects a budget that is not positive', () => {
    expect(packChunks([], { maxTokensPerCall: 10, countTokens: countWords })).toEqual([]);
    expect(() => packChunks(chunks, { maxTokensPerCall: 0, countTokens: countWords })).toThrow(RangeError);
  });
});
