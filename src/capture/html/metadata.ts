/**
 * Article metadata from a page head: Highwire `citation_*` tags (what Google Scholar reads, so
 * nearly every publisher writes them), Dublin Core `dc.*`/`DC.*`, PRISM `prism.*`, Open Graph,
 * JSON-LD (`schema.org` ScholarlyArticle), `<link rel="canonical">` and `<title>`.
 * Only the page's own claims are read here; DOI fallbacks from the URL or the body live in
 * `capture-html.ts` because they need the adapter and the content root.
 */
import { stripControlCharacters } from '../../contracts/captured-text';
import { normalizeDoi } from '../doi';
import { descendantElements, elementsByTag } from '../tree-walk';
import { readJsonLd, type JsonLdArticle } from './json-ld';

export interface PageMetadata {
  doi: string | null;
  /** Where `doi` came from: a meta tag or JSON-LD; null when neither holds one. */
  doiOrigin: 'meta' | 'json-ld' | null;
  title: string | null;
  authors: string[];
  journal: string | null;
  year: number | null;
  publisher: string | null;
  canonicalUrl: string | null;
  /** The `<title>` element's text, unprocessed (a site suffix is removed only when it is used). */
  documentTitle: string | null;
  /** True when the page says it carries the full text openly (`citation_fulltext_world_readable`). */
  fulltextWorldReadable: boolean;
  /** `citation_abstract` / `dc.description` when long enough to be an abstract, not a teaser. */
  abstract: string | null;
  /** Count of `citation_*`, `dc.*`, `prism.*` article tags: evidence that this is one article's page. */
  articleTagCount: number;
}

/** All `<meta>` values keyed by lower-case `name` or `property`, in document order (empty values included). */
export type MetaIndex = Map<string, { content: string; scheme: string | null }[]>;

/**
 * Index every `<meta name|property content>` of the document (head and body: some saved pages
 * lost their head). `metas` are the document's `<meta>` elements when the caller has them.
 */
export function indexMeta(document: Document, metas: Iterable<Element> = elementsByTag(document, 'meta')): MetaIndex {
  const index: MetaIndex = new Map();
  for (const meta of metas) {
    const key = (meta.getAttribute('name') ?? meta.getAttribute('property') ?? meta.getAttribute('itemprop') ?? '').trim().toLowerCase();
    // Control characters are stripped before anything is parsed out of the value (an escape
    // sequence holds `;`, which splits `citation_authors`); `ArticleSchema` strips them again.
    const content = stripControlCharacters(meta.getAttribute('content') ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    // Empty values are kept: `citation_fulltext_world_readable` says what it says by being there.
    if (!key) continue;
    const list = index.get(key) ?? [];
    list.push({ content, scheme: meta.getAttribute('scheme')?.trim().toLowerCase() ?? null });
    index.set(key, list);
  }
  return index;
}

function first(index: MetaIndex, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = index.get(key)?.[0]?.content;
    if (value) return decodeEntities(value);
  }
  return null;
}

/** Some pages double-escape (`WILEY&#x2010;VCH`): decode numeric and the common named entities left in attribute text. */
function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/**
 * The DOI the meta tags claim, in order of trust: `citation_doi`, `dc.identifier` with
 * `scheme="doi"` or a `doi:` value, `prism.doi`, then any other `dc.identifier` that parses as
 * a DOI (a PII or ISSN in `dc.identifier` does not parse, so it is skipped).
 */
export function metaDoi(index: MetaIndex): string | null {
  const candidates: string[] = [];
  const push = (value: string | undefined): void => {
    if (value) candidates.push(value);
  };
  for (const entry of index.get('citation_doi') ?? []) push(entry.content);
  for (const entry of index.get('dc.identifier') ?? []) if (entry.scheme === 'doi' || /^\s*doi:/i.test(entry.content)) push(entry.content);
  for (const key of ['prism.doi', 'bepress_citation_doi', 'eprints.id_number'])
    for (const entry of index.get(key) ?? []) push(entry.content);
  for (const entry of index.get('dc.identifier') ?? []) if (entry.scheme === null || entry.scheme === 'doi') push(entry.content);
  for (const value of candidates) {
    const doi = normalizeDoi(value);
    if (doi) return doi;
  }
  return null;
}

/** "Family, Given" → "Given Family"; other forms are kept as written. Empty input gives "". */
export function displayAuthorName(raw: string): string {
  const name = raw.replace(/\s+/g, ' ').trim().replace(/[,;]$/, '');
  const comma = /^([^,]+),\s*([^,]+)$/.exec(name);
  if (comma?.[1] && comma[2] && !/^(?:jr|sr|ii|iii|iv)\.?$/i.test(comma[2].trim())) return `${comma[2].trim()} ${comma[1].trim()}`;
  return name;
}

/** Authors in order, deduplicated case-insensitively, as "Given Family". */
export function uniqueAuthors(names: Iterable<string>): string[] {
  const seen = new Set<string>();
  const authors: string[] = [];
  for (const raw of names) {
    const name = displayAuthorName(raw);
    const key = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
    if (!name || !key || seen.has(key)) continue;
    seen.add(key);
    authors.push(name);
  }
  return authors;
}

