/**
 * End to end, a run's defaults from the page and the machine (issue 28), in the built test
 * extension in Chromium without WebGPU (no --enable-unsafe-webgpu):
 * - on an RSC paper about ferromagnetic nanoparticles whose quick scan finds mostly Curie
 *   temperatures (rsc/cde2_curie__c2nr11767c), the run summary preselects Curie temperature with
 *   its count, not Band gap;
 * - with no engine chosen, the model-server setup shows (Ollama and LM Studio with their
 *   default ports and commands), Start waits, and the screenshot goes to
 *   test-results/e2e/setup-screen.png; "Use Ollama" makes the server the run's engine;
 * - a model server saved before is the default when the panel opens again (not WebLLM), and a
 *   saved WebLLM choice still wins over the machine.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../../src/contracts/article';
import { loadPropertySchemas } from '../../src/properties';
import { buildArticleIndex } from '../../src/text/article-index';
import { scanArticle } from '../../src/text/scan';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { seriousAxeViolations, setColorScheme } from './accessibility';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { readStore, capturedArticle } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { readEngineSettings, saveEngineSettings } from './side-panel-controls';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');
const articlePath = '/rsc/cde2_curie__c2nr11767c.html';

const summary = (panel: Page) => panel.getByTestId('run-summary').textContent();

describe.skipIf(skipReason !== undefined)(skipReason ?? 'run defaults from the page and the machine', () => {
  let pages: FixtureServer;
  let browser: ExtensionBrowser;
  let panel: Page;
  let tabId: number;

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    pages = await startFixtureServer({ [articlePath]: sharedPath('fixtures', articlePath) });
    browser = await launchExtensionBrowser(extensionDirectory, [pages.origin]);
    ({ panel, tabId } = await capturedArticle(browser, `${pages.origin}${articlePath}`, { panelViewport: { width: 420, height: 900 } }));
  });

  afterAll(async () => {
    await browser?.close();
    await pages?.close();
  });

  it('preselects the property the quick scan found most, with its count, instead of Band gap', async () => {
    const [paper] = await readStore<{ article: Article }>(panel, 'papers');
    const curie = scanArticle(buildArticleIndex(paper!.article, loadPropertySchemas())).candidates.filter(
      (candidate) => candidate.property === 'curie_temperature',
    ).length;
    expect(curie).toBeGreaterThan(1);
    await expect.poll(() => summary(panel), { timeout: 30_000 }).toMatch(new RegExp(`^Curie temperature ×${curie}(,| ·)`));
    expect(await summary(panel)).not.toContain('Band gap');
    expect(await panel.getByTestId('scan-found').textContent()).toContain(`Curie temperature ×${curie}`);
  });

  it('without WebGPU and with no engine chosen, shows the model-server setup; "Use Ollama" makes the server the engine', async () => {
    const setup = panel.getByTestId('engine-setup');
    await setup.waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('engine-setup-reason').textContent()).toContain('This browser has no WebGPU');
    expect(await summary(panel)).toMatch(/ · browser preset · no engine set up$/);
    expect(await panel.getByTestId('extract-button').isDisabled()).toBe(true);
    expect(await panel.getByLabel('Ollama base URL').inputValue()).toBe('http://127.0.0.1:11434/v1');
    expect(await panel.getByLabel('LM Studio base URL').inputValue()).toBe('http://127.0.0.1:1234/v1');
    expect(await setup.textContent()).toContain('OLLAMA_ORIGINS=chrome-extension://* ollama serve');
    for (const scheme of ['light', 'dark'] as const) {
      await setColorScheme(panel, scheme);
      expect(await seriousAxeViolations(panel), `axe, ${scheme} theme`).toEqual([]);
    }
    await setColorScheme(panel, 'light');
    await setup.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: join(screenshotDirectory, 'setup-screen.png'), fullPage: true });

    await panel.getByTestId('use-ollama').click();
    await expect.poll(() => summary(panel)).toMatch(/ · browser preset · OpenAI-compatible server$/);
    expect(await setup.count()).toBe(0);
    expect(await panel.getByTestId('extract-button').isDisabled()).toBe(false);
    const stored = await readEngineSettings(panel);
    expect(stored).toMatchObject({ kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' });
  });

  it('opens again with the saved model server as the engine, and a saved WebLLM choice wins over the machine', async () => {
    await panel.goto(browser.extensionUrl(`sidepanel.html?tabId=${tabId}`));
    await expect
      .poll(() => summary(panel), { timeout: 30_000 })
      .toMatch(/^Curie temperature ×\d+.* · browser preset · OpenAI-compatible server$/);
    // The WebGPU check has answered (no WebGPU) and still no setup: the saved server is the engine.
    await panel.getByTestId('settings-panel').locator('summary').click();
    await panel.locator('[data-testid="webgpu-summary"][data-phase="done"]').waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('engine-setup').count()).toBe(0);

    await saveEngineSettings(panel, { kind: 'webllm' });
    await panel.reload();
    await expect.poll(() => summary(panel), { timeout: 30_000 }).toMatch(/ · browser preset · WebLLM$/);
    await panel.getByTestId('settings-panel').locator('summary').click();
    await panel.locator('[data-testid="webgpu-summary"][data-phase="done"]').waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('engine-setup').count()).toBe(0);
    expect(await summary(panel)).toMatch(/ · WebLLM$/);
  });
});
