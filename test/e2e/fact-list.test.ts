/**
 * End to end, issue 28's fact list in the built test extension in Chromium:
 * (a) on a publisher page (a saved RSC article), the quick scan's candidates are listed by
 *     property and material with their status in words; a click and j/k scroll the page to each
 *     fact and flash it there (the `assay-flash` highlight, in view);
 * (b) on a page whose one abstract fact is only in its metadata (`citation_abstract`, as on the
 *     AIP page the tester saw), that fact is named with the reason it is not marked;
 * (c) on a PDF open in Chromium's viewer (no script runs there), every candidate is listed with
 *     its page, the pages those of its text in the stored article;
 * (d) after a run, the verdict list is one tab stop: from the focused verdict, "Save verified" is
 *     a few Tabs away, and j in the list scrolls the page to the next verdict.
 * axe finds no serious or critical violation with the list open, light and dark. Screenshots:
 * test-results/e2e/fact-list-publisher.png and fact-list-pdf.png.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../../src/contracts/article';
import { loadPropertySchemas } from '../../src/properties';
import { scanHighlightItems } from '../../src/ui/side-panel/candidate-highlights';
import { fixtureBandGapFacts } from '../support/grounded-facts';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { seriousAxeViolations, setColorScheme } from './accessibility';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { captureInSidePanel, findTabId, readStore } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { startOpenAiTestServer, type OpenAiTestServer } from './openai-test-server';
import { useModelServer } from './side-panel-controls';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');

/** An RSC article with band gaps and Curie temperatures (../shared/fixtures/SOURCES.md). */
const ARTICLE = '/rsc/cde2_curie__c1jm13879k.html';
/** A superconductor preprint (../shared/fixtures/SOURCES.md) whose quick scan finds values on several pages. */
const PDF_FIXTURE = 'pdf/supercon/supermat__1609.04957-CC.pdf';
const PDF_PATH = '/files/1609.04957.pdf';
const ORPHAN_PATH = '/orphan.html';
const ORPHAN_DOI = '10.5555/fact.list.orphan';

const filler =
  'The films were grown by plasma-assisted molecular beam epitaxy on c-plane sapphire, and their thickness was checked by cross-sectional electron microscopy. ';
/**
 * A full-text page with no abstract element: its abstract, and so its one ZnO fact, is only in
 * `citation_abstract`, which the capture reads and the page does not show.
 */
