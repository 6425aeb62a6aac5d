import { describe, expect, it } from 'vitest';
import { captureFile } from '../../../src/cli/capture-command';
import { buildArticleIndex, createArticleIndexCache } from '../../../src/text/article-index';
import { loadPropertySchemas } from '../../../src/properties';
import { sharedDataSkipReason, sharedPath } from '../../support/shared-data';
import { articleFromBlocks, paragraph, table } from './article-from-blocks';

const catalogue = loadPropertySchemas();
const caption = (text: string) => ({ kind: 'caption' as const, text });

describe('buildArticleIndex', () => {
  const article = articleFromBlocks([
    paragraph('ZnO films were grown by PLD. Their band gap is 3.3 eV. Fig. 2 shows it.'),
    caption('Table 1. Band gaps of bismuth ferrite (BFO) films.'),
    table('Sample\tEg (eV)\tTc (K)\nBFO\t2.7\t1100\nEarlier work\t2.8\n\t\t'),
    caption('Figure 3. Absorption spectra.'),
  ]);
  const index = buildArticleIndex(article, catalogue);
  const slice = (span: { start: number; end: number }) => article.text.slice(span.start, span.end);

  it('splits prose into sentences with article offsets', () => {
    const sentences = index.sentencesOf(article.blocks[0]!);
    expect(sentences.map(slice)).toEqual(['ZnO films were grown by PLD.', 'Their band gap is 3.3 eV.', 'Fig. 2 shows it.']);
    const at = index.sentenceAt(article.text.indexOf('3.3 eV'));
    expect(at && slice(at)).toBe('Their band gap is 3.3 eV.');
    expect(at?.index).toBe(1);
    expect(index.sentenceAt(article.blocks[2]!.start)).toBeUndefined();
  });

  it('reads a table as header and rows of cells at article offsets, with alignment', () => {
    const read = index.tableOf(article.blocks[2]!)!;
    expect(read.header.cells.map((cell) => cell.text)).toEqual(['Sample', 'Eg (eV)', 'Tc (K)']);
    expect(read.rows.map((row) => [row.text, row.aligned, row.blank])).toEqual([
      ['BFO\t2.7\t1100', true, false],
      ['Earlier work\t2.8', false, false],
      ['\t\t', true, true],
    ]);
    for (const row of [read.header, ...read.rows]) for (const cell of row.cells) expect(slice(cell)).toBe(cell.text);
    const place = index.cellAt(article.text.indexOf('1100'))!;
    expect([place.cell.text, place.cell.column, place.row.index]).toEqual(['1100', 2, 1]);
    expect(index.cellAt(article.text.indexOf('ZnO'))).toBeUndefined();
  });

  it('gives the rows a span touches, never the header', () => {
    const start = article.blocks[2]!.start;
    expect(index.rowsIn({ start, end: article.text.indexOf('2.7') + 1 }).map((row) => row.text)).toEqual(['BFO\t2.7\t1100']);
    expect(index.rowsIn({ start: 0, end: 10 })).toEqual([]);
  });

  it('takes the caption right before a table over the next figure caption after it', () => {
    expect(index.captionOf(article.blocks[2]!)?.text).toBe('Table 1. Band gaps of bismuth ferrite (BFO) films.');
    // A caption after a captionless table is the next item's (see `tableCaption`).
    const below = articleFromBlocks([paragraph('Text.'), table('A\tB\nx\t1'), caption('Figure 2. Spectra.')]);
    expect(buildArticleIndex(below, catalogue).captionOf(below.blocks[1]!)).toBeUndefined();
    const none = articleFromBlocks([table('A\tB\nx\t1'), paragraph('Text.')]);
    expect(buildArticleIndex(none, catalogue).captionOf(none.blocks[0]!)).toBeUndefined();
  });

  it('finds abbreviation definitions and quantities per block (table cells in the header unit)', () => {
    expect(index.definitions().get('BFO')?.longForm).toBe('bismuth ferrite');
    expect(index.abbreviations().map((definition) => definition.abbreviation)).toEqual(['BFO']);
    const prose = index.quantitiesOf(article.blocks[0]!);
    expect(prose.map(slice)).toContain('3.3 eV');
    expect(index.quantitiesOf(article.blocks[0]!)).toBe(prose); // memoized in the index
    const cells = index.quantitiesOf(article.blocks[2]!);
    expect(cells.find((quantity) => slice(quantity) === '2.7')?.unit).toBe('eV');
  });

  it('caches per article and catalogue in a cache the caller owns', () => {
    const cache = createArticleIndexCache();
    expect(cache.get(article, catalogue)).toBe(cache.get(article, catalogue));
    expect(cache.get(article, [])).not.toBe(cache.get(article, catalogue));
    expect(createArticleIndexCache().get(article, catalogue)).not.toBe(cache.get(article, catalogue));
    expect(cache.get(article, catalogue).schemaOf('band_gap')?.name).toBe('band_gap');
  });
});

describe('buildArticleIndex on a real capture', () => {
  const skip = sharedDataSkipReason();
  // Three tables in a row, each between its own caption (before) and the next one's (after).
  it.skipIf(skip !== undefined)(`gives each APS table its own caption, not the next table's${skip ? ` (${skip})` : ''}`, async () => {
    const article = await captureFile(sharedPath('fixtures', 'aps', 'xml', 'limesoup__10.1103_PhysRevB.90.214101.xml'));
    const index = buildArticleIndex(article, catalogue);
    const tables = index.tables();
    expect(tables.map((read) => /^TABLE (\w+)\./.exec(read.caption?.text ?? '')?.[1])).toEqual(['I', 'II', 'III']);
    for (const read of tables)
      for (const row of [read.header, ...read.rows])
        for (const cell of row.cells) expect(article.text.slice(cell.start, cell.end)).toBe(cell.text);
    const first = tables[0]!;
    expect(first.header.cells.map((cell) => cell.text)).toEqual(['', 'V0 (Å3)', 'K0 (GPa)', 'K0′', 'Pressure medium']);
    const place = index.cellAt(article.text.indexOf('115.6(11)', first.block.start))!;
    expect([place.row.cells[0]!.text, place.row.aligned, place.table.header.cells[place.cell.column]!.text]).toEqual([
      '4H BM3',
      true,
      'K0 (GPa)',
    ]);
    expect(index.quantitiesOf(first.block).find((quantity) => quantity.start === place.cell.start)?.unit).toBe('GPa');
  });
});
