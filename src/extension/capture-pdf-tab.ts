/**
 * Capturing a tab that shows a PDF: recognise it, download the PDF by the tab's URL, and read it
 * with pdf.js (`captureDocument`), so blocks keep their 1-based page numbers.
 *
 * Why the background service worker downloads and parses (and not the offscreen document or the
 * side panel): the capture must outlive the side panel (as HTML captures do) and must not need
 * a new message type; pdf.js needs no DOM to read text (`read-pdf.ts` disables font faces and
 * never renders), and its same-thread "fake worker" (`pdfjs-loader.ts` publishes the worker
 * module as `globalThis.pdfjsWorker`, so no `workerSrc` and no `Worker`, which a service worker
 * lacks) runs in a service worker. The e2e test `test/e2e/pdf-viewer.test.ts` shows it in
 * Chromium 156, including the download with only the toolbar click's activeTab grant. The cost
 * is size: pdf.js is bundled into `background.js` (a service worker may not `import()` later),
 * which grows from 0.2 MB to 2.0 MB and is parsed at each start of the worker. The
 * offscreen document would instead need the bytes sent over `runtime.sendMessage` (serialized
 * as JSON, several times the file's size) or its own download, plus a new offscreen request type.
 *
 * The extension, not the viewer, fetches: Chromium's viewer is its own extension page, which no
 * other extension may script or read.
 */
import type { Article } from '../contracts/article';
import { captureDocument, type DomParserLike } from '../capture/capture-document';
import { CaptureError } from '../capture/errors';
import { fetchPdfBytes, type FetchLike } from './fetch-pdf';

/** What is known about a tab when deciding whether it shows a PDF. */
export interface TabDocumentSignals {
  /** The tab's URL (`undefined` when the extension may not see it). */
  url: string | undefined;
  /**
   * `document.contentType` of the tab's top document as read by an injected function
   * (`application/pdf` for Chromium's viewer), or `undefined` when it could not be read.
   */
  contentType: string | undefined;
}

/**
 * Whether `url`'s path ends in `.pdf` (any case; a query or fragment may follow), e.g.
 * `https://arxiv.org/pdf/x.pdf?download=1` → true, `https://x.org/doi/pdf/10.1/abc` → false.
 * Unparseable or missing URLs → false.
 */
export function hasPdfPath(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return /\.pdf$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/**
 * Whether the tab shows a PDF. The document's content type decides when it was read (a `.pdf`
 * path that serves an HTML landing or sign-in page is an HTML page; a PDF served from
 * `/doi/pdf/…` without the extension is a PDF); the URL's `.pdf` path decides only when the
 * content type is unknown (the browser refused the injection).
 */
export function showsPdf(signals: TabDocumentSignals): boolean {
  if (signals.contentType !== undefined) return signals.contentType.toLowerCase() === 'application/pdf';
  return hasPdfPath(signals.url);
}

/**
 * The URL to download the tab's PDF from: the tab's URL without its fragment (`#page=3` is
 * the viewer's, not the server's). Throws `CaptureError` `unsupported-type` for `file:` URLs (the
 * extension cannot read local files; the CLI can) and for any scheme other than http(s).
 */
export function pdfDownloadUrl(tabUrl: string): string {
  const url = new URL(tabUrl);
  if (url.protocol === 'file:') {
    throw new CaptureError(
      'unsupported-type',
      'This PDF is a file on your computer, which the extension cannot read. Run `npx assay capture <file.pdf>` on it instead.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CaptureError(
      'unsupported-type',
      `This PDF has a ${url.protocol} address, which the extension cannot download. Save it and run \`npx assay capture <file.pdf>\`.`,
    );
  }
  url.hash = '';
  return url.href;
}

/** Fetched bytes are checked to be a PDF first, so `captureDocument` never needs a DOM here. */
const noDomParser: DomParserLike = {
  parseFromString() {
    throw new CaptureError('unsupported-type', 'Only PDFs are read from a PDF tab.');
  },
};

/**
 * Download the PDF the tab at `tabUrl` shows and capture it: an `Article` with `source: 'pdf'`,
 * `adapter: 'pdfjs'`, `pageCount`, `url` the download URL, blocks with 1-based `page`. Rejects
 * with `CaptureError` from `pdfDownloadUrl`, `fetchPdfBytes` (HTTP status, size, time limit,
 * not a PDF, network) or `capturePdf` (`no-text-layer`, `truncated`, `unreadable`).
 */
export async function capturePdfTab(tabUrl: string, options: { fetch: FetchLike; signal?: AbortSignal }): Promise<Article> {
  const url = pdfDownloadUrl(tabUrl);
  const bytes = await fetchPdfBytes(url, { fetch: options.fetch, signal: options.signal });
  return captureDocument(bytes, { domParser: noDomParser, url, signal: options.signal });
}
