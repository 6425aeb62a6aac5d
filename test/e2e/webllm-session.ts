/**
 * A reader's WebLLM session on the random-weight model, for the real-engine e2e test and
 * `npm run bench:webllm`: the built test extension in Debian's Chromium with WebGPU on, a random
 * model served from 127.0.0.1 (`startRandomModelServer`), the reader's engine settings (WebLLM,
 * every roster role on that model's custom record), and a short article of our own captured in
 * the side panel, ready for the "Extract" button.
 */
import { openRunDetails } from './side-panel-controls';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { projectRoot } from '../support/shared-data';
import { launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { captureInSidePanel, findTabId, readStore } from './extension-pages';
import { startRandomModelServer, type RandomModelServer } from './random-model-server';

/** The built test extension (`npm run build:test`). */
export const testExtensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');

/** A short article of our own (an abstract with one band-gap sentence), so a run has something to read. */
const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Optical absorption of ZnO films</title>
<meta name="citation_title" content="Optical absorption of ZnO films"><meta name="citation_doi" content="10.5555/assay.webllm.1"></head>
<body><article><h1>Optical absorption of ZnO films</h1>
<section class="abstract"><h2>Abstract</h2>
<p>Zinc oxide films were grown by radio-frequency sputtering on quartz substrates and annealed in air at 600 °C for one hour.
From the Tauc plot, the optical band gap of the ZnO film is 3.28 eV at room temperature.</p></section>
<section><h2>Results</h2>
<p>The films are transparent above 400 nm, and their absorption edge shifts to longer wavelengths as the annealing temperature rises.</p>
</section></article></body></html>`;

/** The engine check as stored in a run record (the fields the test and the benchmark read). */
export interface StoredEngineCheck {
  model: string;
  loadSeconds?: number;
  promptTokens: number;
  completionTokens: number;
  seconds: number;
  timeToFirstTokenSeconds?: number;
  prefillTokensPerSecond?: number;
  decodeTokensPerSecond?: number;
  gpuMemoryMB?: { peak: number; allocated: number };
  answer: string;
}

/** A `runs` row as read back from IndexedDB (the fields the test and the benchmark read). */
export interface StoredRun {
  id: string;
  status: string;
  startedAt: string;
  run?: {
    calls: number;
    usage: { byStage: Record<string, { calls: number; promptTokens: number; completionTokens: number; callTimeMs: number }> };
    engineCheck?: StoredEngineCheck;
  };
  error?: { code: string; message: string };
}

export interface WebLlmSession {
  browser: ExtensionBrowser;
  model: RandomModelServer;
  /** The side panel (the dataset page's tab), with the article captured. */
  panel: Page;
  /** The runs stored so far, newest first. */
  runs(): Promise<StoredRun[]>;
  close(): Promise<void>;
}

/**
 * Start a session: generate and serve the random model `modelId` (context window `contextWindow`
 * tokens), serve the article, launch Chromium with the extension in `extensionDirectory` and
 * `--enable-unsafe-webgpu` (plus `chromiumArgs`), store the WebLLM settings, and capture the
 * article in the side panel. Rejects when the model cannot be written, Chromium cannot start or
 * the capture is not saved within Playwright's timeouts.
 */
export async function openWebLlmSession(options: {
  modelId: string;
  contextWindow: number;
  extensionDirectory?: string;
  chromiumArgs?: string[];
}): Promise<WebLlmSession> {
  const model = await startRandomModelServer({ modelId: options.modelId, contextWindow: options.contextWindow });
  const pages: Server = createServer((_request, response) =>
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(ARTICLE),
  );
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const pagesOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  let browser: ExtensionBrowser | undefined;
  const close = async () => {
    await browser?.close();
    await model.close();
    await new Promise<void>((resolve) => pages.close(() => resolve()));
  };
  try {
    browser = await launchExtensionBrowser(
      options.extensionDirectory ?? testExtensionDirectory,
      [pagesOrigin, new URL(model.record.model).origin],
      ['--enable-unsafe-webgpu', ...(options.chromiumArgs ?? [])],
    );
    const article = await browser.context.newPage();
    await article.goto(`${pagesOrigin}/zno.html`);
    const panel = await browser.context.newPage();
    await panel.goto(browser.extensionUrl('dataset.html'));
    await captureInSidePanel(browser, panel, await findTabId(panel, article));
    await panel.locator('[data-testid="capture-status"][data-status="saved"]').waitFor();
    // The reader's engine settings, typed as a reader would: their own model record under
    // Settings, then its id as the run's model (every role) in the Extract form.
    await panel.getByTestId('settings-panel').locator('summary').click();
    await panel.getByTestId('custom-models').fill(JSON.stringify([model.record]));
    await panel.getByTestId('settings-panel').locator('summary').click();
    // The run's engine fields are folded under "Change" (side-panel-controls.ts).
    await openRunDetails(panel);
    await panel.getByTestId('webllm-models').fill(options.modelId);
    const expected = {
      proposers: [options.modelId],
      aggregator: options.modelId,
      generator: options.modelId,
      discriminator: options.modelId,
    };
    await expectStoredSettings(panel, { roster: expected, customModels: [model.record] });
    const runs = async () =>
      (await readStore<StoredRun>(panel, 'runs')).sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
    return { browser, model, panel, runs, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Wait until storage.local's engine settings are WebLLM with `expected`'s roster and custom models (the inputs save as they change); rejects after 10 s. */
async function expectStoredSettings(panel: Page, expected: { roster: object; customModels: object[] }): Promise<void> {
  const read = () =>
    panel.evaluate(async () => {
      const { chrome } = globalThis as unknown as {
        chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
      };
      return (await chrome.storage.local.get('assay:engine-settings'))['assay:engine-settings'] as Record<string, unknown> | undefined;
    });
  const matches = (stored: Record<string, unknown> | undefined) =>
    stored?.kind === 'webllm' &&
    isDeepStrictEqual(stored.roster, expected.roster) &&
    isDeepStrictEqual(stored.customModels, expected.customModels);
  const deadline = Date.now() + 10_000;
  let stored = await read();
  while (!matches(stored) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    stored = await read();
  }
  if (!matches(stored)) throw new Error(`The engine settings were not saved as typed: ${JSON.stringify(stored)}`);
}
