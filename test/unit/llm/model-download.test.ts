import { describe, expect, it } from 'vitest';
import {
  downloadModelWeights,
  downloadProgressText,
  ModelDownloadError,
  weightsBaseUrl,
  type DownloadCache,
  type DownloadProgress,
} from '../../../src/llm/model-download';

const MODEL = 'https://models.example/mlc-ai/Tiny-q4f32_1-MLC';
const BASE = `${MODEL}/resolve/main/`;
const SHARD = 1000;
const CHUNK = 250;
const manifest = JSON.stringify({
  records: [0, 1, 2].map((index) => ({ dataPath: `params_shard_${index}.bin`, nbytes: SHARD, records: [] })),
});

/** A model host: the manifest and three 1000-byte shards, each body in 250-byte chunks; `failing` answers 404; `requests` lists what was fetched. */
function modelHost(options: { failing?: string; onChunk?: (url: string, sent: number) => void } = {}) {
  const requests: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    requests.push(url.slice(BASE.length));
    if (url.endsWith(options.failing ?? '\0')) return new Response('gone', { status: 404, statusText: 'Not Found' });
    if (url === `${BASE}tensor-cache.json`) return new Response(manifest);
    const signal = init?.signal;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (signal?.aborted) return controller.error(new DOMException('aborted', 'AbortError'));
        if (sent >= SHARD) return controller.close();
        controller.enqueue(new Uint8Array(CHUNK).fill(7));
        sent += CHUNK;
        options.onChunk?.(url, sent);
      },
    });
    return new Response(body);
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

function memoryCache(): DownloadCache & { urls(): string[] } {
  const store = new Map<string, Response>();
  return {
    match: async (url) => store.get(url)?.clone(),
    put: async (url, response) => void store.set(url, response),
    urls: () => [...store.keys()].map((url) => url.slice(BASE.length)).sort(),
  };
}

describe('downloadModelWeights', () => {
  it('forms the weights URL as WebLLM does', () => {
    expect(weightsBaseUrl(MODEL)).toBe(BASE);
    expect(weightsBaseUrl('http://127.0.0.1:8000/model/resolve/main/')).toBe('http://127.0.0.1:8000/model/resolve/main/');
  });

  it('downloads every shard into the cache with progress in bytes, the manifest last', async () => {
    const host = modelHost();
    const cache = memoryCache();
    const seen: DownloadProgress[] = [];
    const result = await downloadModelWeights({ modelUrl: MODEL, fetch: host.fetch, cache, onProgress: (p) => seen.push(p) });
    expect(result).toEqual({ doneBytes: 3000, totalBytes: 3000, doneFiles: 3, totalFiles: 3, fetchedBytes: 3000 });
    expect(cache.urls()).toEqual(['params_shard_0.bin', 'params_shard_1.bin', 'params_shard_2.bin', 'tensor-cache.json']);
    expect(seen[0]).toEqual({ doneBytes: 0, totalBytes: 3000, doneFiles: 0, totalFiles: 3 });
    // Every chunk moves the bytes forward, never back.
    const bytes = seen.map((p) => p.doneBytes);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    expect(bytes).toContain(1250);
    expect(downloadProgressText({ doneBytes: 120 * 2 ** 20, totalBytes: 805 * 2 ** 20 })).toBe('120 MB of 805 MB (14%)');
  });

  it('pauses mid-shard keeping the finished shards, and resumes with only what remains', async () => {
    const controller = new AbortController();
    const host = modelHost({ onChunk: (url, sent) => url.endsWith('params_shard_1.bin') && sent === 500 && controller.abort() });
    const cache = memoryCache();
    const paused = downloadModelWeights({ modelUrl: MODEL, fetch: host.fetch, cache, signal: controller.signal });
    await expect(paused).rejects.toThrow(ModelDownloadError);
    await expect(paused).rejects.toMatchObject({ code: 'paused', message: expect.stringContaining('Resume downloads what remains') });
    // Not cached as a whole model: the manifest goes in last.
    expect(cache.urls()).toEqual(['params_shard_0.bin']);

    const again = modelHost();
    const result = await downloadModelWeights({ modelUrl: MODEL, fetch: again.fetch, cache });
    expect(again.requests).toEqual(['tensor-cache.json', 'params_shard_1.bin', 'params_shard_2.bin']);
    expect(result.fetchedBytes).toBe(2000);
    expect(result.doneBytes).toBe(3000);
    expect(cache.urls()).toHaveLength(4);
  });

  it('names the file and status when a shard fails, and a retry fetches only the rest', async () => {
    const cache = memoryCache();
    await expect(
      downloadModelWeights({ modelUrl: MODEL, fetch: modelHost({ failing: 'params_shard_2.bin' }).fetch, cache }),
    ).rejects.toMatchObject({
      code: 'http',
      message: 'params_shard_2.bin could not be downloaded: HTTP 404 Not Found',
    });
    const retry = modelHost();
    await downloadModelWeights({ modelUrl: MODEL, fetch: retry.fetch, cache });
    expect(retry.requests).toEqual(['tensor-cache.json', 'params_shard_2.bin']);
  });

  it('says when the host cannot be reached or the manifest is not a shard list', async () => {
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof globalThis.fetch;
    await expect(downloadModelWeights({ modelUrl: MODEL, fetch: offline, cache: memoryCache() })).rejects.toMatchObject({
      code: 'network',
      message: 'tensor-cache.json could not be downloaded: Failed to fetch',
    });
    const wrong = (async () => new Response('{"records": []}')) as typeof globalThis.fetch;
    await expect(downloadModelWeights({ modelUrl: MODEL, fetch: wrong, cache: memoryCache() })).rejects.toMatchObject({ code: 'manifest' });
  });
});
