import type { PublisherAdapter } from './adapter';

/**
 * MDPI (www.mdpi.com). Full text in `.html-body`, abstract in `section.html-abstract`,
 * captions in `.html-caption`, tables in the `.html-table_show` popups, references in
 * `#html-references_list`.
 */
export const mdpiAdapter: PublisherAdapter = {
  id: 'mdpi',
  hosts: ['mdpi.com'],
  doiPrefixes: ['10.3390'],
  publisherName: /multidisciplinary digital publishing institute|mdpi/i,
  markup: '.html-body, #html-abstract',
  contentRoots: ['.html-body', 'article'],
  abstract: '#html-abstract .html-p, .html-abstract .html-p, section.html-abstract, #html-abstract',
  // Figures and tables appear twice: a thumbnail with a short description in the text flow,
  // and a popup (`.html-fig_show`, `.html-table_show`, hidden by a CSS class) right after it
  // holding the full caption and the real table. The popup is read; the thumbnail is left out.
  exclude: [
    '#html-references_list',
    '.html-references',
    '.html-fig-wrap',
    '.html-table-wrap',
    '.html-table_wrap',
    '.html-fig_description',
    '.html-table_wrap_discription',
    '.html-fn-group',
    '.html-table_foot_link',
  ].join(', '),
  caption: '.html-caption',
  figure: '.html-fig_show, .html-table_show',
  title: 'h1.title, .html-title, h1',
};
