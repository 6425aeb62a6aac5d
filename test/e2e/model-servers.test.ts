/**
 * End to end: the first run against real model servers' quirks, in the built extension in
 * Chromium, against mock servers that answer as those servers do (test/support/model-server-mocks.ts).
 * - An Ollama that was not told to allow extensions answers 403 to the extension's origin: "Test
 *   connection" and a run both say to set OLLAMA_ORIGINS=chrome-extension://*.
 * - An Ollama whose loaded model runs with a 2,048-token window cuts a longer prompt silently:
 *   "Test connection" says the window, and the run stops with `context-truncated` and the numbers.
 * - A llama.cpp server started with 2 slots (`/props` total_slots 2): with "Parallel calls" left
 *   empty the run sends two calls at once, never more, and says so while it runs.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardChats, llamaCppMock, ollamaMock, plainOpenAiMock, serveMock, type ServedMock } from '../support/model-server-mocks';
import { groundedFacts } from '../support/grounded-facts';
import { startOpenAiTestServer, type OpenAiTestServer } from './openai-test-server';
import { projectRoot, sharedDataSkipReason, sharedPath } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { seriousAxeViolations, setColorScheme } from './accessibility';
import { capturedArticle } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { openRunDetails, useModelServer } from './side-panel-controls';

const skipReason = sharedDataSkipReason() ?? (existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`);
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const articlePath = '/wiley/limesoup__101002admi201400532.html';
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');
const model = 'qwen2.5:7b';

describe.skipIf(skipReason !== undefined)(skipReason ?? 'model servers: refusals and context windows', () => {
  let pages: FixtureServer;
  let refusing: ServedMock;
  let short: ServedMock;
  let prose: ServedMock;
  let scripted: OpenAiTestServer;
  let twoSlots: ServedMock;
  let browser: ExtensionBrowser;
  let panel: Page;

  beforeAll(async () => {
    pages = await startFixtureServer({ [articlePath]: sharedPath('fixtures', articlePath) });
    // Ollama as installed: extensions are not among its allowed origins.
    refusing = await serveMock(ollamaMock({ models: { [model]: { trainedContext: 32_768 } } }));
    // Ollama told to allow extensions, with the model loaded at a 2,048-token window.
    short = await serveMock(
      ollamaMock({ models: { [model]: { trainedContext: 32_768 } }, loaded: { [model]: 2048 }, allowsExtensions: true }),
    );
    // A server that ignores response_format and answers in prose.
    prose = await serveMock(plainOpenAiMock({ models: ['local-model'], chat: () => 'Yes, copper is a metal.' }));
    // llama-server -c 65536 --parallel 2, its chat calls answered by the scripted test server after 400 ms each.
    scripted = await startOpenAiTestServer(groundedFacts);
    twoSlots = await serveMock(forwardChats(llamaCppMock({ contextSize: 65_536, slots: 2 }), new URL(scripted.baseUrl).origin), {
      chatDelayMs: 400,
    });
    browser = await launchExtensionBrowser(
      extensionDirectory,
      [pages.origin, refusing.origin, short.origin, prose.origin, twoSlots.origin],
      ['--enable-unsafe-webgpu'],
    );
    ({ panel } = await capturedArticle(browser, `${pages.origin}${articlePath}`));
  });

  afterAll(async () => {
    await browser?.close();
    await refusing?.close();
    await short?.close();
    await prose?.close();
    await twoSlots?.close();
    await scripted?.close();
    await pages?.close();
  });

  it('an Ollama refusing the extension’s origin: Test connection and the run both name OLLAMA_ORIGINS=chrome-extension://*', async () => {
    await useModelServer(panel, refusing.baseUrl, model);
    await panel.getByTestId('test-connection').click();
    const status = panel.locator('[data-testid="connection-status"][data-status="failed"]');
    await status.waitFor({ timeout: 20_000 });
    expect(await status.getAttribute('data-error-code')).toBe('origin-refused');
    expect(await status.textContent()).toContain('OLLAMA_ORIGINS=chrome-extension://* ollama serve');
    // The mock saw the extension's Origin header, as Ollama does.
    expect(refusing.requests.some((request) => request.headers.origin?.startsWith('chrome-extension://'))).toBe(true);

    await panel.getByTestId('extract-button').click();
    await panel.locator('[data-testid="run-status"][data-status="interrupted"]').waitFor({ timeout: 60_000 });
    const error = panel.getByTestId('run-error');
    expect(await error.getAttribute('data-error-code')).toBe('origin-refused');
    expect(await error.textContent()).toContain('The model server refused this extension');
    expect(await error.textContent()).toContain('Set OLLAMA_ORIGINS=chrome-extension://* and restart Ollama');
    mkdirSync(screenshotDirectory, { recursive: true });
    await panel.screenshot({ path: join(screenshotDirectory, 'model-server-origin-refused.png'), fullPage: true });
    // The refusal in the status region and the run's error block: no serious axe violation, light or dark.
    for (const scheme of ['light', 'dark'] as const) {
      await setColorScheme(panel, scheme);
      expect(await seriousAxeViolations(panel)).toEqual([]);
    }
    await setColorScheme(panel, 'light');
  });

  it('an Ollama with a 2,048-token window: Test connection says it, and the run stops with context-truncated and the numbers', async () => {
    await useModelServer(panel, short.baseUrl, model);
    // The paper preset's passages (3,000 tokens per call) do not fit 2,048 tokens.
    await openRunDetails(panel);
    await panel.getByLabel('Preset').selectOption('paper');
    await panel.getByTestId('test-connection').click();
    const found = panel.locator('[data-testid="connection-status"][data-status="found"]');
    await found.waitFor({ timeout: 20_000 });
    expect(await found.textContent()).toContain(`Ollama 0.6.8 at ${short.baseUrl}. ${model} runs with a context window of 2,048 tokens`);

    await panel.getByTestId('extract-button').click();
    await panel.locator('[data-testid="run-status"][data-status="interrupted"]').waitFor({ timeout: 90_000 });
    const error = panel.getByTestId('run-error');
    expect(await error.getAttribute('data-error-code')).toBe('context-truncated');
    expect(await error.textContent()).toMatch(
      /Ollama cut the prompt to 2,048 tokens; this run needs about [\d,]+ \(and up to [\d,]+ for the reply\): set the model's context to at least [\d,]+ \(OLLAMA_CONTEXT_LENGTH=\d+ ollama serve, or num_ctx \d+ in its Modelfile\)/,
    );
    // The run stopped at the first cut prompt: one chat call, not a run's worth.
    expect(short.requests.filter((request) => request.path === '/v1/chat/completions').length).toBeLessThanOrEqual(2);
    await panel.screenshot({ path: join(screenshotDirectory, 'model-server-context-truncated.png'), fullPage: true });
  });

  it('a server that ignores the JSON schema: Test connection says so, and that replies will be repaired', async () => {
    await useModelServer(panel, prose.baseUrl, 'local-model');
    await panel.getByTestId('test-connection').click();
    const found = panel.locator('[data-testid="connection-status"][data-status="found"]');
    await found.waitFor({ timeout: 20_000 });
    const text = await found.textContent();
    expect(text).toContain(`An OpenAI-compatible server at ${prose.baseUrl}.`);
    expect(text).toContain('the server ignored the JSON schema and answered “Yes, copper is a metal.”, so Assay will repair replies');
    await panel.screenshot({ path: join(screenshotDirectory, 'model-server-no-schema.png'), fullPage: true });
  });

  it('a llama.cpp server with 2 slots: two calls in flight at once, never more, with "Parallel calls" left empty', async () => {
    await useModelServer(panel, twoSlots.baseUrl, 'qwen2.5-7b-instruct-q4_k_m.gguf');
    await panel.getByLabel('Preset').selectOption('browser');
    expect(await panel.getByTestId('engine-parallel').inputValue()).toBe('');
    await panel.getByTestId('test-connection').click();
    const found = panel.locator('[data-testid="connection-status"][data-status="found"]');
    await found.waitFor({ timeout: 20_000 });
    expect(await found.textContent()).toContain(
      `llama.cpp server b4589-1ee9eea0 at ${twoSlots.baseUrl}. 2 parallel slots of 32,768 tokens each (its -c context split across --parallel slots). Sending up to 2 calls at once, as its slots allow.`,
    );
    await panel.screenshot({ path: join(screenshotDirectory, 'model-server-two-slots.png'), fullPage: true });
    await panel.getByTestId('extract-button').click();
    // While it runs, the panel says what the server is and how many calls it sends at once.
    const status = panel.getByTestId('engine-status');
    await expect
      .poll(async () => ((await status.count()) > 0 ? await status.textContent() : ''), { timeout: 60_000 })
      .toContain('2 parallel slots of 32,768 tokens each');
    expect(await status.textContent()).toContain('Sending up to 2 calls at once, as its slots allow.');
    await panel.locator('[data-testid="run-status"][data-status="done"]').waitFor({ timeout: 240_000 });
    expect(twoSlots.mostChatsInFlight()).toBe(2);
    expect(scripted.answered()).toBeGreaterThan(4);
  }, 300_000);
});
