import type { PublisherAdapter } from './adapter';

/**
 * American Physical Society journals (journals.aps.org). Abstract pages show
 * `#abstract-section`, a section outline and the reference list; full text (when entitled)
 * is in `section.article.fulltext` / `#article-content`.
 */
export const apsAdapter: PublisherAdapter = {
  id: 'aps',
  hosts: ['aps.org'],
  doiPrefixes: ['10.1103'],
  publisherName: /american physical society/i,
  contentRoots: ['#article-content', 'section.article.fulltext', '.article-section', 'main#main', 'main'],
  abstract: '#abstract-section-content, #abstract-section .content, section.abstract .content',
  exclude: [
    '.physh-tagging',
    '.pub-dates',
    '.doi',
    '.doi-field',
    '#rights',
    '.physh-header',
    '.copyright',
    '.physh-wrapper',
    '.physics-subject-headings',
    '.article-tags',
    '#references',
    'section.references',
    'ol.references',
    '.physh-taxonomy',
    '.physh',
    '#article-authors',
    '.authors',
    '.article-nav',
    '.fulltext-section-menu',
    '.dialog',
    '.dialog-body',
    '.sidebar',
    '.reuse-permissions',
    '.citation-wrap',
    '.pub-info-wrapper',
    '.metrics',
    '#outline',
    '.outline',
    '.large-3',
    '.header',
    '.breadcrumbs',
  ].join(', '),
  caption: '.caption, figcaption',
  title: 'h1.title, h3.title, h1',
};
