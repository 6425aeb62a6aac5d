/**
 * End to end, downloading a WebLLM model before the first run (issue 28), in the built test
 * extension: a small self-written model folder (a `tensor-cache.json` and eight 256 KB shards)
 * served slowly from 127.0.0.1 as a reader's custom model; Settings shows "Download (…)", then a
 * progress bar with MB and %, Pause keeps the finished shards and Resume fetches only the rest,
 * after which WebLLM's own cache check (`hasModelInCache`) counts the model as downloaded. A
 * model whose third shard answers 404 fails with the file and status named. No GPU is needed:
 * only Cache Storage is written. The paused row is photographed to test-results/e2e/model-download-paused.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/shared-data';
import { seriousAxeViolations } from './accessibility';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { saveEngineSettings } from './side-panel-controls';

const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshotDirectory = join(projectRoot, 'test-results', 'e2e');
const SHARDS = 8;
const SHARD_BYTES = 256 * 1024;
const CHUNK_BYTES = 32 * 1024;
/** Milliseconds between chunks: a shard takes ~0.4 s, the model ~3 s, time enough to pause it. */
const CHUNK_DELAY_MS = 50;
const GOOD = 'Tiny-download-test-q4f32_1-MLC';
const BROKEN = 'Tiny-broken-download-q4f32_1-MLC';

