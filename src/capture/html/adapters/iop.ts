import type { PublisherAdapter } from './adapter';

/**
 * IOPscience (iopscience.iop.org). Full text in `div[itemprop="articleBody"]` /
 * `.article-content`; abstract in `.wd-jnl-art-abstract`; captions in `.figure-caption`,
 * tables in `.table-wrap`; references under `#references` or `.reference-list`.
 */
export const iopAdapter: PublisherAdapter = {
  id: 'iop',
  hosts: ['iop.org', 'iopscience.iop.org'],
  doiPrefixes: ['10.1088'],
  publisherName: /iop publishing|institute of physics/i,
  contentRoots: ['[itemprop="articleBody"]', '.article-content', '#page-content', 'main'],
  abstract: '.wd-jnl-art-abstract, .article-abstract',
  exclude: [
    '.reference-list',
    '.ref-list',
    '#references',
    '.references',
    '.article-meta',
    '.wd-jnl-art-author-affiliations',
    '.mb-05.author-list',
    '.author-list',
    '.wd-jnl-art-title',
    '.wd-jnl-art-metrics',
    '.article-head',
    '.art-toolbar',
    '.btn-multi-block',
    '.eplus',
    '.wd-in-pg-toolbar',
    '.nav-item',
    '.in-page-toolbar',
    '.wd-jnl-art-sub',
    '.figure-links',
    '.fig-links',
    '.icon',
    '.article-ref',
    '.mathjax-fallback',
    '.wd-jnl-art-pdf-help-link',
  ].join(', '),
  caption: '.figure-caption, .table-caption, figcaption',
  figure: '.figure, .table-wrap',
  title: 'h1.wd-jnl-art-title, h1',
};
