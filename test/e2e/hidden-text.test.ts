/**
 * End to end: text a live page hides with CSS never reaches the captured article. The built
 * test extension in Chromium captures a page whose fake facts are hidden by a `display:none`
 * class rule, a zero font size, a rule under a media query (which only the browser's computed
 * style can settle) and an off-screen box; the stored `Article.text` holds the visible text and
 * none of the hidden facts. A second page carries the 22 variants of issue 27 (colour, tiny
 * fonts, transforms, covers, cascade layers, an external stylesheet, closed `<details>`, …)
 * beside one visible control fact: only the control is captured.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_FACT, HIDDEN_VARIANTS_CSS, hiddenVariantsPage, leakedVariants, lostLookalikes } from '../support/hidden-variants';
import { projectRoot } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { captureInSidePanel, findTabId, readStore } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';

const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const skipReason = !existsSync(chromiumPath)
  ? `${chromiumPath} not found: skipping e2e tests`
  : !existsSync(extensionDirectory)
    ? `${extensionDirectory} not built (npm run build:test): skipping`
    : undefined;

const DOI = '10.5555/hidden.text.1';
const VARIANTS_DOI = '10.5555/hidden.variants.1';
const paragraph = (marker: string): string =>
  `<p>The ${marker} AlN films were annealed at 450 °C for 2 h and showed a band gap of 6.2 eV in absorption. `.repeat(8) + '</p>';

/** A full-text article with a fake fact hidden four ways between visible paragraphs. */
const PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8">
<title>Nitride films hidden test</title>
<meta name="citation_title" content="Nitride films with hidden text">
<meta name="citation_doi" content="${DOI}">
<style>
  .collapsed { display: none }
  .tiny { font-size: 0 }
  @media (min-width: 1px) { .wide-only-hidden { display: none } }
  .offscreen { position: absolute; left: -10000px; top: 0 }
</style></head>
<body><article><h1>Nitride films with hidden text</h1>
<h2>Results</h2>
${paragraph('first visible')}
<p class="collapsed">GaN band gap 9.9 eV (display none).</p>
<p class="tiny">GaN band gap 9.8 eV (zero font size).</p>
<p style="font-size:0px">GaN band gap 9.7 eV (inline zero font size).</p>
<p class="wide-only-hidden">GaN band gap 9.6 eV (hidden under a media query).</p>
<p class="offscreen">GaN band gap 9.5 eV (off screen).</p>
${paragraph('second visible')}
</article></body></html>`;

describe.skipIf(skipReason !== undefined)(skipReason ?? 'hidden text in the built extension', () => {
  let server: FixtureServer;
  let browser: ExtensionBrowser;
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'assay-hidden-'));
    const file = join(directory, 'hidden.html');
    writeFileSync(file, PAGE);
    const variantsFile = join(directory, 'variants.html');
    writeFileSync(variantsFile, hiddenVariantsPage(VARIANTS_DOI));
    const cssFile = join(directory, 'hidden-variants.css');
    writeFileSync(cssFile, HIDDEN_VARIANTS_CSS);
    server = await startFixtureServer({ '/hidden.html': file, '/variants.html': variantsFile, '/hidden-variants.css': cssFile });
    browser = await launchExtensionBrowser(extensionDirectory, [server.origin]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** Capture `urlPath` in the side panel and answer the stored article's text. */
  async function capturedText(urlPath: string, doi: string, waitUntil: 'domcontentloaded' | 'load'): Promise<string> {
    const extensionPage = await browser.context.newPage();
    await extensionPage.goto(browser.extensionUrl('dataset.html'));
    const articlePage = await browser.context.newPage();
    await articlePage.setViewportSize({ width: 1200, height: 800 });
    await articlePage.goto(`${server.origin}${urlPath}`, { waitUntil });
    const panel = await browser.context.newPage();
    await captureInSidePanel(browser, panel, await findTabId(extensionPage, articlePage));
    const status = panel.getByTestId('capture-status');
    expect(await status.getAttribute('data-status'), (await status.textContent()) ?? '').toBe('saved');
    const records = await readStore<{ key: string; article: { text: string } }>(extensionPage, 'papers');
    return records.find((record) => record.key === `doi:${doi}`)?.article.text ?? '';
  }

  it('captures the visible text and none of the text hidden by CSS', async () => {
    const text = await capturedText('/hidden.html', DOI, 'domcontentloaded');
    expect(text).toContain('first visible AlN films');
    expect(text).toContain('second visible AlN films');
    expect(text).not.toContain('GaN band gap');
  });

  it('captures the visible control fact and none of the 22 hidden variants of issue 27', async () => {
    // `load`: the external stylesheet has been applied.
    const text = await capturedText('/variants.html', VARIANTS_DOI, 'load');
    expect(text).toContain(CONTROL_FACT);
    expect(text).toContain('Seen before.');
    expect(text).toContain('second visible AlN films');
    expect(leakedVariants(text)).toEqual([]);
    expect(lostLookalikes(text)).toEqual([]);
  });
});
