/**
 * Capturing a PDF from bytes, apart from `capture-document.ts`, so the offscreen document (which
 * reads the PDFs shown in the browser's viewer) loads the PDF reader without the HTML, XML and
 * text readers it never uses. `captureDocument` takes the same path for PDFs.
 */
import type { Article } from '../contracts/article';
import { checkDocumentSize, validArticle } from './document-checks';
import { capturePdf } from './pdf/capture-pdf';

/**
 * Largest PDF captured: 100 MiB, the extension's download limit (`extension/fetch-pdf.ts`):
 * article PDFs are 0.1–10 MB; a 100 MB file is a thesis or a scanned book.
 */
export const MAX_PDF_BYTES = 100 * 1024 * 1024;

/**
 * Capture an article from the bytes of a PDF (the caller has checked `looksLikePdf`). Resolves
 * to a validated `Article` (`source: 'pdf'`, blocks with 1-based `page`, `url` from
 * `options.url`); rejects with `CaptureError` `too-large` (over `MAX_PDF_BYTES`, or streams
 * decoding past `options.decodeLimitBytes`, default `PDF_DECODE_BUDGET_BYTES`),
 * `no-text-layer`, `truncated`, `unreadable` (also for a capture the `Article` contract
 * refuses, naming the field), or with `signal.reason` when `options.signal` aborts.
 */
export async function capturePdfDocument(
  bytes: Uint8Array,
  options: { url?: string | null; signal?: AbortSignal; decodeLimitBytes?: number },
): Promise<Article> {
  checkDocumentSize(bytes.length, MAX_PDF_BYTES, 'a PDF');
  return validArticle(
    await capturePdf(bytes, { url: options.url ?? null, signal: options.signal, decodeLimitBytes: options.decodeLimitBytes }),
  );
}
