import type { PublisherAdapter } from './adapter';

/**
 * The Electrochemical Society journals on HighWire (jes.ecsdl.org, ecst.ecsdl.org,
 * 2013–2018): `div.article.fulltext-view`, `div.section.abstract`, figure captions in
 * `.fig-caption`, references in `div.section.ref-list`. Newer ECS content is on IOPscience
 * (10.1149 on iop.org) and uses the IOP adapter when the URL says so.
 */
export const ecsAdapter: PublisherAdapter = {
  id: 'ecs',
  hosts: ['ecsdl.org', 'ecs.org'],
  doiPrefixes: ['10.1149'],
  publisherName: /electrochemical society/i,
  contentRoots: ['.article.fulltext-view', '#content-block', '.article'],
  abstract: 'div.section.abstract, .abstract',
  exclude: [
    '.ref-list',
    '.section.ref-list',
    '.cit-list',
    '.fn-group',
    '.section.fn-group',
    '.contributors',
    '.affiliation-list',
    '.fig-inline .callout',
    '.fig-links',
    '.callout',
    '.table-links',
    '.section-nav',
    '.cit-extra',
    '.ecs-cit',
    '.article-meta',
    '.slug-doi',
    '.copyright-statement',
    '.history-list',
    '.kwd-group',
    '.banner-ads',
    '.kwd-group-title',
    '.license',
    '.social-bookmarking',
    '.related-article',
    '#related-article',
    '.content-box',
    '#sidebar',
    '.sidebar',
    '#col-2',
    '#col-3',
  ].join(', '),
  caption: '.fig-caption, .table-caption',
  figure: '.fig, .table',
  title: 'h1#article-title-1, h1',
};
