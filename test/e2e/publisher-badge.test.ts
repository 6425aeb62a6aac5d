/**
 * End to end, issue 17's "knows a paper when it sees one": a saved RSC article served as if from
 * a publisher's site, `http://publisher.test:<port>` (mapped to the fixture server on 127.0.0.1
 * by Chromium's --host-resolver-rules). The test build holds `http://publisher.test/*` as a host
 * permission (wxt.config.ts): it stands in for the optional permission a reader grants in
 * Settings, which headless Chromium cannot be asked for. So the permission alone is there from
 * the start, and the test checks that it is not an opt-in:
 * (a) before the reader lists the site, a loaded paper gets no badge and nothing is saved;
 * (b) after "Add this site" in Settings (at once, and again after a reload), the badge shows the
 *     quick scan's candidate count for the page (computed here with `scanArticle` on the saved
 *     article) and the tooltip says it is a paper; the panel, open before the page was saved,
 *     then shows the paper captured;
 * (c) the side panel opened for the tab shows the paper already captured, without a click, and
 *     paints the quick scan's candidates in the page;
 * (d) pages of the listed site that are not papers (a search listing, a journal's home page)
 *     get no badge and are not saved;
 * (e) "Remove" in Settings takes the badge away at once, and a reload brings none back.
 * The Settings section is checked with axe in the light and dark themes.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../../src/contracts/article';
import { candidateBadgeText, paperActionTitle } from '../../src/extension/paper-badge';
import { loadPropertySchemas } from '../../src/properties';
import { buildArticleIndex } from '../../src/text/article-index';
import { scanArticle } from '../../src/text/scan';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { seriousAxeViolations, setColorScheme } from './accessibility';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { findTabId, readStore } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { saveEngineSettings } from './side-panel-controls';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');

/** An RSC review with Curie temperatures in its text (../shared/fixtures/SOURCES.md). */
const PAPER = { path: '/rsc/cde2_curie__c1jm13879k.html', key: 'doi:10.1039/c1jm13879k', doi: '10.1039/c1jm13879k' };
/** RSC's search results page: a publisher page that lists many articles and is none. */
const SEARCH_RESULTS = '/rsc/cde2__searchresults_NOT_AN_ARTICLE.html';
/** A journal's home page, written below: text enough for a generic capture, no DOI, no article metadata. */
const HOME_PAGE = '/journal-home.html';

