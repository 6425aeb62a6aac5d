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
import { normalizePages, normalizeVolume } from '../citation-fields';
import { readPrintedCitation } from './printed-citation';

export interface PageMetadata {
  doi: string | null;
  /** Where `doi` came from: a meta tag or JSON-LD; null when neither holds one. */
  doiOrigin: 'meta' | 'json-ld' | null;
  title: string | null;
  authors: string[];
  journal: string | null;
  /** The volume as printed ("127"); null when the page gives none (an advance article). */
  volume: string | null;
  /** "first-last" (hyphen) or a single page / article number ("041027"); null when not given. */
  pages: string | null;
  /** The issue (print) year; the online date only when the page gives no other. */
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

/**
 * "Family, Given" → "Given Family"; other forms are kept as written. Footnote marks and a
 * trailing "and" that some pages leave in the name ("Jean Paul Malrieu,*,‡ and") are dropped.
 * Empty input gives "".
 */
export function displayAuthorName(raw: string): string {
  const name = raw
    .replace(/[*†‡§¶‖]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(?:\s*,)*\s+and$/i, '')
    .replace(/[\s,;]+$/, '')
    .replace(/^[\s,;]+/, '');
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

/**
 * One author tag's names: `citation_authors` (old Highwire) lists everyone separated by
 * semicolons; some saved ScienceDirect pages write every `dc.creator` into one tag as
 * "S. Foletti, , S. Beretta, , M.G. Tarantino, " (an empty field between names).
 */
function splitAuthorList(value: string): string[] {
  if (value.includes(';')) return value.split(';');
  if (/,\s*,/.test(value)) return value.split(/\s*,\s*,\s*/);
  return [value];
}

/** A journal name, not a URL, a DOI or a whole citation ("Nature, Published online: 17 January 2007; | doi:…"). */
function isJournalName(value: string): boolean {
  return !/https?:|www\.|\bdoi\b|10\.\d{4,9}\/|published online/i.test(value) && /\p{L}{2}/u.test(value) && value.length <= 300;
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
    splitAuthorList(decodeEntities(entry.content)),
  );
  const dcAuthors = (index.get('dc.creator') ?? []).flatMap((entry) => splitAuthorList(decodeEntities(entry.content)));
  const authorSource = metaAuthors.length ? metaAuthors : dcAuthors.length ? dcAuthors : jsonLd.authors;
  // The date before the online one: a 1926 paper put online in 2006 is from 1926, a
  // paper online in December 2014 and in the February 2015 issue is cited as 2015.
  const printDate = first(index, 'citation_publication_date', 'citation_cover_date', 'prism.coverdate', 'citation_date', 'citation_year');
  const otherDate = first(index, 'prism.publicationdate', 'dc.date', 'dc.date.issued', 'dcterms.issued');
  const onlineDate = first(index, 'citation_online_date', 'article:published_time');
  const documentTitle =
    stripControlCharacters(elements.title?.textContent ?? '')
      .replace(/\s+/g, ' ')
      .trim() || null;
  const canonical = elements.canonical?.getAttribute('href')?.trim() || null;
  let articleTagCount = 0;
  for (const [key, values] of index) if (ARTICLE_TAG.test(key)) articleTagCount += values.length;
  const title = first(index, 'citation_title', 'dc.title', 'prism.title') ?? jsonLd.title ?? first(index, 'og:title', 'twitter:title');
  const authors = uniqueAuthors(authorSource);
  const journal =
    [
      first(index, 'citation_journal_title'),
      first(index, 'prism.publicationname'),
      first(index, 'citation_conference_title'),
      first(index, 'dc.source'),
      first(index, 'citation_inbook_title'),
      jsonLd.journal,
    ].find((name): name is string => name !== null && isJournalName(name)) ?? null;
  const volume = normalizeVolume(first(index, 'citation_volume', 'prism.volume') ?? jsonLd.volume);
  const pages =
    normalizePages(
      first(index, 'citation_firstpage', 'prism.startingpage') ?? jsonLd.pageStart,
      first(index, 'citation_lastpage', 'prism.endingpage') ?? jsonLd.pageEnd,
    ) ?? normalizePages(first(index, 'prism.pagerange', 'citation_pages') ?? jsonLd.pagination);
  const tagYear = yearOf(printDate) ?? yearOf(otherDate) ?? yearOf(jsonLd.datePublished);
  // What the tags leave out is looked for in what the page prints.
  const want = {
    authors: authors.length === 0,
    journal: journal === null,
    volume: volume === null,
    pages: pages === null,
    year: tagYear === null,
  };
  const printed =
    want.authors || want.journal || want.volume || want.pages || want.year
      ? readPrintedCitation(document, {
          articleTitle: title,
          // A page without article tags may be anyone's ("Notes on cathodes | My Blog"): its
          // <title> suffix is no journal.
          documentTitle: articleTagCount > 0 || jsonLd.title !== null ? documentTitle : null,
          authors,
          siteName: first(index, 'og:site_name'),
          doi,
          want,
        })
      : null;
  return {
    doi,
    doiOrigin,
    title,
    authors: authors.length > 0 ? authors : uniqueAuthors(printed?.authors ?? []),
    journal: journal ?? printed?.journal ?? null,
    volume: volume ?? printed?.volume ?? null,
    pages: pages ?? printed?.pages ?? null,
    year: yearOf(printDate) ?? printed?.year ?? yearOf(otherDate) ?? yearOf(jsonLd.datePublished) ?? yearOf(onlineDate),
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
