/** `assay capture` without --json names the paper's authors, journal, volume, pages and year. */
import { describe, expect, it } from 'vitest';
import type { Article } from '../../../src/contracts/article';
import { summarizeArticle } from '../../../src/cli/capture-command';

const ARTICLE: Article = {
  doi: '10.1063/1.4817897',
  doiOrigin: 'body',
  title: 'Paramagnetic FexTa1-x alloys',
  authors: ['Matthias Gottwald', 'Jimmy J. Kan'],
  journal: 'APL Materials',
  volume: '1',
  pages: '022102',
  year: 2013,
  url: null,
  source: 'html',
  adapter: 'aip',
  blocks: [],
  text: '',
  abstractOnly: true,
  warnings: [],
};

describe('summarizeArticle', () => {
  it('prints authors, then journal, volume, pages and year on one line', () => {
    const summary = summarizeArticle(ARTICLE);
    expect(summary).toContain('authors:  Matthias Gottwald; Jimmy J. Kan\n');
    expect(summary).toContain('journal:  APL Materials, vol. 1, p. 022102 (2013)\n');
  });

  it('leaves out volume and pages a capture has not got', () => {
    const { volume: _volume, pages: _pages, ...older } = ARTICLE;
    expect(summarizeArticle({ ...older, authors: [] })).toContain('authors:  (none found)\njournal:  APL Materials (2013)\n');
  });
});
