/**
 * End to end: a precedent check from a selection. The reader imports the SuperCon table in the
 * side panel, selects "SrTiO3" on a real AIP page, and chooses "Check precedent in Assay"; the
 * card answers from the imported table with each value's reference code and table row. A material
 * the table lacks answers Unknown with what was searched; with the open literature turned on in
 * Settings (and the providers' hosts blocked by the test's routing), it says which providers were
 * unreachable and that only local sources were searched. Playwright cannot open Chromium's
 * native context menu, so the test calls the menu's click handler in the service worker (exposed
 * by the test build only) with the page's real selection.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { findTabId } from './extension-pages';
import { useModelServer } from './side-panel-controls';
import { startFixtureServer, type FixtureServer } from './fixture-server';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const articlePath = '/aip/limesoup__APL-Materials.10.1063-1.4824038.html';
const superCon = () => sharedPath('datasets', 'cornell-scillm', 'tc-precedent-search', 'SuperCon_Tc_Tcn_no_NA.csv');

describe.skipIf(skipReason !== undefined)(skipReason ?? 'precedent check from a selection', () => {
  let pages: FixtureServer;
  let browser: ExtensionBrowser;
  let article: Page;
  let panel: Page;
  let worker: Worker;
  let tabId = 0;

  beforeAll(async () => {
    pages = await startFixtureServer({ [articlePath]: sharedPath('fixtures', articlePath) });
    browser = await launchExtensionBrowser(extensionDirectory, [pages.origin]);
    worker = browser.context.serviceWorkers()[0]!;
    article = await browser.context.newPage();
    await article.goto(`${pages.origin}${articlePath}`);
    panel = await browser.context.newPage();
    await panel.goto(browser.extensionUrl('dataset.html'));
    tabId = await findTabId(panel, article);
    await panel.goto(browser.extensionUrl(`sidepanel.html?tabId=${tabId}`));
  });

  afterAll(async () => {
    await browser?.close();
    await pages?.close();
  });

  it('imports the SuperCon table, then answers a material selected in the page from it, with codes and rows', async () => {
    // Folded to its heading until the reader opens it.
    expect(await panel.getByTestId('reference-import').isVisible()).toBe(false);
    await panel.getByRole('heading', { name: 'Reference tables' }).click();
    await panel.getByTestId('reference-import').setInputFiles(superCon());
    await panel
      .locator('[data-testid="reference-status"]')
      .filter({ hasText: /^Imported SuperCon_Tc_Tcn_no_NA\.csv: \d+ rows$/ })
      .waitFor({ timeout: 60_000 });

    // Select the first "SrTiO<sub>3</sub>" of the article, across the subscript, as a reader would with the mouse.
    const selected = await article.evaluate(() => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.lastIndexOf('SrTiO') ?? -1;
        const sub = node.nextSibling;
        if (
          at < 0 ||
          at + 'SrTiO'.length !== node.textContent!.length ||
          !(sub instanceof HTMLElement) ||
          sub.tagName !== 'SUB' ||
          !sub.firstChild
        )
          continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(sub.firstChild, sub.firstChild.textContent!.length);
        const selection = window.getSelection()!;
        selection.removeAllRanges();
        selection.addRange(range);
        return selection.toString();
      }
      return '';
    });
    expect(selected).toBe('SrTiO3');
    await worker.evaluate(
      ({ text, id }) =>
        (
          globalThis as unknown as { assayTest: { precedentMenuClick(info: object, tab: object): Promise<void> } }
        ).assayTest.precedentMenuClick({ menuItemId: 'assay-check-precedent', selectionText: text }, { id }),
      { text: selected, id: tabId },
    );

    const card = panel.locator('[data-testid="precedent-card"][data-answer="Yes"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('precedent-answer').textContent()).toBe('Yes');
    expect(await card.textContent()).toContain('SrTiO3');
    const supporting = (await card.getByTestId('precedent-supporting').textContent()) ?? '';
    // Each value names its table and SuperCon reference code, and quotes the table row it came from.
    expect(supporting).toMatch(/\d+(\.\d+)? K/);
    expect(supporting).toContain('SuperCon_Tc_Tcn_no_NA.csv');
    expect(supporting).toMatch(/,tc,/);
    expect(await card.getByTestId('precedent-checked-at').textContent()).not.toBe('');
    await panel.screenshot({ path: join(projectRoot, 'test-results', 'e2e', 'side-panel-precedent.png'), fullPage: true });
  });

  it('answers Unknown for a material the table lacks, and says what was searched', async () => {
    await panel.getByTestId('precedent-material').fill('MgO');
    await panel.getByTestId('precedent-submit').click();
    const card = panel.locator('[data-testid="precedent-card"][data-answer="Unknown"]');
    await card.waitFor({ timeout: 30_000 });
    const searched = (await card.getByTestId('precedent-searched').textContent()) ?? '';
    expect(searched).toContain('SuperCon_Tc_Tcn_no_NA.csv');
    expect(searched).toContain('open literature: not searched');
  });

  it('with the open literature on, says Crossref and arXiv were unreachable and only local sources were searched', async () => {
    // The engine form shows once a paper is captured: choose the OpenAI-compatible server (no
    // server runs there; the literature search fails before any model is asked).
    await panel.getByRole('button', { name: /Capture (this page|again)/ }).click();
    await panel.locator('[data-testid="capture-status"][data-status="saved"]').waitFor({ timeout: 60_000 });
    await useModelServer(panel, 'http://127.0.0.1:9/v1', 'any-model');

    // Turning the source on asks for the providers' hosts; the test build already holds them, so
    // the request is granted without a prompt headless Chromium could not answer.
    await panel.getByTestId('settings-panel').locator('summary').click();
    await panel.getByTestId('literature-mailto').fill('reader@example.org');
    await panel.getByTestId('literature-enabled').click();
    await panel.locator('[data-testid="literature-settings"][data-enabled="true"]').waitFor({ timeout: 10_000 });
    expect(await panel.getByTestId('literature-status').textContent()).toBe('On: searching as reader@example.org.');

    // The test's request routing blocks the providers' hosts: the "no network" case.
    await panel.getByTestId('precedent-material').fill('CaB6');
    await panel.getByTestId('precedent-submit').click();
    const card = panel.locator('[data-testid="precedent-card"][data-answer="Unknown"]');
    await card.filter({ hasText: 'Crossref' }).waitFor({ timeout: 150_000 });
    const searched = (await card.getByTestId('precedent-searched').textContent()) ?? '';
    expect(searched).toContain('SuperCon_Tc_Tcn_no_NA.csv');
    expect(searched).toMatch(/Crossref: unreachable/);
    expect(searched).toMatch(/arXiv: unreachable/);
    expect(searched).not.toContain('open literature: not searched');
    expect(await card.getByTestId('precedent-unknown-because').textContent()).toBe('No network: only local sources were searched.');
    await panel.screenshot({ path: join(projectRoot, 'test-results', 'e2e', 'side-panel-precedent-literature.png'), fullPage: true });
  });
});
