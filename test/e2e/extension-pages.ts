/**
 * Probes and actions the e2e tests run through the extension's own pages.
 */
import type { Page } from 'playwright-core';
import type { ExtensionBrowser } from './extension-browser';

/** A `papers` record as read back from IndexedDB, without its article body. */
export interface StoredPaper {
  key: string;
  doi: string | null;
  url: string | null;
  title: string;
  blockCount: number;
  capturedAt: string;
  articleTextLength: number;
}

/** The minimal `chrome.tabs` surface the probes use (extension pages only). */
interface ChromeTabsProbe {
  tabs: { query(query: object): Promise<Array<{ id?: number; url?: string }>> };
}

/**
 * The Chrome tab id of `articlePage`, asked from an extension page. A tab's URL is visible only
 * where the extension may read the page, so the match is by URL when it is visible, else the
 * newest tab whose URL is hidden (the tests open one article tab at a time).
 */
export async function findTabId(extensionPage: Page, articlePage: Page): Promise<number> {
  const tabId = await extensionPage.evaluate(async (wanted) => {
    const { chrome } = globalThis as unknown as { chrome: ChromeTabsProbe };
    const tabs = await chrome.tabs.query({});
    return (tabs.find((tab) => tab.url === wanted) ?? tabs.filter((tab) => tab.url === undefined).pop())?.id;
  }, articlePage.url());
  if (tabId === undefined) throw new Error(`no tab shows ${articlePage.url()}`);
  return tabId;
}

/**
 * Open the side panel page for tab `tabId` in `panel` (an ordinary tab: Playwright cannot open
 * Chrome's side panel), click "Capture this page" and wait until it is saved or failed.
 */
export async function captureInSidePanel(browser: ExtensionBrowser, panel: Page, tabId: number): Promise<void> {
  await panel.goto(browser.extensionUrl(`sidepanel.html?tabId=${tabId}`));
  await panel.getByRole('button', { name: 'Capture this page' }).click();
  await panel.locator('[data-testid="capture-status"]:is([data-status="saved"], [data-status="failed"])').waitFor({ timeout: 60_000 });
}

/**
 * The usual start of a side-panel test: `articleUrl` in a new tab, a second tab that stands for
 * the side panel of that tab (`panelViewport`: its size, e.g. 420 × 900 as Chrome's panel), the
 * page captured there and saved. → the article's tab, the panel's tab and the article's tab id.
 * Rejects when the capture does not end saved within a minute.
 */
export async function capturedArticle(
  browser: ExtensionBrowser,
  articleUrl: string,
  options: { panelViewport?: { width: number; height: number } } = {},
): Promise<{ article: Page; panel: Page; tabId: number }> {
  const article = await browser.context.newPage();
  await article.goto(articleUrl);
  const panel = await browser.context.newPage();
  if (options.panelViewport) await panel.setViewportSize(options.panelViewport);
  await panel.goto(browser.extensionUrl('dataset.html'));
  const tabId = await findTabId(panel, article);
  await captureInSidePanel(browser, panel, tabId);
  await panel.locator('[data-testid="capture-status"][data-status="saved"]').waitFor();
  return { article, panel, tabId };
}

/** Every record in the `papers` store of the extension's `assay` database, without article bodies. */
export async function readStoredPapers(extensionPage: Page): Promise<StoredPaper[]> {
  const records = await readStore<StoredPaper & { article: { text: string } }>(extensionPage, 'papers');
  return records.map(({ article, ...record }) => ({
    key: record.key,
    doi: record.doi,
    url: record.url,
    title: record.title,
    blockCount: record.blockCount,
    capturedAt: record.capturedAt,
    articleTextLength: article.text.length,
  }));
}

/**
 * Every record of object store `storeName` in the extension's `assay` database, read with plain
 * IndexedDB from an extension page ([] when the store does not exist yet).
 */
export async function readStore<Row>(extensionPage: Page, storeName: string): Promise<Row[]> {
  return extensionPage.evaluate(
    (name) =>
      new Promise<Row[]>((resolve, reject) => {
        const opening = indexedDB.open('assay');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const database = opening.result;
          if (!database.objectStoreNames.contains(name)) {
            database.close();
            resolve([]);
            return;
          }
          const reading = database.transaction(name).objectStore(name).getAll();
          reading.onerror = () => reject(reading.error);
          reading.onsuccess = () => {
            database.close();
            resolve(reading.result as Row[]);
          };
        };
      }),
    storeName,
  );
}
