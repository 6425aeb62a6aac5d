/**
 * End to end: an SLM-MATRIX run inside the built test extension in Debian's Chromium. A real
 * Wiley page is captured in the side panel; the run goes to the offscreen document, which calls a
 * local OpenAI-compatible server over HTTP (the same engine a user points at Ollama), shows
 * progress, and stores the verdicts and the run record in IndexedDB. Also: Stop mid-run keeps
 * what was decided; the WebLLM engine on SwiftShader (no weights reachable here) ends in the
 * specific download message, in the panel, within seconds.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureBandGapFacts } from '../support/grounded-facts';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { readStore, capturedArticle } from './extension-pages';
import { chooseProperty, openRunDetails, useModelServer } from './side-panel-controls';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { startOpenAiTestServer, type OpenAiTestServer, type ScriptedFact } from './openai-test-server';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const articlePath = '/wiley/limesoup__101002admi201400532.html';
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');

/** A `runs` row as read back from IndexedDB (the fields the test checks). */
interface StoredRun {
  id: string;
  status: string;
  propertiesDone: string[];
  records: Array<{
    status: string;
    triplet: { material: string; valueText?: string; evidence?: { quote: { exact: string } } };
    verificationAnswers?: Array<{ questionId: string; answer: string; quote?: string }>;
  }>;
  run?: {
    calls: number;
    models: { proposers?: string[] };
    properties: Array<{ property: string; notProvided?: { reason: string; calls: number; chunksRead: number } }>;
  };
  error?: { code: string; message: string };
}

const readRuns = (page: Page) => readStore<StoredRun>(page, 'runs');

