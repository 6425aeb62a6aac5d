/**
 * End to end, in Debian's Chromium: what a script running beside an untrusted page (a content
 * script of the extension, in its isolated world) can reach. It must not read `storage.local`,
 * which holds the reader's keys (the background closes it to untrusted contexts,
 * src/extension/trusted-storage.ts), and the offscreen engine document must not act on its
 * messages (src/extension/model-engine-host.ts), while the extension's own pages still reach the
 * engine through the background.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { findTabId } from './extension-pages';
import { startFixtureServer, type FixtureServer } from './fixture-server';

const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;

/** What the isolated-world probe saw: `storage` is what reading storage.local gave (or its error), `engine` the answers to engine envelopes. */
interface ProbeResult {
  storage: string;
  engine: unknown[];
}

type Chrome = {
  chrome: {
    runtime: { sendMessage(message: object): Promise<unknown> };
    storage: { local: { set(items: object): Promise<void>; get(keys: null): Promise<Record<string, unknown>> } };
    scripting: {
      executeScript(options: { target: { tabId: number }; func: () => Promise<ProbeResult> }): Promise<Array<{ result: ProbeResult }>>;
    };
  };
};

describe.skipIf(skipReason !== undefined)(skipReason ?? 'untrusted contexts', () => {
  let server: FixtureServer;
  let browser: ExtensionBrowser;
  let extensionPage: Page;
  let worker: Worker;

  beforeAll(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'assay-untrusted-'));
    writeFileSync(join(folder, 'page.html'), '<!doctype html><title>A hostile page</title><p>Nothing to see.</p>');
    server = await startFixtureServer({ '/page.html': join(folder, 'page.html') });
    browser = await launchExtensionBrowser(extensionDirectory, [server.origin]);
    worker = browser.context.serviceWorkers()[0]!;
    extensionPage = await browser.context.newPage();
    await extensionPage.goto(browser.extensionUrl('dataset.html'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a content script reads no key from storage.local and gets no answer from the engine, while the extension’s pages do', async () => {
    await extensionPage.evaluate(() =>
      (globalThis as unknown as Chrome).chrome.storage.local.set({ 'assay:probe-key': 'sk-secret-probe' }),
    );
    // The extension's own page reaches the engine document through the background (this creates the document).
    const own = (await extensionPage.evaluate(() =>
      (globalThis as unknown as Chrome).chrome.runtime.sendMessage({ type: 'webgpu-check' }),
    )) as { ok: boolean };
    expect(own.ok).toBe(true);

    const article = await browser.context.newPage();
    await article.goto(`${server.origin}/page.html`);
    const tabId = await findTabId(extensionPage, article);
    // A script in the extension's isolated world on that page: the content-script context.
    const [probe] = await worker.evaluate(
      (target) =>
        (globalThis as unknown as Chrome).chrome.scripting.executeScript({
          target: { tabId: target },
          func: async () => {
            const chrome = (globalThis as unknown as Chrome).chrome;
            let storage: string;
            try {
              storage = JSON.stringify(await chrome.storage.local.get(null));
            } catch (error) {
              storage = `refused: ${error instanceof Error ? error.message : String(error)}`;
            }
            // Five tries: the background's router hears the message too, and the first answer wins.
            const engine = [];
            for (let attempt = 0; attempt < 5; attempt += 1)
              engine.push(
                await chrome.runtime
                  .sendMessage({ target: 'assay-offscreen', request: { type: 'model-unload' } })
                  .catch((error: unknown) => `refused: ${String(error)}`),
              );
            return { storage, engine };
          },
        }),
      tabId,
    );
    const result = probe!.result;
    expect(result.storage).not.toContain('sk-secret-probe');
    expect(result.storage).toMatch(/^refused: /);
    // Before the offscreen listener checked the sender, most of these were run ({ ok: true, unloaded: [] }).
    for (const answer of result.engine as unknown[]) expect(answer).toMatchObject({ ok: false, failure: { code: 'bad-request' } });
  });
});
