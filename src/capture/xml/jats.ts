/**
 * JATS / NLM article XML (Journal Publishing and Archiving DTDs 2.x–1.x): PMC `.nxml`, APS,
 * MDPI, Springer, and ACS's Atypon "Archiving and Interchange DTD with ACHS extensions".
 *
 * ACS writes generated punctuation as `<x>` elements (`<given-names>A</given-names><x> </x>
 * <surname>B</surname><x>, </x>`): names are built from their parts, so the separators never
 * matter there, and in running text `<x>` is ordinary inline text.
 */
import type { ArticleBuilder } from '../article-builder';
import { BlockWalker, type BodyVocabulary } from './block-walker';
import { elementText } from './inline-text';
import { normalizePages, normalizeVolume } from '../citation-fields';
import type { XmlFormat, XmlReading } from './xml-format';
import { childElements, childPath, firstChild, firstDescendant, plainText, yearFrom } from './xml-dom';

const names = (...list: string[]): ReadonlySet<string> => new Set(list);

export const JATS_VOCABULARY: BodyVocabulary = {
  sections: names('sec', 'ack', 'app', 'glossary'),
  headingParts: names('label', 'title', 'sec-meta'),
  paragraphs: names('p'),
  figures: names('fig', 'chem-struct-wrap'),
  tables: names('table-wrap'),
  formulas: names('disp-formula'),
  containers: names(
    'list',
    'def-list',
    'boxed-text',
    'disp-quote',
    'fig-group',
    'table-wrap-group',
    'disp-formula-group',
    'statement',
    'app-group',
    'speech',
    'verse-group',
  ),
  listItems: names('list-item', 'def-item'),
  skip: names('ref-list', 'fn-group', 'notes', 'supplementary-material', 'permissions'),
  tableFootnotes: names('table-wrap-foot'),
};

/** Publication date types in order of preference: the version of record's dates first. */
const PUB_TYPES = ['epub', 'ppub', 'pub', 'epub-ppub', 'collection', 'ecorrected', 'epreprint'];

function articleElement(root: Element): Element | undefined {
  if (root.localName === 'article') return root;
  return root.localName === 'pmc-articleset' ? firstChild(root, 'article') : undefined;
}

function isAcs(root: Element): boolean {
  return /Atypon|ACHS/i.test(root.ownerDocument.doctype?.publicId ?? '');
}

/** A `contrib` as "Given Surname", or the text of its `string-name`/`collab`. */
function contributorName(contrib: Element): string {
  const name = firstChild(contrib, 'name', 'name-alternatives');
  const structured = name?.localName === 'name-alternatives' ? firstChild(name, 'name') : name;
  if (structured) {
    const given = plainText(firstChild(structured, 'given-names'));
    const surname = plainText(firstChild(structured, 'surname'));
    const suffix = plainText(firstChild(structured, 'suffix'));
    return [given, surname, suffix].filter(Boolean).join(' ');
  }
  return plainText(firstChild(contrib, 'string-name', 'collab'));
}

function authorsOf(meta: Element | undefined): string[] {
  if (!meta) return [];
  const authors: string[] = [];
  for (const group of childElements(meta, 'contrib-group')) {
    for (const contrib of childElements(group, 'contrib')) {
      const type = contrib.getAttribute('contrib-type');
      if (type && type !== 'author') continue;
      const name = contributorName(contrib);
      if (name) authors.push(name);
    }
  }
  return authors;
}

function yearOf(meta: Element | undefined): number | null {
  if (!meta) return null;
  const dates = childElements(meta, 'pub-date');
  const typeOf = (date: Element): string => date.getAttribute('pub-type') ?? date.getAttribute('date-type') ?? '';
  const ranked = [...dates].sort((a, b) => rank(typeOf(a)) - rank(typeOf(b)));
  for (const date of ranked) {
    const year = yearFrom(plainText(firstChild(date, 'year'))) ?? yearFrom(date.getAttribute('iso-8601-date'));
    if (year) return year;
  }
  return null;
}

function rank(type: string): number {
  const index = PUB_TYPES.indexOf(type);
  return index === -1 ? PUB_TYPES.length : index;
}

function doiOf(meta: Element | undefined): string | null {
  const ids = meta ? childElements(meta, 'article-id') : [];
  const doi =
    ids.find((id) => id.getAttribute('pub-id-type') === 'doi') ?? ids.find((id) => /^\s*10\.\d{4,9}\//.test(id.textContent ?? ''));
  return doi ? plainText(doi) : null;
}

/** Abstracts that are the article's abstract; graphical/TOC/teaser abstracts and lay summaries are left out. */
function mainAbstracts(meta: Element | undefined): Element[] {
  const all = meta ? childElements(meta, 'abstract') : [];
  return all.filter((abstract) => ['', 'abstract', 'author', 'structured'].includes(abstract.getAttribute('abstract-type') ?? ''));
}

export const jatsFormat: XmlFormat = {
  accepts(root) {
    const article = articleElement(root);
    return Boolean(article && firstChild(article, 'front'));
  },

  read(root: Element, builder: ArticleBuilder): XmlReading {
    const article = articleElement(root) as Element;
    const front = firstChild(article, 'front');
    const meta = childPath(front, 'article-meta');
    const journalMeta = childPath(front, 'journal-meta');
    const walker = new BlockWalker(builder, JATS_VOCABULARY);

    for (const abstract of mainAbstracts(meta)) walker.walkSection(abstract, 'Abstract', { defaultHeading: 'Abstract', lock: true });
    const before = builder.blockCount;
    const body = firstChild(article, 'body');
    if (body) walker.walkMixed(body, undefined);
    // PMC may move floats out of the text into <floats-group>; they follow the body.
    const floats = firstChild(article, 'floats-group');
    if (floats) walker.walkMixed(floats, undefined);
    const back = firstChild(article, 'back');
    for (const part of back ? childElements(back, 'ack', 'app-group', 'app') : []) {
      if (part.localName === 'ack') walker.walkSection(part, undefined, { defaultHeading: 'Acknowledgments' });
      else walker.walkBlock(part, undefined);
    }

    const title = elementText(childPath(meta, 'title-group', 'article-title'), { skip: names('xref', 'fn') });
    return {
      adapter: isAcs(root) ? 'jats-acs' : 'jats',
      doi: doiOf(meta),
      title: title.replace(/\s+/g, ' ').trim(),
      authors: authorsOf(meta),
      journal: plainText(firstDescendant(journalMeta ?? article, 'journal-title')) || null,
      // article-meta's own <volume>, <fpage>/<lpage>, else the <elocation-id> article number.
      volume: normalizeVolume(plainText(meta && firstChild(meta, 'volume'))),
      pages:
        normalizePages(plainText(meta && firstChild(meta, 'fpage')), plainText(meta && firstChild(meta, 'lpage'))) ??
        normalizePages(plainText(meta && firstChild(meta, 'elocation-id'))),
      year: yearOf(meta),
      bodyBlocks: body ? builder.blockCount - before : 0,
      warnings: [],
    };
  },
};
