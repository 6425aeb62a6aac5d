/**
 * Citation metadata printed in the page, the last resort when its citation tags, Dublin Core,
 * PRISM and JSON-LD leave a field out (a saved page that lost its head, a publisher that never
 * writes `citation_journal_title`). Read by the conventions publishers print them in, never by
 * publisher:
 * - `<title>`: "Article title | Journal" / "Article title - Journal (Publisher)";
 * - a breadcrumb "Home > Journal > Volume 12, Issue 3 > …";
 * - a physics-style line "Journal 12, 022102 (2013); https://doi.org/10.…";
 * - a "Cite this: J. Phys. Chem. A 2023, 127, 50, 10709–10716" line, or the same form before
 *   "DOI: 10.…";
 * - a volume line "Volume 58, January 2014, Pages 181–192" with the journal printed just before it;
 * - author names marked up as JATS-style `given-name`/`surname` pairs, `contrib-author`,
 *   `authorName`/`author-name`, `itemprop="author"` or `rel="author"` elements, outside
 *   reference lists and "related articles" boxes.
 */
import { descendantElements } from '../tree-walk';
import { normalizePages, normalizeVolume } from '../citation-fields';
import { isElement, isHiddenByMarkup, isText, tagOf } from './dom-text';

export interface PrintedCitation {
  authors: string[];
  journal: string | null;
  volume: string | null;
  /** "first-last" or a single page / article number. */
  pages: string | null;
  year: number | null;
}

/** Only the start of a page's text is searched: the article's own citation is printed above its body. */
const MAX_TEXT_CHARS = 400_000;

/** Segments of `<title>` that name the site or the page kind, not a journal. */
const NOT_A_JOURNAL =
  /^(?:sciencedirect|science direct|springerlink|springer(?: nature)?(?: link)?|wiley online library|acs publications|rsc publishing|pubs\.rsc\.org|iopscience|aip publishing|scitation|mdpi|arxiv(?:\.org)?|pmc|europe pmc|nature\.com|free full-?text|full-?text|html|pdf|abstract|article|articles|research article|review|letter|home)$/i;

const UNREAD_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'select', 'option']);

/**
 * The text of `root` with a space at every element boundary, whitespace collapsed: a citation
 * printed as `<span>2001</span><span>105</span>` (separated by CSS) reads "2001 105", not
 * "2001105". For matching citation lines only (it splits "Ni<sub>12</sub>" too). Elements
 * hidden by markup are left out; at most `limit` characters.
 */
export function citationText(root: Node, limit = MAX_TEXT_CHARS): string {
  const parts: string[] = [];
  let length = 0;
  const stack: (Node | ' ')[] = [root];
  while (stack.length > 0 && length < limit) {
    const node = stack.pop()!;
    if (node === ' ') {
      parts.push(' ');
      continue;
    }
    if (isText(node)) {
      const value = node.nodeValue ?? '';
      parts.push(value);
      length += value.length;
      continue;
    }
    if (isElement(node)) {
      if (UNREAD_TAGS.has(tagOf(node)) || isHiddenByMarkup(node)) continue;
      parts.push(' ');
      stack.push(' ');
    }
    for (let child = node.lastChild; child; child = child.previousSibling) stack.push(child);
  }
  return parts.join('').replace(/\s+/g, ' ').trim().slice(0, limit);
}

function letterKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The journal named in a `<title>` beside the article title: the title is split at " | ",
 * " - ", " – ", " — " and " : "; segments that are part of the article title, the site's name
 * (`siteName`, a known platform), a year, an author's family name or a citation are dropped, a
 * trailing "(Publisher)" / "DOI:…" is cut, and the last segment left is the journal. Null when
 * none is left or the page has no article title to tell the journal from.
 */
export function journalFromDocumentTitle(
  documentTitle: string | null,
  articleTitle: string | null,
  authors: readonly string[] = [],
  siteName: string | null = null,
): string | null {
  if (!documentTitle || !articleTitle) return null;
  const titleKey = letterKey(articleTitle);
  const familyKeys = new Set(authors.map((author) => letterKey(author.split(' ').pop() ?? '')));
  const siteKey = siteName ? letterKey(siteName) : null;
  const candidates = documentTitle
    .replace(/\s+/g, ' ')
    .split(/\s+(?:\||-|–|—|:)\s+|\s*\|\s*/)
    .map((segment) =>
      segment
        .replace(/\s*DOI:?\s*10\.\S*$/i, '')
        .replace(/\s*\([^()]*(?:Publications|Publishing|Online Library)\)\s*$/i, '')
        .trim(),
    )
    .filter((segment) => {
      const key = letterKey(segment);
      if (key.length < 3 || !/\p{L}/u.test(segment) || segment.length > 150) return false;
      if (titleKey.includes(key) || key.includes(titleKey)) return false;
      if (NOT_A_JOURNAL.test(segment) || key === siteKey || familyKeys.has(key)) return false;
      // "Phys. Rev. Lett. 122, 145901 (2019)" is a citation, "2015" a year.
      return !/\d+\s*,\s*[A-Za-z]?\d+|^\d+$/.test(segment);
    });
  return candidates.at(-1) ?? null;
}

