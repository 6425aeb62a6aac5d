import type { PublisherAdapter } from './adapter';

/**
 * Wiley Online Library: the 2015+ Atypon layout (`.article-section__content`,
 * `section.article-section__abstract`, `figcaption.figure__caption`,
 * `.article-section__references`) and the older `#fulltext`/`#content` layout.
 */
export const wileyAdapter: PublisherAdapter = {
  id: 'wiley',
  hosts: ['wiley.com', 'onlinelibrary.wiley.com', 'chemistry-europe.onlinelibrary.wiley.com'],
  doiPrefixes: ['10.1002', '10.1111'],
  publisherName: /wiley/i,
  contentRoots: ['.article-section__full', 'article#main-content', '#fulltext', '.article__body', '#content'],
  abstract: '.article-section__abstract, section#abstract, .abstract-group, #abstract',
  exclude: [
    '.article-section__references', '.article-section__references-list', '.citedBy', '.article-citing',
    '.loa-wrapper', '.loa', '.accordion__closed', '.article-header__authors', '.epub-sections', '.publication-history',
    '.article-info', '.article-section__sub-title', '.figure-extra', '.figure__extra', '.ext-link-list', '.references',
    '.bibliography', '#references', '.externalReferences', '.internalReferences', '.keywordList', '.article-header',
    '#pdf-section', '.article-section__pdf-container', '.issue-header', '.article-citation', '.publicationHistory', '.open-figure-link',
    '.related-content', '.pb-dropzone', '.article__supporting', '#relatedArticles', '.toolbar', '.share', 'ol.jumpList',
  ].join(', '),
  caption: '.figure__caption, .caption, .figure-caption, .article-table-caption',
  figure: '.figure, .article-table-content',
  title: 'h1.citation__title, h1.articleTitle, h1',
};
