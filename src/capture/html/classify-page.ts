/**
 * Pages that are not one article, recognized before any text is read, so the user gets a
 * specific message ("the publisher showed a bot check") rather than an empty capture:
 * bot/challenge pages and search-result listings. Paywall detection is here too, but a paywall
 * with an abstract is still captured (`abstractOnly`), so it only returns a flag.
 */
import { CaptureError } from '../errors';
import { elementsByTag } from '../tree-walk';
import { selectAll } from './selector-index';
import type { PageElements, PageMetadata } from './metadata';

const CHALLENGE_TITLE =
  /^(?:just a moment|attention required|checking your browser|please wait|one more step|access denied|are you a robot|verify(?:ing)? you are human|security check|ddos protection)/i;
const CHALLENGE_MARKUP =
  '#cf-challenge-running, #challenge-form, #challenge-error-title, #challenge-error-text, #challenge-running, .cf-browser-verification, #cf-wrapper, #cf-error-details, ' +
  '#px-captcha, .g-recaptcha, #captcha-container';
/** Cloudflare's challenge script and form, recognized by URL. */
const CHALLENGE_URL = /\/cdn-cgi\/challenge-platform\/|__cf_chl/;
const CHALLENGE_TEXT =
  /checking (?:if the site connection is secure|your browser before accessing)|enable javascript and cookies to continue|needs to review the security of your connection|verify you are (?:a )?human/i;

const SEARCH_TITLE = /\bsearch results?\b|\bresults for\b|\bsearch\s*[|:-]/i;
const RESULT_ITEM =
  '.search-result, .searchResult, .capsule--article, .search-result-item, .search-results-item, li.result-item, .result-item, .capsule__column-wrapper, ' +
  '.issue-item, .ResultItem, .result-list li, .app-card-open, .search__item, [data-test="search-result-item"], .result';
/** Fewer result items than this is a page with a "related" box, not a listing. */
const MIN_RESULT_ITEMS = 5;

/**
 * Throw `CaptureError('bot-check')` for a Cloudflare/bot challenge page and
 * `CaptureError('search-results')` for a listing of many articles. A page that carries one
 * article's metadata (`citation_title` and a DOI) is never called a listing.
 */
export function rejectNonArticlePages(
  document: Document,
  metadata: PageMetadata,
  elements: Pick<PageElements, 'scripts' | 'forms'> = {
    scripts: elementsByTag(document, 'script'),
    forms: elementsByTag(document, 'form'),
  },
): void {
  const title = metadata.documentTitle ?? '';
  // A page that names one article (title and DOI in its metadata) is neither a challenge nor a listing.
  if (metadata.doiOrigin !== null && metadata.title !== null) return;
  const [challengeMarkup, resultItems] = selectAll(document, [CHALLENGE_MARKUP, RESULT_ITEM]);
  const challengeUrl = [...elements.scripts, ...elements.forms].some((element) =>
    CHALLENGE_URL.test(element.getAttribute('src') ?? element.getAttribute('action') ?? ''),
  );
  if (CHALLENGE_TITLE.test(title) || (challengeMarkup?.size ?? 0) > 0 || challengeUrl || isShortChallengeText(document)) {
    throw new CaptureError(
      'bot-check',
      `The publisher showed a bot check ("${title || 'challenge page'}") instead of the article: open the page in the browser, pass the check, then capture again.`,
    );
  }
  const items = resultItems?.size ?? 0;
  if (
    (SEARCH_TITLE.test(title) && items >= 2) ||
    items >= MIN_RESULT_ITEMS * 2 ||
    (SEARCH_TITLE.test(title) && metadata.articleTagCount === 0)
  ) {
    throw new CaptureError(
      'search-results',
      `This is a list of search results${items ? ` (${items} items)` : ''}, not one article: open one of the articles and capture it.`,
    );
  }
}

/** A challenge page is short: its whole text says "checking your browser" and little else. */
function isShortChallengeText(document: Document): boolean {
  const sample = textSample(document, 3000);
  return sample.length < 3000 && CHALLENGE_TEXT.test(sample);
}

/**
 * Up to `limit` characters of the page's text, read from text nodes in order (scripts and
 * styles skipped) and stopping early, so a large page costs no more than a small one.
 */
function textSample(document: Document, limit: number): string {
  const root = document.body ?? document.documentElement;
  if (!root) return '';
  const parts: string[] = [];
  let length = 0;
  // An iterative walk over text nodes (a recursive one overflows on deeply nested pages).
  let node: Node | null = root.firstChild;
  while (node && length <= limit * 2) {
    if (node.nodeType === 3) {
      const text = node.nodeValue ?? '';
      parts.push(text);
      length += text.length;
    }
    const enter = node.nodeType === 1 && !/^(?:script|style|noscript|template)$/i.test((node as Element).localName);
    if (enter && node.firstChild) {
      node = node.firstChild;
      continue;
    }
    while (node && node !== root && !node.nextSibling) node = node.parentNode;
    node = node && node !== root ? node.nextSibling : null;
  }
  const sample = parts.join('');
  return sample.replace(/\s+/g, ' ').trim().slice(0, limit);
}

const PAYWALL_TEXT =
  /authorization required|access through your institution|purchase (?:this )?(?:article|access|pdf)|buy (?:this )?article|rent this article|get access|log in to (?:view|access)|subscribe to (?:view|read)|check access|you do not have access|institutional login|full text access/i;

/** True when the page shows a paywall prompt (used only to word a warning on an abstract-only capture). */
export function hasPaywallPrompt(document: Document): boolean {
  return PAYWALL_TEXT.test(textSample(document, 200_000));
}