const YEAR = /(?<!\d)(1[6-9]\d\d|20\d\d)(?!\d)/;
const PAGE = String.raw`[A-Za-z]?\d{1,7}[A-Za-z]?`;
const PAGES = String.raw`${PAGE}(?:\s*[–—‐-]\s*${PAGE})?`;

interface Found {
  journal?: string | null;
  volume?: string | null;
  pages?: string | null;
  year?: number | null;
}

/** "Home > … > Journal > Volume 12, Issue 3 > …": the journal and volume. */
function fromBreadcrumb(text: string): Found {
  for (const home of text.matchAll(/\bHome\s*[>›»]/g)) {
    const segments = text
      .slice(home.index + home[0].length, home.index + 800)
      .split(/[>›»]/)
      .map((segment) => segment.trim());
    const at = segments.findIndex((segment) => /^Vol(?:ume|\.)?\s*\d+/i.test(segment));
    if (at <= 0) continue;
    const journal = segments[at - 1]!;
    // Some breadcrumbs go on to the article: "… > Volume 6, 2015 > Nandkishore, pp 15-38".
    const pages = new RegExp(String.raw`^[^,]{0,60},?\s*pp?\.?\s*(${PAGES})(?![\d–-])`).exec(segments[at + 1] ?? '');
    return {
      journal: journal.length >= 3 && journal.length <= 150 ? journal : null,
      volume: normalizeVolume(/^Vol(?:ume|\.)?\s*(\d+)/i.exec(segments[at]!)?.[1]),
      pages: normalizePages(pages?.[1]),
    };
  }
  return {};
}

const PHYSICS_LINE = new RegExp(
  String.raw`(\d{1,5})\s*,\s*(${PAGES})\s*\(((?:1[6-9]|20)\d\d)\)\s*[;,.]?\s*(?:https?://(?:dx\.)?doi\.org/|doi:?\s*)(10\.\d{4,9}/\S+)`,
  'gi',
);

/** Whether a DOI printed in the page (`printed`, maybe with trailing punctuation) is the article's (`doi`); any is when the DOI is not known. */
function isOwnDoi(printed: string | undefined, doi: string | null): boolean {
  return doi === null || (printed ?? '').toLowerCase().startsWith(doi.toLowerCase());
}

/**
 * "APL Materials 1, 022102 (2013); https://doi.org/10.1063/…": volume, page, year — of the
 * line citing the article's own DOI when it is known (a reference list cites others this way).
 */
function fromPhysicsLine(text: string, doi: string | null): Found {
  for (const match of text.matchAll(PHYSICS_LINE)) {
    if (!isOwnDoi(match[4], doi)) continue;
    return { volume: normalizeVolume(match[1]), pages: normalizePages(match[2]), year: Number(match[3]) };
  }
  return {};
}

const CITE_BODY = String.raw`((?:1[6-9]|20)\d\d)\s*,?\s*(\d{1,5}|X+)\s*,?\s*(?:\(?(?:\d{1,4}|X+)\)?\s*,?\s*)?(?:pp\.?\s*)?(${PAGES}|X+\s*-\s*X+)`;
const CITE_THIS = new RegExp(String.raw`Cite\s+this\s*:?\s*([A-Z][^,\n]{1,80}?)\s*,?\s*` + CITE_BODY, 'i');
const CITE_BEFORE_DOI = new RegExp(String.raw`,\s*` + CITE_BODY + String.raw`\s*DOI:?\s*(10\.\d{4,9}/\S+)`, 'gi');

