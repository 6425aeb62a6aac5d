/**
 * One saved paper: the metadata the dataset table shows, plus the full captured `Article`
 * (stored, not indexed) so later stages can re-run on it without the page.
 */
import type { Article } from '../contracts/article';
import type { PaperSummary } from '../contracts/messages';

export interface PaperRecord extends PaperSummary {
  article: Article;
  /**
   * What the latest capture of this paper changed or declined to change, in words (the stored
   * full text kept over an abstract, a capture from another host): shown with the capture's own
   * warnings when the paper is opened again. Absent when the latest capture was simply saved.
   */
  mergeWarnings?: string[];
}

/** An earlier capture of a paper, kept when a new capture replaced it or was not better than it. */
export interface PaperVersion {
  /** Auto-incremented by Dexie. */
  id?: number;
  paperKey: string;
  /** When that capture was made (its record's `capturedAt`). */
  capturedAt: string;
  /** `replaced`: it was the saved paper until a capture at least as good came; `not-better`: a capture that did not replace the saved paper. */
  reason: 'replaced' | 'not-better';
  record: PaperRecord;
}

/**
 * How much of a paper a capture holds: 2 full text, 1 the abstract (an abstract-only page), 0
 * nothing but metadata (no blocks).
 */
export function captureRank(article: Pick<Article, 'abstractOnly' | 'blocks'>): 0 | 1 | 2 {
  if (article.blocks.length === 0) return 0;
  return article.abstractOnly ? 1 : 2;
}

/**
 * A full-text capture holding less than this share of the saved full text's characters is not
 * taken over it (a truncated page, or a page that claims the paper's DOI over a fragment of it).
 * Captures of one paper from different sources differ by far less: the HTML and PDF captures of
 * the shared fixtures are within 0.6–1.7 of each other.
 */
const MIN_FULL_TEXT_SHARE = 0.5;

const RANK_WORDS = ['no text (only the paper’s metadata)', 'only the abstract', 'the full text'] as const;

/** The host of a URL, lower-case, or null (saved files have no URL). */
export function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** "1 February 2025" (UTC) for an ISO 8601 time; the time itself when it does not parse. */
function dayOf(isoTime: string): string {
  const date = new Date(isoTime);
  return Number.isNaN(date.getTime()) ? isoTime : new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/**
 * What to do when `incoming` is a new capture of the paper saved as `stored` (same key): which
 * record stays the paper (`keep`) and the warnings, in words, that the reader must see. A
 * capture never silently downgrades the paper: one with less text (abstract only or nothing,
 * against full text or an abstract; or full text under half as long as the saved full text)
 * does not replace it. A capture from a different host than the saved one is named, whichever
 * is kept. The record not kept is kept by the caller as a `PaperVersion`.
 */
export function mergeCapture(stored: PaperRecord, incoming: PaperRecord): { keep: 'stored' | 'incoming'; warnings: string[] } {
  const warnings: string[] = [];
  const storedRank = captureRank(stored.article);
  const incomingRank = captureRank(incoming.article);
  const shorterFullText =
    storedRank === 2 && incomingRank === 2 && incoming.article.text.length < stored.article.text.length * MIN_FULL_TEXT_SHARE;
  const keep = incomingRank < storedRank || shorterFullText ? 'stored' : 'incoming';
  const storedHost = hostOf(stored.url);
  const incomingHost = hostOf(incoming.url);
  const from = (host: string | null): string => (host ? ` from ${host}` : '');
  if (keep === 'stored') {
    const what = shorterFullText
      ? `less than half the text (${incoming.article.text.length.toLocaleString('en-US')} characters against ${stored.article.text.length.toLocaleString('en-US')})`
      : RANK_WORDS[incomingRank];
    warnings.push(
      `Not saved over the paper: this capture${from(incomingHost)} has ${what}, so ${RANK_WORDS[storedRank]} captured on ${dayOf(stored.capturedAt)}${from(storedHost)} is kept. This capture is kept as an earlier version.`,
    );
  }
  if (storedHost && incomingHost && storedHost !== incomingHost) {
    warnings.push(
      `This paper was saved before from ${storedHost}; this capture is from ${incomingHost}. Check that this page is the paper you meant: a page can claim any DOI.` +
        (keep === 'incoming' ? ` The capture from ${storedHost} is kept as an earlier version.` : ''),
    );
  }
  return { keep, warnings };
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
    volume: article.volume ?? null,
    pages: article.pages ?? null,
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
  const { article: _article, mergeWarnings: _mergeWarnings, ...summary } = record;
  return summary;
}
