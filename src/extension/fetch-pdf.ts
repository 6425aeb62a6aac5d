/**
 * Download a PDF's bytes by URL from the extension, with a size cap, a time limit and a
 * `CaptureError` in words for every way a download goes wrong.
 *
 * Cookies (`credentials: 'include'`): a subscriber reads a paywalled PDF because the publisher's
 * session cookie came with the viewer's request; a download without it would get the paywall's
 * HTML or a 403. Sending the cookie gives the extension nothing the tab did not already have —
 * it repeats the reader's own GET of the URL the tab shows, with the reader's access, and the
 * bytes stay in this browser. The cost: the publisher sees a second, signed-in download (it may
 * count it as one), and a URL with side effects (a one-time download link) would be spent
 * twice. Only the tab's own URL is ever fetched, never one taken from page content.
 */
import { CaptureError } from '../capture/errors';

/**
 * Largest PDF accepted: 100 MiB = 104 857 600 bytes. pdf.js holds the file plus a copy it
 * transfers to its worker, and the parsed pages, so a capture needs several times the file size
 * in memory; article PDFs are 0.1–10 MB, and a 100 MB file is a thesis or a scanned book.
 */
export const PDF_SIZE_LIMIT_BYTES = 100 * 1024 * 1024;

/** Time allowed for the whole download (headers and body): 2 minutes = 120 000 ms. */
export const PDF_FETCH_TIMEOUT_MS = 120_000;

/** The subset of `fetch` used here (the global `fetch` bound to its scope, or a fake in tests). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface FetchPdfOptions {
  fetch: FetchLike;
  /** Bytes; default `PDF_SIZE_LIMIT_BYTES`. */
  maxBytes?: number;
  /** Milliseconds; default `PDF_FETCH_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** The caller's cancellation: aborting rejects with the signal's reason, not a `CaptureError`. */
  signal?: AbortSignal;
}

/**
 * Fetch `url` (http or https, with the reader's cookies) and return its bytes when they are a
 * PDF: `%PDF-` within the first 1024 bytes, the test `detectDocumentType` uses (PDF 32000-1
 * §7.5.2 allows leading bytes). Rejects with `CaptureError`:
 * - `not-found`: HTTP 404 or 410;
 * - `bot-check`: an HTTP error with Cloudflare's `cf-mitigated: challenge` header;
 * - `unreadable`: any other HTTP error (status in the message: 401/403 ask the reader to sign
 *   in), a network failure (also how a refused cross-origin read looks), the time limit, or a
 *   file over `maxBytes` (by `Content-Length` before reading, or counted while reading);
 * - `unsupported-type`: the answer is not a PDF (a sign-in page in HTML, typically).
 * Rejects with `signal.reason` when the caller aborts.
 */
export async function fetchPdfBytes(url: string, options: FetchPdfOptions): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? PDF_SIZE_LIMIT_BYTES;
  const timeoutMs = options.timeoutMs ?? PDF_FETCH_TIMEOUT_MS;
  options.signal?.throwIfAborted();
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const failed = (error: unknown): unknown => {
    if (options.signal?.aborted) return options.signal.reason;
    if (timeout.aborted) {
      return new CaptureError(
        'unreadable',
        `The PDF did not download within ${Math.round(timeoutMs / 1000)} s. Check the connection and capture again.`,
      );
    }
    return error instanceof CaptureError ? error : networkError(error);
  };

  let response: Response;
  try {
    response = await options.fetch(url, { credentials: 'include', redirect: 'follow', signal });
  } catch (error) {
    throw failed(error);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw httpError(response);
  }
  const declaredLength = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declaredLength > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLargeError(declaredLength, maxBytes);
  }
  let bytes: Uint8Array;
  try {
    bytes = await readBody(response, maxBytes);
  } catch (error) {
    throw failed(error);
  }
  if (!startsLikePdf(bytes)) throw notPdfError(response.headers.get('content-type'));
  return bytes;
}

/** Read the body chunk by chunk, stopping (and cancelling the download) past `maxBytes`. */
async function readBody(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLargeError(null, maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** `%PDF-` in the first 1024 bytes (PDF 32000-1 §7.5.2), as `detectDocumentType` decides. */
function startsLikePdf(bytes: Uint8Array): boolean {
  return new TextDecoder('latin1').decode(bytes.subarray(0, 1024)).includes('%PDF-');
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function tooLargeError(declaredLength: number | null, maxBytes: number): CaptureError {
  const size = declaredLength === null ? `more than ${megabytes(maxBytes)}` : megabytes(declaredLength);
  return new CaptureError(
    'unreadable',
    `The PDF is too large to capture in the browser (${size}; the limit is ${megabytes(maxBytes)}). Save it and run \`npx assay capture <file.pdf>\`.`,
  );
}

function httpError(response: Response): CaptureError {
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status === 404 || response.status === 410) {
    return new CaptureError('not-found', `The PDF is no longer at this address (${status}). Reload the tab and capture again.`);
  }
  if (response.headers.get('cf-mitigated') === 'challenge') {
    return new CaptureError(
      'bot-check',
      `Blocked by a bot check when downloading the PDF (${status}). Reload the PDF in this tab, pass the check, and capture again.`,
    );
  }
  if (response.status === 401 || response.status === 403) {
    return new CaptureError(
      'unreadable',
      `The publisher refused to send the PDF (${status}). Sign in (or use your institution's access) in this browser, reload the PDF, and capture again.`,
    );
  }
  if (response.status === 429)
    return new CaptureError('unreadable', `The publisher asked to slow down (${status}). Wait a minute and capture again.`);
  return new CaptureError('unreadable', `The PDF could not be downloaded (${status}).`);
}

function notPdfError(contentType: string | null): CaptureError {
  const type = contentType?.split(';')[0]?.trim() || 'no content type';
  if (/html/i.test(type)) {
    return new CaptureError(
      'unsupported-type',
      `The PDF's address answered with a web page (${type}), not the PDF: the publisher may want you to sign in or pass a check first. Open the PDF in this tab again and capture once it shows.`,
    );
  }
  return new CaptureError('unsupported-type', `The PDF's address answered with something that is not a PDF (${type}).`);
}

function networkError(error: unknown): CaptureError {
  const detail = error instanceof Error ? error.message : String(error);
  // A cross-origin read the extension may not make fails like a network error ("Failed to fetch").
  return new CaptureError(
    'unreadable',
    `The PDF could not be downloaded (${detail}). Check the connection; if it persists, click the Assay button on this tab and capture again.`,
  );
}
