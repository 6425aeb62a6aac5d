/**
 * What the injected capture script does in the page: read the live DOM into an `Article`, and
 * answer with plain data that survives `executeScript`'s serialization.
 */
import { captureHtml } from '../capture/html/capture-html';
import { toCaptureFailure } from '../capture/errors';
import { pageVisibility } from '../capture/html/visibility';
import type { PageCaptureResult } from '../contracts/messages';

/**
 * Capture `document` (the page as the reader sees it, after its own scripts ran) at `url`.
 * With the page's `window`, what the page hides is judged by the browser's computed style and
 * layout (`pageVisibility`); without it (or without layout), by markup and `<style>` rules.
 * Never throws: any error becomes `{ ok: false, failure }` (a `CaptureFailure`).
 */
export function capturePage(document: Document, url: string, window?: Window): PageCaptureResult {
  if (isPdfViewer(document)) {
    return {
      ok: false,
      failure: {
        code: 'unsupported-type',
        message:
          'This tab shows a PDF in the browser’s viewer, and Assay could not tell where it came from to download it. ' +
          'Reload the tab and capture again, or save the PDF and run `npx assay capture <file.pdf>`.',
      },
    };
  }
  try {
    return { ok: true, article: captureHtml(document, { url, isHidden: pageVisibility(document, window) }) };
  } catch (error) {
    return { ok: false, failure: toCaptureFailure(error) };
  }
}

/**
 * Chromium shows a PDF as a document of type application/pdf whose body is one <embed> of
 * the viewer; reading that DOM would report "no article text", which is the wrong reason.
 */
function isPdfViewer(document: Document): boolean {
  if (document.contentType === 'application/pdf') return true;
  const embeds = document.body?.querySelectorAll('embed[type="application/pdf"]') ?? [];
  return embeds.length === 1 && (document.body?.textContent ?? '').trim().length === 0;
}
