/**
 * One entry point for capturing a document from bytes, used by the CLI (Node, with jsdom's
 * DOMParser) and by the extension for files and PDFs (with the browser's DOMParser). The DOM
 * parser is injected so this module runs in both without importing either.
 */
import type { Article } from '../contracts/article';
import { capturePdfDocument } from './capture-pdf-document';
import { binaryShare, detectDocumentType, looksLikePdf } from './detect-type';
import { checkDocumentSize, validArticle } from './document-checks';
import { CaptureError } from './errors';
import { captureHtml } from './html/capture-html';
import { markedVisibility } from './html/visibility';
import { captureText } from './text/capture-text';
import { captureXml } from './xml/capture-xml';
import type { DomParserLike } from './dom-parser';
import { repairXmlText } from './xml/xml-repair';
import { decodeText } from './sniff-encoding';

export interface CaptureDocumentOptions {
  domParser: DomParserLike;
  /** Where the document came from (page URL or PDF URL); used for adapter choice and `Article.url`. */
  url?: string | null;
  signal?: AbortSignal;
  /**
   * For an HTML file: judge what it hides with layout, outside this module (the CLI opens the
   * saved file in headless Chromium: `src/capture/node/chromium-visibility.ts`). Given the
   * decoded text, resolves to the page serialized with its hidden elements marked by
   * `attribute`, captured instead of the text; or to a warning, added to the article, when the
   * style rules had to judge instead.
   */
  judgeHtml?: (text: string) => Promise<{ html: string; attribute: string } | { warning: string }>;
}

/**
 * Largest HTML, XML or text file captured: 16 MiB (16,777,216 bytes). The largest article page
 * in the shared fixtures is 1.5 MB (ACS, with its inline MathJax); a saved page ten times that
 * is an archive or a data dump, not one article. Capture is linear in the size of the page: a
 * 10 MB page of dense markup takes about 10 s on the command line (README), so this bound also
 * bounds the wait, and the memory jsdom needs (about 100 bytes per byte of markup).
 */
export const MAX_MARKUP_BYTES = 16 * 1024 * 1024;
/**
 * Above this share of control characters and undecodable bytes (`binaryShare`) a file is not a
 * document. Random bytes are ~60 % such characters, UTF-16 without a byte-order mark ~50 %; real
 * files stay low, the worst in the shared data being a bandgap-200 text extracted from a PDF
 * with a mis-mapped font (11.5 %, `text-pub/57_10.1007_s12274-022-4418-z.txt`), the next 3.9 %.
 * 25 % leaves a margin of two either way.
 */
const MAX_BINARY_SHARE = 0.25;

/**
 * Capture an article from raw bytes. The type (PDF, HTML, XML, plain text) is detected from
 * the content. Resolves to a validated `Article`; rejects with `CaptureError` for empty input,
 * files over the size limits (`too-large`: `MAX_MARKUP_BYTES`, `MAX_PDF_BYTES`), bytes that are
 * not text (`binary`), non-articles, PDFs without a text layer, truncated or unreadable files,
 * and captures the `Article` contract refuses (`unreadable`, naming the field).
 */
export async function captureDocument(bytes: Uint8Array, options: CaptureDocumentOptions): Promise<Article> {
  if (bytes.length === 0) throw new CaptureError('empty', 'The file is empty (0 bytes).');
  const url = options.url ?? null;
  if (looksLikePdf(bytes)) return capturePdfDocument(bytes, { url, signal: options.signal });
  checkDocumentSize(bytes.length, MAX_MARKUP_BYTES, 'an HTML, XML or text file');
  const { text, warning: encodingWarning } = decodeText(bytes);
  if (text.trim().length === 0) throw new CaptureError('empty', 'The file contains only whitespace.');
  const share = binaryShare(text);
  if (share > MAX_BINARY_SHARE) {
    throw new CaptureError(
      'binary',
      `This file is not a document: ${Math.round(share * 100)} % of its characters are control characters or bytes that are not text ` +
        '(binary data, or text in an encoding that cannot be told). Capture reads HTML, XML, PDF and plain text.',
    );
  }
  const type = detectDocumentType(bytes, text);
  let article: Article;
  switch (type) {
    case 'html': {
      const judged = await options.judgeHtml?.(text);
      if (judged && 'html' in judged) {
        article = captureHtml(options.domParser.parseFromString(judged.html, 'text/html'), {
          url,
          isHidden: markedVisibility(judged.attribute),
        });
      } else {
        article = captureHtml(options.domParser.parseFromString(text, 'text/html'), { url });
        if (judged) article = { ...article, warnings: [...article.warnings, judged.warning] };
      }
      break;
    }
    case 'xml':
      article = captureXml(parseXml(text, options.domParser), { url });
      break;
    default: // 'text' ('pdf' was answered by `looksLikePdf` above)
      article = captureText(text, { url });
  }
  // A declaration the bytes overruled ("declares UTF-16 but is UTF-8; read as UTF-8") comes first: it explains any oddity after it.
  if (encodingWarning !== undefined) article = { ...article, warnings: [`The file ${encodingWarning}.`, ...article.warnings] };
  return validArticle(article);
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
