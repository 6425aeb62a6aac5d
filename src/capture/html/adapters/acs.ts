import type { PublisherAdapter } from './adapter';

/**
 * ACS Publications (pubs.acs.org, Atypon). Full text is in `.hlFld-FullText` (2016 and 2023
 * layouts alike); the abstract in `#abstractBox` / `.hlFld-Abstract`. Figure captions are
 * `figcaption` (2023) or `.caption` inside `.figure` (2016). CAS abstracts of cited papers
 * (`.casAbstract`) and the reference list are left out.
 */
export const acsAdapter: PublisherAdapter = {
  id: 'acs',
  hosts: ['acs.org'],
  doiPrefixes: ['10.1021'],
  publisherName: /american chemical society/i,
  contentRoots: ['.article_content-table.hlFld-FullText', '.hlFld-FullText', '#articleBody', 'article'],
  abstract: '#abstractBox, .hlFld-Abstract:not(.cited-content):not(.article_keywords)',
  exclude: [
    '#references',
    'ol.references',
    '.casAbstract',
    '.NLM_citation',
    '.refQuivkViewLink',
    '.article__hover',
    '.tooltip',
    '.figure-extra',
    '.figure__extra',
    '.article_abstract-img',
    '.fig-links',
    '.figureLinks',
    '.ref-links',
    '.article_header',
    '.loa',
    '.article-header',
    '.share',
    '.cc-license',
    '.article__cc-license',
    '.article_content-sections',
    '.article_keywords',
    '.articleCitedByDropzone',
    '.cited-by',
    '.article_content-right',
    '#article_content-right',
    '.figure-bottom-links',
    '.download-ppt',
    '.tab-nav-shortcut',
  ].join(', '),
  caption: '.caption, .figure__caption, .NLM_caption, .fig-caption, .article__caption',
  figure: '.figure, .NLM_fig, .article__inlineFigure',
  title: 'h1.article_header-title, .hlFld-Title',
};
