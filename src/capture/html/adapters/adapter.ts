/**
 * The one small interface every publisher adapter implements. An adapter is data (selectors)
 * plus a few match rules; the walk itself is shared (`body-walker.ts`). Selectors are CSS that
 * both Chromium and jsdom (nwsapi) understand; an adapter never mutates the page.
 */

export interface AdapterContext {
  document: Document;
  /** Page URL, when known (always in the extension; `--url` in the CLI). */
  url: string | null;
  /** Host of `url`, lower-case, or null. */
  host: string | null;
  /** DOI from the page metadata, if any (for prefix-based choice). */
  doi: string | null;
  /** `citation_publisher` / `dc.publisher`, if any. */
  publisher: string | null;
}

export interface PublisherAdapter {
  /** `Article.adapter`: `acs`, `rsc`, `elsevier`, … */
  id: string;
  /** URL hosts this adapter owns (matched against the host's end: `pubs.acs.org`, `acs.org`). */
  hosts: readonly string[];
  /** DOI prefixes of the publisher (`10.1021`). */
  doiPrefixes: readonly string[];
  /** Matched against `citation_publisher`/`dc.publisher`. */
  publisherName?: RegExp;
  /** Distinctive markup, for pages saved without URL, metadata and DOI (old ScienceDirect, Scitation fragments). */
  markup?: string;
  /** A site that republishes other publishers' articles (PMC, arXiv): its markup outranks the DOI prefix. */
  mirror?: boolean;
  /** Where the article text is, most specific first; the first selector with matches wins, all its matches are walked. */
  contentRoots: readonly string[];
  /** The abstract element(s). */
  abstract?: string;
  /** Left out of the body: author lists, reference lists, tool bars, … */
  exclude?: string;
  /** Caption elements besides `figcaption`/`caption`. */
  caption?: string;
  /** Figure containers besides `figure`. */
  figure?: string;
  /** Section-title elements besides `h1`–`h6`. */
  sectionHeading?: string;
  /**
   * A DOI the publisher's own markup or page script states outside the meta tags (old
   * ScienceDirect pages: `SDM.doi = '10.1016/…'`), or null. Read-only; runs no script.
   */
  pageDoi?(document: Document): string | null;
  /** Title element(s), used when the metadata has none. */
  title?: string;
}

/** True when `host` is `domain` or one of its subdomains. */
export function hostIs(host: string | null, domain: string): boolean {
  return host !== null && (host === domain || host.endsWith(`.${domain}`));
}
