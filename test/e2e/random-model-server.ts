/**
 * A real WebLLM model with RANDOM weights, served from 127.0.0.1, for the real-engine e2e test and
 * `npm run bench:webllm`. ../shared/webllm-test-model holds a real compiled model library
 * (Qwen2-0.5B q4f32, built for web-llm 0.2.79) and `make-random-model.mjs`, which writes a complete
 * model folder with random weights of the right shapes (~316 MB, ~2 s) into a temporary folder:
 * the text it generates is gibberish, but every part of the runtime runs at its real speed.
 */
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import type { CustomWebLlmModel } from '../../src/contracts/webllm-model';
import { projectRoot, sharedPath } from '../support/shared-data';

const run = promisify(execFile);

/** The folder in ../shared with the model library and the generator. */
export const testModelFolder = () => sharedPath('webllm-test-model');
const LIBRARY = 'Qwen2-0.5B-Instruct-q4f32_1-ctx4k_cs1k-webgpu.wasm';

/** Why the random model cannot be made here, or undefined when it can. */
export function randomModelSkipReason(): string | undefined {
  const folder = testModelFolder();
  if (!existsSync(join(folder, LIBRARY)) || !existsSync(join(folder, 'make-random-model.mjs')))
    return `${folder} has no WebLLM test model library: skipping the real-engine tests`;
  if (!existsSync(join(projectRoot, 'node_modules', 'webllm-runtime-test', 'package.json')))
    return 'webllm-runtime-test (web-llm 0.2.79) is not installed: run npm ci';
  return undefined;
}

export interface RandomModelServer {
  /** The custom model record to put in the WebLLM settings (model id, URLs on 127.0.0.1, GPU memory). */
  record: CustomWebLlmModel;
  /** Bytes served so far (weights, config, tokenizer, library). */
  bytesServed(): number;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.bin': 'application/octet-stream',
};

/**
 * Write a random-weight model (seed `seed`, context window `contextWindow` tokens) into a
 * temporary folder and serve it at `http://127.0.0.1:<port>/model/resolve/main/` with the library at
 * `/lib/<name>.wasm`. `vram_required_MB` 1,000: the weights take 316 MB and the KV cache at 4k
 * context about 100 MB (24 layers × 2 × 2 heads × 64 dims × 4,096 × 4 bytes), under WebLLM's own
 * 1,060 MB figure for Qwen2.5-0.5B q4f32. The folder is deleted on `close`.
 */
export async function startRandomModelServer(options: {
  modelId: string;
  contextWindow?: number;
  seed?: number;
}): Promise<RandomModelServer> {
  const folder = mkdtempSync(join(tmpdir(), 'assay-random-model-'));
  const modelFolder = join(folder, 'resolve', 'main');
  const library = join(testModelFolder(), LIBRARY);
  await run(
    process.execPath,
    [
      join(testModelFolder(), 'make-random-model.mjs'),
      '--wasm',
      library,
      '--out',
      modelFolder,
      '--tokenizer-dir',
      join(projectRoot, 'node_modules', '@lenml', 'tokenizer-qwen2_5', 'models'),
      '--seed',
      String(options.seed ?? 1),
      '--context',
      String(options.contextWindow ?? 4096),
    ],
    { cwd: projectRoot },
  );
  let served = 0;
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    let file: string | undefined;
    if (path === `/lib/${LIBRARY}`) file = library;
    else if (path.startsWith('/model/resolve/main/')) {
      const candidate = normalize(join(modelFolder, path.slice('/model/resolve/main/'.length)));
      if (candidate.startsWith(modelFolder + sep)) file = candidate;
    }
    if (!file || !existsSync(file) || statSync(file).isDirectory()) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const size = statSync(file).size;
    served += size;
    response.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Content-Length': String(size),
      'Access-Control-Allow-Origin': '*',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    record: {
      model_id: options.modelId,
      model: `${origin}/model/resolve/main/`,
      model_lib: `${origin}/lib/${LIBRARY}`,
      // The context window is the model's own (its mlc-chat-config.json), not an override: a
      // reader's override must be at least 256 tokens, and the tests want less.
      vram_required_MB: 1000,
    },
    bytesServed: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(folder, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
