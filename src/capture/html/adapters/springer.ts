import type { PublisherAdapter } from './adapter';

/**
 * Springer Nature: link.springer.com (2016–2019 `FulltextWrapper`, 2020+ `c-article-body`),
 * BMC / SpringerOpen (10.1186), and nature.com (modern `c-article-*`, 2007-era `#content` with
 * `h3` sections and `Figure N:` headings, whose `citation_doi` starts with `doi:`).
 */
export const springerAdapter: PublisherAdapter = {
  id: 'springer',
  hosts: ['springer.com', 'springeropen.com', 'biomedcentral.com', 'nature.com', 'springernature.com'],
  doiPrefixes: ['10.1007', '10.1038', '10.1186'],
  publisherName: /springer|nature publishing|kluwer|biomed central|società italiana di fisica/i,
  markup: '.FulltextWrapper, .c-article-body, .article-body.c-article-body',
  contentRoots: [
    '.c-article-body', 'article .FulltextWrapper', '.FulltextWrapper', '.article__body', '.article-body',
    '#articlebody', 'article', '#content',
  ],
  abstract: '#Abs1, section.Abstract, #Abs1-content, #abs, #abstract, .abstract',
  exclude: [
    '#Bib1', '.Bibliography', '.c-article-references', '#references', '.references', '.c-article-recommendations',
    '.c-article-extras', '.ArticleHeader', '.c-article-header', '.AuthorInfo', '.authors', '.c-article-author-list',
    '.KeywordGroup', '.c-article-subject-list', '.Footnotes', '.CopyrightStatement', '.ArticleCopyright', '.rights',
    '.CitationContent', '.MediaObject', '.c-article-section__figure-link', '.c-article__pill-button', '.u-screenreader-only',
    '.article-related', '.c-related-articles', '.recommended', '.js-related', '.related-articles', '.related',
    '.article__teaser', '.c-card', '.ad', '.c-ad', '.figure-actions', '.icon', '#article-comments', '.comments',
    '.nature-briefing', '.c-nature-box', '.social-share', '.ArticleTitle', '.affils', '.aff', '.article-metrics',
    'a.full', '#aug', '#atl', '.article-tools', 'a.backtotop', '.Categories', '.MainTitleSection', '.AuthorNames',
    '.ArticleContextInformation', '.ArticleHistory', '.ArticleCitation', '#cobranding-and-download-availability-text',
  ].join(', '),
  caption: '.CaptionContent, .c-article-section__figure-caption, .figure-caption, .legend',
  figure: '.Figure, .c-article-section__figure, .figure, .figure-table',
  sectionHeading: 'div.Heading',
  title: 'h1.ArticleTitle, h1.c-article-title, h1.article-item__title, h1',
};
