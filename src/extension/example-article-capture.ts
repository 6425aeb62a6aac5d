/**
 * The bundled example article's own capture (see example-article.ts): the page answers the
 * background's capture request with `capturePage` of itself.
 */
import { capturePage } from './capture-page';
import { EXAMPLE_CAPTURE_TARGET } from './example-article';

/**
 * The example page's answer to `message`: the page's capture (`capturePage`, a `PageCaptureResult`)
 * when the message is `{ target: EXAMPLE_CAPTURE_TARGET }`, else `undefined` (the message is for
 * someone else: every extension page hears the side panel's runtime messages).
 */
export function answerExampleCapture(message: unknown, document: Document, window: Window): ReturnType<typeof capturePage> | undefined {
  if (typeof message !== 'object' || message === null || (message as { target?: unknown }).target !== EXAMPLE_CAPTURE_TARGET) {
    return undefined;
  }
  return capturePage(document, document.location.href, window);
}
