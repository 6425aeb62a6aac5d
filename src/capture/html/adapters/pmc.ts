import type { PublisherAdapter } from './adapter';

/**
 * PubMed Central (pmc.ncbi.nlm.nih.gov, www.ncbi.nlm.nih.gov/pmc): `citation_*` meta,
 * `section.abstract` (or `#abstract1`), body `section`s with `h2`/`h3` titles, figure captions in
 * `figcaption`/`.caption`, tables in `.table-wrap`, references in `.ref-list` (`section.ref-list`).
 * PMC mirrors every publisher, so it is chosen by host (or its markup), never by DOI prefix.
 */
export const pmcAdapter: PublisherAdapter = {
  id: 'pmc',
  mirror: true,
  hosts: ['pmc.ncbi.nlm.nih.gov', 'ncbi.nlm.nih.gov', 'europepmc.org'],
  doiPrefixes: [],
  markup: 'meta[name="ncbi_db"][content="pmc"], meta[name="ncbi_app"][content="pmc"], .pmc-layout__citation, #pmc-content, .pmc-sidenav',
  contentRoots: ['section.body.main-article-body', '.main-article-body', '#mc', 'article', '.article'],
  abstract: 'section.abstract, .abstract, #abstract1',
  exclude: [
    '.ref-list',
    'section.ref-list',
    '#reference-list',
    '.front-matter',
    '.pmc-header',
    '.cg',
    '.fm-authors',
    '.fm-affl',
    '.fm-citation',
    '.pmc-layout__citation',
    '.cited-by',
    '.associated-data',
    '.pmc-sidenav',
    '.d-panel',
    '.permissions',
    '.license',
    '.article-notes',
    '.fn-group',
    '.tsec.sec.ref-list',
  ].join(', '),
  caption: '.caption, figcaption',
  figure: '.fig, .table-wrap',
  title: 'h1.content-title, h1',
};
