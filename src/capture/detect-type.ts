/**
 * Content sniffing: what kind of document a byte buffer holds, decided from its content (magic
 * bytes, XML declaration, root element), never from a file name alone.
 */

import { decodeText } from './sniff-encoding';

export type DocumentType = 'pdf' | 'html' | 'xml' | 'text';

/** Roots of full-text XML formats that are articles even though they are not HTML. */
const XML_ARTICLE_ROOT =
  /<(?:[\w-]+:)?(?:article|full-text-retrieval-response|document|converted-article|simple-article|pmc-articleset)\b/i;

/**
 * Decide the document type of `bytes`.
 * - `%PDF-` within the first 1024 bytes (PDF 32000-1 §7.5.2 allows leading garbage) → pdf
 * - an HTML doctype or `<html>`/`<head>`/`<body>`/`<div>`… before any XML article root → html
 * - an XML declaration or a known XML article root (JATS `<article>`, Elsevier
 *   `<full-text-retrieval-response>`, CONSYN `<doc:document>`) → xml
 * - anything else that decodes as text → text
 * An XML file whose root is `<html>` with a JATS-like `<article>` inside (as some scrapers
 * save IOP XML) is xml: the `<!DOCTYPE article …>` or an `<article-metadata>` element says so.
 */
export function detectDocumentType(bytes: Uint8Array, text: string): DocumentType {
  if (looksLikePdf(bytes)) return 'pdf';
  const start = text
    .slice(0, 4096)
    .replace(/^\uFEFF/, '')
    .trimStart();
  const doctype = /<!DOCTYPE\s+(\w+)/i.exec(start)?.[1]?.toLowerCase();
  if (doctype === 'article' || /<article-metadata\b|<front>\s*<journal-meta\b/i.test(text.slice(0, 20000))) return 'xml';
  if (doctype === 'html' || /^<(?:html|head|body|meta|title|div|section|main|p|link|script)\b/i.test(start)) return 'html';
  if (start.startsWith('<?xml') || XML_ARTICLE_ROOT.test(start.slice(0, 600))) {
    return /<html\b/i.test(start.slice(0, 2000)) && !XML_ARTICLE_ROOT.test(start.slice(0, 2000)) ? 'html' : 'xml';
  }
  if (/^<!--/.test(start) && /<(?:html|body|div)\b/i.test(text.slice(0, 20000))) return 'html';
  return 'text';
}

/** True when `%PDF-` is within the first 1024 bytes (PDF 32000-1 §7.5.2 allows leading garbage). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return new TextDecoder('latin1').decode(bytes.subarray(0, 1024)).includes('%PDF-');
}

/**
 * The share of `text` (0–1) that no document is made of: C0 controls other than tab, line feed,
 * carriage return and form feed, DEL, C1 controls, and U+FFFD (bytes that did not decode). Real
 * pages and papers hold almost none (a few stray characters; text extracted from a PDF with a
 * mis-mapped font, up to ~12 %); random bytes decoded as UTF-8 are about 60 % such characters,
 * UTF-16 text read as UTF-8 about 50 % (NULs).
 */
export function binaryShare(text: string): number {
  if (text.length === 0) return 0;
  let junk = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (
      (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0xfffd
    )
      junk += 1;
  }
  return junk / text.length;
}

/**
 * Decode a text document's bytes to a string (`decodeText` of sniff-encoding.ts: byte-order
 * mark, UTF-16 NUL pattern, then the XML or HTML declaration unless the bytes contradict it,
 * else UTF-8). Labels are WHATWG Encoding labels, so `ISO-8859-1` decodes as windows-1252, as
 * browsers do. For the warning when a declaration was overruled, call `decodeText`.
 */
export function decodeDocumentBytes(bytes: Uint8Array): string {
  return decodeText(bytes).text;
}
