/**
 * End to end, the way a person grants access: Assay has no host permission for `localhost`
 * (the test build's is for 127.0.0.1 only), so it may read a localhost page only after its
 * toolbar button is clicked on that page (activeTab). The click must also open the side panel.
 * This guards the choice of `action.onClicked` + `sidePanel.open` over
 * `openPanelOnActionClick`, which opens the panel without granting activeTab.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { captureInSidePanel, findTabId, readStoredPapers } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');

describe.skipIf(skipReason !== undefined)(skipReason ?? 'toolbar click grants access', () => {
  let server: FixtureServer;
  let browser: ExtensionBrowser;
  let localOrigin: string;

  beforeAll(async () => {
    server = await startFixtureServer({ '/acs.html': sharedPath('fixtures', 'acs', 'papis__acs_3.html') });
    localOrigin = server.origin.replace('127.0.0.1', 'localhost');
    browser = await launchExtensionBrowser(extensionDirectory, [localOrigin]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('reads a page without host permission only after the toolbar button is clicked on it', async () => {
    const articlePage = await browser.context.newPage();
    await articlePage.goto(`${localOrigin}/acs.html`, { waitUntil: 'domcontentloaded' });
    const panel = await browser.context.newPage();
    await panel.goto(browser.extensionUrl('dataset.html'));
    const tabId = await findTabId(panel, articlePage);
    const status = panel.getByTestId('capture-status');

    await captureInSidePanel(browser, panel, tabId);
    expect(await status.getAttribute('data-status')).toBe('failed');
    expect(await status.textContent()).toContain('click its toolbar button');
    expect(await readStoredPapers(panel)).toEqual([]);

    await browser.clickToolbarButton(articlePage);
    // The real side panel (no `?tabId`) is a target Playwright does not list as a page.
    const sidePanelUrl = browser.extensionUrl('sidepanel.html');
    await expect
      .poll(async () => (await browser.targetUrls()).some((target) => target.endsWith(` ${sidePanelUrl}`)), { timeout: 10_000 })
      .toBe(true);

    await captureInSidePanel(browser, panel, tabId);
    expect(await status.getAttribute('data-status'), (await status.textContent()) ?? '').toBe('saved');
    expect(await panel.getByTestId('paper-doi').textContent()).toBe('10.1021/acsphotonics.9b00250');
    expect((await readStoredPapers(panel)).map((paper) => paper.url)).toEqual([`${localOrigin}/acs.html`]);
  });
});
