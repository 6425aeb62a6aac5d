/**
 * The offscreen document's answer to `pdf-read`: download the PDF by its URL (`fetchPdfBytes`,
 * with its size cap, time limit and cookies) and read it with pdf.js (`capturePdfDocument`). Why
 * here and not in the background: capture-pdf-tab.ts. This module is the extension's one way to
 * pdf.js; only the offscreen document may import it (the dependency-cruiser rule
 * `no-pdfjs-in-background` keeps it out of the service worker).
 */
import type { Article } from '../contracts/article';
import type { PdfReadRequest, PdfReadResponse } from '../contracts/messages';
import { capturePdfDocument } from '../capture/capture-pdf-document';
import { toCaptureFailure } from '../capture/errors';
import { fetchPdfBytes, type FetchLike } from './fetch-pdf';

/**
 * Download the PDF at `url` (http or https; the caller drops the viewer's fragment) and capture
 * it: an `Article` with `source: 'pdf'`, `adapter: 'pdfjs'`, `pageCount`, `url` = `url`, blocks
 * with 1-based `page`. Rejects with `CaptureError` from `fetchPdfBytes` (HTTP status, size, time
 * limit, not a PDF, network) or from the reader (`no-text-layer`, `truncated`, `unreadable`),
 * or with `signal.reason` when the caller aborts.
 */
export async function downloadAndReadPdf(url: string, options: { fetch: FetchLike; signal?: AbortSignal }): Promise<Article> {
  // `fetchPdfBytes` returns only bytes that start like a PDF (`looksLikePdf`'s test).
  const bytes = await fetchPdfBytes(url, { fetch: options.fetch, signal: options.signal });
  return capturePdfDocument(bytes, { url, signal: options.signal });
}

/**
 * Answer a `pdf-read` request: `{ ok: true, article }`, or `{ ok: false, failure }` with the
 * `CaptureError`'s code and message as they are (anything else thrown becomes `unreadable`
 * with its message, `toCaptureFailure`). Never rejects.
 */
export async function answerPdfRead(request: PdfReadRequest, options: { fetch: FetchLike }): Promise<PdfReadResponse> {
  try {
    return { ok: true, article: await downloadAndReadPdf(request.url, { fetch: options.fetch }) };
  } catch (error) {
    return { ok: false, failure: toCaptureFailure(error) };
  }
}
