/**
 * One saved paper: the metadata the dataset table shows, plus the full captured `Article`
 * (stored, not indexed) so later stages can re-run on it without the page.
 */
import type { Article } from '../contracts/article';
import type { PaperSummary } from '../contracts/messages';

export interface PaperRecord extends PaperSummary {
  article: Article;
}

/**
 * The primary key of a paper: `doi:<doi>` when it has a DOI (already normalized to lower case
 * by capture), else `url:<url>` without the fragment (so `#section-2` does not make a second
 * copy), else `title:<title>` lower-cased with collapsed spaces as a last resort.
 */
export function paperKey(article: Pick<Article, 'doi' | 'url' | 'title'>): string {
  if (article.doi) return `doi:${article.doi}`;
  if (article.url) return `url:${article.url.replace(/#.*$/, '')}`;
  return `title:${article.title.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

/** Build the record saved for `article`, captured at `capturedAt` (ISO 8601). */
export function toPaperRecord(article: Article, capturedAt: string): PaperRecord {
  return {
    key: paperKey(article),
    doi: article.doi,
    url: article.url,
    title: article.title,
    authors: article.authors,
    journal: article.journal,
    year: article.year,
    source: article.source,
    adapter: article.adapter,
    blockCount: article.blocks.length,
    ...(article.pageCount !== undefined ? { pageCount: article.pageCount } : {}),
    abstractOnly: article.abstractOnly,
    capturedAt,
    article,
  };
}

/** The record without its article: what crosses the message boundary to the side panel. */
export function toPaperSummary(record: PaperRecord): PaperSummary {
  const { article: _article, ...summary } = record;
  return summary;
}