/** The first four-digit year between 1600 and 2200 in a date string (`2016/03/14`, `14 March 2016`), else null. */
export function yearOf(value: string | null | undefined): number | null {
  if (!value) return null;
  for (const match of value.matchAll(/(?<!\d)(1[6-9]\d\d|2[01]\d\d|2200)(?!\d)/g)) return Number(match[1]);
  return null;
}

/** Shorter meta descriptions are teasers ("Read the latest article…"), not abstracts. */
const MIN_META_ABSTRACT_CHARS = 200;

function metaAbstract(index: MetaIndex): string | null {
  const text = first(index, 'citation_abstract', 'dc.description', 'prism.teaser');
  if (!text) return null;
  // citation_abstract is sometimes HTML-escaped markup: drop the tags.
  const plain = text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^abstract\s*:?\s*/i, '')
    .trim();
  return plain.length >= MIN_META_ABSTRACT_CHARS ? plain : null;
}

const ARTICLE_TAG = /^(?:citation_|dc\.|prism\.|bepress_citation_)/;

/**
 * Read the metadata of a page (`elements`: its `pageElements`, when the caller has them). Never
 * throws: malformed JSON-LD is ignored, missing fields are null (or an empty author list).
 */
export function readPageMetadata(document: Document, elements: PageElements = pageElements(document)): PageMetadata {
  const index = indexMeta(document, elements.metas);
  const jsonLd: JsonLdArticle = readJsonLd(document, elements.scripts);
  let doi = metaDoi(index);
  let doiOrigin: PageMetadata['doiOrigin'] = doi ? 'meta' : null;
  if (!doi && jsonLd.doi) {
    doi = jsonLd.doi;
    doiOrigin = 'json-ld';
  }
  const metaAuthors = [...(index.get('citation_author') ?? []), ...(index.get('citation_authors') ?? [])].flatMap((entry) =>
    // `citation_authors` (old Highwire) lists everyone in one tag separated by semicolons.
    entry.content.includes(';') ? entry.content.split(';') : [entry.content],
  );
  const dcAuthors = (index.get('dc.creator') ?? []).map((entry) => entry.content);
  const authorSource = metaAuthors.length ? metaAuthors : dcAuthors.length ? dcAuthors : jsonLd.authors;
  const date = first(
    index,
    'citation_publication_date',
    'citation_date',
    'citation_online_date',
    'citation_cover_date',
    'prism.publicationdate',
    'dc.date',
    'citation_year',
    'article:published_time',
  );
  const documentTitle =
    stripControlCharacters(elements.title?.textContent ?? '')
      .replace(/\s+/g, ' ')
      .trim() || null;
  const canonical = elements.canonical?.getAttribute('href')?.trim() || null;
  let articleTagCount = 0;
  for (const [key, values] of index) if (ARTICLE_TAG.test(key)) articleTagCount += values.length;
  return {
    doi,
    doiOrigin,
    title: first(index, 'citation_title', 'dc.title', 'prism.title') ?? jsonLd.title ?? first(index, 'og:title', 'twitter:title'),
    authors: uniqueAuthors(authorSource),
    journal:
      first(index, 'citation_journal_title', 'prism.publicationname', 'citation_conference_title', 'dc.source', 'citation_inbook_title') ??
      jsonLd.journal,
    year: yearOf(date) ?? yearOf(jsonLd.datePublished),
    publisher: first(index, 'citation_publisher', 'dc.publisher', 'prism.publisher') ?? jsonLd.publisher,
    canonicalUrl: canonical ?? first(index, 'og:url', 'citation_abstract_html_url', 'citation_fulltext_html_url'),
    documentTitle,
    fulltextWorldReadable: index.has('citation_fulltext_world_readable'),
    abstract: metaAbstract(index),
    articleTagCount,
  };
}

/** The elements the capture reads outside the article body, found in one walk (`pageElements`). */
export interface PageElements {
  metas: Element[];
  scripts: Element[];
  styles: Element[];
  forms: Element[];
  /** The first `<title>`. */
  title?: Element;
  /** The first `<link rel="canonical">`. */
  canonical?: Element;
}

/**
 * Every `<meta>`, `<script>`, `<style>` and `<form>` of the page, its first `<title>` and first
 * `<link rel="canonical">`, wherever they are (saved pages may have lost their head), in one
 * sibling walk: no selector engine, no live collection, one pass for what would be six.
 */
export function pageElements(document: Document): PageElements {
  const found: PageElements = { metas: [], scripts: [], styles: [], forms: [] };
  for (const element of descendantElements(document)) {
    switch (element.localName.toLowerCase()) {
      case 'meta':
        found.metas.push(element);
        break;
      case 'script':
        found.scripts.push(element);
        break;
      case 'style':
        found.styles.push(element);
        break;
      case 'form':
        found.forms.push(element);
        break;
      case 'title':
        found.title ??= element;
        break;
      case 'link':
        if (!found.canonical && /(?:^|\s)canonical(?:\s|$)/i.test(element.getAttribute('rel') ?? '')) found.canonical = element;
        break;
    }
  }
  return found;
}
