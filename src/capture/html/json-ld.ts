/**
 * Article metadata from JSON-LD (`<script type="application/ld+json">`). JSON-LD is written by
 * the page and may be anything: invalid JSON, arrays, `@graph` wrappers, strings where objects
 * are expected, or a hostile shape. Every field is read defensively (type-checked, length-capped)
 * and a parse failure only means "no JSON-LD".
 */
import { stripControlCharacters } from '../../contracts/captured-text';
import { normalizeDoi } from '../doi';
import { elementsByTag } from '../tree-walk';

export interface JsonLdArticle {
  title: string | null;
  authors: string[];
  datePublished: string | null;
  journal: string | null;
  publisher: string | null;
  doi: string | null;
  /** `volumeNumber` of the article or of the `PublicationVolume` it is part of. */
  volume: string | null;
  /** `pageStart`, `pageEnd` or `pagination` ("231-234") as written. */
  pageStart: string | null;
  pageEnd: string | null;
  pagination: string | null;
}

const ARTICLE_TYPES = /^(?:ScholarlyArticle|Article|NewsArticle|TechArticle|MedicalScholarlyArticle|Report|Chapter|CreativeWork)$/i;
/** A page script can be huge (a whole app state); articles' JSON-LD is small. */
const MAX_SCRIPT_CHARS = 500_000;
const MAX_NODES = 200;

type Json = unknown;

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field, or the text of a `{"@value"}`/`{"name"}` wrapper; nesting is followed only a few levels (hostile input). */
function asText(value: Json, depth = 0): string | null {
  if (typeof value === 'string') return stripControlCharacters(value).replace(/\s+/g, ' ').trim().slice(0, 2000) || null;
  if (typeof value === 'number') return String(value);
  if (depth >= 4) return null;
  if (isRecord(value)) return asText(value['@value'] ?? value['name'] ?? value['value'], depth + 1);
  if (Array.isArray(value)) return asText(value[0], depth + 1);
  return null;
}

function asList(value: Json): Json[] {
  if (Array.isArray(value)) return value.slice(0, 1000);
  return value === undefined || value === null ? [] : [value];
}

/** Flatten arrays and `@graph` wrappers into a bounded list of JSON-LD nodes. */
function collectNodes(root: Json, nodes: Record<string, Json>[], depth = 0): void {
  if (nodes.length >= MAX_NODES || depth > 4) return;
  if (Array.isArray(root)) {
    for (const item of root.slice(0, MAX_NODES)) collectNodes(item, nodes, depth + 1);
    return;
  }
  if (!isRecord(root)) return;
  nodes.push(root);
  if (root['@graph'] !== undefined) collectNodes(root['@graph'], nodes, depth + 1);
  if (isRecord(root['mainEntity'])) collectNodes(root['mainEntity'], nodes, depth + 1);
}

function isArticleNode(node: Record<string, Json>): boolean {
  return asList(node['@type']).some((type) => typeof type === 'string' && ARTICLE_TYPES.test(type));
}

function doiOf(node: Record<string, Json>): string | null {
  const candidates = [...asList(node['identifier']), ...asList(node['sameAs']), node['doi'], node['@id'], node['url']];
  for (const candidate of candidates) {
    const text = isRecord(candidate)
      ? // PropertyValue {propertyID: "doi", value: "10.…"}
        (asText(candidate['value']) ?? asText(candidate['@id']))
      : asText(candidate);
    if (!text) continue;
    // Only accept values that say they are DOIs: a bare URL of the article page is not one.
    if (!/doi/i.test(text) && !/^10\.\d{4,9}\//.test(text)) continue;
    const doi = normalizeDoi(text);
    if (doi) return doi;
  }
  return null;
}

const EMPTY: JsonLdArticle = {
  title: null,
  authors: [],
  datePublished: null,
  journal: null,
  publisher: null,
  doi: null,
  volume: null,
  pageStart: null,
  pageEnd: null,
  pagination: null,
};

/**
 * The first ScholarlyArticle/Article node of the page's JSON-LD, as plain fields; all-null when
 * the page has none or it does not parse. `scripts` are the page's `<script>` elements when the
 * caller has them (only `type="application/ld+json"` ones are read).
 */
export function readJsonLd(document: Document, scripts: Iterable<Element> = elementsByTag(document, 'script')): JsonLdArticle {
  const nodes: Record<string, Json>[] = [];
  for (const script of scripts) {
    if ((script.getAttribute('type') ?? '').trim().toLowerCase() !== 'application/ld+json') continue;
    const source = script.textContent ?? '';
    if (source.length > MAX_SCRIPT_CHARS) continue;
    try {
      collectNodes(JSON.parse(source) as Json, nodes);
    } catch {
      // Invalid JSON-LD is common (trailing commas, HTML entities): ignore that script.
    }
  }
  const article = nodes.find(isArticleNode);
  if (!article) return EMPTY;
  const authors = asList(article['author'])
    .map((author) => {
      if (isRecord(author)) {
        const given = asText(author['givenName']);
        const family = asText(author['familyName']);
        return asText(author['name']) ?? ([given, family].filter(Boolean).join(' ') || null);
      }
      return asText(author);
    })
    .filter((name): name is string => name !== null);
  return {
    title: asText(article['headline']) ?? asText(article['name']),
    authors,
    datePublished: asText(article['datePublished']) ?? asText(article['dateCreated']),
    journal: journalOf(article['isPartOf']),
    publisher: isRecord(article['publisher']) ? asText(article['publisher']['name']) : asText(article['publisher']),
    doi: doiOf(article),
    volume: asText(article['volumeNumber']) ?? volumeOf(article['isPartOf']),
    pageStart: asText(article['pageStart']),
    pageEnd: asText(article['pageEnd']),
    pagination: asText(article['pagination']),
  };
}

/** `volumeNumber` of the first `PublicationVolume` up the `isPartOf` chain (issue → volume). */
function volumeOf(partOf: Json, depth = 0): string | null {
  if (!isRecord(partOf) || depth > 3) return null;
  const types = asList(partOf['@type']).filter((type): type is string => typeof type === 'string');
  if (types.some((type) => /PublicationVolume/i.test(type))) return asText(partOf['volumeNumber']);
  return volumeOf(partOf['isPartOf'], depth + 1);
}

/** The periodical name of `isPartOf`, climbing issue → volume → periodical when only those are named. */
function journalOf(partOf: Json, depth = 0): string | null {
  if (!isRecord(partOf)) return asText(partOf);
  const types = asList(partOf['@type']).filter((type): type is string => typeof type === 'string');
  const isIssueOrVolume = types.some((type) => /PublicationIssue|PublicationVolume/i.test(type));
  if (isIssueOrVolume && partOf['isPartOf'] !== undefined && depth < 3) return journalOf(partOf['isPartOf'], depth + 1);
  return asText(partOf['name']) ?? (depth < 3 ? journalOf(partOf['isPartOf'], depth + 1) : null);
}
