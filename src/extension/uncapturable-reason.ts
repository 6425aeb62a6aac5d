/**
 * Pages a browser never lets an extension read, recognised from the tab URL before trying, and
 * injection errors turned into words a reader can act on.
 */

const restrictedSchemes: Record<string, string> = {
  'chrome:': 'chrome://',
  'edge:': 'edge://',
  'about:': 'about:',
  'chrome-extension:': 'extension',
  'devtools:': 'devtools://',
  'view-source:': 'view-source:',
};

const storeHosts = ['chromewebstore.google.com', 'chrome.google.com', 'microsoftedge.microsoft.com'];

/**
 * Why the page at `url` cannot be captured, or `undefined` when it may be. An unknown URL
 * (`undefined`: the tab's URL is hidden until the user grants access) is not judged here;
 * the injection error then explains.
 */
export function uncapturableReason(url: string | undefined): string | undefined {
  if (url === undefined || url === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'No capturable tab: the tab has no readable address.';
  }
  const scheme = restrictedSchemes[parsed.protocol];
  if (scheme) return `No capturable tab: ${scheme} pages cannot be read. Open a paper in this tab and try again.`;
  if (storeHosts.includes(parsed.hostname) && /webstore|detail|addons/.test(url)) {
    return 'No capturable tab: the browser does not let extensions read its extension store.';
  }
  return undefined;
}

/** Words for an error thrown by `scripting.executeScript`. */
export function describeInjectionError(error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  if (/No tab with id/i.test(detail)) return 'No capturable tab: the tab was closed.';
  if (/error page/i.test(detail)) return 'No capturable tab: the tab shows a browser error page, not an article.';
  if (/chrome:\/\/|extensions gallery|cannot be scripted/i.test(detail)) {
    return 'No capturable tab: chrome:// pages and the extension store cannot be read.';
  }
  if (/permission|Cannot access/i.test(detail)) {
    // activeTab is granted by the toolbar click and revoked when the tab navigates elsewhere.
    return 'Assay may read a page only after you click its toolbar button on that page. Click the Assay button, then capture again.';
  }
  return `No capturable tab: ${detail}`;
}
