/**
 * End to end (issue 14, item 3): in the built extension, a page that claims the DOI of a paper
 * already saved with its full text, but shows only an abstract, does not replace it: the side
 * panel keeps showing the full text and says why, and the capture is kept as an earlier version.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { captureInSidePanel, findTabId, readStore, readStoredPapers } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');

const FULL_TEXT_PATH = '/nature/limesoup__101038nmat942.html';
const DOI = '10.1038/nmat942';
const LANDING_PATH = '/landing/nmat942.html';
/** A landing page that names the paper (title, DOI) and shows only a teaser of an abstract. */
const LANDING_PAGE = `<!DOCTYPE html><html><head><title>Landing</title>
<meta name="citation_title" content="Two- versus three-dimensional quantum confinement in indium phosphide wires and dots">
<meta name="citation_doi" content="${DOI}"></head><body><h1>Two- versus three-dimensional quantum confinement</h1>
<div class="abstract"><p>Quantum wires of indium phosphide show weaker confinement than quantum dots of the same diameter, as measured here.</p></div>
</body></html>`;

describe.skipIf(skipReason !== undefined)(skipReason ?? 'capturing a saved paper again', () => {
  let directory: string;
  let server: FixtureServer;
  let browser: ExtensionBrowser;
  let extensionPage: Page;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'assay-recapture-'));
    writeFileSync(join(directory, 'landing.html'), LANDING_PAGE);
    server = await startFixtureServer({
      [FULL_TEXT_PATH]: sharedPath('fixtures', FULL_TEXT_PATH),
      [LANDING_PATH]: join(directory, 'landing.html'),
    });
    browser = await launchExtensionBrowser(extensionDirectory, [server.origin]);
    extensionPage = await browser.context.newPage();
    await extensionPage.goto(browser.extensionUrl('dataset.html'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  async function capture(path: string): Promise<Page> {
    const articlePage = await browser.context.newPage();
    await articlePage.goto(`${server.origin}${path}`, { waitUntil: 'domcontentloaded' });
    const panel = await browser.context.newPage();
    await captureInSidePanel(browser, panel, await findTabId(extensionPage, articlePage));
    await articlePage.close();
    return panel;
  }

  it('keeps the full text, says so in the side panel, and keeps the landing page as an earlier version', async () => {
    const first = await capture(FULL_TEXT_PATH);
    const fullBlocks = Number(await first.getByTestId('paper-blocks').textContent());
    expect(fullBlocks).toBeGreaterThan(10);
    await first.close();

    const panel = await capture(LANDING_PATH);
    expect(await panel.getByTestId('capture-status').getAttribute('data-status')).toBe('saved');
    expect(Number(await panel.getByTestId('paper-blocks').textContent())).toBe(fullBlocks);
    const warnings = panel.getByRole('region', { name: 'Warnings' });
    await expect
      .poll(() => warnings.textContent())
      .toMatch(/Not saved over the paper: this capture from 127\.0\.0\.1 has only the abstract, so the full text captured on .* is kept/);

    const [stored] = await readStoredPapers(extensionPage);
    expect(stored).toMatchObject({ key: `doi:${DOI}`, url: `${server.origin}${FULL_TEXT_PATH}`, blockCount: fullBlocks });
    const versions = await readStore<{ paperKey: string; reason: string; record: { url: string } }>(extensionPage, 'paperVersions');
    expect(versions.map((version) => [version.paperKey, version.reason, version.record.url])).toEqual([
      [`doi:${DOI}`, 'not-better', `${server.origin}${LANDING_PATH}`],
    ]);
    await panel.close();
  });
});
