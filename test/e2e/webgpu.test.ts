/**
 * End to end: the WebLLM engine's host (the offscreen document, src/extension/offscreen-engine.ts)
 * in Debian's headless Chromium. With `--enable-unsafe-webgpu` Chromium offers a software
 * SwiftShader adapter without `shader-f16`; no model weights are reachable here, so loading an
 * f32 model must fail as 'download-failed' within seconds, and an f16 model as 'no-shader-f16'
 * before any download. Without WebGPU, the check and the load report 'no-webgpu'.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser } from './extension-browser';

const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping WebGPU e2e tests`;

/** The answer shape of `webgpu-check` / `load-model` (src/contracts/messages.ts), loosely. */
interface EngineStatus {
  ok: boolean;
  capability?: { available: boolean; reason?: string; shaderF16?: boolean; adapterInfo?: Record<string, string> };
  summary?: string;
  error?: { code: string; message: string };
  failure?: { code: string; message: string };
}

interface WebGpuBrowser {
  page: Page;
  send(request: object): Promise<EngineStatus>;
  close(): Promise<void>;
}

/**
 * Launch the test extension with `extraArgs` (see extension-browser.ts), every non-extension
 * request aborted, and the dataset page open as the sender of requests.
 */
async function launch(extraArgs: string[]): Promise<WebGpuBrowser> {
  const extension = await launchExtensionBrowser(extensionDirectory, [], extraArgs);
  const page = await extension.context.newPage();
  await page.goto(extension.extensionUrl('dataset.html'));
  return {
    page,
    send: (request) =>
      page.evaluate(
        (message) =>
          (
            globalThis as unknown as { chrome: { runtime: { sendMessage(message: object): Promise<EngineStatus> } } }
          ).chrome.runtime.sendMessage(message),
        request,
      ),
    close: () => extension.close(),
  };
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'WebGPU in the built extension', () => {
  describe('with --enable-unsafe-webgpu (SwiftShader, no shader-f16)', () => {
    let browser: WebGpuBrowser;
    beforeAll(async () => {
      browser = await launch(['--enable-unsafe-webgpu']);
    });
    afterAll(async () => browser?.close());

    it('reports WebGPU available without shader-f16', async () => {
      const status = await browser.send({ type: 'webgpu-check' });
      console.log('webgpu-check:', JSON.stringify(status));
      expect(status.ok).toBe(true);
      expect(status.capability?.available).toBe(true);
      expect(status.capability?.shaderF16).toBe(false);
      expect(status.summary).toContain('lacks shader-f16: choose an f32 model (q4f32_1)');
    });

    it('fails to load an f32 model as download-failed, within seconds', async () => {
      const started = Date.now();
      const status = await browser.send({ type: 'load-model', modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC' });
      console.log(`load-model f32 (${Date.now() - started} ms):`, JSON.stringify(status));
      expect(status.error?.code).toBe('download-failed');
      expect(status.error?.message).toMatch(/^Model download failed \(.+\); retry resumes from the cached shards\.$/);
    });

    it('refuses an f16 model as no-shader-f16 and offers its f32 variant, before any download', async () => {
      const status = await browser.send({ type: 'load-model', modelId: 'SmolLM2-360M-Instruct-q4f16_1-MLC' });
      console.log('load-model f16:', JSON.stringify(status));
      expect(status.error?.code).toBe('no-shader-f16');
      expect(status.error?.message).toContain('choose SmolLM2-360M-Instruct-q4f32_1-MLC instead');
    });
  });

  describe('without WebGPU', () => {
    let browser: WebGpuBrowser;
    beforeAll(async () => {
      browser = await launch(['--disable-gpu', '--disable-webgpu']);
    });
    afterAll(async () => browser?.close());

    it('reports no-webgpu with how to enable it', async () => {
      const check = await browser.send({ type: 'webgpu-check' });
      console.log('webgpu-check (no WebGPU):', JSON.stringify(check));
      expect(check.capability?.available).toBe(false);
      const status = await browser.send({ type: 'load-model', modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC' });
      console.log('load-model (no WebGPU):', JSON.stringify(status));
      expect(status.error?.code).toBe('no-webgpu');
      expect(status.error?.message).toContain('WebGPU is not available in this browser: use Chrome/Edge 113+');
      expect(status.error?.message).toContain('chrome://flags/#enable-unsafe-webgpu');
    });
  });
});