/** Serve `/<model>/resolve/main/` for both models, slowly; the broken one answers 404 for its third shard. Counts requests per path. */
async function startModelHost(): Promise<{ origin: string; requests: Map<string, number>; close(): Promise<void> }> {
  const requests = new Map<string, number>();
  const manifest = JSON.stringify({
    metadata: {},
    records: Array.from({ length: SHARDS }, (_, index) => ({
      dataPath: `params_shard_${index}.bin`,
      format: 'raw-shard',
      nbytes: SHARD_BYTES,
      records: [],
    })),
  });
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const match = /^\/([^/]+)\/resolve\/main\/(.+)$/.exec(path);
    const headers = { 'Access-Control-Allow-Origin': '*' };
    if (!match || ![GOOD, BROKEN].includes(match[1]!)) return void response.writeHead(404, headers).end('not found');
    const [, model, file] = match;
    if (file === 'tensor-cache.json') return void response.writeHead(200, { ...headers, 'Content-Type': 'application/json' }).end(manifest);
    const shard = /^params_shard_(\d+)\.bin$/.exec(file!);
    if (!shard || Number(shard[1]) >= SHARDS || (model === BROKEN && shard[1] === '2'))
      return void response.writeHead(404, headers).end('not found');
    response.writeHead(200, { ...headers, 'Content-Type': 'application/octet-stream', 'Content-Length': String(SHARD_BYTES) });
    let sent = 0;
    const timer = setInterval(() => {
      if (response.destroyed) return clearInterval(timer);
      response.write(Buffer.alloc(CHUNK_BYTES, Number(shard[1])));
      sent += CHUNK_BYTES;
      if (sent >= SHARD_BYTES) {
        clearInterval(timer);
        response.end();
      }
    }, CHUNK_DELAY_MS);
    response.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'downloading a model before the first run', () => {
  let host: Awaited<ReturnType<typeof startModelHost>>;
  let browser: ExtensionBrowser;
  let panel: Page;

  const record = (modelId: string) => ({
    model_id: modelId,
    model: `${host.origin}/${modelId}/resolve/main/`,
    model_lib: `${host.origin}/lib/${modelId}.wasm`,
    vram_required_MB: 100,
  });
  const settings = () => panel.getByTestId('settings-panel');
  /** Open (or reopen, so it asks the cache again) "Settings and models". */
  const reopenSettings = async () => {
    if ((await settings().getAttribute('open')) !== null) await settings().locator('summary').click();
    await settings().locator('summary').click();
  };
  /** Make `modelId` the reader's WebLLM roster (every role), with the records of both test models, as the run form saves it. */
  const useModel = (modelId: string) =>
    saveEngineSettings(panel, {
      kind: 'webllm',
      roster: { proposers: [modelId], aggregator: modelId, generator: modelId, discriminator: modelId },
      customModels: [record(GOOD), record(BROKEN)],
    });

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    host = await startModelHost();
    browser = await launchExtensionBrowser(extensionDirectory, [host.origin]);
    panel = await browser.context.newPage();
    await panel.setViewportSize({ width: 420, height: 900 });
    await panel.goto(browser.extensionUrl('sidepanel.html'));
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });

  it('downloads with MB and %, pauses keeping the finished shards, resumes with only the rest, and WebLLM counts it cached', async () => {
    await useModel(GOOD);
    await reopenSettings();
    const row = panel.getByTestId(`model-${GOOD}`);
    await expect.poll(() => row.getAttribute('data-cached'), { timeout: 30_000 }).toBe('false');
    const controls = panel.getByTestId(`download-${GOOD}`);
    const status = panel.getByTestId(`download-status-${GOOD}`);
    await controls.getByRole('button', { name: /^Download \(/ }).click();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^ ?Downloading: \d+ MB of 2 MB \([1-9]\d*%\)$/);
    expect(await controls.getByRole('progressbar', { name: `Download of ${GOOD}` }).count()).toBe(1);
    await controls.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => controls.getAttribute('data-phase')).toBe('paused');
    expect(await status.textContent()).toMatch(/^ ?Paused at \d+ MB of 2 MB \(\d+%\)\.$/);
    expect(await seriousAxeViolations(panel)).toEqual([]);
    await settings().screenshot({ path: join(screenshotDirectory, 'model-download-paused.png') });
    const fetchedBeforeResume = new Map(host.requests);
    const shardsFetched = [...fetchedBeforeResume.keys()].filter((path) => path.startsWith(`/${GOOD}/`) && path.endsWith('.bin'));
    expect(shardsFetched.length).toBeGreaterThan(0);
    expect(shardsFetched.length).toBeLessThan(SHARDS);

    await controls.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => row.getAttribute('data-cached'), { timeout: 30_000 }).toBe('true');
    // Every shard was fetched; none that finished before the pause was fetched again (only the one cut off is fetched twice at most).
    const refetched = [...host.requests]
      .filter(([path]) => path.startsWith(`/${GOOD}/`) && path.endsWith('.bin'))
      .filter(([path, count]) => count > 1 && (fetchedBeforeResume.get(path) ?? 0) > 0);
    expect(refetched.length).toBeLessThanOrEqual(1);
    for (let index = 0; index < SHARDS; index += 1)
      expect(host.requests.get(`/${GOOD}/resolve/main/params_shard_${index}.bin`)).toBeGreaterThan(0);
    // WebLLM's own check reads the cache afresh when Settings opens again.
    await reopenSettings();
    await expect.poll(() => row.getAttribute('data-cached'), { timeout: 30_000 }).toBe('true');
    expect(await panel.getByTestId(`download-${GOOD}`).count()).toBe(0);
  });

  it('names the file and the status when a download fails, and offers to resume', async () => {
    await useModel(BROKEN);
    await reopenSettings();
    const controls = panel.getByTestId(`download-${BROKEN}`);
    await controls.getByRole('button', { name: /^Download \(/ }).click();
    await expect.poll(() => controls.getAttribute('data-phase'), { timeout: 30_000 }).toBe('failed');
    expect(await panel.getByTestId(`download-error-${BROKEN}`).textContent()).toContain(
      'params_shard_2.bin could not be downloaded: HTTP 404 Not Found',
    );
    expect(await controls.getByRole('button', { name: 'Resume' }).count()).toBe(1);
    expect(await panel.getByTestId(`model-${BROKEN}`).getAttribute('data-cached')).toBe('false');
  });
});
