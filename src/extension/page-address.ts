/**
 * When two URLs are the same page, for the side panel: the saved paper of a tab's page
 * (src/ui/side-panel/current-paper.ts) and whether a tab moved to another page
 * (panel-target.ts).
 *
 * Matching rule (decided here, unit-tested in test/unit/ui/side-panel/current-paper.test.ts):
 * two URLs are the same page when they are equal after
 * - dropping the fragment (`#section-2` is the same paper; `paperKey` drops it too), and
 * - dropping one trailing "/" of a path other than "/" (`/article/123/` and `/article/123` are
 *   served as the same page by publishers' sites, which redirect between the two forms),
 * with scheme and host compared as the URL parser normalizes them (lower case, default port
 * dropped). The query string is kept and compared as written: `?page=2` or `?id=7` may name
 * another document, and reordering its parameters is a server's business, not ours.
 */

/**
 * `url` in the form compared by `isSamePage`: parsed, without fragment, without one trailing "/"
 * of a non-root path. A string the URL parser refuses is kept as written minus its fragment
 * (papers captured from odd schemes still match themselves). Never throws.
 */
export function pageAddress(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/#.*$/s, '');
  }
  parsed.hash = '';
  if (parsed.pathname.length > 1 && parsed.pathname.endsWith('/')) parsed.pathname = parsed.pathname.slice(0, -1);
  // `URL` keeps an empty "#" only when the hash was set to "#"; clearing it above leaves none.
  return parsed.href;
}

/** Whether `pageUrl` (the tab's URL) and `paperUrl` (a paper's `url` at capture) are the same page, by the rule in the file comment. */
export function isSamePage(pageUrl: string, paperUrl: string): boolean {
  return pageAddress(pageUrl) === pageAddress(paperUrl);
}