/** "Cite this: J. Phys. Chem. A 2023, 127, 50, 10709–10716" (or the same before "DOI: 10.…"). */
function fromCiteThis(text: string, doi: string | null): Found {
  const labelled = CITE_THIS.exec(text);
  if (labelled) {
    return {
      journal: labelled[1]!.trim(),
      year: Number(labelled[2]),
      volume: normalizeVolume(labelled[3]),
      pages: normalizePages(labelled[4]),
    };
  }
  for (const beforeDoi of text.matchAll(CITE_BEFORE_DOI)) {
    if (!isOwnDoi(beforeDoi[4], doi)) continue;
    return { year: Number(beforeDoi[1]), volume: normalizeVolume(beforeDoi[2]), pages: normalizePages(beforeDoi[3]) };
  }
  return {};
}

const VOLUME_LINE = new RegExp(
  String.raw`^Volume\s+(\d{1,5})(?:\s*,\s*Issues?\s+[\w–-]+)?\s*,\s*([^,]{3,40}?)\s*,\s*Pages?\s+(${PAGES})`,
  'i',
);

/**
 * "Volume 58, January 2014, Pages 181–192" in an element of its own, with the journal in the
 * element printed just before it (a heading or a link to the journal).
 */
function fromVolumeLine(document: Document): Found {
  const root = document.body ?? document.documentElement;
  if (!root) return {};
  let seen = 0;
  for (const element of descendantElements(root)) {
    if (++seen > 20_000) break;
    // Only the element's own first text (linear: `textContent` here would be quadratic in depth).
    const first = element.firstChild;
    const own = first && isText(first) ? (first.nodeValue ?? '') : '';
    if (!/^\s*Volume\s+\d/i.test(own) || (element.textContent ?? '').length > 200) continue;
    // The volume is often a link inside the line: climb to the element holding the whole line.
    let line: Element | null = element;
    for (let depth = 0; line && depth < 3; depth += 1, line = line.parentElement) {
      const text = citationText(line, 1000);
      if (text.length > 300) break;
      const match = VOLUME_LINE.exec(text);
      if (!match) continue;
      const before = line.previousElementSibling ? citationText(line.previousElementSibling, 1000) : '';
      return {
        journal: before.length >= 3 && before.length <= 150 && !/\d{3,}/.test(before) ? before : null,
        volume: normalizeVolume(match[1]),
        year: yearIn(match[2]),
        pages: normalizePages(match[3]),
      };
    }
  }
  return {};
}

function yearIn(text: string | undefined): number | null {
  const match = text ? YEAR.exec(text) : null;
  return match ? Number(match[1]) : null;
}

/** Containers whose author names are other papers' (reference lists, recommendations). */
const FOREIGN_CONTAINER =
  /(?:^|[\s_-])(?:ref|refs|references?|bibliography|bibliographies|related|recommended|recommendations?|cited|citedby|cited-by|citing|sidebar|toc)(?:$|[\s_-])/i;

function inForeignContainer(element: Element): boolean {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const role = node.getAttribute('role');
    if (role === 'doc-bibliography') return true;
    const tag = node.localName.toLowerCase();
    if (tag === 'aside' || tag === 'nav' || tag === 'footer') return true;
    const label = `${node.getAttribute('class') ?? ''} ${node.id}`;
    if (FOREIGN_CONTAINER.test(label)) return true;
  }
  return false;
}

const AUTHOR_CLASS = /(?:^|\s)(?:contrib-author|author-name|authorName|authorname|citation-author)(?:\s|$)/;

