import { normalizeDoi } from '../../doi';
import { elementsByTag } from '../../tree-walk';
import type { PublisherAdapter } from './adapter';

/**
 * arXiv: the abstract page (arxiv.org/abs/…: `citation_*` meta, `h1.title`,
 * `blockquote.abstract` with a "Abstract:" descriptor) and the LaTeXML HTML rendering
 * (arxiv.org/html/…: `article.ltx_document`, `.ltx_abstract`, `section.ltx_section` with
 * `h2.ltx_title_section`, `figcaption.ltx_caption`, `table.ltx_tabular`, `.ltx_bibliography`).
 * arXiv DOIs are 10.48550/arXiv.<id>.
 */
export const arxivAdapter: PublisherAdapter = {
  id: 'arxiv',
  mirror: true,
  hosts: ['arxiv.org', 'export.arxiv.org'],
  doiPrefixes: ['10.48550'],
  publisherName: /^arxiv$/i,
  markup: 'article.ltx_document, blockquote.abstract.mathjax, .ltx_page_main',
  contentRoots: ['article.ltx_document', '.ltx_page_main', '#abs'],
  abstract: '.ltx_abstract, blockquote.abstract',
  exclude: [
    '.ltx_bibliography',
    '.ltx_authors',
    '.ltx_dates',
    '.ltx_page_footer',
    '.ltx_page_navbar',
    '.ltx_tag_bibitem',
    '.descriptor',
    '.dateline',
    '.authors',
    '.metatable',
    '.extra-services',
    '.submission-history',
    '.bookmarks',
    '.ltx_role_affiliation',
    '.ltx_personname',
    '.ltx_title_document',
    '.title',
    '.subheader',
    '.header-breadcrumbs',
  ].join(', '),
  caption: '.ltx_caption',
  figure: '.ltx_figure, .ltx_table',
  title: 'h1.ltx_title_document, h1.title',
  pageDoi: arxivDoi,
};

/**
 * The arXiv DOI the abstract page prints in its metadata table (`#arxiv-doi-link`,
 * 10.48550/arXiv.<id>). The "Related DOI" of a journal version is another work's DOI and is
 * not taken. Null when the page shows no arXiv DOI (the DOI is not derived from the id).
 */
function arxivDoi(document: Document): string | null {
  const link =
    document.getElementById('arxiv-doi-link') ??
    elementsByTag(document, 'a').find((anchor) => /doi\.org\/10\.48550\//i.test(anchor.getAttribute('href') ?? ''));
  return normalizeDoi(link?.getAttribute('href'));
}
