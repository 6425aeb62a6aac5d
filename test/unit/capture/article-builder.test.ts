import { describe, expect, it } from 'vitest';
import { ArticleSchema } from '../../../src/contracts/article';
import { ArticleBuilder } from '../../../src/capture/article-builder';
import { normalizeBlockText, normalizePdfText } from '../../../src/capture/normalize-text';

describe('ArticleBuilder', () => {
  it('records offsets so every block is the article text at its offsets', () => {
    const builder = new ArticleBuilder();
    builder.add('heading', '  1.  Introduction ');
    builder.add('paragraph', 'The band gap of\n  GaN is 3.4\u00A0eV.', { section: '1. Introduction' });
    builder.add('paragraph', '\u200B \u00AD'); // invisible only: dropped
    builder.add('table', 'Material\tEg (eV)\n\nGaN\t3.4\nZnO \t 3.37\n');
    builder.add('caption', 'Table 1. Band gaps.', { page: 2 });
    const { blocks, text } = builder.build();
    expect(blocks.map((block) => block.kind)).toEqual(['heading', 'paragraph', 'table', 'caption']);
    for (const block of blocks) expect(text.slice(block.start, block.end)).toBe(block.text);
    expect(blocks[1]).toMatchObject({ text: 'The band gap of GaN is 3.4 eV.', section: '1. Introduction' });
    expect(blocks[2]?.text).toBe('Material\tEg (eV)\nGaN\t3.4\nZnO\t3.37');
    expect(blocks[3]?.page).toBe(2);
    expect(blocks.map((block) => block.id)).toEqual(['b0', 'b1', 'b2', 'b3']);
  });

  it('produces text that the Article schema accepts, and the schema catches a broken offset', () => {
    const builder = new ArticleBuilder();
    builder.add('paragraph', 'Tc = 39 K in MgB2.');
    const { blocks, text } = builder.build();
    const article = {
      doi: null,
      doiOrigin: null,
      title: 'MgB2',
      authors: [],
      journal: null,
      year: null,
      url: null,
      source: 'text' as const,
      adapter: 'text',
      blocks,
      text,
      abstractOnly: false,
      warnings: [],
    };
    expect(ArticleSchema.safeParse(article).success).toBe(true);
    const shifted = { ...article, blocks: [{ ...blocks[0]!, start: 1 }] };
    expect(ArticleSchema.safeParse(shifted).success).toBe(false);
  });
});

describe('text normalization', () => {
  it('keeps what the publisher wrote in HTML and XML (minus signs, Å, subscripts)', () => {
    expect(normalizeBlockText('a = 3.905\u00A0Å,  ΔE = \u22120.5 eV, CO₂', false)).toBe('a = 3.905 Å, ΔE = \u22120.5 eV, CO₂');
  });
  it('keeps the leading empty cells of a table header row so columns stay aligned', () => {
    expect(normalizeBlockText('\n\tEg (eV)\tTc (K)\nMgB2\t-\t39\n', true)).toBe('\tEg (eV)\tTc (K)\nMgB2\t-\t39');
  });
  it("reads a PDF math font's minus (U+0002 before a digit) as a minus sign and drops other control characters", () => {
    // As text extractors write RSC and Elsevier PDFs: "a 0.04 eV Å\u00021 electric field", "(N m\u00021)".
    expect(normalizeBlockText('a 0.04 eV \u00c5\u00021 electric field, 129 N m\u00021, \u0002gap = 5 meV', false)).toBe(
      'a 0.04 eV \u00c5\u22121 electric field, 129 N m\u22121, gap = 5 meV',
    );
  });
  it('repairs PDF ligatures and minus glyphs', () => {
    expect(normalizePdfText('e\uFB03cient \uFB01lm, T = \u221210 °C')).toBe('efficient film, T = -10 °C');
  });
});
