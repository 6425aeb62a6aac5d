/**
 * The example article bundled with the extension (`example.html`, from entrypoints/example/), so
 * a new reader can try capture, extraction, highlights and review with no network.
 *
 * An extension page cannot be scripted (`scripting.executeScript` refuses chrome-extension://
 * URLs, even the extension's own), so the page runs the capture and the highlighter itself:
 * it answers a capture request sent with `tabs.sendMessage` and installs the same highlighter the
 * injected script installs elsewhere. The background routes a capture or a highlight of this one
 * page through messages instead of injection (capture-tab.ts, highlight-tab.ts). This module is
 * only the page's address and the message target (no capture code), so any page may import it;
 * the page's own answer is example-article-capture.ts.
 */

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
