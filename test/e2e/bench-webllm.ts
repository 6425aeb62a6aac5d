/**
 * `npm run bench:webllm`: the speed of the in-browser engine as a reader's run meets it. It builds
 * nothing itself (the npm script runs `npm run build:test` first), starts the built test
 * extension in Debian's Chromium with WebGPU on, serves a random-weight Qwen2-0.5B q4f32 model
 * from 127.0.0.1 (`../shared/webllm-test-model`), presses "Extract" in the side panel, and reads
 * the run's engine check back from IndexedDB: the offscreen document's WebLLM loaded the model
 * (download, cache, shader compilation), answered one constrained-JSON call, and timed it.
 * Prints one JSON document on stdout:
 *
 *   loadSeconds             download + cache + compile + GPU upload of the weights (WebLLM reload)
 *   timeToFirstTokenSeconds prefill of the check's prompt
 *   prefillTokensPerSecond  WebLLM's `usage.extra.prefill_tokens_per_s`
 *   decodeTokensPerSecond   WebLLM's `usage.extra.decode_tokens_per_s`
 *   gpuMemoryMB             `{ peak, allocated }` from the TVM runtime's own statistics
 *
 * with the prompt and reply token counts, `checkSeconds` (the check's call, its model load included),
 * the WebGPU adapter and the machine. Random weights
 * decode at the speed trained weights of the same shapes do (same kernels, same bytes read per
 * token), so these figures measure the runtime on this machine — never a model's quality.
 *
 * Options: `--context N` the model's context window (default 160: the run's first extraction
 * prompt is then refused at once, so the benchmark ends after the check instead of reading the
 * article for half an hour on a software adapter); `--chromium-arg ARG` (repeatable) adds a
 * Chromium switch, e.g. `--chromium-arg=--use-angle=vulkan` on a machine with a GPU.
 * Exit status 0 with the document, 1 with a message on stderr when the run had no engine check.
 */
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { chromiumPath } from './extension-browser';
import { randomModelSkipReason } from './random-model-server';
import { openWebLlmSession } from './webllm-session';

const MODEL_ID = 'Qwen2-0.5B-random-q4f32_1';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { context: { type: 'string', default: '160' }, 'chromium-arg': { type: 'string', multiple: true, default: [] } },
  });
  const contextWindow = Number(values.context);
  if (!Number.isInteger(contextWindow) || contextWindow < 128) {
    console.error(`--context must be a whole number of tokens, at least 128 (got ${values.context})`);
    return 1;
  }
  const skip = randomModelSkipReason();
  if (skip) {
    console.error(skip);
    return 1;
  }
  const wallStarted = Date.now();
  const session = await openWebLlmSession({ modelId: MODEL_ID, contextWindow, chromiumArgs: values['chromium-arg'] });
  try {
    const { panel } = session;
    const adapter = await panel.evaluate(async () => {
      const gpu = (
        navigator as unknown as { gpu?: { requestAdapter(): Promise<{ info?: Record<string, string>; features: Set<string> } | null> } }
      ).gpu;
      const found = await gpu?.requestAdapter();
      if (!found) return null;
      const info = found.info ?? {};
      return {
        vendor: info.vendor ?? '',
        architecture: info.architecture ?? '',
        description: info.description ?? '',
        shaderF16: found.features.has('shader-f16'),
      };
    });
    await panel.getByTestId('extract-button').click();
    await panel
      .locator('[data-testid="run-status"]:is([data-status="interrupted"], [data-status="done"], [data-status="cancelled"])')
      .waitFor({ timeout: 3_600_000 });
    const [run] = await session.runs();
    const check = run?.run?.engineCheck;
    if (!check) {
      console.error(`The run ended without an engine check: ${run?.error ? `${run.error.code}: ${run.error.message}` : run?.status}`);
      return 1;
    }
    // Debian's wrapper script prints a shell warning on stderr on some machines: keep only the version line.
    const chromiumVersion = execFileSync(chromiumPath, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const document = {
      model: check.model,
      weights: 'random (make-random-model.mjs, seed 1): figures measure the runtime, not a model',
      library: 'Qwen2-0.5B-Instruct-q4f32_1-ctx4k_cs1k-webgpu.wasm (web-llm 0.2.79)',
      contextWindow,
      downloadedMB: Math.round(session.model.bytesServed() / 1e6),
      loadSeconds: check.loadSeconds ?? null,
      promptTokens: check.promptTokens,
      completionTokens: check.completionTokens,
      timeToFirstTokenSeconds: check.timeToFirstTokenSeconds ?? null,
      prefillTokensPerSecond: check.prefillTokensPerSecond ?? null,
      decodeTokensPerSecond: check.decodeTokensPerSecond ?? null,
      checkSeconds: check.seconds,
      gpuMemoryMB: check.gpuMemoryMB ?? null,
      adapter,
      machine: {
        cpu: cpus()[0]?.model ?? 'unknown',
        cores: cpus().length,
        memoryGB: Math.round(totalmem() / 2 ** 30),
        platform: `${process.platform} ${process.arch}`,
        node: process.version,
        chromium: chromiumVersion,
      },
      wallSeconds: (Date.now() - wallStarted) / 1000,
    };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return 0;
  } finally {
    await session.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
