/**
 * Elsevier XML in its two wrappers:
 * - `<full-text-retrieval-response>` from the Article Retrieval API: metadata in `coredata`
 *   (`prism:doi`, `dc:title`, `dc:creator`, `prism:publicationName`, `prism:coverDate`), the
 *   article in `originalText/xocs:doc/xocs:serial-item/ja:article` (or `simple-article`);
 * - CONSYN `<doc:document>`: metadata in `rdf:RDF/rdf:Description` (`dct:title`, `dct:creator`,
 *   `prism:doi`), the article in `ja:article`. The fixture's namespace URIs are placeholders,
 *   so everything matches on `localName`.
 * Both use the `ce:` common element set for the article itself: `ce:sections/ce:section`,
 * `ce:para` with `ce:display` and `ce:float-anchor`, floats in `ce:floats`, CALS tables,
 * `ce:bibliography` in the tail (left out).
 */
import type { ArticleBuilder } from '../article-builder';
import { BlockWalker, type BodyVocabulary } from './block-walker';
import { elementText } from './inline-text';
import type { XmlFormat, XmlReading } from './xml-format';
import { normalizePages, normalizeVolume } from '../citation-fields';
import { childElements, descendants, firstChild, firstDescendant, plainText, yearFrom } from './xml-dom';

const names = (...list: string[]): ReadonlySet<string> => new Set(list);

const INLINE = { skip: names('footnote', 'glyph') };

export const ELSEVIER_VOCABULARY: BodyVocabulary = {
  sections: names('section', 'acknowledgment'),
  headingParts: names('label', 'section-title'),
  paragraphs: names('para', 'simple-para'),
  figures: names('figure'),
  tables: names('table'),
  formulas: names('formula'),
  containers: names('sections', 'display', 'list', 'abstract-sec', 'appendices', 'textbox-body'),
  // A theorem/remark (`ce:enunciation`) reads as one paragraph starting with its label.
  listItems: names('list-item', 'enunciation', 'textbox'),
  skip: names('bibliography', 'further-reading', 'keywords', 'floats'),
  tableFootnotes: names('table-footnote', 'legend'),
};

/** The article element inside either wrapper. */
function articleOf(root: Element): Element | undefined {
  return firstDescendant(root, 'article', 'simple-article', 'converted-article', 'book-review');
}

/** Metadata holder: `coredata` (retrieval API) or `rdf:Description` (CONSYN). */
function metadataOf(root: Element): Element | undefined {
  return firstChild(root, 'coredata') ?? firstDescendant(firstChild(root, 'RDF') ?? root, 'Description');
}

/** Authors from the article head as "Given Surname"; empty when the head has none. */
function headAuthors(head: Element | undefined): string[] {
  return (head ? descendants(head, 'author') : [])
    .map((author) => [plainText(firstChild(author, 'given-name')), plainText(firstChild(author, 'surname'))].filter(Boolean).join(' '))
    .filter(Boolean);
}

/** Abstracts written by the authors; highlights and graphical abstracts are left out. */
function authorAbstracts(head: Element | undefined): Element[] {
  return (head ? childElements(head, 'abstract') : []).filter((abstract) => ['', 'author'].includes(abstract.getAttribute('class') ?? ''));
}

function readElsevier(root: Element, builder: ArticleBuilder, adapter: string): XmlReading {
  const metadata = metadataOf(root);
  const field = (...localNames: string[]): string => plainText(metadata ? firstChild(metadata, ...localNames) : undefined);
  const article = articleOf(root);
  const head = article && firstChild(article, 'head', 'simple-head');
  const body = article && firstChild(article, 'body');
  const tail = article && firstChild(article, 'tail');
  const floats = article ? descendants(article, 'figure', 'table').filter((float) => float.id) : [];
  const floatById = new Map(floats.map((float) => [float.id, float]));
  const walker = new BlockWalker(builder, ELSEVIER_VOCABULARY, INLINE, {
    // `refid` may list several floats; each is written once, after the paragraph holding its anchor.
    anchor: (anchor) => (anchor.getAttribute('refid') ?? '').split(/\s+/).flatMap((id) => floatById.get(id) ?? []),
  });
  const warnings: string[] = [];

  const abstracts = authorAbstracts(head);
  for (const abstract of abstracts) walker.walkSection(abstract, 'Abstract', { defaultHeading: 'Abstract', lock: true });
  const description = field('description');
  if (abstracts.length === 0 && description && adapter === 'elsevier') {
    // The API's abstract-only view: `dc:description` is the abstract as plain text.
    builder.add('heading', 'Abstract', { section: 'Abstract' });
    builder.add('paragraph', description.replace(/^Abstract\s+/i, ''), { section: 'Abstract' });
  }
  const before = builder.blockCount;
  if (body) walker.walkMixed(body, undefined);
  const unanchored = floats.filter((float) => !walker.emitted.has(float) && float.parentElement?.localName === 'floats');
  if (body && unanchored.length) {
    for (const float of unanchored) walker.writeFloat(float, undefined);
    warnings.push(`${unanchored.length} figure(s)/table(s) had no anchor in the text and were placed after the body.`);
  }
  for (const part of tail ? childElements(tail, 'acknowledgment', 'appendices') : []) {
    if (part.localName === 'acknowledgment') walker.walkSection(part, undefined, { defaultHeading: 'Acknowledgments' });
    else walker.walkMixed(part, undefined);
  }

  const headTitle = elementText(head && firstChild(head, 'title'), INLINE)
    .replace(/\s+/g, ' ')
    .trim();
  const itemDoi = plainText(article && firstDescendant(firstChild(article, 'item-info') ?? article, 'doi'));
  const creators = metadata
    ? childElements(metadata, 'creator')
        .map((creator) => plainText(creator))
        .filter(Boolean)
    : [];
  const authors = headAuthors(head);
  return {
    adapter,
    doi: field('doi') || itemDoi || null,
    title: field('title') || headTitle,
    authors: authors.length ? authors : creators,
    journal: field('publicationName') || null,
    volume: normalizeVolume(field('volume')),
    pages: normalizePages(field('startingPage'), field('endingPage')),
    year:
      yearFrom(field('coverDate')) ??
      yearFrom(field('coverDisplayDate')) ??
      yearFrom(head && firstChild(head, 'date-accepted')?.getAttribute('year')),
    bodyBlocks: builder.blockCount - before,
    warnings,
  };
}

/** Article Retrieval API response (`<full-text-retrieval-response>`). */
export const elsevierFormat: XmlFormat = {
  accepts: (root) => root.localName === 'full-text-retrieval-response',
  read: (root, builder) => readElsevier(root, builder, 'elsevier'),
};

/** CONSYN delivery (`<doc:document>` with `rdf:RDF` metadata and a `ja:article`). */
export const elsevierConsynFormat: XmlFormat = {
  accepts: (root) => root.localName === 'document' && Boolean(firstChild(root, 'RDF') || firstChild(root, 'article')),
  read: (root, builder) => readElsevier(root, builder, 'elsevier-consyn'),
};
