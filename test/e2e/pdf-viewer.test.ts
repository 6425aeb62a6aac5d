/**
 * End to end: a PDF the reader opened in Chromium's PDF viewer is captured from the side panel.
 * The background recognises the PDF tab and asks the offscreen document to download the PDF by
 * the tab's URL (the test build's host permission for 127.0.0.1 stands in for the activeTab
 * grant) and read it with pdf.js; the background saves it, and the stored blocks carry 1-based
 * page numbers.
 *
 * The fixture is a 6-page IOP article listed in ../shared/fixtures/SOURCES.md (DOI printed on
 * page 1: 10.1088/2053-1583/3/1/011003). It is served twice: at a `.pdf` path, and at an
 * IOP-style `/article/<doi>/pdf` path with no extension, where only the document's content
 * type says it is a PDF.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { captureInSidePanel, findTabId, readStore, readStoredPapers } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');

const fixture = 'pdf/iop/limesoup__2dm_3_1_011003.pdf';
const doi = '10.1088/2053-1583/3/1/011003';
const title = 'Low tension graphene drums for electromechanical pressure sensing';
const pdfPath = '/files/2dm_3_1_011003.pdf';
const extensionlessPath = `/article/${doi}/pdf`;

/** Collapse runs of white space, as a reader sees a title. */
const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The stored article of paper `key`: its page count and every block's page, read from IndexedDB. */
async function readStoredPages(
  extensionPage: Page,
  key: string,
): Promise<{ pageCount: number | null; pages: Array<number | null>; source: string } | null> {
  const papers = await readStore<{ key: string; article: { source: string; pageCount?: number; blocks: Array<{ page?: number }> } }>(
    extensionPage,
    'papers',
  );
  const record = papers.find((paper) => paper.key === key);
  return record
    ? {
        source: record.article.source,
        pageCount: record.article.pageCount ?? null,
        pages: record.article.blocks.map((block) => block.page ?? null),
      }
    : null;
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'capture a PDF open in the browser’s viewer', () => {
  let server: FixtureServer;
  let browser: ExtensionBrowser;
  let extensionPage: Page;

  beforeAll(async () => {
    server = await startFixtureServer({ [pdfPath]: sharedPath('fixtures', fixture), [extensionlessPath]: sharedPath('fixtures', fixture) });
    browser = await launchExtensionBrowser(extensionDirectory, [server.origin]);
    mkdirSync(screenshotDirectory, { recursive: true });
    extensionPage = await browser.context.newPage();
    await extensionPage.goto(browser.extensionUrl('dataset.html'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Open the PDF at `path` in a tab; report what the tab's document is. */
  async function openPdf(path: string): Promise<{ page: Page; contentType: string }> {
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}${path}`, { waitUntil: 'load' });
    const contentType = await page.evaluate(() => document.contentType);
    return { page, contentType };
  }

  for (const [name, path] of [
    ['a .pdf address', pdfPath],
    ['an address without .pdf (known by its content type)', extensionlessPath],
  ] as const) {
    it(`captures the PDF at ${name}: DOI, title, pdf / pdfjs, blocks with page numbers`, async () => {
      const { page: pdfTab, contentType } = await openPdf(path);
      // Chromium's viewer: the tab's top document is the PDF (application/pdf) holding the viewer's <embed>.
      expect(contentType).toBe('application/pdf');
      const panel = await browser.context.newPage();
      await panel.setViewportSize({ width: 420, height: 760 });
      await captureInSidePanel(browser, panel, await findTabId(extensionPage, pdfTab));
      await panel.screenshot({
        path: join(screenshotDirectory, `sidepanel-pdf-${path === pdfPath ? 'path' : 'content-type'}.png`),
        fullPage: true,
      });

      const status = panel.getByTestId('capture-status');
      expect(await status.getAttribute('data-status'), squash(await status.textContent())).toBe('saved');
      expect(squash(await panel.getByTestId('paper-doi').textContent())).toBe(doi);
      expect(squash(await panel.getByTestId('paper-title').textContent())).toBe(title);
      // How the paper was read is folded under the header ("How it was read"); unfold it to read it.
      await panel.locator('article.paper summary', { hasText: 'How it was read' }).click();
      // innerText keeps the line break between the <dt> and its <dd>, which squash turns into a space.
      expect(squash(await panel.locator('article.paper').innerText())).toContain('Read by pdf / pdfjs');
      expect(await panel.getByTestId('paper-pages').textContent()).toBe('6');

      const stored = (await readStoredPapers(extensionPage)).find((record) => record.key === `doi:${doi}`);
      expect(stored).toMatchObject({ doi, url: `${server.origin}${path}` });
      const article = await readStoredPages(extensionPage, `doi:${doi}`);
      expect(article?.source).toBe('pdf');
      // SOURCES.md: 6 pp.
      expect(article?.pageCount).toBe(6);
      expect(article?.pages.length).toBeGreaterThan(10);
      expect(article?.pages.every((page) => page !== null && page >= 1 && page <= 6)).toBe(true);
      // Body text runs over several pages, and pages never go backwards in reading order.
      expect(new Set(article?.pages).size).toBeGreaterThan(3);
      expect(article?.pages).toEqual([...(article?.pages ?? [])].sort((a, b) => (a ?? 0) - (b ?? 0)));
      await panel.close();
      await pdfTab.close();
    });
  }

  it('says in words when the PDF is gone from the server, and saves nothing new', async () => {
    const { page: pdfTab } = await openPdf(pdfPath);
    const tabId = await findTabId(extensionPage, pdfTab);
    const before = await readStoredPapers(extensionPage);
    // The tab still shows the PDF, but its address now answers 404 (said by the server: the offscreen document's requests bypass context.route).
    server.setStatus(pdfPath, 404);
    const panel = await browser.context.newPage();
    await captureInSidePanel(browser, panel, tabId);
    const status = panel.getByTestId('capture-status');
    expect(await status.getAttribute('data-status')).toBe('failed');
    expect(await status.locator('[data-failure-code]').getAttribute('data-failure-code')).toBe('not-found');
    expect(squash(await status.textContent())).toContain('The PDF is no longer at this address (HTTP 404');
    expect(await readStoredPapers(extensionPage)).toEqual(before);
    await panel.close();
    await pdfTab.close();
  });
});

/**
 * The release builds' grant: no host permission for `localhost` (the test build's is for
 * 127.0.0.1 only), so the download works only after the toolbar button is clicked on the PDF's
 * tab (activeTab), as a reader would. This guards the choice of downloading from the offscreen
 * document, whose cross-origin read relies on that grant: the grant is the extension's, not
 * only its service worker's.
 */
describe.skipIf(skipReason !== undefined)(skipReason ?? 'capture a PDF with the toolbar click’s grant', () => {
  let server: FixtureServer;
  let browser: ExtensionBrowser;
  let localOrigin: string;

  beforeAll(async () => {
    server = await startFixtureServer({ [pdfPath]: sharedPath('fixtures', fixture) });
    localOrigin = server.origin.replace('127.0.0.1', 'localhost');
    browser = await launchExtensionBrowser(extensionDirectory, [localOrigin]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('downloads the PDF only after the toolbar button is clicked on its tab', async () => {
    const pdfTab = await browser.context.newPage();
    await pdfTab.goto(`${localOrigin}${pdfPath}`, { waitUntil: 'load' });
    const panel = await browser.context.newPage();
    await panel.goto(browser.extensionUrl('dataset.html'));
    const tabId = await findTabId(panel, pdfTab);
    const status = panel.getByTestId('capture-status');

    await captureInSidePanel(browser, panel, tabId);
    expect(await status.getAttribute('data-status')).toBe('failed');
    // Without a grant the tab's URL is hidden too, so nothing says PDF yet: the injection error speaks.
    expect(squash(await status.textContent())).toContain('click its toolbar button');
    expect(await readStoredPapers(panel)).toEqual([]);

    await browser.clickToolbarButton(pdfTab);
    await captureInSidePanel(browser, panel, tabId);
    expect(await status.getAttribute('data-status'), squash(await status.textContent())).toBe('saved');
    expect(squash(await panel.getByTestId('paper-doi').textContent())).toBe(doi);
    expect((await readStoredPapers(panel)).map((paper) => paper.url)).toEqual([`${localOrigin}${pdfPath}`]);
  });
});
