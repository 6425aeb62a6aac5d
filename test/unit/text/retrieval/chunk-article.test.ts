import { describe, expect, it } from 'vitest';
import { ArticleSchema, type Article } from '../../../../src/contracts/article';
import { chunkArticle, MAX_CHUNK_CHARS, shownSpan } from '../../../../src/text/retrieval/chunk-article';
import { articleFromBlocks, paragraph, table } from '../article-from-blocks';

const caption = (text: string) => ({ kind: 'caption' as const, text });
const heading = (text: string) => ({ kind: 'heading' as const, text });

/** Every chunk's quote is the article text at its offsets. */
function expectOffsetsRight(article: Article): void {
  for (const chunk of chunkArticle(article)) expect(article.text.slice(chunk.start, chunk.end)).toBe(chunk.quote);
}

describe('chunkArticle', () => {
  it('splits paragraphs (HTML/XML-shaped) into sentences with the previous sentence attached', () => {
    const article = articleFromBlocks([
      heading('Results'),
      paragraph('ZnO films were grown by pulsed laser deposition. Their band gap is 3.3 eV at 300 K.'),
      paragraph('The films are transparent.'),
    ]);
    const chunks = chunkArticle(article).filter((chunk) => chunk.blockKind === 'paragraph');
    expect(chunks.map((chunk) => chunk.quote)).toEqual([
      'ZnO films were grown by pulsed laser deposition.',
      'Their band gap is 3.3 eV at 300 K.',
      'The films are transparent.',
    ]);
    expect(chunks.map((chunk) => chunk.kind)).toEqual(['sentence', 'sentence', 'sentence']);
    expect(chunks[0]!.previousSentence).toBeUndefined();
    expect(chunks[1]!.previousSentence).toBe('ZnO films were grown by pulsed laser deposition.');
    // What a model reads of the chunk: from its context sentence to its own end.
    const shown = shownSpan(chunks[1]!);
    expect(shown).toEqual({ start: chunks[0]!.start, end: chunks[1]!.end });
    expect(shownSpan(chunks[0]!)).toEqual({ start: chunks[0]!.start, end: chunks[0]!.end });
    // The previous sentence stays within its block.
    expect(chunks[2]!.previousSentence).toBeUndefined();
    expect(chunks.map((chunk) => chunk.blockId)).toEqual(['b1', 'b1', 'b2']);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(chunks.length);
    expectOffsetsRight(article);
  });

  it('reads a heading like prose: a title that prints a value is a chunk, with no context from the text after it', () => {
    const article = articleFromBlocks([
      heading('Superconductivity at 39 K in magnesium diboride'),
      paragraph('MgB2 is a simple binary compound.'),
    ]);
    const [title, first] = chunkArticle(article);
    expect(title).toMatchObject({ kind: 'sentence', blockKind: 'heading', quote: 'Superconductivity at 39 K in magnesium diboride' });
    expect(first!.previousSentence).toBeUndefined();
    expectOffsetsRight(article);
  });

  it('gives each table row its header row and the caption before the table, offsets on the row', () => {
    const article = articleFromBlocks([
      caption('Table 1. Band gaps of the nitrides.'),
      table('Compound\tEg (eV)\nAlN\t6.2\nGaN\t3.4'),
      caption('a Measured at 4 K.'),
    ]);
    const chunks = chunkArticle(article);
    const rows = chunks.filter((chunk) => chunk.kind === 'table-row');
    expect(rows.map((row) => row.quote)).toEqual(['AlN\t6.2', 'GaN\t3.4']);
    expect(rows[1]!.table).toEqual({ header: 'Compound\tEg (eV)', caption: 'Table 1. Band gaps of the nitrides.' });
    expect(rows[1]!.text).toBe('Table 1. Band gaps of the nitrides.\nCompound\tEg (eV)\nGaN\t3.4');
    expect(chunks.filter((chunk) => chunk.kind === 'caption').map((chunk) => chunk.quote)).toEqual([
      'Table 1. Band gaps of the nitrides.',
      'a Measured at 4 K.',
    ]);
    expectOffsetsRight(article);
  });

  it('leaves the caption out of a table with no caption before it, and keeps a header-only table whole', () => {
    const article = articleFromBlocks([paragraph('Some text.'), table('Compound\tEg (eV)\nAlN\t6.2'), table('Only\tHeader')]);
    const rows = chunkArticle(article).filter((chunk) => chunk.kind === 'table-row');
    expect(rows[0]!.table).toEqual({ header: 'Compound\tEg (eV)' });
    expect(rows[1]!.quote).toBe('Only\tHeader');
    expectOffsetsRight(article);
  });

  it('splits a plain-text capture (one big block with line breaks) into sentences', () => {
    const article = articleFromBlocks([
      paragraph('Abstract\nWe study BiFeO3 thin\nfilms. The optical gap opens to 2.1 eV under strain. Fig. 2 shows the\nspectra.'),
    ]);
    const quotes = chunkArticle(article).map((chunk) => chunk.quote);
    expect(quotes).toEqual([
      'Abstract\nWe study BiFeO3 thin\nfilms.',
      'The optical gap opens to 2.1 eV under strain.',
      'Fig. 2 shows the\nspectra.',
    ]);
    expectOffsetsRight(article);
  });

  it('keeps PDF pages and sections, and cuts an overlong sentence into bounded chunks', () => {
    const long = Array.from({ length: 400 }, (_, index) => `cell${index}`).join(' ');
    const base = articleFromBlocks([paragraph('First page text.'), paragraph(long)]);
    const article = ArticleSchema.parse({
      ...base,
      source: 'pdf',
      pageCount: 2,
      blocks: base.blocks.map((block, index) => ({ ...block, page: index + 1, section: 'Results' })),
    });
    const chunks = chunkArticle(article);
    expect(chunks[0]).toMatchObject({ page: 1, section: 'Results' });
    const pieces = chunks.filter((chunk) => chunk.blockId === 'b1');
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.quote.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
    expect(pieces.map((piece) => piece.quote).join(' ')).toBe(long);
    expectOffsetsRight(article);
  });

  it("attaches the paper's own definitions of abbreviations a chunk uses, not in the defining sentence", () => {
    const article = articleFromBlocks([
      paragraph('We grew bismuth ferrite (BFO) films on strontium titanate (STO).'),
      paragraph('The band gap of BFO is 2.7 eV.'),
      table('Film\tEg (eV)\nBFO/STO\t2.7'),
    ]);
    const chunks = chunkArticle(article);
    expect(chunks[0]!.definitions).toEqual([]);
    expect(chunks[1]!.definitions).toEqual([{ abbreviation: 'BFO', longForm: 'bismuth ferrite' }]);
    expect(chunks[2]!.definitions).toEqual([
      { abbreviation: 'BFO', longForm: 'bismuth ferrite' },
      { abbreviation: 'STO', longForm: 'strontium titanate' },
    ]);
  });
});