/** The name an author element holds: its link's text when it has one (the rest is affiliation marks), else its own text. */
function nameIn(element: Element): string {
  // An ORCID badge is a link too, holding only an image: the name is the first link with letters.
  const link =
    element.localName.toLowerCase() === 'a'
      ? element
      : [...element.querySelectorAll('a')].find((anchor) => /\p{L}{2}/u.test(anchor.textContent ?? ''));
  const raw = (link ?? element).textContent ?? '';
  return raw
    .replace(/\s+/g, ' ')
    .replace(/[\d*†‡§¶‖#]+/g, ' ')
    .replace(/^\s*(?:and|&)\s+|\s*,?\s*(?:and|&)?\s*$/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function plausibleName(name: string): boolean {
  return name.length >= 3 && name.length <= 80 && /\p{Lu}/u.test(name) && /\p{L}\p{L}/u.test(name) && name.split(' ').length <= 8;
}

/**
 * Author names marked up in the page, in order: `given-name` + `surname` pairs first (JATS and
 * the platforms built on it), else elements marked as an author's name. Only the first group
 * (the names under the first marked element's author-list container) is read, so a "related
 * articles" list further down adds nobody. Empty when the page marks up no author.
 */
export function markedUpAuthors(document: Document): string[] {
  const root = document.body ?? document.documentElement;
  if (!root) return [];
  const pairs: { element: Element; name: string }[] = [];
  const marked: { element: Element; name: string }[] = [];
  for (const element of descendantElements(root)) {
    const classes = element.getAttribute('class') ?? '';
    if (/(?:^|\s)given-name(?:\s|$)/.test(classes)) {
      let surname = element.nextElementSibling;
      while (surname && !/(?:^|\s)surname(?:\s|$)/.test(surname.getAttribute('class') ?? '')) surname = surname.nextElementSibling;
      if (!surname || inForeignContainer(element)) continue;
      const name = `${element.textContent ?? ''} ${surname.textContent ?? ''}`.replace(/\s+/g, ' ').trim();
      if (plausibleName(name)) pairs.push({ element, name });
    } else if (
      AUTHOR_CLASS.test(classes) ||
      element.getAttribute('itemprop') === 'author' ||
      (element.localName.toLowerCase() === 'a' && element.getAttribute('rel') === 'author')
    ) {
      if (inForeignContainer(element)) continue;
      const name = nameIn(element);
      if (plausibleName(name)) marked.push({ element, name });
    }
  }
  const found = pairs.length > 0 ? pairs : marked;
  if (found.length === 0) return [];
  const group = authorGroupOf(found[0]!.element, found);
  return found.filter((entry) => !group || group.contains(entry.element)).map((entry) => entry.name);
}

/**
 * The article's author list around `element`: of its ancestors (up to 8 levels) whose class, id
 * or label speaks of authors, the nearest holding the most of the `found` names (one author's
 * own link is such an ancestor too, and holds one). Null when there is none.
 */
function authorGroupOf(element: Element, found: readonly { element: Element }[]): Element | null {
  let best: Element | null = null;
  let bestCount = 0;
  for (let node = element.parentElement, depth = 0; node && depth < 8; node = node.parentElement, depth += 1) {
    const label = `${node.getAttribute('class') ?? ''} ${node.id} ${node.getAttribute('aria-label') ?? ''}`;
    if (!/author/i.test(label)) continue;
    const count = found.filter((entry) => node.contains(entry.element)).length;
    if (count > bestCount) {
      best = node;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Everything `PrintedCitation` holds that the page prints: `want` says which fields are still
 * missing (the others are not searched for). `articleTitle`, `documentTitle`, `authors` and
 * `siteName` tell the journal in `<title>` apart from the rest of it; `doi` picks the article's
 * own citation line out of a page that cites others the same way.
 */
export function readPrintedCitation(
  document: Document,
  context: {
    articleTitle: string | null;
    documentTitle: string | null;
    authors: readonly string[];
    siteName: string | null;
    /** The article's DOI when the tags give it: a citation line before another DOI is a reference's. */
    doi?: string | null;
    want: { authors: boolean; journal: boolean; volume: boolean; pages: boolean; year: boolean };
  },
): PrintedCitation {
  const { want } = context;
  const authors = want.authors ? markedUpAuthors(document) : [];
  const result: PrintedCitation = { authors, journal: null, volume: null, pages: null, year: null };
  if (want.journal) {
    result.journal = journalFromDocumentTitle(
      context.documentTitle,
      context.articleTitle,
      [...context.authors, ...authors],
      context.siteName,
    );
  }
  if (!want.journal && !want.volume && !want.pages && !want.year) return result;
  const root = document.body ?? document.documentElement;
  const text = root ? citationText(root) : '';
  const breadcrumb = fromBreadcrumb(text);
  const physics = fromPhysicsLine(text, context.doi ?? null);
  const cite = fromCiteThis(text, context.doi ?? null);
  const volumeLine = want.journal || want.volume || want.pages || want.year ? fromVolumeLine(document) : {};
  // Most trusted first: a journal named as such (breadcrumb, the line before "Volume") over the
  // abbreviation of a "Cite this" line; numbers from lines that print all of them together.
  result.journal ??= breadcrumb.journal ?? volumeLine.journal ?? cite.journal ?? null;
  result.volume = cite.volume ?? physics.volume ?? volumeLine.volume ?? breadcrumb.volume ?? null;
  result.pages = cite.pages ?? physics.pages ?? volumeLine.pages ?? breadcrumb.pages ?? null;
  result.year = cite.year ?? physics.year ?? volumeLine.year ?? null;
  return result;
}
