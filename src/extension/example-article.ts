/**
 * The example article bundled with the extension (`example.html`, from entrypoints/example/), so
 * a new reader can try capture, extraction, highlights and review with no network.
 *
 * An extension page cannot be scripted (`scripting.executeScript` refuses chrome-extension://
 * URLs, even the extension's own), so the page runs the capture and the highlighter itself:
 * it answers a capture request sent with `tabs.sendMessage` and installs the same highlighter the
 * injected script installs elsewhere. The background routes a capture or a highlight of this one
 * page through messages instead of injection (capture-tab.ts, highlight-tab.ts).
 */
import { capturePage } from './capture-page';

/** The example article's path in the built extension. */
export const EXAMPLE_ARTICLE_PATH = '/example.html';

/** The `target` of the capture request the background sends the example page. */
export const EXAMPLE_CAPTURE_TARGET = 'assay-example-capture';

/**
 * True when `url` is the bundled example article of the extension at `extensionBase`
 * (`runtime.getURL('/')`, e.g. `chrome-extension://<id>/`); query and fragment are ignored. An
 * unknown URL (hidden, undefined) is never the example.
 */
export function isExampleArticle(url: string | undefined, extensionBase: string): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    const base = new URL(extensionBase);
    // Compared by scheme and host: `URL.origin` is "null" for chrome-extension: outside a browser.
    return parsed.protocol === base.protocol && parsed.host === base.host && parsed.pathname === EXAMPLE_ARTICLE_PATH;
  } catch {
    return false;
  }
}

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
