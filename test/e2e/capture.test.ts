/**
 * End to end: the built test extension in Debian's Chromium captures saved publisher pages
 * served from 127.0.0.1, shows them in the side panel, saves them in IndexedDB and lists them
 * on the dataset page; a Cloudflare bot-check page is refused in words and not saved.
 *
 * Playwright cannot click the toolbar button or open Chrome's side panel, so the test opens
 * `sidepanel.html?tabId=N` as a tab (see src/extension/target-tab.ts), and the test build's
 * host permission for 127.0.0.1 stands in for the activeTab grant of a real click.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { captureInSidePanel, findTabId, readStoredPapers } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');

/**
 * Expected values from ../shared/fixtures/SOURCES.md (DOIs as stored: lower case); authors as
 * the panel shortens them, from the pages' author tags (test/corpus/citation-metadata-truth.ts).
 */
const papers = [
  {
    path: '/acs/papis__acs_3.html',
    doi: '10.1021/acsphotonics.9b00250',
    title: 'Quantum Sensing with Squeezed Light',
    authors: 'B. J. Lawrie, P. D. Lett, A. M. Marino et al.',
    authorCount: 4,
  },
  {
    path: '/rsc/cde2__10.1039_C6OB02074G.html',
    doi: '10.1039/c6ob02074g',
    title: 'Denitrogenative hydrofluorination of aromatic aldehyde hydrazones using (difluoroiodo)toluene',
    authors: 'K. G. Kulkarni, B. Miokovic, M. Sauder et al.',
    authorCount: 4,
  },
  {
    path: '/nature/limesoup__101038nmat942.html',
    doi: '10.1038/nmat942',
    title: 'Two- versus three-dimensional quantum confinement in indium phosphide wires and dots',
    authors: 'H. Yu, J. Li, R. A. Loomis et al.',
    authorCount: 5,
    volume: 'vol. 2',
    pages: 'pp. 517–520',
  },
];
const botCheckPath = '/blocked/papis__ACS_jp003647e_cloudflare.html';

/** Collapse runs of white space, as a reader sees a title. */
const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

describe.skipIf(skipReason !== undefined)(skipReason ?? 'capture in the built extension', () => {
  let server: FixtureServer;
  let browser: ExtensionBrowser;
  /** The dataset page, open from the start: it runs the chrome.* and IndexedDB probes and must update live. */
  let datasetPage: Page;

  beforeAll(async () => {
    const files = Object.fromEntries(
      [...papers.map((paper) => paper.path), botCheckPath].map((path) => [path, sharedPath('fixtures', path)]),
    );
    server = await startFixtureServer(files);
    browser = await launchExtensionBrowser(extensionDirectory, [server.origin]);
    mkdirSync(screenshotDirectory, { recursive: true });
    datasetPage = await browser.context.newPage();
    await datasetPage.goto(browser.extensionUrl('dataset.html'));
    await datasetPage.getByTestId('dataset-empty').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Open `path` in a tab, then capture it from a side panel page sized like the real panel. */
  async function captureFixture(path: string): Promise<Page> {
    const articlePage = await browser.context.newPage();
    await articlePage.goto(`${server.origin}${path}`, { waitUntil: 'domcontentloaded' });
    const panel = await browser.context.newPage();
    await panel.setViewportSize({ width: 420, height: 760 });
    await captureInSidePanel(browser, panel, await findTabId(datasetPage, articlePage));
    await articlePage.close();
    return panel;
  }

  for (const paper of papers) {
    it(`captures ${paper.path}, shows its DOI and title, and stores it`, async () => {
      const panel = await captureFixture(paper.path);
      const name = paper.doi.replace(/[^a-z0-9]+/gi, '_');
      await panel.screenshot({ path: join(screenshotDirectory, `sidepanel-${name}.png`), fullPage: true });
      const status = panel.getByTestId('capture-status');
      expect(await status.getAttribute('data-status'), squash(await status.textContent())).toBe('saved');
      await expect.poll(() => status.textContent()).toContain('Saved');
      expect(squash(await panel.getByTestId('paper-doi').textContent())).toBe(paper.doi);
      expect(await panel.getByRole('link', { name: paper.doi }).getAttribute('href')).toBe(`https://doi.org/${paper.doi}`);
      expect(squash(await panel.getByTestId('paper-title').textContent())).toBe(paper.title);
      expect(squash(await panel.getByTestId('paper-authors').textContent())).toBe(paper.authors);
      await panel.getByText(`All ${paper.authorCount} authors`).click();
      expect(squash(await panel.getByTestId('paper-authors-all').textContent()).split(', ')).toHaveLength(paper.authorCount);
      if (paper.volume) expect(squash(await panel.getByTestId('paper-volume').textContent())).toBe(paper.volume);
      if (paper.pages) expect(squash(await panel.getByTestId('paper-pages-range').textContent())).toBe(paper.pages);

      const stored = (await readStoredPapers(datasetPage)).find((record) => record.key === `doi:${paper.doi}`);
      expect(stored).toMatchObject({ doi: paper.doi, url: `${server.origin}${paper.path}` });
      expect(squash(stored?.title ?? null)).toBe(paper.title);
      expect(stored?.blockCount).toBeGreaterThan(0);
      expect(stored?.articleTextLength).toBeGreaterThan(0);
      await panel.close();
    });
  }

  it('refuses the Cloudflare bot-check page in words and saves nothing', async () => {
    const before = await readStoredPapers(datasetPage);
    const panel = await captureFixture(botCheckPath);
    await panel.screenshot({ path: join(screenshotDirectory, 'sidepanel-bot-check.png'), fullPage: true });
    const status = panel.getByTestId('capture-status');
    expect(await status.getAttribute('data-status')).toBe('failed');
    expect(await status.locator('[data-failure-code]').getAttribute('data-failure-code')).toBe('bot-check');
    expect(await status.textContent()).toContain('Blocked by a bot check');
    expect(await readStoredPapers(datasetPage)).toEqual(before);
    await panel.close();
  });

  it('lists the saved papers on the dataset page, newest first, live, and deletes one', async () => {
    // The dataset page was opened before any capture: its rows arrived through Dexie's live query.
    const rows = datasetPage.locator('[data-testid="dataset-table"] tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const keys = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-key')));
    expect(keys).toEqual(papers.map((paper) => `doi:${paper.doi}`).reverse());
    for (const paper of papers) {
      await expect.poll(() => datasetPage.getByRole('link', { name: paper.doi }).count()).toBe(1);
    }
    await datasetPage.setViewportSize({ width: 1280, height: 600 });
    await datasetPage.screenshot({ path: join(screenshotDirectory, 'dataset.png'), fullPage: true });

    const first = papers[0]!;
    await datasetPage.getByRole('button', { name: `Delete “${first.title}”` }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect((await readStoredPapers(datasetPage)).map((record) => record.key)).not.toContain(`doi:${first.doi}`);
  });
});
