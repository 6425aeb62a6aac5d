/**
 * End to end (issue 28, "a panel that follows the tab and the paper"): in the built extension,
 * the side panel keeps up with its tab. When the tab navigates to another paper the panel drops
 * the first paper (its title, "already in your dataset", its candidates) and offers to capture
 * the new page; going back shows the first paper again without a capture. A panel that follows a
 * window shows the paper of whichever tab is active there, and Start runs on the paper shown.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { findTabId, readStore, readStoredPapers } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { saveEngineSettings } from './side-panel-controls';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');

/** Two RSC papers with their own DOIs, titles and Curie temperatures for the quick scan (../shared/fixtures/rsc). */
const PAPER_A = '/rsc/cde2_curie__c1jm13879k.html';
const PAPER_B = '/rsc/cde2_curie__c2jm33712f.html';

/** `chrome.windows` / `chrome.tabs` as the extension page calls them here. */
interface ChromeWindowsProbe {
  windows: { create(options: object): Promise<{ id?: number; tabs?: Array<{ id?: number }> }> };
  tabs: { create(options: object): Promise<{ id?: number }>; update(tabId: number, options: object): Promise<unknown> };
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'the side panel following its tab', () => {
  let server: FixtureServer;
  let browser: ExtensionBrowser;
  let extensionPage: Page;
  const title = (panel: Page) => panel.getByTestId('paper-title');
  const captureButton = (panel: Page) => panel.locator('main > .panel-head > button');

  beforeAll(async () => {
    server = await startFixtureServer({ [PAPER_A]: sharedPath('fixtures', PAPER_A), [PAPER_B]: sharedPath('fixtures', PAPER_B) });
    browser = await launchExtensionBrowser(extensionDirectory, [server.origin]);
    extensionPage = await browser.context.newPage();
    await extensionPage.goto(browser.extensionUrl('dataset.html'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function captureHere(panel: Page): Promise<string> {
    await captureButton(panel).click();
    await panel.locator('[data-testid="capture-status"][data-status="saved"]').waitFor({ timeout: 60_000 });
    return (await title(panel).textContent()) ?? '';
  }

  it('drops the first paper when the tab navigates to another, and shows it again on the way back', async () => {
    const article = await browser.context.newPage();
    await article.goto(`${server.origin}${PAPER_A}`, { waitUntil: 'domcontentloaded' });
    const tabId = await findTabId(extensionPage, article);
    const panel = await browser.context.newPage();
    await panel.goto(browser.extensionUrl(`sidepanel.html?tabId=${tabId}`));
    const titleA = await captureHere(panel);
    expect(titleA.length).toBeGreaterThan(10);
    await panel.locator('[data-testid="candidate-status"][data-status="shown"]').waitFor({ timeout: 30_000 });

    await article.goto(`${server.origin}${PAPER_B}`, { waitUntil: 'domcontentloaded' });
    // The panel forgets paper A at once: no title, no "already in your dataset", no Start for it.
    await expect.poll(() => captureButton(panel).textContent(), { timeout: 15_000 }).toBe('Capture this page');
    expect(await title(panel).count()).toBe(0);
    expect(await panel.getByTestId('extraction-panel').count()).toBe(0);
    expect(await panel.getByTestId('candidate-status').count()).toBe(0);
    expect(await panel.getByTestId('capture-status').textContent()).toBe('');

    const titleB = await captureHere(panel);
    expect(titleB).not.toBe(titleA);
    // B's candidates are painted in B's page, the page the tab shows now.
    await panel.locator('[data-testid="candidate-status"][data-status="shown"]').waitFor({ timeout: 30_000 });
    expect(Number(await article.locator('assay-highlighter').getAttribute('data-assay-anchored'))).toBeGreaterThan(0);

    await article.goBack({ waitUntil: 'domcontentloaded' });
    expect(article.url()).toBe(`${server.origin}${PAPER_A}`);
    await expect.poll(() => title(panel).textContent(), { timeout: 15_000 }).toBe(titleA);
    expect(await panel.getByTestId('capture-status').textContent()).toBe('This page is already in your dataset.');
    expect(await panel.getByTestId('capture-status').getAttribute('data-status')).toBe('idle');
    // Found by its URL, paper A gets its own candidates painted again in the page now shown.
    await panel.locator('[data-testid="candidate-status"][data-status="shown"]').waitFor({ timeout: 30_000 });
    expect(Number(await article.locator('assay-highlighter').getAttribute('data-assay-anchored'))).toBeGreaterThan(0);
    await panel.close();
    await article.close();
  });

  it('follows the active tab of its window, and Start runs on the paper it shows', async () => {
    const papers = await readStoredPapers(extensionPage);
    const paperOf = (path: string) => papers.find((paper) => paper.url === `${server.origin}${path}`);
    const keyOf = (path: string) => paperOf(path)?.key;
    expect(paperOf(PAPER_A)?.doi).toBeTruthy();
    expect(paperOf(PAPER_B)?.doi).toBeTruthy();
    expect(paperOf(PAPER_B)?.doi).not.toBe(paperOf(PAPER_A)?.doi);

    // A second window with paper A; the panel (a tab of the first window) follows that window.
    const { windowId, tabA } = await extensionPage.evaluate(async (url) => {
      const { chrome } = globalThis as unknown as { chrome: ChromeWindowsProbe };
      const created = await chrome.windows.create({ url, focused: false });
      return { windowId: created.id, tabA: created.tabs?.[0]?.id };
    }, `${server.origin}${PAPER_A}`);
    expect(windowId).toBeDefined();
    const panel = await browser.context.newPage();
    await panel.goto(browser.extensionUrl(`sidepanel.html?windowId=${windowId}`));
    await expect.poll(() => panel.getByTestId('paper-doi').textContent(), { timeout: 30_000 }).toBe(paperOf(PAPER_A)?.doi);
    const titleA = await title(panel).textContent();

    // A new active tab in that window with paper B: the panel shows B.
    await extensionPage.evaluate(
      async ({ url, windowId }) => {
        const { chrome } = globalThis as unknown as { chrome: ChromeWindowsProbe };
        await chrome.tabs.create({ windowId, url, active: true });
      },
      { url: `${server.origin}${PAPER_B}`, windowId: windowId! },
    );
    await expect.poll(() => panel.getByTestId('paper-doi').textContent(), { timeout: 30_000 }).toBe(paperOf(PAPER_B)?.doi);
    expect(await title(panel).textContent()).not.toBe(titleA);

    // Back to the tab with A: the panel shows A, and Start runs on A, never on B. The engine is
    // WebLLM, saved as a reader's choice (this browser has no WebGPU, so the panel would offer the
    // model-server setup): the run fails at once, but its row names the paper it ran on.
    await extensionPage.evaluate(async (tabId) => {
      const { chrome } = globalThis as unknown as { chrome: ChromeWindowsProbe };
      await chrome.tabs.update(tabId, { active: true });
    }, tabA!);
    await expect.poll(() => title(panel).textContent(), { timeout: 30_000 }).toBe(titleA);
    await saveEngineSettings(panel, { kind: 'webllm' });
    await expect.poll(() => panel.getByTestId('run-summary').textContent()).toMatch(/ · WebLLM$/);
    await panel.getByTestId('extract-button').click();
    await panel.locator('[data-testid="run-status"]:is([data-status="interrupted"], [data-status="done"])').waitFor({ timeout: 30_000 });
    const runs = await readStore<{ startedAt: string; settings: { paperKey: string } }>(extensionPage, 'runs');
    const newest = runs.sort((left, right) => left.startedAt.localeCompare(right.startedAt)).at(-1);
    expect(newest?.settings.paperKey).toBe(keyOf(PAPER_A));
    await panel.close();
  });
});
