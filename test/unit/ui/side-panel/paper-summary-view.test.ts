// @vitest-environment jsdom
/**
 * The side panel's paper header shows the authors ("A. Toland, H. Tran, L. Chen et al.", the
 * whole list folded away), and volume and pages beside the journal; names are page text and
 * stay text.
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { PaperSummary } from '../../../../src/contracts/messages';
import { shortAuthorList, shortAuthorName } from '../../../../src/ui/shared/author-names';
import { PaperSummaryView } from '../../../../src/ui/side-panel/paper-summary-view';
import { reactRootPerTest } from '../react-root';

const view = reactRootPerTest();
const byTestId = (id: string) => view.container.querySelector<HTMLElement>(`[data-testid="${id}"]`);

const PAPER: PaperSummary = {
  key: 'doi:10.1021/acs.jpca.3c05870',
  doi: '10.1021/acs.jpca.3c05870',
  url: null,
  title: 'Accelerated Scheme to Predict Ring-Opening Polymerization Enthalpy',
  authors: ['Aubrey Toland', 'Huan Tran', 'Lihua Chen', 'Yinghao Li', 'Chao Zhang'],
  journal: 'The Journal of Physical Chemistry A',
  volume: '127',
  pages: '10709-10716',
  year: 2023,
  source: 'html',
  adapter: 'acs',
  blockCount: 40,
  abstractOnly: false,
  capturedAt: '2026-11-29T09:00:00.000Z',
};

function render(paper: PaperSummary) {
  act(() => view.root.render(createElement(PaperSummaryView, { paper, warnings: [] })));
}

describe('author names for a paper header', () => {
  it('shortens given names to initials, hyphens and "Family, Given" included', () => {
    expect(shortAuthorName('Aubrey Toland')).toBe('A. Toland');
    expect(shortAuthorName('Jong-Ho Kim')).toBe('J.-H. Kim');
    expect(shortAuthorName('Schulz, Philip')).toBe('P. Schulz');
    expect(shortAuthorName('C L Mak')).toBe('C. L. Mak');
    expect(shortAuthorName('Pierre-Gilles de Gennes')).toBe('P.-G. de Gennes');
    expect(shortAuthorName('IUPAC')).toBe('IUPAC');
  });

  it('lists the first three, then "et al."', () => {
    expect(shortAuthorList(PAPER.authors)).toBe('A. Toland, H. Tran, L. Chen et al.');
    expect(shortAuthorList(['Kati Finzel'])).toBe('K. Finzel');
    expect(shortAuthorList([])).toBe('');
  });
});

describe('PaperSummaryView', () => {
  it('shows the short author list, the whole list folded away, and journal, volume, pages and year', () => {
    render(PAPER);
    expect(byTestId('paper-authors')?.textContent).toBe('A. Toland, H. Tran, L. Chen et al.');
    const all = view.container.querySelector('details.paper-authors-all');
    expect(all?.querySelector('summary')?.textContent).toBe('All 5 authors');
    expect(byTestId('paper-authors-all')?.textContent).toBe('Aubrey Toland, Huan Tran, Lihua Chen, Yinghao Li, Chao Zhang');
    expect(byTestId('paper-volume')?.textContent).toBe('vol. 127');
    expect(byTestId('paper-pages-range')?.textContent).toBe('pp. 10709–10716');
    expect(view.container.querySelector('.paper-meta')?.textContent).toContain('2023');
  });

  it('says when the page named no author, and leaves out volume and pages a paper saved earlier lacks', () => {
    const { volume: _volume, pages: _pages, ...older } = PAPER;
    render({ ...older, authors: [] });
    expect(byTestId('paper-authors')?.textContent).toBe('Authors: none found on the page');
    expect(view.container.querySelector('details.paper-authors-all')).toBeNull();
    expect(byTestId('paper-volume')).toBeNull();
    expect(byTestId('paper-pages-range')).toBeNull();
  });

  it('renders a name holding markup as text', () => {
    render({ ...PAPER, authors: ['<img src=x onerror=alert(1)> Evil', 'Anna Berg', 'Piet Smit', 'Wei Zhang'] });
    expect(view.container.querySelector('img')).toBeNull();
    expect(byTestId('paper-authors-all')?.textContent).toContain('<img src=x onerror=alert(1)> Evil');
  });

  it('writes an article number as one page', () => {
    render({ ...PAPER, pages: '041027' });
    expect(byTestId('paper-pages-range')?.textContent).toBe('p. 041027');
  });
});
