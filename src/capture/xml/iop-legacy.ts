/**
 * IOP's legacy article XML (iopv1_5_2 DTD): `article-metadata` (`jnl-data`, `volume-data`,
 * `article-data/doi`), `header` (`title-group`, `author-group`, `abstract-group`), then the
 * body as `sec-level1`… siblings with `heading`, `p`, `figure`, `table` (CALS), then `back`.
 *
 * The one copy we have was re-serialised by a scraper inside `<html><body>`, tag names
 * lower-cased, every element on its own indented line, and ISO entity references escaped
 * into text (`&amp;phis;`). Text is therefore joined in pretty-printed mode (see
 * `inline-text.ts`) and the few entity names that occur are resolved.
 */
import type { ArticleBuilder } from '../article-builder';
import { BlockWalker, type BodyVocabulary } from './block-walker';
import { elementText, type InlineOptions } from './inline-text';
import type { XmlFormat, XmlReading } from './xml-format';
import { childElements, childPath, firstChild, firstDescendant, plainText, yearFrom } from './xml-dom';

const names = (...list: string[]): ReadonlySet<string> => new Set(list);

/** ISO 8879 entity names seen escaped in IOP text, plus the Greek letters such text uses most. */
const ENTITIES: Record<string, string> = {
  phis: '\u03D5',
  phiv: '\u03C6',
  equals: '=',
  plus: '+',
  dollar: '$',
  minus: '\u2212',
  times: '\u00D7',
  deg: '\u00B0',
  plusmn: '\u00B1',
  micro: '\u00B5',
  ohm: '\u2126',
  sim: '\u223C',
  ap: '\u2248',
  le: '\u2264',
  ge: '\u2265',
  lt: '<',
  gt: '>',
  amp: '&',
  alpha: '\u03B1',
  beta: '\u03B2',
  gamma: '\u03B3',
  delta: '\u03B4',
  epsi: '\u03B5',
  epsiv: '\u025B',
  theta: '\u03B8',
  kappa: '\u03BA',
  lambda: '\u03BB',
  mu: '\u03BC',
  nu: '\u03BD',
  pi: '\u03C0',
  rho: '\u03C1',
  sigma: '\u03C3',
  tau: '\u03C4',
  phi: '\u03C6',
  chi: '\u03C7',
  psi: '\u03C8',
  omega: '\u03C9',
  Gamma: '\u0393',
  Delta: '\u0394',
  Theta: '\u0398',
  Lambda: '\u039B',
  Sigma: '\u03A3',
  Phi: '\u03A6',
  Psi: '\u03A8',
  Omega: '\u03A9',
};

const INLINE: InlineOptions = {
  prettyPrinted: true,
  skip: names('footnote'),
  mapText: (text) => text.replace(/&([A-Za-z]+);/g, (whole, name: string) => ENTITIES[name] ?? whole),
};

export const IOP_VOCABULARY: BodyVocabulary = {
  sections: names('sec-level1', 'sec-level2', 'sec-level3', 'sec-level4', 'sec-level5', 'sec-level6', 'acknowledgment'),
  headingParts: names('heading'),
  paragraphs: names('p'),
  figures: names('figure'),
  tables: names('table'),
  formulas: names('display-eqn'),
  containers: names('appendix', 'numbered-list', 'bulleted-list', 'list', 'abstract-group'),
  listItems: names('list-item'),
  skip: names('back', 'references', 'reference-list', 'article-metadata', 'header'),
  tableFootnotes: names('tfooter', 'table-footnote'),
  // The section number is an attribute: <sec-level1 label="2"><heading>Experiment</heading>.
  heading: (section, inline) => {
    const title = elementText(firstChild(section, 'heading'), inline).replace(/\s+/g, ' ').trim();
    const label = section.getAttribute('label')?.trim() ?? '';
    return title ? [label, title].filter(Boolean).join(' ') : '';
  },
};

function articleOf(root: Element): Element | undefined {
  return firstDescendant(root, 'article-metadata')?.parentElement ?? undefined;
}

export const iopLegacyFormat: XmlFormat = {
  accepts: (root) => Boolean(articleOf(root)),

  read(root: Element, builder: ArticleBuilder): XmlReading {
    const article = articleOf(root) as Element;
    const metadata = firstChild(article, 'article-metadata');
    const header = firstChild(article, 'header');
    const walker = new BlockWalker(builder, IOP_VOCABULARY, INLINE);

    for (const abstract of header ? childElements(childPath(header, 'abstract-group') ?? header, 'abstract') : []) {
      walker.walkSection(abstract, 'Abstract', { defaultHeading: 'Abstract', lock: true });
    }
    const before = builder.blockCount;
    walker.walkMixed(article, undefined);
    const titleGroup = header && firstChild(header, 'title-group');
    // `ej-title` is the plain-text title written by IOP; it avoids guessing spaces around subscripts.
    const title =
      plainText(titleGroup && firstChild(titleGroup, 'ej-title')) || elementText(titleGroup && firstChild(titleGroup, 'title'), INLINE);
    const authors = (header ? childElements(firstChild(header, 'author-group') ?? header, 'author') : [])
      .map((author) =>
        [plainText(firstChild(author, 'first-names')), plainText(firstChild(author, 'second-name'))].filter(Boolean).join(' '),
      )
      .filter(Boolean);
    return {
      adapter: 'iop-legacy',
      doi: plainText(metadata && firstDescendant(metadata, 'doi')) || null,
      title: title.replace(/\s+/g, ' ').trim(),
      authors,
      journal: plainText(metadata && firstDescendant(metadata, 'jnl-fullname')) || null,
      year:
        yearFrom(plainText(metadata && firstDescendant(metadata, 'year-publication'))) ??
        yearFrom(plainText(metadata && firstDescendant(metadata, 'coverdate'))),
      bodyBlocks: builder.blockCount - before,
      warnings: [],
    };
  },
};
