/** The offscreen document's `model-download` answers: status, start in the background, pause, resume, failure in words. */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { ResponseSchemas, type ModelDownloadState } from '../../../src/contracts/messages';
import { createModelEngineListener } from '../../../src/extension/model-engine-host';
import type { DownloadCache } from '../../../src/llm/model-download';
import type { WebLlm } from '../../../src/llm/webllm-adapter';
import { createAssayDatabase } from '../../../src/store/assay-database';

const ORIGIN = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/';
const FROM_PANEL = { id: 'abcdefghijklmnopabcdefghijklmnop', url: `${ORIGIN}sidepanel.html` };
const HOST = 'http://127.0.0.1:9/tiny/resolve/main/';
const SHARD = 400;
let databaseCount = 0;

/** Three 400-byte shards, each body released 100 bytes at a time when `step()` is called; `requests` lists the files asked for. */
function slowHost(failing?: string) {
  const requests: string[] = [];
  const waiting: Array<() => void> = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const file = url.slice(HOST.length);
    requests.push(file);
    if (file === failing) return new Response('', { status: 503, statusText: 'Service Unavailable' });
    if (file === 'tensor-cache.json')
      return new Response(JSON.stringify({ records: [0, 1, 2].map((index) => ({ dataPath: `s${index}.bin`, nbytes: SHARD })) }));
    let sent = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull: (controller) =>
          new Promise<void>((resolve) =>
            waiting.push(() => {
              if (init?.signal?.aborted) controller.error(new DOMException('aborted', 'AbortError'));
              else if (sent >= SHARD) controller.close();
              else {
                controller.enqueue(new Uint8Array(100));
                sent += 100;
              }
              resolve();
            }),
          ),
      }),
    );
  }) as typeof globalThis.fetch;
  const step = async () => {
    for (let tries = 0; tries < 50 && waiting.length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 1));
    waiting.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 1));
  };
  return { fetch, requests, step };
}

function memoryCache(): DownloadCache {
  const store = new Map<string, Response>();
  return { match: async (url) => store.get(url)?.clone(), put: async (url, response) => void store.set(url, response) };
}

function listener(fetch: typeof globalThis.fetch) {
  const cache = memoryCache(); // one cache, as `caches.open` gives the same storage each time
  return createModelEngineListener({
    extensionOrigin: ORIGIN,
    navigator: undefined,
    createLlm: async () => ({}) as unknown as WebLlm,
    modelRecords: async () => [{ model_id: 'Tiny-q4f32_1-MLC', model: HOST.replace('resolve/main/', '') }, { model_id: 'No-url-MLC' }],
    database: createAssayDatabase(`model-download-host-${++databaseCount}`),
    properties: [],
    cache: { has: vi.fn(async () => false), remove: vi.fn() },
    fetch,
    downloadCache: async () => cache,
  });
}

async function download(host: ReturnType<typeof listener>, action: 'start' | 'pause' | 'status', modelId = 'Tiny-q4f32_1-MLC') {
  const answer = await new Promise((resolve) =>
    host({ target: 'assay-offscreen', request: { type: 'model-download', action, modelId } }, FROM_PANEL, resolve),
  );
  const parsed = ResponseSchemas['model-download'].parse(answer);
  return parsed.ok ? parsed.download : parsed.failure;
}

describe('model-download in the offscreen document', () => {
  it('starts in the background, reports bytes, pauses keeping finished shards, and resumes with only the rest', async () => {
    const slow = slowHost();
    const host = listener(slow.fetch);
    expect(await download(host, 'status')).toEqual({ modelId: 'Tiny-q4f32_1-MLC', phase: 'idle', doneBytes: 0, totalBytes: 0 });
    expect(await download(host, 'start')).toMatchObject({ phase: 'downloading' });
    for (let chunk = 0; chunk < 6; chunk += 1) await slow.step(); // shard 0 whole, then 100 bytes of shard 1
    expect(await download(host, 'status')).toMatchObject({ phase: 'downloading', doneBytes: 500, totalBytes: 1200 });
    expect(await download(host, 'pause')).toMatchObject({
      phase: 'paused',
      message: expect.stringContaining('Resume downloads what remains'),
    });
    await slow.step(); // the cut shard's next read sees the abort
    expect(await download(host, 'status')).toMatchObject({ phase: 'paused' });

    slow.requests.length = 0;
    expect(await download(host, 'start')).toMatchObject({ phase: 'downloading' });
    for (let chunk = 0; chunk < 40 && ((await download(host, 'status')) as ModelDownloadState).phase === 'downloading'; chunk += 1)
      await slow.step();
    await vi.waitFor(async () =>
      expect(await download(host, 'status')).toEqual({ modelId: 'Tiny-q4f32_1-MLC', phase: 'done', doneBytes: 1200, totalBytes: 1200 }),
    );
    // The manifest was never cached (it goes in last), so it is read again; shard 0 is not.
    expect(slow.requests).toEqual(['tensor-cache.json', 's1.bin', 's2.bin']);
  });

  it('says why a download failed, naming the file, and refuses a model without a download address', async () => {
    const host = listener(slowHost('tensor-cache.json').fetch);
    await download(host, 'start');
    await vi.waitFor(async () =>
      expect(await download(host, 'status')).toMatchObject({
        phase: 'failed',
        message: 'tensor-cache.json could not be downloaded: HTTP 503 Service Unavailable Resume (Download again) fetches what remains.',
      } satisfies Partial<ModelDownloadState>),
    );
    expect(await download(host, 'start', 'No-url-MLC')).toEqual({
      code: 'bad-request',
      message: 'No-url-MLC is not a WebLLM model with a download address.',
    });
  });
});
