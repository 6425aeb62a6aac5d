/**
 * Capturing a tab that shows a PDF, the background's side: recognise it (`showsPdf`), turn the
 * tab's URL into the download URL, and ask the offscreen document to download the PDF and read
 * it with pdf.js (`pdf-read`, answered by `pdf-read-host.ts`), so blocks keep their 1-based page
 * numbers.
 *
 * Why the offscreen document downloads and parses (and not the background service worker or the
 * side panel): a service worker cannot `import()` code later, so everything it might run is
 * bundled into `background.js` and parsed at each start of the worker; with pdf.js (1.7 MB)
 * and the PDF reader that file was 2.11 MB, without them 0.28 MB (issue 15; `npm run build:test`,
 * Chromium build). The offscreen document is a page, which loads pdf.js as a separate chunk on
 * the first PDF only, and it outlives the side panel (as the background does), so a capture
 * still survives the panel closing. The document downloads the PDF itself: only the URL goes
 * over `runtime.sendMessage` and only the `Article` comes back (bytes sent as JSON would be
 * several times the file's size). The download uses the extension's host access, which belongs
 * to the extension's origin, not to one of its contexts: the toolbar click's activeTab grant
 * lets the offscreen document's `fetch` read the PDF's origin just as it let the service
 * worker's (`test/e2e/pdf-viewer.test.ts` shows it in Chromium 156), so this needs no new
 * permission. The costs: one more hop of messaging; the document's start on the first capture
 * while it is not open; and pdf.js parses on the document's main thread (its same-thread "fake
 * worker", `pdfjs-loader.ts`), which it shares with the WebLLM engine and SLM-MATRIX runs.
 *
 * The extension, not the viewer, fetches: Chromium's viewer is its own extension page, which no
 * other extension may script or read.
 */
import { failureResponse, type PdfReadRequest, type PdfReadResponse } from '../contracts/messages';
import { CaptureError } from '../capture/errors';

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

/**
 * Read the PDF the tab at `tabUrl` shows: ask `readPdf` (the offscreen document's `pdf-read`,
 * offscreen-engine.ts `createOffscreenForwarder`) for the article at `pdfDownloadUrl(tabUrl)`.
 * → `{ ok: true, article }` with `source: 'pdf'`, `adapter: 'pdfjs'`, `pageCount`, `url` the
 * download URL and blocks with 1-based `page`; or the failure unchanged: `pdfDownloadUrl`'s
 * `unsupported-type` (a local file, another scheme), the document's `CaptureError`s
 * (`fetchPdfBytes`: HTTP status, size, time limit, not a PDF, network; the reader:
 * `no-text-layer`, `truncated`, `unreadable`), or `internal` when the document did not answer.
 * Never rejects unless `readPdf` does.
 */
export async function capturePdfTab(
  tabUrl: string,
  readPdf: (request: PdfReadRequest) => Promise<PdfReadResponse>,
): Promise<PdfReadResponse> {
  let url: string;
  try {
    url = pdfDownloadUrl(tabUrl);
  } catch (error) {
    if (error instanceof CaptureError) return { ok: false, failure: error.toJSON() };
    return failureResponse('unsupported-type', `The tab’s address cannot be read as a URL: ${tabUrl.slice(0, 200)}`);
  }
  return readPdf({ type: 'pdf-read', url });
}
