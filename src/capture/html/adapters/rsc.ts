import type { PublisherAdapter } from './adapter';

/**
 * Royal Society of Chemistry (pubs.rsc.org). Article HTML is flat under `#wrapper`/`body`:
 * `h1` title, `p.abstract`, `h2`/`h3` sections, captions in `.image_table` / `.graphic_title`,
 * data tables in `.rtable__wrapper`/`.table_caption`. The reference list is an `ol`/`table`
 * under the "Notes and references" heading (closed by the walker's back-matter rule).
 */
export const rscAdapter: PublisherAdapter = {
  id: 'rsc',
  hosts: ['rsc.org'],
  doiPrefixes: ['10.1039'],
  publisherName: /royal society of chemistry/i,
  contentRoots: ['#pnlArticleContent', '.article__body', '#wrapper', 'body'],
  abstract: 'p.abstract, .abstract',
  exclude: [
    '.ref-list',
    '#refs',
    'ol.ref',
    '.header_author',
    '.article__authors',
    '.article_info',
    '.bold_head',
    '.left_head',
    '.ref_line',
    '.ref-links',
    '.article-tools',
    '#top_bar',
    '.top_link',
    '.back_top',
    '.ref-list__item',
    '.affiliations',
    '.author_affiliations',
    '.fnLink',
    'a[href^="#top"]',
    '#art-admin',
    '#art-admin + p',
    '.header_text',
  ].join(', '),
  caption: '.image_title, .graphic_title, .table_caption, .caption, figcaption',
  figure: '.image_table, .image_tablerow, figure',
  title: 'h1',
};
