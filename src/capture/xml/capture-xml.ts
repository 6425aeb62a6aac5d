/**
 * Capture of publisher full-text XML. The root element decides the format; one module per
 * format (`jats.ts`, `elsevier.ts`, `iop-legacy.ts`) writes the blocks and reports metadata
 * through the `XmlFormat` interface, and this file turns that into an `Article`.
 */
import type { Article } from '../../contracts/article';
import { ArticleBuilder } from '../article-builder';
import { normalizeDoi } from '../doi';
import { CaptureError } from '../errors';
import { elsevierConsynFormat, elsevierFormat } from './elsevier';
import { iopLegacyFormat } from './iop-legacy';
import { jatsFormat } from './jats';
import type { XmlFormat } from './xml-format';

/** Tried in order. IOP first: its wrapper is `<html>` or an `<article>` that JATS would otherwise claim. */
const FORMATS: readonly XmlFormat[] = [iopLegacyFormat, jatsFormat, elsevierFormat, elsevierConsynFormat];

/**
 * Capture an article from a parsed XML `Document` (JATS/NLM incl. ACS Atypon, Elsevier
 * full-text retrieval response, Elsevier CONSYN, IOP legacy).
 * Returns an `Article` with `source: 'xml'`, `doiOrigin: 'xml'` when the XML names a DOI,
 * `abstractOnly` when there is no body text. Abstract blocks carry section "Abstract"; the
 * reference list is never included.
 * Throws `CaptureError('not-article')` for a root element of no known article format (an RSS
 * feed, an SVG) and for an article without a title.
 */
export function captureXml(document: Document, options: { url?: string | null }): Article {
  const root = document.documentElement;
  if (!root) throw new CaptureError('not-article', 'The XML document has no root element.');
  const format = FORMATS.find((candidate) => candidate.accepts(root));
  if (!format) {
    throw new CaptureError(
      'not-article',
      `The XML root element <${root.tagName}> is not a known article format (JATS <article>, Elsevier <full-text-retrieval-response> or <doc:document>, IOP <article-metadata>).`,
    );
  }
  const builder = new ArticleBuilder();
  const reading = format.read(root, builder);
  if (!reading.title)
    throw new CaptureError('not-article', `The ${reading.adapter} XML has no article title: it does not look like an article.`);
  const doi = normalizeDoi(reading.doi);
  const warnings = [...reading.warnings];
  if (!doi) warnings.push('No DOI found in the XML.');
  const abstractOnly = reading.bodyBlocks === 0;
  if (abstractOnly) warnings.push('The XML has no body: only the abstract and metadata were captured.');
  const built = builder.build();
  return {
    doi,
    doiOrigin: doi ? 'xml' : null,
    title: reading.title,
    authors: reading.authors,
    journal: reading.journal,
    volume: reading.volume ?? null,
    pages: reading.pages ?? null,
    year: reading.year,
    url: options.url ?? null,
    source: 'xml',
    adapter: reading.adapter,
    blocks: built.blocks,
    text: built.text,
    abstractOnly,
    warnings,
  };
}
