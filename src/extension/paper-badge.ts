/**
 * What the toolbar button says about a page on one of the reader's publisher sites: pure rules
 * from a capture and its quick scan to the badge text and the button's tooltip, so every rule is
 * unit-tested (test/unit/extension/paper-badge.test.ts). paper-recognizer.ts applies them.
 */
import type { Article } from '../contracts/article';

/** The toolbar button's tooltip when it says nothing about the page: the manifest's `action.default_title` (wxt.config.ts). */
export const DEFAULT_ACTION_TITLE = 'Open Assay';

/**
 * The badge's background: `--assay-accent` of the light theme (src/ui/shared/styles.css,
 * #1f5fbf), on which Chromium's white badge text has 6.1:1 contrast (WCAG AA asks 4.5:1). The
 * toolbar does not follow the pages' colour scheme, so one colour serves both themes.
 */
export const PAPER_BADGE_COLOR = '#1f5fbf';

/** The badge text's colour: white, as Chromium draws it by default (set so a browser with another default agrees). */
export const PAPER_BADGE_TEXT_COLOR = '#ffffff';

/** Counts above this show as "999+": Chromium's badge fits about four characters. */
export const MAX_BADGE_COUNT = 999;

/**
 * Whether a captured article is a paper in the sense of a reference manager's connector: the
 * capture found an article (its own checks already refused bot checks, search listings and
 * pages without article text or metadata: capture-html.ts) AND it names its DOI in the page
 * itself — the metadata (`citation_doi`, `dc.identifier`, …), JSON-LD, the publisher's XML or
 * the URL — not merely a DOI link somewhere in the body (a news item or a blog citing a paper
 * links its DOI too), OR a publisher adapter (not `generic`) read it.
 */
export function isRecognizedPaper(article: Pick<Article, 'doi' | 'doiOrigin' | 'adapter'>): boolean {
  const ownDoi = article.doi !== null && article.doiOrigin !== null && article.doiOrigin !== 'body';
  return ownDoi || article.adapter !== 'generic';
}

/** `count` as the badge shows it: "0" … "999", then "999+". A negative or fractional count is a caller's bug and throws. */
export function candidateBadgeText(count: number): string {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`A candidate count is a whole number ≥ 0, not ${count}.`);
  return count > MAX_BADGE_COUNT ? `${MAX_BADGE_COUNT}+` : String(count);
}

/**
 * The tooltip for a recognized paper with `count` quick-scan candidates:
 * "Assay: a paper — 12 candidate facts" ("1 candidate fact" singular), or
 * "Assay: a paper — candidate facts not counted (<reason>)" when the scan failed (`count` null).
 */
export function paperActionTitle(count: number | null, reason?: string): string {
  if (count === null) return `Assay: a paper — candidate facts not counted${reason ? ` (${reason})` : ''}`;
  return `Assay: a paper — ${count} candidate ${count === 1 ? 'fact' : 'facts'}`;
}

/** What the toolbar button shows for one tab: `text` '' means no badge. */
export interface ActionBadge {
  text: string;
  title: string;
}

/** No badge and the default tooltip: a page that is not a paper, not on an opted-in site, or still loading. */
export const NO_BADGE: ActionBadge = { text: '', title: DEFAULT_ACTION_TITLE };

/**
 * The badge of a recognized paper: the candidate count (`candidateBadgeText`) and its title
 * (`paperActionTitle`); a failed scan (`count` null) shows "?" and says why in the title.
 */
export function paperBadge(count: number | null, reason?: string): ActionBadge {
  return { text: count === null ? '?' : candidateBadgeText(count), title: paperActionTitle(count, reason) };
}
