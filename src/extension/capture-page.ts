/**
 * What the injected capture script does in the page: read the live DOM into an `Article`, and
 * answer with plain data that survives `executeScript`'s serialization.
 */
import { captureHtml } from '../capture/html/capture-html';
import { toCaptureFailure } from '../capture/errors';
import type { PageCaptureResult } from '../contracts/messages';

/**
 * Capture `document` (the page as the reader sees it, after its own scripts ran) at `url`.
 * Never throws: any error becomes `{ ok: false, failure }` (a `CaptureFailure`).
 */
export function capturePage(document: Document, url: string): PageCaptureResult {
  try {
    return { ok: true, article: captureHtml(document, { url }) };
  } catch (error) {
    return { ok: false, failure: toCaptureFailure(error) };
  }
}
