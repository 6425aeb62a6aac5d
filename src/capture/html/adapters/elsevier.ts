import { normalizeDoi } from '../../doi';
import type { PublisherAdapter } from './adapter';

/**
 * Elsevier ScienceDirect, modern (React, `#body`, `.Abstracts`) and legacy 2013–2016 pages
 * (`.svArticle`, `div.abstract.svAbstract`, `ol.references`, captions in `.caption` inside
 * `.figure`/`.table`). Legacy saved pages often carry no DOI meta: the DOI, if any, is in a
 * `doi.org` link of the article header; some hold only a PII, and then there is no DOI.
 */
export const elsevierAdapter: PublisherAdapter = {
  id: 'elsevier',
  hosts: ['sciencedirect.com', 'elsevier.com', 'cell.com', 'thelancet.com'],
  doiPrefixes: ['10.1016'],
  publisherName: /elsevier|north-holland|pergamon|academic press/i,
  markup: '.svArticle, .svAbstract, #centerInner.svBigBox, .Abstracts, .article-wrapper .Body',
  contentRoots: ['#body', '.Body', '.svArticle', '#centerInner', 'article'],
  abstract: 'div.abstract.svAbstract, .Abstracts .abstract, .Abstracts, #abstracts',
  exclude: [
    'ol.references',
    '.references',
    '.refersToAndreferredToBy',
    '#refersToAndreferredToBy',
    '.referencedArticles',
    '.svKeywords',
    '.keywords-section',
    '.authorGroup',
    '.author-group',
    '.affiliation',
    '.publicationHead',
    '.articleTitle',
    '.title',
    '.svDoi',
    '.doi',
    '.copyright',
    '.Copyright',
    '.btn_export',
    '.related-content',
    '.RelatedContent',
    '#recommended',
    '.PageDivider',
    '.download-links',
    '.figTblUpi',
    '.refimgLoader',
    '.labelRow',
    '.article-header',
    '.articleDates',
    'dl.articleDates',
    '.menuButtonLinks',
    '.MMCvLINK',
    'ul.reference',
    'li[id^="bb"]',
    '.publicationType',
    '.Banner',
    '.Publication',
    '.moreInfo',
    '.toolbar',
    '.fig-links',
  ].join(', '),
  caption: '.caption, .captions',
  figure: '.figure, .table, .figTblUpi',
  title: 'h1.svTitle, .title-text, h1',
  pageDoi: legacyScienceDirectDoi,
};

/**
 * 2014–2016 ScienceDirect pages fill their DOI link (`dd.doiLink`) from a page variable,
 * `SDM.doi = '10.1016/…'`; a saved page keeps the variable but not the link. The script text is
 * only matched, never run. Pages saved without scripts (some hold only a PII) give null.
 */
function legacyScienceDirectDoi(document: Document): string | null {
  for (const script of document.querySelectorAll('script:not([src])')) {
    const match = /SDM(?:\.pm)?\.doi\s*=\s*['"]([^'"]+)['"]/.exec(script.textContent ?? '');
    if (match?.[1]) return normalizeDoi(match[1]);
  }
  const link = document.querySelector('dd.doiLink a[href], .doiLink a[href], a.doi[href], .article-doi a[href]');
  return normalizeDoi(link?.getAttribute('href'));
}
