import { describe, expect, it } from 'vitest';
import { buildPassage } from '../../../src/matrix/passages';
import { scanFor } from '../../support/scan-for';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';

describe('buildPassage ranges', () => {
  it('are the spans of article.text the passage shows: whole blocks, and the cut part of a block that does not fit', () => {
    const filler = 'Films were grown by sputtering on sapphire at 600 °C and annealed in nitrogen. '.repeat(8);
    const article = articleFromBlocks([
      paragraph('The band gap of GaN is 3.4 eV at room temperature.'),
      paragraph('No values here.'),
      paragraph(`${filler}The band gap of AlN is 6.2 eV. ${filler}`),
    ]);
    const candidates = scanFor(article).candidates.filter((candidate) => candidate.property === 'band_gap');
    const passage = buildPassage(article, candidates, 700);
    expect(passage.blockIds).toEqual(['b0', 'b2']);
    expect(passage.truncatedBlockIds).toEqual(['b2']);
    expect(passage.ranges[0]).toEqual({ start: article.blocks[0]!.start, end: article.blocks[0]!.end });
    for (const range of passage.ranges) expect(passage.text).toContain(article.text.slice(range.start, range.end));
    const cut = passage.ranges[1]!;
    expect(article.text.slice(cut.start, cut.end)).toMatch(/^The band gap of AlN is 6\.2 eV\./);
  });
});
