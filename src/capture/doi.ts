/**
 * DOI normalization and discovery.
 *
 * The pattern is Crossref's recommended one for modern DOIs, `/^10.\d{4,9}/[-._;()/:A-Z0-9]+$/i`
 * (https://www.crossref.org/blog/dois-and-matching-regular-expressions/), widened to the
 * characters publishers really put in DOIs (`<>[]`, as in old Wiley SICIs, and `+`).
 * DOIs are case-insensitive (DOI Handbook §2.4), so the stored form is lower-case.
 */

import { stripControlCharacters } from '../contracts/captured-text';

const DOI_BODY = String.raw`10\.\d{4,9}/[-._;()/:A-Za-z0-9<>\[\]+]+`;
const DOI_ANYWHERE = new RegExp(DOI_BODY, 'g');
const DOI_EXACT = new RegExp(`^${DOI_BODY}$`);
const PREFIXES = [
  /^\s*(?:https?:\/\/)?(?:dx\.|www\.)?doi\.org\//i,
  /^\s*(?:https?:\/\/)?[^/\s]*\/doi\/(?:abs\/|full\/|pdf\/|epdf\/|fulltext\/|book\/)?/i,
  /^\s*info:doi\//i,
  /^\s*urn:doi:/i,
  /^\s*doi\s*[:=]?\s*/i,
];

/** Remove trailing sentence punctuation and a closing bracket that has no opening partner. */
function trimDoiTail(candidate: string): string {
  let doi = candidate;
  for (;;) {
    const before = doi;
    doi = doi.replace(/[.,;:]+$/, '');
    for (const [open, close] of [
      ['(', ')'],
      ['[', ']'],
      ['<', '>'],
    ] as const) {
      if (doi.endsWith(close) && count(doi, open) < count(doi, close)) doi = doi.slice(0, -1);
    }
    if (doi === before) return doi;
  }
}

function count(text: string, character: string): number {
  return text.split(character).length - 1;
}

/**
 * Normalize one DOI as written anywhere (`doi:10.1038/NMAT942`, `https://doi.org/10.1021%2Fx`,
 * `info:doi/…`, a publisher `/doi/abs/…` URL) to its stored form: lower-case, no prefix,
 * percent-escapes decoded, control characters and terminal escape sequences removed, trailing
 * punctuation dropped.
 * Returns `null` when the input holds no DOI.
 */
export function normalizeDoi(raw: string | null | undefined): string | null {
  if (!raw) return null;
  // A control character or escape sequence inside a DOI (a hostile page's citation_doi) would cut it short.
  let value = stripControlCharacters(raw).trim();
  try {
    if (/%[0-9a-f]{2}/i.test(value)) value = decodeURIComponent(value);
  } catch {
    // A stray '%' that is not an escape: keep the text as written.
  }
  for (const prefix of PREFIXES) value = value.replace(prefix, '');
  value = value.replace(/[?#].*$/, '');
  const match = new RegExp(DOI_BODY).exec(value);
  if (!match || match.index !== 0) {
    // Not at the start after stripping prefixes: accept it only if the whole string is "junk + DOI".
    if (!match) return null;
  }
  const doi = trimDoiTail(match[0]).toLowerCase();
  return DOI_EXACT.test(doi) ? doi : null;
}

/**
 * Every distinct DOI written in a text (links, "doi:" strings, bare DOIs), normalized, in order
 * of first appearance.
 */
export function findDois(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(DOI_ANYWHERE)) {
    const doi = normalizeDoi(match[0]);
    if (doi) seen.add(doi);
  }
  return [...seen];
}

/** The DOI a URL points at (`https://doi.org/…`, `…/doi/10.…`, `…/doi/abs/10.…`), or null. */
export function doiFromUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // keep as is
  }
  const match = /(?:doi\.org\/|\/doi\/(?:abs\/|full\/|pdf\/|epdf\/|fulltext\/)?)(10\.\d{4,9}\/[^?#\s]+)/i.exec(decoded);
  return match?.[1] ? normalizeDoi(match[1]) : null;
}
