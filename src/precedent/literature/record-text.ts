/**
 * Text clean-up shared by the literature clients: JATS abstracts (Crossref) to plain text,
 * whitespace folding, arXiv ids (from arXiv DataCite DOIs, without versions), and the title key used
 * for deduplication. DOIs are read by src/capture/doi.ts (`normalizeDoi`), the one DOI reader.
 * Markup is parsed with fast-xml-parser and only its text nodes are kept — nothing is ever
 * rendered as HTML.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** Elements that end a block of text (paragraphs, section titles, list items): joined with a space. */
const BLOCK_ELEMENTS = new Set(['p', 'title', 'sec', 'list-item', 'list', 'abstract', 'label', 'caption', 'disp-formula', 'break']);

/** Fold runs of whitespace (including newlines inside arXiv titles) to one space and trim. */
export function foldWhitespace(text: string): string {
  return text
    .split(/\s+/u)
    .filter((part) => part !== '')
    .join(' ');
}

/**
 * A JATS (or plain) abstract → plain text: element text kept in document order, inline elements
 * (`<jats:sub>c</jats:sub>` in "T<jats:sub>c</jats:sub>") joined without a space, block elements
 * (`<jats:p>`, `<jats:title>`) separated by one; XML and HTML entities decoded. Markup that does
 * not parse (Crossref holds some broken abstracts) falls back to replacing everything from '<' to
 * the next '>' with a space (so "MgB<sub>2</sub>" reads "MgB 2", and a bare '<' in the text
 * swallows up to the next tag). Returns null for an empty result.
 */
export function jatsToText(markup: string): string | null {
  const wrapped = `<root>${markup}</root>`;
  let text: string;
  if (XMLValidator.validate(wrapped) === true) {
    const parser = new XMLParser({
      preserveOrder: true,
      removeNSPrefix: true,
      ignoreAttributes: true,
      trimValues: false,
      parseTagValue: false,
      htmlEntities: true,
    });
    text = collectText(parser.parse(wrapped) as unknown);
  } else {
    text = decodeBasicEntities(skipTags(markup));
  }
  const folded = foldWhitespace(text);
  return folded === '' ? null : folded;
}

function collectText(node: unknown): string {
  if (Array.isArray(node)) return node.map(collectText).join('');
  if (node === null || typeof node !== 'object') return '';
  let text = '';
  for (const [key, value] of Object.entries(node)) {
    if (key === '#text') text += String(value);
    else if (key !== ':@') text += BLOCK_ELEMENTS.has(key) ? ` ${collectText(value)} ` : collectText(value);
  }
  return text;
}

/** Drop everything from '<' to the next '>' (a character scan, for markup the parser rejected). */
function skipTags(markup: string): string {
  let text = '';
  let inTag = false;
  for (const character of markup) {
    if (character === '<') {
      inTag = true;
      text += ' ';
    } else if (character === '>' && inTag) inTag = false;
    else if (!inTag) text += character;
  }
  return text;
}

const BASIC_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeBasicEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/giu, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return safeCodePoint(Number.parseInt(name.slice(2), 16), whole);
    if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10), whole);
    return BASIC_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function safeCodePoint(codePoint: number, fallback: string): string {
  return Number.isInteger(codePoint) && codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : fallback;
}

/**
 * The arXiv id a DOI stands for when it is arXiv's own DataCite DOI ("10.48550/arxiv.2101.00001"
 * → "2101.00001"), so a preprint found by OpenAlex and by arXiv deduplicates.
 */
export function arxivIdFromDoi(doi: string | null): string | undefined {
  const prefix = '10.48550/arxiv.';
  return doi?.startsWith(prefix) ? stripArxivVersion(doi.slice(prefix.length)) : undefined;
}

/** "2101.00001v2" → "2101.00001"; "cond-mat/0102345v1" → "cond-mat/0102345". */
export function stripArxivVersion(id: string): string {
  return id.replace(/v\d+$/u, '');
}

/** The title key for deduplication: letters and digits only, lower-cased ("Tc of MgB₂!" → "tcofmgb2"). */
export function titleKey(title: string): string {
  return title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}
