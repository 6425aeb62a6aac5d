/**
 * One entry point for capturing a document from bytes, used by the CLI (Node, with jsdom's
 * DOMParser) and by the extension for files and PDFs (with the browser's DOMParser). The DOM
 * parser is injected so this module runs in both without importing either.
 */
import { ArticleSchema, type Article } from '../contracts/article';
import { decodeDocumentBytes, detectDocumentType } from './detect-type';
import { CaptureError } from './errors';
import { captureHtml } from './html/capture-html';
import { capturePdf } from './pdf/capture-pdf';
import { captureText } from './text/capture-text';
import { captureXml } from './xml/capture-xml';
import type { DomParserLike } from './dom-parser';
import { repairXmlText } from './xml/xml-repair';

export type { DomParserLike };

export interface CaptureDocumentOptions {
  domParser: DomParserLike;
  /** Where the document came from (page URL or PDF URL); used for adapter choice and `Article.url`. */
  url?: string | null;
  signal?: AbortSignal;
}

/**
 * Capture an article from raw bytes. The type (PDF, HTML, XML, plain text) is detected from
 * the content. Resolves to a validated `Article`; rejects with `CaptureError` for empty input,
 * non-articles, PDFs without a text layer, truncated or unreadable files.
 */
export async function captureDocument(bytes: Uint8Array, options: CaptureDocumentOptions): Promise<Article> {
  if (bytes.length === 0) throw new CaptureError('empty', 'The file is empty (0 bytes).');
  const url = options.url ?? null;
  const text = decodeDocumentBytes(bytes);
  const type = detectDocumentType(bytes, text);
  if (type !== 'pdf' && text.trim().length === 0) throw new CaptureError('empty', 'The file contains only whitespace.');
  let article: Article;
  switch (type) {
    case 'pdf':
      article = await capturePdf(bytes, { url, signal: options.signal });
      break;
    case 'html':
      article = captureHtml(options.domParser.parseFromString(text, 'text/html'), { url });
      break;
    case 'xml':
      article = captureXml(parseXml(text, options.domParser), { url });
      break;
    case 'text':
      article = captureText(text, { url });
      break;
  }
  return ArticleSchema.parse(article);
}

/**
 * Parse XML, turning a parser error into `truncated` (document ends early) or `unreadable`.
 * Namespace prefixes and named entities the file leaves to its DTD (ACS `xlink:`, `&ndash;`)
 * are supplied first (see `xml/xml-repair.ts`).
 */
export function parseXml(text: string, domParser: DomParserLike): Document {
  const document = domParser.parseFromString(repairXmlText(text.replace(/^\uFEFF/, ''), domParser), 'application/xml');
  const error = document.getElementsByTagName('parsererror')[0];
  if (!error) return document;
  const rootName = /<(?!\?|!)([\w:-]+)/.exec(text)?.[1];
  const closed = rootName ? new RegExp(`</${rootName}\\s*>\\s*$`).test(text.trimEnd()) : true;
  if (!closed) throw new CaptureError('truncated', `The XML file ends before its <${rootName}> element is closed: it looks truncated.`);
  const detail = (error.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 160);
  throw new CaptureError('unreadable', `The XML file is not well-formed: ${detail}`);
}
