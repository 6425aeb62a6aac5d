/**
 * End to end: the welcome page opens by itself when the extension is installed (a fresh
 * profile), says what Assay does and where data is kept, lists the WebLLM download per role for
 * this browser's GPU (SwiftShader here: no shader-f16, so the 32-bit builds), saves the engine
 * choice, and opens the bundled example article, which the side panel then captures and whose
 * quick-scan candidates are highlighted in the page — all with no network. Light and dark
 * themes both pass axe-core's serious and critical checks; screenshots go to test-results/e2e/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/shared-data';
import { seriousAxeViolations, setColorScheme } from './accessibility';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { captureInSidePanel, findTabId, readStoredPapers } from './extension-pages';

const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');

describe.skipIf(skipReason !== undefined)(skipReason ?? 'the welcome page and the bundled example article', () => {
  let browser: ExtensionBrowser;
  let welcome: Page;

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    // No origin is allowed: the example path must work offline. SwiftShader's WebGPU lets the page list the models.
    browser = await launchExtensionBrowser(extensionDirectory, [], ['--enable-unsafe-webgpu']);
    const welcomeUrl = browser.extensionUrl('welcome.html');
    // The install opens it: it may already be there, or come a moment after the worker starts.
    welcome =
      browser.context.pages().find((page) => page.url() === welcomeUrl) ??
      (await browser.context.waitForEvent('page', { predicate: (page) => page.url() === welcomeUrl, timeout: 20_000 }));
    await welcome.setViewportSize({ width: 1100, height: 900 });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens on install and says what Assay does, where data stays, and what WebLLM downloads per role', async () => {
    await welcome.getByRole('heading', { level: 1, name: 'Welcome to Assay' }).waitFor();
    await expect.poll(() => welcome.getByRole('heading', { name: 'Your data stays in this browser' }).count()).toBe(1);
    await welcome.locator('[data-testid="welcome-webgpu"][data-phase="known"]').waitFor({ timeout: 30_000 });
    // SwiftShader has no shader-f16: the roster is the 32-bit one, three distinct models with their roles.
    const models = welcome.getByTestId('welcome-models');
    expect(await models.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-model')))).toEqual([
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      'SmolLM2-360M-Instruct-q4f32_1-MLC',
      'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    ]);
    const llama = models.locator('tr[data-model="Llama-3.2-1B-Instruct-q4f32_1-MLC"]');
    expect(await llama.locator('td').first().textContent()).toBe('proposer 3, aggregator, discriminator');
    // 1e9 × 5 bits / 8 bytes = 596 MB; the GPU memory comes from WebLLM's own model list through the engine.
    expect(await llama.locator('td').nth(1).textContent()).toBe('about 596 MB');
    await expect.poll(() => llama.locator('td').nth(2).textContent()).toMatch(/^\d+ MB of GPU memory$/);
    expect(await models.locator('caption').textContent()).toMatch(/downloads about 1\.1 GB in all/);
  });

  it('saves the engine chosen on the page as the engine runs start with', async () => {
    await welcome.getByLabel('OpenAI-compatible server').check();
    await welcome.getByTestId('engine-base-url').fill('http://127.0.0.1:11434/v1');
    await welcome.getByTestId('engine-models').fill('qwen2.5:7b');
    const stored = () =>
      welcome.evaluate(async () => {
        const { chrome } = globalThis as unknown as {
          chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
        };
        return (await chrome.storage.local.get('assay:engine-settings'))['assay:engine-settings'];
      });
    await expect.poll(stored).toMatchObject({ kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' });
    // Back to WebLLM, so the example below runs as a new reader's would.
    await welcome.getByLabel('In this browser (WebLLM)').check();
    await expect.poll(stored).toMatchObject({ kind: 'webllm' });
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious or critical accessibility violation in the ${scheme} theme`, async () => {
      await setColorScheme(welcome, scheme);
      expect(await seriousAxeViolations(welcome)).toEqual([]);
      await welcome.screenshot({ path: join(screenshotDirectory, `welcome-${scheme}.png`), fullPage: true });
    });
  }

  it('opens the example article, which the side panel captures offline and highlights by quick scan', async () => {
    const [example] = await Promise.all([browser.context.waitForEvent('page'), welcome.getByTestId('open-example-article').click()]);
    await example.waitForLoadState('domcontentloaded');
    expect(example.url()).toBe(browser.extensionUrl('example.html'));
    const panel = await browser.context.newPage();
    await panel.setViewportSize({ width: 420, height: 900 });
    const tabId = await findTabId(welcome, example);
    await captureInSidePanel(browser, panel, tabId);
    expect(await panel.getByTestId('capture-status').getAttribute('data-status')).toBe('saved');
    const papers = await readStoredPapers(panel);
    expect(papers.map((paper) => [paper.doi, paper.url])).toEqual([['10.5555/assay.example.2026.001', example.url()]]);
    // The page installed the highlighter itself (no injection into an extension page); the quick scan's candidates are painted.
    const anchored = () => example.locator('assay-highlighter').getAttribute('data-assay-anchored');
    await expect.poll(async () => Number(await anchored()), { timeout: 20_000 }).toBeGreaterThan(0);
    await example.bringToFront();
    await example.screenshot({ path: join(screenshotDirectory, 'example-article-candidates.png') });
  });
});
