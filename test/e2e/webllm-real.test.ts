/**
 * End to end with the REAL WebLLM runtime: a real compiled model library (Qwen2-0.5B q4f32 from
 * ../shared/webllm-test-model, which the test build's web-llm 0.2.79 loads) with random weights,
 * served from 127.0.0.1, in Debian's headless Chromium on the software WebGPU adapter
 * (SwiftShader). A reader's run goes through the offscreen document as it always does: WebGPU
 * check, download progress in MB and %, cache, shader compilation, the engine check (one model
 * call through the adapter with a two-word JSON schema that random weights close, parsed and
 * validated), its usage and timing in the run record; then Stop mid-call, unload, and "Delete
 * from cache" in Settings.
 *
 * Random weights write gibberish, so the test checks the runtime and the outcomes, never the
 * answer. On 2 cores SwiftShader prefills about 0.7 tokens/s and decodes about 0.1 tokens/s: the
 * model's context window is set to 160 tokens (the check's prompt is about 30, its reply about 12,
 * a retry about 80 more), so the run's first extraction prompt (about 300 tokens for this short
 * abstract) is refused at once by WebLLM, as a reader's too-small model would be, instead of
 * taking ten minutes to read.
 */
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from './extension-browser';
import { randomModelSkipReason } from './random-model-server';
import { openWebLlmSession, type WebLlmSession } from './webllm-session';

const skipReason = existsSync(chromiumPath) ? randomModelSkipReason() : `${chromiumPath} not found: skipping the real-engine e2e test`;
const MODEL_ID = 'Qwen2-0.5B-random-q4f32_1';

/** Record every text the run's status line and the engine's status line show, in order. */
async function recordStatusLines(panel: Page): Promise<void> {
  await panel.evaluate(() => {
    const seen: string[] = [];
    (globalThis as unknown as { statusLines: string[] }).statusLines = seen;
    const note = () => {
      for (const id of ['run-status', 'engine-status']) {
        const text = document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim();
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const statusLines = (panel: Page) => panel.evaluate(() => (globalThis as unknown as { statusLines: string[] }).statusLines);

describe.skipIf(skipReason !== undefined)(skipReason ?? 'the real WebLLM runtime with a random-weight model', () => {
  let session: WebLlmSession;
  let panel: Page;

  beforeAll(async () => {
    session = await openWebLlmSession({ modelId: MODEL_ID, contextWindow: 160 });
    panel = session.panel;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('downloads, caches and loads the model, passes the engine check with one schema call, and records its usage and timing', async () => {
    await recordStatusLines(panel);
    const started = Date.now();
    await panel.getByTestId('extract-button').click();
    await panel.locator('[data-testid="run-status"]:is([data-status="interrupted"], [data-status="done"])').waitFor({ timeout: 720_000 });
    console.log(`real-engine run ended after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const lines = await statusLines(panel);
    console.log('status lines:', JSON.stringify(lines, null, 1));
    const [run] = await session.runs();
    console.log(
      'run record:',
      JSON.stringify({
        status: run?.status,
        error: run?.error,
        check: run?.run?.engineCheck,
        calls: run?.run?.calls,
        properties: (run?.run as { properties?: unknown } | undefined)?.properties,
      }),
    );
    // Download progress in MB and %, then the cache and the GPU shaders, then the check in words.
    expect(lines.some((line) => /^Downloading the model: \d+(\.\d+)? MB, \d+(\.\d+)?%$/.test(line))).toBe(true);
    expect(lines.some((line) => /^Compiling GPU shaders|^Loading the model from the cache/.test(line))).toBe(true);
    expect(lines).toContain(`Checking that ${MODEL_ID} answers on this GPU…`);

    const check = run!.run!.engineCheck!;
    expect(check.model).toBe(MODEL_ID);
    expect(['yes', 'no']).toContain(check.answer);
    expect(check.loadSeconds).toBeGreaterThan(0);
    expect(check.promptTokens).toBeGreaterThan(10);
    expect(check.completionTokens).toBeGreaterThan(3);
    expect(check.timeToFirstTokenSeconds).toBeGreaterThan(0);
    expect(check.prefillTokensPerSecond).toBeGreaterThan(0);
    expect(check.decodeTokensPerSecond).toBeGreaterThan(0);
    // WebLLM's runtime counts its GPU buffers: at least the 316 MB of weights.
    expect(check.gpuMemoryMB?.allocated).toBeGreaterThan(300);
    // The check's call is in the run's usage, under its own stage.
    const stage = run!.run!.usage.byStage['engine-check']!;
    expect(stage.calls).toBeGreaterThanOrEqual(1);
    expect(stage.promptTokens).toBe(check.promptTokens);
    expect(stage.completionTokens).toBe(check.completionTokens);
    // The first extraction prompt does not fit the model's 160-token window: WebLLM refuses it at
    // once, and the run says so in words instead of reading for half an hour.
    expect(run!.status).toBe('interrupted');
    expect(run!.error?.message).toMatch(/^The prompt is longer than Qwen2-0\.5B-random-q4f32_1's context window \(Prompt tokens exceed/);
    expect(await panel.getByTestId('run-error').textContent()).toContain('context window');
  }, 780_000);

  it('Stop during a model call ends the run at once and unloads the model; Settings then deletes it from the cache', async () => {
    await panel.getByTestId('extract-button').click();
    // The model is still loaded from the first run: the engine check's call starts at once.
    // The run's error line is polled with the status, so a run that never starts says why.
    const statusAndError = async () =>
      `${await panel.getByTestId('run-status').textContent()} | ${await panel
        .getByTestId('run-error')
        .textContent({ timeout: 1_000 })
        .catch(() => '')}`;
    await expect.poll(statusAndError, { timeout: 60_000 }).toContain('Checking that');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const stopped = Date.now();
    await panel.getByTestId('stop-button').click();
    await panel.locator('[data-testid="run-status"][data-status="cancelled"]').waitFor({ timeout: 30_000 });
    console.log(`Stop answered after ${((Date.now() - stopped) / 1000).toFixed(1)} s`);
    expect(Date.now() - stopped).toBeLessThan(15_000);
    expect(await panel.getByTestId('run-error').getAttribute('data-error-code')).toBe('aborted');

    // The extension's pages share one renderer with the offscreen document, which is busy until
    // the cut call's GPU work ends (below): the panel may not paint a frame for a minute or more.
    await panel.getByTestId('settings-panel').locator('summary').click({ timeout: 180_000 });
    const row = panel.getByTestId(`model-${MODEL_ID}`);
    // WebLLM finishes the cut call's prefill on the GPU before the unload completes and the cache
    // answers (about 40 s on 2 idle cores, over a minute when the machine is busy).
    // Unloaded by the stop (the cut call's GPU work ended with it), still in the cache.
    await expect.poll(() => row.getAttribute('data-cached'), { timeout: 180_000 }).toBe('true');
    expect(await row.getAttribute('data-loaded')).toBe('false');
    expect(await row.textContent()).toContain('1000 MB of GPU memory · Downloaded');
    await panel.getByTestId(`delete-model-${MODEL_ID}`).click();
    await expect.poll(() => row.getAttribute('data-cached'), { timeout: 30_000 }).toBe('false');
    expect(await row.textContent()).toContain('Not downloaded');
  }, 480_000);
});
