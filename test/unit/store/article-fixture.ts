/** A small valid `Article` for store tests; override any field. */
import type { Article } from '../../../src/contracts/article';

export function makeArticle(overrides: Partial<Article> = {}): Article {
  const text = 'Abstract\n\nWe report a band gap of 1.42 eV.';
  return {
    doi: '10.1021/acsphotonics.9b00250',
    doiOrigin: 'meta',
    title: 'Quantum Sensing with Squeezed Light',
    authors: ['A. Author', 'B. Author'],
    journal: 'ACS Photonics',
    year: 2019,
    url: 'https://pubs.acs.org/doi/10.1021/acsphotonics.9b00250',
    source: 'html',
    adapter: 'acs',
    blocks: [
      { id: 'b0', kind: 'heading', text: 'Abstract', start: 0, end: 8 },
      { id: 'b1', kind: 'paragraph', section: 'Abstract', text: 'We report a band gap of 1.42 eV.', start: 10, end: text.length },
    ],
    text,
    abstractOnly: true,
    warnings: [],
    ...overrides,
  };
}
