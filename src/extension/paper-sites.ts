/**
 * The publisher sites on which the reader lets Assay recognize papers by itself (issue 17,
 * "knows a paper when it sees one"): pure rules for what a site is, which pages it covers, and
 * the stored list. The list is kept in storage.local (`paperSitesSetting`, stored-settings.ts);
 * the browser's host permission for the site is asked for when a site is added (Settings,
 * paper-sites-section.tsx), and the background acts only on a page whose site is in the list
 * AND whose permission is granted (paper-recognizer.ts).
 *
 * What a site is (decided here, unit-tested in test/unit/extension/paper-sites.test.ts):
 * - an origin: scheme (http or https only), host and port, as the URL parser normalizes them
 *   (lower-case host, default port dropped): `https://pubs.acs.org`;
 * - every page under it, whatever its path, query or fragment;
 * - exactly that host: `https://acs.org` does not cover `https://pubs.acs.org`, nor the reverse
 *   (publishers serve papers and unrelated pages from sibling hosts, and the browser's
 *   permission, `https://pubs.acs.org/*`, is for that host alone);
 * - exactly that scheme and port: the http and https forms of a host are two sites, as are two
 *   ports of one host (two servers).
 */

/** At most this many sites are kept: far more than any reader's publishers; a longer stored list is cut. */
export const MAX_PAPER_SITES = 200;

/**
 * One-click choices in Settings: the hosts that serve the full text of the publishers most
 * materials papers come from. A convenience only: any http(s) site can be added. Hosts as the
 * publishers serve article pages in 2025 (ScienceDirect for Elsevier, nature.com and
 * link.springer.com for Springer Nature, …).
 */
export const COMMON_PUBLISHER_SITES: ReadonlyArray<{ name: string; origin: string }> = [
  { name: 'ACS Publications', origin: 'https://pubs.acs.org' },
  { name: 'Royal Society of Chemistry', origin: 'https://pubs.rsc.org' },
  { name: 'Wiley Online Library', origin: 'https://onlinelibrary.wiley.com' },
  { name: 'Elsevier ScienceDirect', origin: 'https://www.sciencedirect.com' },
  { name: 'Nature (Springer Nature)', origin: 'https://www.nature.com' },
  { name: 'SpringerLink (Springer Nature)', origin: 'https://link.springer.com' },
  { name: 'IOPscience', origin: 'https://iopscience.iop.org' },
  { name: 'APS Physical Review journals', origin: 'https://journals.aps.org' },
  { name: 'AIP Publishing', origin: 'https://pubs.aip.org' },
  { name: 'arXiv', origin: 'https://arxiv.org' },
];

/** The site (origin) of page `url`, e.g. `https://pubs.acs.org`; null for a URL that does not parse or is not http(s). Never throws. */
export function siteOfUrl(url: string | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.origin;
}

/**
 * What the reader typed as a site, read as one: `https://pubs.acs.org`, `pubs.acs.org/doi/10.1021/x`
 * (no scheme → https), or a page's whole URL (its origin is kept). → `{ ok: true, site }`, or
 * `{ ok: false, message }` in words for an empty entry, an unreadable address or another scheme.
 */
export function parseSiteInput(input: string): { ok: true; site: string } | { ok: false; message: string } {
  const text = input.trim();
  if (text === '') return { ok: false, message: 'Type a site’s address, such as https://pubs.acs.org.' };
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return { ok: false, message: `“${text.slice(0, 100)}” is not a web address; type one such as https://pubs.acs.org.` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { ok: false, message: `Only web sites (http or https) can be recognized, not ${parsed.protocol} addresses.` };
  if (parsed.hostname === '')
    return { ok: false, message: `“${text.slice(0, 100)}” names no host; type one such as https://pubs.acs.org.` };
  return { ok: true, site: parsed.origin };
}

/** The host permission pattern for `site` (an origin as `siteOfUrl` gives it): `https://pubs.acs.org/*`. */
export function sitePermissionPattern(site: string): string {
  return `${site}/*`;
}

/** Whether the page at `url` is on one of the reader's `sites` (the rule in the file comment). */
export function isOnPaperSite(url: string | undefined, sites: readonly string[]): boolean {
  const site = siteOfUrl(url);
  return site !== null && sites.includes(site);
}

/**
 * A stored value as the list of sites: each entry kept when it is a string that is already a
 * site (`siteOfUrl(entry) === entry`: an http(s) origin, normalized), once, in stored order, at
 * most `MAX_PAPER_SITES`. Anything but an array → [] (nothing is recognized). Never throws.
 */
export function readPaperSites(stored: unknown): string[] {
  if (!Array.isArray(stored)) return [];
  const sites: string[] = [];
  for (const entry of stored) {
    if (typeof entry !== 'string' || siteOfUrl(entry) !== entry || sites.includes(entry)) continue;
    sites.push(entry);
    if (sites.length === MAX_PAPER_SITES) break;
  }
  return sites;
}

/** `sites` with `site` added at the end (unchanged when it is there already). Throws when the list is full. */
export function withPaperSite(sites: readonly string[], site: string): string[] {
  if (sites.includes(site)) return [...sites];
  if (sites.length >= MAX_PAPER_SITES) throw new Error(`At most ${MAX_PAPER_SITES} sites can be recognized; remove one first.`);
  return [...sites, site];
}

/** `sites` without `site`. */
export function withoutPaperSite(sites: readonly string[], site: string): string[] {
  return sites.filter((entry) => entry !== site);
}