describe.skipIf(skipReason !== undefined)(skipReason ?? 'SLM-MATRIX runs in the built extension', () => {
  let pages: FixtureServer;
  let models: OpenAiTestServer;
  let browser: ExtensionBrowser;
  let panel: Page;
  let fact: ScriptedFact;

  beforeAll(async () => {
    fact = await fixtureBandGapFacts(articlePath, 1).then(([fact]) => fact!);
    pages = await startFixtureServer({ [articlePath]: sharedPath('fixtures', articlePath) });
    models = await startOpenAiTestServer(fact);
    browser = await launchExtensionBrowser(extensionDirectory, [pages.origin, new URL(models.baseUrl).origin], ['--enable-unsafe-webgpu']);
    ({ panel } = await capturedArticle(browser, `${pages.origin}${articlePath}`));
  });

  afterAll(async () => {
    await browser?.close();
    await models?.close();
    await pages?.close();
  });

  async function useServer(): Promise<void> {
    await useModelServer(panel, models.baseUrl, 'proposer-a, proposer-b, proposer-c');
  }

  it('runs the pipeline against an OpenAI-compatible server, shows progress and the verified fact, and stores the run', async () => {
    await useServer();
    // A second property the page does not report: it must end "not provided", not empty-handed in silence.
    await chooseProperty(panel, 'Tc', 'Superconducting transition temperature');
    models.setDelay(150);
    await panel.getByTestId('extract-button').click();
    // Progress is visible while the run goes: a stage with its model calls.
    await expect
      .poll(() => panel.getByTestId('run-status').textContent(), { timeout: 30_000 })
      .toMatch(/model calls|MCTS|cross-verifying|grounding/i);
    await panel.locator('[data-testid="run-status"][data-status="done"]').waitFor({ timeout: 90_000 });

    const verified = panel.locator('[data-testid="run-records"] li[data-status="verified"]');
    await expect.poll(() => verified.count()).toBe(1);
    expect(await verified.textContent()).toContain(fact.material);
    expect(await verified.textContent()).toContain(fact.quote.slice(0, 40));
    // Chain-of-Verification: the discriminator's answers to the band gap's questions, shown as text with the quote.
    const answers = verified.locator('ul.verification-answers li');
    await expect.poll(() => answers.count()).toBeGreaterThan(1);
    const propertyMatch = verified.locator('ul.verification-answers li[data-question="property_match"]');
    expect(await propertyMatch.textContent()).toContain(`— yes ("${fact.quote}")`);
    expect(models.requests.filter((request) => request.role === 'verification-questions')).toHaveLength(1);
    expect(await panel.getByTestId('run-usage').textContent()).toMatch(/^Calls: \d+/);
    mkdirSync(screenshotDirectory, { recursive: true });
    await panel.screenshot({ path: join(screenshotDirectory, 'side-panel-run.png'), fullPage: true });

    // Tc: the models read what retrieval ranked for it and found no value; the panel says so in a sentence.
    const notProvided = panel.locator('[data-testid="not-provided"] li[data-property="tc"]');
    expect(await notProvided.textContent()).toMatch(
      /^Superconducting transition temperature: not provided in this paper\. \d+ model calls? read \d+ of \d+ relevant passages? and found no value\.$/,
    );

    const [run] = await readRuns(panel);
    expect(run).toMatchObject({ status: 'done', propertiesDone: ['band_gap', 'tc'] });
    const tc = run!.run!.properties.find((property) => property.property === 'tc');
    expect(tc?.notProvided).toMatchObject({ reason: 'nothing-found' });
    expect(tc!.notProvided!.calls).toBeGreaterThan(0);
    expect(run!.records.map((record) => [record.status, record.triplet.material])).toEqual([['verified', fact.material]]);
    expect(run!.records[0]!.triplet.evidence!.quote.exact).toBe(fact.quote);
    expect(run!.records[0]!.verificationAnswers).toContainEqual(
      expect.objectContaining({ questionId: 'property_match', answer: 'yes', quote: fact.quote }),
    );
    // Every HTTP request the server saw is counted in the stored run record; the proposers used the listed models.
    expect(run!.run!.calls).toBe(models.requests.length);
    expect(new Set(models.requests.filter((request) => request.role === 'moa').map((request) => request.model))).toEqual(
      new Set(['proposer-a', 'proposer-b', 'proposer-c']),
    );
    // The paper text went to the models inside the delimited data block, never as instructions.
    expect(models.requests.every((request) => request.user.includes('<<<DATA') || request.role !== 'moa')).toBe(true);
  });

  it('Stop ends the run as cancelled, and no model call starts afterwards', async () => {
    models.setDelay(1_500);
    const before = models.requests.length;
    await panel.getByTestId('extract-button').click();
    await expect.poll(() => models.requests.length, { timeout: 30_000 }).toBeGreaterThan(before);
    await panel.getByTestId('stop-button').click();
    await panel.locator('[data-testid="run-status"][data-status="cancelled"]').waitFor({ timeout: 30_000 });
    expect(await panel.getByTestId('run-error').getAttribute('data-error-code')).toBe('aborted');
    const atStop = models.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(models.requests.length).toBe(atStop);
    const runs = await readRuns(panel);
    expect(runs.map((run) => run.status).sort()).toEqual(['cancelled', 'done']);
  });

  it('Settings and models: the WebGPU check in words, each role’s model with its size and download state, storage use', async () => {
    await panel.getByTestId('settings-panel').locator('summary').click();
    await expect.poll(() => panel.getByTestId('webgpu-summary').textContent(), { timeout: 20_000 }).toContain('lacks shader-f16');
    const models = panel.getByTestId('roster-models').locator('li');
    // The default roster on an adapter without shader-f16: three f32 models, none downloaded here.
    await expect.poll(() => models.count(), { timeout: 20_000 }).toBe(3);
    // Sizes and cache states arrive from the offscreen document after the list is drawn.
    const described = async () =>
      (await models.allTextContents()).filter(
        (text) => /q4f32_1-MLC/.test(text) && /\d+ MB of GPU memory/.test(text) && text.includes('Not downloaded'),
      ).length;
    await expect.poll(described, { timeout: 20_000 }).toBe(3);
    expect(await panel.getByTestId('storage-usage').textContent()).toMatch(/^Using .+ of .+ the browser allows Assay\.$/);
    // Chromium's usageDetails split it (issue 29, item 8): the captures so far are in IndexedDB, no model is cached.
    expect(await panel.getByTestId('storage-split').textContent()).toMatch(
      /^Models: 0\.0 MB · papers, runs and dataset: \d+\.\d (MB|GB)\.$/,
    );
    expect(await panel.getByTestId('persist-status').textContent()).toMatch(/^Persistent storage is (on|off): /);
    await panel.getByTestId('settings-panel').locator('summary').click();
  });

  it('with WebLLM on SwiftShader and no reachable weights, ends in the specific download message within seconds', async () => {
    models.setDelay(0);
    await openRunDetails(panel);
    await panel.getByLabel('In this browser (WebLLM)').check();
    const started = Date.now();
    await panel.getByTestId('extract-button').click();
    await panel.locator('[data-testid="run-status"][data-status="interrupted"]').waitFor({ timeout: 60_000 });
    const seconds = (Date.now() - started) / 1000;
    console.log(`WebLLM run interrupted after ${seconds.toFixed(1)} s`);
    const error = panel.getByTestId('run-error');
    expect(await error.getAttribute('data-error-code')).toBe('download-failed');
    expect(await error.textContent()).toMatch(/Model download failed \(.+\); retry resumes from the cached shards\./);
    expect(seconds).toBeLessThan(60);
    await panel.screenshot({ path: join(screenshotDirectory, 'side-panel-webllm-failure.png'), fullPage: true });
  });
});