const HOME_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Journal of Materials Chemistry – home</title></head>
<body><main><h1>Journal of Materials Chemistry</h1>
${Array.from({ length: 8 }, (_, index) => `<p>News item ${index + 1}: the journal welcomes submissions on energy materials, thin films and magnetic oxides. Our editors read every manuscript within two weeks, and accepted articles appear online as soon as they are typeset.</p>`).join('\n')}
</main></body></html>`;

interface RecognitionRecord {
  tabId: number;
  url: string | undefined;
  recognition: string;
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'the toolbar badge on an opted-in publisher site', () => {
  let server: FixtureServer;
  let browser: ExtensionBrowser;
  let worker: Worker;
  let scratch: string;
  /** `http://publisher.test:<port>`: the "publisher site". */
  let site: string;
  /** An extension page for the chrome.* and IndexedDB probes. */
  let probe: Page;
  let article: Page;
  let tabId: number;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'assay-publisher-badge-'));
    writeFileSync(join(scratch, 'journal-home.html'), HOME_HTML);
    server = await startFixtureServer({
      [PAPER.path]: sharedPath('fixtures', PAPER.path),
      [SEARCH_RESULTS]: sharedPath('fixtures', SEARCH_RESULTS),
      [HOME_PAGE]: join(scratch, 'journal-home.html'),
    });
    site = server.origin.replace('127.0.0.1', 'publisher.test');
    browser = await launchExtensionBrowser(extensionDirectory, [site], ['--host-resolver-rules=MAP publisher.test 127.0.0.1']);
    worker = browser.context.serviceWorkers()[0]!;
    mkdirSync(screenshotDirectory, { recursive: true });
    probe = await browser.context.newPage();
    await probe.goto(browser.extensionUrl('dataset.html'));
    article = await browser.context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** The tab's badge text and tooltip, from `chrome.action`. */
  const badgeOf = (id: number) =>
    probe.evaluate(async (tab) => {
      const { chrome } = globalThis as unknown as {
        chrome: { action: { getBadgeText(d: object): Promise<string>; getTitle(d: object): Promise<string> } };
      };
      return { text: await chrome.action.getBadgeText({ tabId: tab }), title: await chrome.action.getTitle({ tabId: tab }) };
    }, id);

  /** How the background's looks at pages ended (the test build records them: entrypoints/background.ts). */
  const recognitions = () =>
    worker.evaluate(() => (globalThis as unknown as { assayTest: { recognitions: RecognitionRecord[] } }).assayTest.recognitions);

  /** Load `path` of the site in the article tab and wait until the background has looked at it; → how that look ended. */
  async function load(path: string, reload = false): Promise<string> {
    const url = `${site}${path}`;
    const before = (await recognitions()).length;
    if (reload) await article.reload({ waitUntil: 'load' });
    else await article.goto(url, { waitUntil: 'load' });
    await expect.poll(async () => (await recognitions()).slice(before).some((look) => look.url === url), { timeout: 60_000 }).toBe(true);
    return (await recognitions()).slice(before).find((look) => look.url === url)!.recognition;
  }

  const storedKeys = async () => (await readStore<{ key: string }>(probe, 'papers')).map((paper) => paper.key);

  /** A side panel page for the article tab, sized like the real panel, with "Settings and models" open. */
  async function openSettings(): Promise<Page> {
    const panel = await browser.context.newPage();
    await panel.setViewportSize({ width: 420, height: 900 });
    await panel.goto(browser.extensionUrl(`sidepanel.html?tabId=${tabId}`));
    await panel.locator('[data-testid="settings-panel"] > summary').click();
    await panel.getByTestId('paper-sites').waitFor();
    return panel;
  }

  it('(a) without the opt-in, recognizes nothing and saves nothing, though the host permission is held', async () => {
    expect(await load(PAPER.path)).toBe('not-opted-in');
    tabId = await findTabId(probe, article);
    expect(await badgeOf(tabId)).toEqual({ text: '', title: 'Open Assay' });
    expect(await storedKeys()).toEqual([]);
  });

  it('(b) after "Add this site" in Settings, shows the quick scan count on the badge at once and after a reload, and says it is a paper', async () => {
    const panel = await openSettings();
    // The panel is open on the page, which is not saved yet.
    expect(await panel.getByTestId('paper-doi').count()).toBe(0);
    const before = (await recognitions()).length;
    await panel.getByRole('button', { name: `Add this site (${site})` }).click();
    await panel.locator(`[data-testid="paper-sites-list"] li[data-site="${site}"]`).waitFor();
    // The page the reader is on is recognized when its site is added, without a reload.
    const url = `${site}${PAPER.path}`;
    await expect
      .poll(async () => (await recognitions()).slice(before).find((look) => look.url === url)?.recognition, { timeout: 60_000 })
      .toBe('paper');
    const [saved] = (await readStore<{ key: string; article: Article }>(probe, 'papers')).filter((paper) => paper.key === PAPER.key);
    expect(saved).toBeDefined();
    // What the side panel's quick scan finds in the saved article, with the built-in schemas (no own ones here).
    const expected = scanArticle(buildArticleIndex(saved!.article, loadPropertySchemas())).candidates.length;
    expect(expected).toBeGreaterThan(0);
    const badge = { text: candidateBadgeText(expected), title: paperActionTitle(expected) };
    expect(await badgeOf(tabId)).toEqual(badge);
    // The panel, open since before the background saved the page, now shows it captured, without a click on Capture.
    await expect.poll(() => panel.getByTestId('paper-doi').textContent(), { timeout: 30_000 }).toBe(PAPER.doi);
    expect(await panel.getByTestId('capture-status').getAttribute('data-status')).toBe('idle');

    for (const scheme of ['light', 'dark'] as const) {
      await setColorScheme(panel, scheme);
      await panel.getByTestId('paper-sites').scrollIntoViewIfNeeded();
      expect(await seriousAxeViolations(panel), `axe, ${scheme} theme`).toEqual([]);
      await panel.getByTestId('paper-sites').screenshot({ path: join(screenshotDirectory, `settings-paper-sites-${scheme}.png`) });
    }
    await panel.close();

    const reloaded = performance.now();
    expect(await load(PAPER.path, true)).toBe('paper');
    expect(await badgeOf(tabId)).toEqual(badge);
    // A figure for the README: from the reload to the badge, the page's own load included.
    console.info(`publisher badge: ${PAPER.path} reloaded → badge "${badge.text}" in ${Math.round(performance.now() - reloaded)} ms`);
  });

  it('(c) opens the side panel on the paper already captured, without a click on Capture', async () => {
    const panel = await browser.context.newPage();
    await panel.setViewportSize({ width: 420, height: 760 });
    await panel.goto(browser.extensionUrl(`sidepanel.html?tabId=${tabId}`));
    await expect.poll(() => panel.getByTestId('paper-doi').textContent(), { timeout: 30_000 }).toBe(PAPER.doi);
    // "idle": the panel found the saved paper; no capture ran from it.
    expect(await panel.getByTestId('capture-status').getAttribute('data-status')).toBe('idle');
    // Opened on the recognized paper, the panel paints the quick scan's candidates in the page, as after a capture.
    const candidateStatus = panel.locator('[data-testid="candidate-status"][data-status="shown"]');
    await candidateStatus.waitFor({ timeout: 30_000 });
    const anchored = Number(await article.locator('assay-highlighter').getAttribute('data-assay-anchored'));
    expect(anchored).toBeGreaterThan(0);
    expect(await candidateStatus.textContent()).toMatch(new RegExp(`^${anchored} candidates? highlighted`));
    await panel.screenshot({ path: join(screenshotDirectory, 'sidepanel-recognized-paper.png'), fullPage: true });

    // No WebGPU in this browser and no engine chosen: the panel offers the model-server setup
    // instead of WebLLM. A reader who chose WebLLM anyway (saved earlier) starts a run that cannot
    // run here: it ends at once without a record, and the quick scan's highlights and count stay (issue 28).
    await panel.getByTestId('engine-setup').waitFor({ timeout: 30_000 });
    await saveEngineSettings(panel, { kind: 'webllm' });
    await expect.poll(() => panel.getByTestId('run-summary').textContent()).toMatch(/ · WebLLM$/);
    await panel.getByTestId('extract-button').click();
    await panel.locator('[data-testid="run-status"]:is([data-status="interrupted"], [data-status="done"])').waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('run-error').getAttribute('data-error-code')).toBe('no-webgpu');
    // Give a re-render the time to clear them, as it did before.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await candidateStatus.textContent()).toMatch(new RegExp(`^${anchored} candidates? highlighted`));
    expect(Number(await article.locator('assay-highlighter').getAttribute('data-assay-anchored'))).toBe(anchored);
    await panel.close();
  });

  it('(d) gives no badge to pages of the listed site that are not papers, and saves none', async () => {
    const before = await storedKeys();
    expect(await load(SEARCH_RESULTS)).toBe('not-a-paper');
    expect((await badgeOf(tabId)).text).toBe('');
    expect(await load(HOME_PAGE)).toBe('not-a-paper');
    expect((await badgeOf(tabId)).text).toBe('');
    expect(await storedKeys()).toEqual(before);
  });

  it('(e) "Remove" in Settings takes the badge away at once, and a reload of the paper brings none', async () => {
    expect(await load(PAPER.path)).toBe('paper');
    expect((await badgeOf(tabId)).text).not.toBe('');
    const panel = await openSettings();
    await panel.getByRole('button', { name: `Remove ${site}` }).click();
    await panel.getByTestId('paper-sites-empty').waitFor();
    await panel.close();
    await expect.poll(() => badgeOf(tabId), { timeout: 10_000 }).toEqual({ text: '', title: 'Open Assay' });
    expect(await load(PAPER.path, true)).toBe('not-opted-in');
    expect(await badgeOf(tabId)).toEqual({ text: '', title: 'Open Assay' });
  });
});
