/**
 * Download a WebLLM model's weights into WebLLM's own cache before the first run, with progress
 * in bytes, a pause (an `AbortSignal`) and a resume that fetches only what is missing.
 *
 * WebLLM reads the weights through its Cache Storage cache (scope `webllm/model`, keyed by each
 * file's full URL: tvmjs `ArtifactCache.addToCache` fetches a URL only when `cache.match` misses,
 * and `hasModelInCache` is true when `tensor-cache.json` and every shard it lists are there). So
 * a file this module puts under the same URL is one WebLLM will not fetch again. The unit of
 * resume is one shard (MLC shards are ~30 MB): a pause drops the shard being fetched and keeps
 * every finished one. The model's config, tokenizer and wasm library (a few MB) are left to the
 * first load. No WebLLM import: `fetch` and the cache are given, so every path is unit-tested.
 */
import { z } from 'zod';

/** WebLLM's cache scope for weights (web-llm `hasModelInCache`: `getTensorCacheAccessOptions("webllm/model")`). */
export const WEBLLM_MODEL_CACHE = 'webllm/model';

/** The weights' manifest, as tvmjs names it (web-llm `TENSOR_CACHE_MANIFEST_FILENAME`). */
export const TENSOR_CACHE_MANIFEST = 'tensor-cache.json';

/** The slice of a Cache Storage `Cache` used here (`caches.open(WEBLLM_MODEL_CACHE)`), so a test can stand in. */
export interface DownloadCache {
  match(url: string): Promise<Response | undefined>;
  put(url: string, response: Response): Promise<void>;
}

/** How far a download is: bytes of weights finished (whole shards plus the one in flight) of the manifest's total. */
export interface DownloadProgress {
  doneBytes: number;
  totalBytes: number;
  doneFiles: number;
  totalFiles: number;
}

/** Why a download stopped: `paused` (the signal aborted it), `http` (a file answered non-2xx), `network`, or `manifest` (unreadable list). */
export class ModelDownloadError extends Error {
  constructor(
    readonly code: 'paused' | 'http' | 'network' | 'manifest',
    message: string,
  ) {
    super(message);
    this.name = 'ModelDownloadError';
  }
}

const ManifestSchema = z.object({
  records: z.array(z.object({ dataPath: z.string().min(1), nbytes: z.number().int().nonnegative() })).min(1),
});

/**
 * The weights' base URL as WebLLM forms it from a model record's `model` (web-llm
 * `cleanModelUrl`): a closing slash, and Hugging Face's `resolve/main/` unless a `/resolve/…/`
 * is already there. e.g. "https://huggingface.co/mlc-ai/X" → "https://huggingface.co/mlc-ai/X/resolve/main/".
 */
export function weightsBaseUrl(modelUrl: string): string {
  let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

export interface DownloadOptions {
  /** The model record's `model` URL (see `weightsBaseUrl`). */
  modelUrl: string;
  fetch: typeof globalThis.fetch;
  cache: DownloadCache;
  /** Aborting it pauses: the download rejects with `ModelDownloadError('paused')`, finished shards stay cached. */
  signal?: AbortSignal;
  /** Called after the manifest is read, after each chunk received and after each shard. */
  onProgress?(progress: DownloadProgress): void;
}

/**
 * Download the weights of `modelUrl` into `cache` (see the module comment), skipping shards
 * already there. → the final progress, with `fetchedBytes` = what this call fetched.
 * Rejects with `ModelDownloadError`: `paused` when `signal` aborts; `http` naming the file and
 * status ("params_shard_3.bin: HTTP 404 Not Found"); `network` naming the file and the error;
 * `manifest` when `tensor-cache.json` is not the list of shards it should be.
 */
export async function downloadModelWeights(options: DownloadOptions): Promise<DownloadProgress & { fetchedBytes: number }> {
  const base = weightsBaseUrl(options.modelUrl);
  const manifestUrl = new URL(TENSOR_CACHE_MANIFEST, base).href;
  let manifestResponse = await options.cache.match(manifestUrl);
  if (!manifestResponse) {
    const fetched = await fetchFile(options, manifestUrl, TENSOR_CACHE_MANIFEST);
    manifestResponse = new Response(await readBody(fetched, TENSOR_CACHE_MANIFEST, options.signal, () => undefined));
  }
  const manifestText = await manifestResponse.clone().text();
  let manifest: z.infer<typeof ManifestSchema>;
  try {
    manifest = ManifestSchema.parse(JSON.parse(manifestText));
  } catch {
    throw new ModelDownloadError('manifest', `${TENSOR_CACHE_MANIFEST} of ${base} is not a list of weight shards.`);
  }
  const progress: DownloadProgress = {
    doneBytes: 0,
    totalBytes: manifest.records.reduce((sum, record) => sum + record.nbytes, 0),
    doneFiles: 0,
    totalFiles: manifest.records.length,
  };
  let fetchedBytes = 0;
  options.onProgress?.({ ...progress });
  for (const record of manifest.records) {
    const url = new URL(record.dataPath, base).href;
    if (!(await options.cache.match(url))) {
      const response = await fetchFile(options, url, record.dataPath);
      const body = await readBody(response, record.dataPath, options.signal, (bytes) =>
        options.onProgress?.({ ...progress, doneBytes: progress.doneBytes + Math.min(bytes, record.nbytes) }),
      );
      await options.cache.put(url, new Response(body, { headers: { 'content-type': 'application/octet-stream' } }));
      fetchedBytes += body.byteLength;
    }
    progress.doneBytes += record.nbytes;
    progress.doneFiles += 1;
    options.onProgress?.({ ...progress });
  }
  // The manifest last: WebLLM counts the model as cached only when it and every shard are there.
  await options.cache.put(manifestUrl, new Response(manifestText, { headers: { 'content-type': 'application/json' } }));
  return { ...progress, fetchedBytes };
}

async function fetchFile(options: DownloadOptions, url: string, name: string): Promise<Response> {
  if (options.signal?.aborted) throw paused(name);
  let response: Response;
  try {
    response = await options.fetch(url, options.signal ? { signal: options.signal } : {});
  } catch (error) {
    if (options.signal?.aborted) throw paused(name);
    throw new ModelDownloadError('network', `${name} could not be downloaded: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok)
    throw new ModelDownloadError(
      'http',
      `${name} could not be downloaded: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
    );
  return response;
}

/** The whole body as bytes, reporting the bytes so far after each chunk. */
async function readBody(
  response: Response,
  name: string,
  signal: AbortSignal | undefined,
  onBytes: (bytes: number) => void,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      onBytes(bytes);
      if (signal?.aborted) throw paused(name);
    }
  } catch (error) {
    if (error instanceof ModelDownloadError) throw error;
    if (signal?.aborted) throw paused(name);
    throw new ModelDownloadError('network', `${name} was cut off: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    reader.releaseLock();
  }
  const body = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function paused(name: string): ModelDownloadError {
  return new ModelDownloadError('paused', `Paused before ${name} finished; Resume downloads what remains.`);
}

/** "120 MB of 805 MB (15%)": MB are 2^20 bytes, as WebLLM counts. */
export function downloadProgressText(progress: Pick<DownloadProgress, 'doneBytes' | 'totalBytes'>): string {
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  const percent = progress.totalBytes > 0 ? Math.floor((progress.doneBytes / progress.totalBytes) * 100) : 0;
  return `${mb(progress.doneBytes)} MB of ${mb(progress.totalBytes)} MB (${percent}%)`;
}