const ORPHAN_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Zinc oxide and gallium nitride films</title>
<meta name="citation_title" content="Zinc oxide and gallium nitride films">
<meta name="citation_doi" content="${ORPHAN_DOI}">
<meta name="citation_abstract" content="We grew zinc oxide films by sputtering on sapphire and found that ZnO has a band gap of 3.37 eV at room temperature in optical absorption, in line with earlier reports on bulk crystals grown from the melt and on thin films grown by pulsed laser deposition.">
</head><body><article><h1>Zinc oxide and gallium nitride films</h1>
<h2>Results</h2>
<p>${filler.repeat(8)}The GaN films showed a band gap of 3.4 eV in absorption at room temperature.</p>
<p>${filler.repeat(8)}The AlN films showed a band gap of 6.2 eV in absorption at room temperature.</p>
<p>${filler.repeat(8)}</p>
</article></body></html>`;

/** The page's `assay-flash` highlight now: its text and whether it lies in the window; null when none is flashing. */
async function flashed(page: Page): Promise<{ text: string; inView: boolean; scrollY: number } | null> {
  return page.evaluate(() => {
    const flash = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('assay-flash');
    const range = flash ? [...flash][0] : undefined;
    if (!range) return null;
    const rect = range.getBoundingClientRect();
    return {
      text: range.toString(),
      inView: rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight,
      scrollY: window.scrollY,
    };
  });
}

/** The number a fact's value starts with ("1.13" of "1.13 eV"), as printed: what its flashed mark holds. */
async function valueNumber(panel: Page, id: string): Promise<string> {
  const text = (await panel.getByTestId(`fact-${id}`).locator('.value').textContent()) ?? '';
  return /\d+(?:\.\d+)?/.exec(text)?.[0] ?? text;
}

/** What has focus in the panel: its test id, a verdict as `record-N`, else its tag. */
const focused = (panel: Page) =>
  panel.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (element?.matches('li.record')) return `record-${element.dataset.index}`;
    return element?.dataset.testid ?? element?.tagName ?? 'none';
  });

describe.skipIf(skipReason !== undefined)(skipReason ?? 'the fact list: candidates and verdicts, pages and PDFs', () => {
  let server: FixtureServer;
  let models: OpenAiTestServer;
  let browser: ExtensionBrowser;
  let directory: string;
  let extensionPage: Page;
  let article: Page;
  let panel: Page;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'assay-fact-list-'));
    writeFileSync(join(directory, 'orphan.html'), ORPHAN_PAGE);
    const facts = await fixtureBandGapFacts(ARTICLE, 2);
    models = await startOpenAiTestServer(facts);
    server = await startFixtureServer({
      [ARTICLE]: sharedPath('fixtures', ARTICLE),
      [PDF_PATH]: sharedPath('fixtures', PDF_FIXTURE),
      [ORPHAN_PATH]: join(directory, 'orphan.html'),
    });
    browser = await launchExtensionBrowser(extensionDirectory, [server.origin, new URL(models.baseUrl).origin]);
    mkdirSync(screenshotDirectory, { recursive: true });
    extensionPage = await browser.context.newPage();
    await extensionPage.goto(browser.extensionUrl('dataset.html'));
  });

  afterAll(async () => {
    await browser?.close();
    await models?.close();
    await server?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** Open `path` in a tab, capture it from a side panel and wait for the quick scan's answer; → the article tab and the panel. */
  async function captured(path: string, status: string): Promise<{ page: Page; side: Page }> {
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}${path}`, { waitUntil: 'load' });
    const side = await browser.context.newPage();
    await side.setViewportSize({ width: 420, height: 900 });
    await captureInSidePanel(browser, side, await findTabId(extensionPage, page));
    expect(await side.getByTestId('capture-status').getAttribute('data-status')).toBe('saved');
    await side.locator(`[data-testid="candidate-status"][data-status="${status}"]`).waitFor({ timeout: 30_000 });
    return { page, side };
  }

  it('lists the candidates of a publisher page; a click and j/k scroll the page to each and flash it', async () => {
    ({ page: article, side: panel } = await captured(ARTICLE, 'shown'));
    // The article tab stays behind the panel's, where a smooth scroll may not run its frames;
    // with reduced motion (a reader's setting the highlighter honours) it jumps at once.
    await article.emulateMedia({ reducedMotion: 'reduce' });
    const list = panel.getByTestId('fact-list');
    const facts = list.locator('li.fact');
    const anchored = Number(await article.locator('assay-highlighter').getAttribute('data-assay-anchored'));
    expect(anchored).toBeGreaterThan(2);
    const ids = await facts.evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.id!));
    expect(ids.length).toBeGreaterThanOrEqual(anchored);
    expect(await panel.getByTestId('fact-counts').textContent()).toMatch(new RegExp(`^${ids.length} candidates — not yet checked`));
    expect(await facts.first().locator('.badge').textContent()).toBe('Candidate — not yet checked');
    // Grouped by property, then material: each property heading once.
    const properties = await list.locator('li.fact-property > h4').allTextContents();
    expect(new Set(properties).size).toBe(properties.length);
    // One tab stop: exactly one fact is in the tab order.
    expect(await facts.evaluateAll((items) => items.filter((item) => (item as HTMLElement).tabIndex === 0).length)).toBe(1);

    // A click on the last placed fact scrolls the page down to it and flashes it.
    const placed = await list
      .locator('li.fact:not([data-placed="false"])')
      .evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.id!));
    const last = placed.at(-1)!;
    await article.evaluate(() => window.scrollTo(0, 0));
    await panel.getByTestId(`fact-${last}`).click();
    await expect.poll(() => flashed(article), { timeout: 5_000 }).toMatchObject({ inView: true });
    const first = (await flashed(article))!;
    expect(first.scrollY).toBeGreaterThan(0);
    expect(first.text).toContain(await valueNumber(panel, last));
    expect(await focused(panel)).toBe(`fact-${last}`);

    // k moves to the fact listed before it and shows that one; j comes back.
    const before = ids[ids.indexOf(last) - 1]!;
    const number = await valueNumber(panel, before);
    await article.evaluate(() => window.scrollTo(0, 0));
    await panel.keyboard.press('k');
    expect(await focused(panel)).toBe(`fact-${before}`);
    await expect.poll(() => flashed(article), { timeout: 5_000 }).toMatchObject({ text: expect.stringContaining(number), inView: true });
    await panel.keyboard.press('j');
    expect(await focused(panel)).toBe(`fact-${last}`);
    const lastNumber = await valueNumber(panel, last);
    await expect
      .poll(() => flashed(article), { timeout: 5_000 })
      .toMatchObject({ text: expect.stringContaining(lastNumber), inView: true });

    for (const scheme of ['light', 'dark'] as const) {
      await setColorScheme(panel, scheme);
      expect(await seriousAxeViolations(panel)).toEqual([]);
    }
    await setColorScheme(panel, 'light');
    await list.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: join(screenshotDirectory, 'fact-list-publisher.png'), fullPage: true });
  });

  it('names the fact the page cannot mark, with the reason', async () => {
    const { page, side } = await captured(ORPHAN_PATH, 'shown');
    expect(await side.getByTestId('candidate-status').textContent()).toContain('1 not found in the page');
    const orphans = side.getByTestId('fact-orphans').locator('li');
    expect(await orphans.count()).toBe(1);
    expect(await orphans.textContent()).toMatch(/^ZnO, Band gap 3\.37 eV — .+/);
    expect(await side.locator('li.fact[data-placed="false"]').count()).toBe(1);
    expect(await side.getByTestId('fact-counts').textContent()).toBe('3 candidates — not yet checked · 1 not marked in the page');
    // The two facts in the page are listed and placed.
    expect(await side.locator('li.fact:not([data-placed="false"]) .value').allTextContents()).toEqual(['3.4 eV', '6.2 eV']);
    await side.close();
    await page.close();
  });

  it('lists a PDF’s candidates with their pages', async () => {
    const { page, side } = await captured(PDF_PATH, 'unreachable');
    const papers = await readStore<{ url: string; article: Article }>(extensionPage, 'papers');
    const stored = papers.find((paper) => paper.url === `${server.origin}${PDF_PATH}`)!;
    const expected = scanHighlightItems(stored.article, loadPropertySchemas());
    expect(expected.items.length).toBeGreaterThan(2);
    const listed = await side
      .locator('li.fact')
      .evaluateAll((items) => items.map((item) => [(item as HTMLElement).dataset.id!, item.querySelector('.page')?.textContent ?? '']));
    expect(listed.map(([id]) => id).sort()).toEqual(expected.items.map((item) => item.id).sort());
    for (const [id, page] of listed) expect(page).toBe(` · page ${expected.pages[id!]}`);
    expect(new Set(Object.values(expected.pages)).size).toBeGreaterThan(1);
    // Nothing is "not marked": the viewer runs no script, which the status line says once.
    expect(await side.getByTestId('fact-orphans').count()).toBe(0);
    // A click cannot scroll Chromium's viewer (the status line says why): the note names the fact's page.
    const [lastId, lastPage] = listed.at(-1)!;
    await side.getByTestId(`fact-${lastId}`).click();
    await expect.poll(() => side.getByTestId('fact-list-note').textContent()).toBe(`This fact is on${lastPage!.replace(' · ', ' ')}.`);
    expect(await seriousAxeViolations(side)).toEqual([]);
    await side.screenshot({ path: join(screenshotDirectory, 'fact-list-pdf.png'), fullPage: true });
    await side.close();
    await page.close();
  });

  it('after a run, the verdict list is one tab stop before "Save verified", and j shows the next verdict in the page', async () => {
    await useModelServer(panel, models.baseUrl, 'proposer-a, proposer-b, proposer-c');
    await panel.getByTestId('extract-button').click();
    await panel.locator('[data-testid="run-status"][data-status="done"]').waitFor({ timeout: 90_000 });
    const records = panel.locator('[data-testid="verdict-list"] li.record');
    await expect.poll(() => records.count()).toBeGreaterThan(1);
    expect(await panel.getByTestId('verdict-counts').textContent()).toMatch(/^\d+ verified/);
    const indices = await records.evaluateAll((items) => items.map((item) => Number((item as HTMLElement).dataset.index)));
    await panel.locator(`li.record[data-index="${indices[0]}"]`).focus();
    let tabs = 0;
    while (tabs < 60 && (await focused(panel)) !== 'save-verified') {
      await panel.keyboard.press('Tab');
      tabs += 1;
    }
    console.log(`Tab presses from the verdict list to "Save verified" with ${indices.length} verdicts: ${tabs}`);
    expect(tabs).toBeLessThanOrEqual(2);

    await panel.locator(`li.record[data-index="${indices[0]}"]`).focus();
    await article.evaluate(() => window.scrollTo(0, 0));
    await panel.keyboard.press('j');
    expect(await focused(panel)).toBe(`record-${indices[1]}`);
    await expect.poll(async () => (await flashed(article))?.inView, { timeout: 5_000 }).toBe(true);
    // m opens the record's menu; Escape closes it.
    await panel.keyboard.press('m');
    const menu = panel.getByTestId(`actions-menu-${indices[1]}`);
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(
      expect.arrayContaining(['Show in the page', 'Accept', 'Edit', 'Reject', 'Votes and checks']),
    );
    expect(await seriousAxeViolations(panel)).toEqual([]);
    await panel.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
  });
});
