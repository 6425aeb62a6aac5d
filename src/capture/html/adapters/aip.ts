import type { PublisherAdapter } from './adapter';

/**
 * AIP Publishing on Scitation (aip.scitation.org, 2016–2020 Atypon layout, often saved as a
 * body fragment with no `<head>`: then the DOI is only in `doi.org` links of the header).
 * Full text in `.hlFld-Fulltext`, abstract in `.hlFld-Abstract`, captions in `.figure .caption`,
 * references in `.references` / `.NLM_citation`.
 */
export const aipAdapter: PublisherAdapter = {
  id: 'aip',
  hosts: ['scitation.org', 'aip.org', 'pubs.aip.org'],
  doiPrefixes: ['10.1063', '10.1116', '10.1121'],
  publisherName: /american institute of physics|aip publishing/i,
  markup: '.page-body.pagefulltext, .publicationContentCitation, .scitation',
  contentRoots: ['.hlFld-Fulltext', 'article.article', '.page-body'],
  abstract: '.abstractSection.abstractInFull, .hlFld-Abstract',
  exclude: [
    '.references',
    '.NLM_citation',
    '.ref-list',
    '#references',
    '.figure-links',
    '.figureLinks',
    '.fig-links',
    '.sectionInfo.abstractSectionHeading',
    '.article-meta',
    '.publicationContentAuthors',
    '.contrib-group',
    '.author-affiliation',
    '.affiliations',
    '.article-tools',
    '.metrics',
    '.related',
    '.article-header',
    '.showFiguresLink',
    '.table-links',
    '.tableLinks',
    '.downloadLink',
    '.popup',
    '.toolTip',
    '.ref-overlay',
  ].join(', '),
  caption: '.caption, .figcaption, .table-caption',
  figure: '.figure, .NLM_table-wrap, .table',
  sectionHeading: '.sectionHeading',
  title: 'h1, .title',
};
