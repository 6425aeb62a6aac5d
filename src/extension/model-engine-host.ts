/**
 * The offscreen document's side of the engine requests (see offscreen-engine.ts for why the
 * engine lives there): one WebLLM `LlmPort` per document, shared by the `webgpu-check` and
 * `load-model` answers, by every SLM-MATRIX run (`matrix-start`, `matrix-cancel`), which the
 * document hosts so a run goes on while the side panel is closed, and by the precedent checks
 * that search the open literature (`precedent-check`, precedent-check-host.ts). It also reads the
 * PDFs shown in the browser's viewer for the background (`pdf-read`, pdf-read-host.ts), which
 * keeps pdf.js out of the service worker, and counts a recognized paper's quick-scan candidates
 * for the toolbar badge (`candidate-count`, candidate-count-host.ts).
 */
import {
  failureResponse,
  OffscreenEnvelopeSchema,
  type OffscreenEnvelope,
  type ResponseOf,
  type WebGpuCapability,
} from '../contracts/messages';
import type { CustomWebLlmModel } from '../contracts/webllm-model';
import { LlmError, toLlmError } from '../llm/llm-port';
import { describeWebGpu, detectWebGpu, type NavigatorLike } from '../llm/webgpu-capability';
import type { WebLlm, WebLlmModelRecord, WebLlmProgress } from '../llm/webllm-adapter';
import type { WebLlmCache } from '../llm/webllm-engine';
import type { PropertyDefinition } from '../properties';
import type { AssayDatabase } from '../store/assay-database';
import { createMatrixRunHost, type MatrixRunHost } from './matrix-run-host';
import { isOwnExtensionSender, type MessageSender } from './message-router';
import { queryTriplets } from '../store/dataset-repository';
import { loadReferenceTables } from '../precedent/cached-precedent-check';
import { answerPdfRead } from './pdf-read-host';
import { answerCandidateCount } from './candidate-count-host';
import { createPrecedentCheckHost } from './precedent-check-host';
import { createImportJobHost, type ImportRunner } from './import-job-host';
import { createRunEngineFactory } from './run-engines';
import { downloadModelWeights, ModelDownloadError, WEBLLM_MODEL_CACHE, type DownloadCache } from '../llm/model-download';
import type { ModelDownloadState } from '../contracts/messages';

type EngineResponse = ResponseOf<'webgpu-check'>;

export interface ModelEngineHostOptions {
  /** This extension's origin with its closing slash (`browser.runtime.getURL('/')`): only senders under it are answered. */
  extensionOrigin: string;
  navigator: NavigatorLike | undefined;
  /** Build the WebLLM port (given the capability check and a progress sink). */
  createLlm(options: { capability: () => Promise<WebGpuCapability>; onProgress: (progress: WebLlmProgress) => void }): Promise<WebLlm>;
  /** WebLLM's model list (for the GPU-memory plan of a run). */
  modelRecords: () => Promise<readonly WebLlmModelRecord[]>;
  /** Where runs are stored, and the property schemas they may ask for. */
  database: AssayDatabase;
  properties: readonly PropertyDefinition[];
  /** For engines that reach a server (e.g. OpenAI-compatible ones), the literature and PDF downloads; default the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** WebLLM's weight cache (webllm-engine.ts `createWebLlmRuntime().cache`). */
  cache: WebLlmCache;
  /** Make these the reader's custom WebLLM models (webllm-engine.ts `registerModels`); absent: custom models are refused. */
  registerModels?: (models: readonly CustomWebLlmModel[]) => Promise<void>;
  /** Where `model-download` puts weights; default WebLLM's Cache Storage cache (`caches.open(WEBLLM_MODEL_CACHE)`). */
  downloadCache?: () => Promise<DownloadCache>;
  /** Where import jobs run (import-job-host.ts); default in this document. The offscreen document passes its import worker's. */
  runImport?: ImportRunner;
}

/** The load progress of WebLLM in words for a status line: "Downloading …: 120 MB, 17%". */
export function describeLoadProgress(report: WebLlmProgress): string {
  const figures = [report.megabytes !== undefined ? `${report.megabytes} MB` : '', report.percent !== undefined ? `${report.percent}%` : '']
    .filter(Boolean)
    .join(', ');
  const phase = {
    download: 'Downloading the model',
    cache: 'Loading the model from the cache',
    compile: 'Compiling GPU shaders',
    ready: 'Model ready',
    other: 'Preparing the model',
  }[report.phase];
  return figures ? `${phase}: ${figures}` : `${phase}…`;
}

/**
 * Build the offscreen `runtime.onMessage` listener and the run host behind it. It answers only
 * envelopes addressed to the offscreen document (returning `true` to keep the channel open) and
 * ignores every other runtime message (returns `false`), which the background answers. Like the
 * background's router (`isOwnExtensionSender`), it acts only for this extension's own pages and
 * service worker: an envelope from anywhere else (a content script, which runs beside an
 * untrusted page) is refused with a 'bad-request' failure and nothing is run. On creation it
 * marks runs left `running` by an earlier document as interrupted.
 */
export function createModelEngineListener(options: ModelEngineHostOptions) {
  const capability = () => detectWebGpu(options.navigator);
  const recent: WebLlmProgress[] = [];
  const progressListeners = new Set<(text: string) => void>();
  let llm: Promise<WebLlm> | undefined;
  const getLlm = () =>
    (llm ??= options.createLlm({
      capability,
      onProgress: (report) => {
        recent.push(report);
        if (recent.length > 5) recent.shift();
        const text = describeLoadProgress(report);
        for (const listener of progressListeners) listener(text);
      },
    }));
  // One factory for runs and precedent checks, so its one-WebLLM-run-at-a-time guard covers both.
  const createEngine = createRunEngineFactory({
    webLlm: getLlm,
    capability,
    modelRecords: options.modelRecords,
    ...(options.registerModels ? { registerModels: options.registerModels } : {}),
    onLoadProgress: (listener) => {
      progressListeners.add(listener);
      return () => progressListeners.delete(listener);
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const runs: MatrixRunHost = createMatrixRunHost({ database: options.database, properties: options.properties, createEngine });
  const precedentCheck = createPrecedentCheckHost({
    referenceTables: () => loadReferenceTables(options.database),
    dataset: async (property) => (await queryTriplets(options.database, { property })).rows,
    createEngine,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const imports = createImportJobHost({ database: options.database, ...(options.runImport && { runner: options.runImport }) });
  void runs.sweepStaleRuns().catch((error: unknown) => console.error('Assay could not mark stale runs:', error));

  async function engineStatus(
    request: Extract<OffscreenEnvelope['request'], { type: 'webgpu-check' | 'load-model' }>,
  ): Promise<EngineResponse> {
    const found = await capability();
    const summary = describeWebGpu(found);
    if (request.type === 'webgpu-check') return { ok: true, capability: found, summary };
    recent.length = 0;
    const progress = () => recent.map(({ text, progress: fraction }) => ({ text, progress: fraction }));
    try {
      await register(request.customModels);
      await (await getLlm()).load([request.modelId]);
      return { ok: true, capability: found, summary, progress: progress() };
    } catch (error) {
      const llmError = toLlmError(error);
      return { ok: true, capability: found, summary, error: { code: llmError.code, message: llmError.message }, progress: progress() };
    }
  }

  /** Register the request's custom models (none given: leave the registered ones as they are). */
  async function register(customModels: readonly CustomWebLlmModel[] | undefined): Promise<void> {
    if (customModels === undefined) return;
    if (!options.registerModels) {
      if (customModels.length > 0) throw new LlmError('unavailable', 'This engine document cannot load custom WebLLM models.');
      return;
    }
    await options.registerModels(customModels);
  }

  /** Each model's cache state, size, f16 need and whether it is loaded, in the order asked; a cache that cannot be read is a failure in words. */
  async function cacheStatus(modelIds: readonly string[]): Promise<ResponseOf<'model-cache-status'>> {
    try {
      const records = await options.modelRecords();
      const loaded = llm ? (await llm).loadedModels() : [];
      const models = await Promise.all(
        modelIds.map(async (modelId) => {
          const record = records.find((candidate) => candidate.model_id === modelId);
          return {
            modelId,
            cached: await options.cache.has(modelId),
            vramMB: record?.vram_required_MB ?? null,
            requiresF16: record?.required_features?.includes('shader-f16') ?? false,
            loaded: loaded.includes(modelId),
          };
        }),
      );
      return { ok: true, models };
    } catch (error) {
      return failureResponse('internal', `Could not read the model cache: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // One download per model, kept for the document's life so a reopened panel sees its progress.
  const downloads = new Map<string, { state: ModelDownloadState; controller?: AbortController }>();

  /**
   * `model-download`: `status` says where the model's download stands (idle when none); `pause`
   * aborts it (finished shards stay cached); `start` begins or resumes it in the background
   * (`downloadModelWeights`, shards already cached are skipped) and answers at once.
   */
  async function download(
    request: Extract<OffscreenEnvelope['request'], { type: 'model-download' }>,
  ): Promise<ResponseOf<'model-download'>> {
    const { modelId } = request;
    const known = downloads.get(modelId);
    const answer = (): ResponseOf<'model-download'> => ({
      ok: true,
      download: downloads.get(modelId)?.state ?? { modelId, phase: 'idle', doneBytes: 0, totalBytes: 0 },
    });
    if (request.action === 'status') return answer();
    if (request.action === 'pause') {
      if (known?.controller) {
        known.controller.abort();
        known.controller = undefined;
        known.state = { ...known.state, phase: 'paused', message: 'Paused: the finished parts are kept; Resume downloads what remains.' };
      }
      return answer();
    }
    if (known?.controller) return answer();
    try {
      await register(request.customModels);
    } catch (error) {
      return failureResponse('bad-request', toLlmError(error).message);
    }
    const record = (await options.modelRecords()).find((candidate) => candidate.model_id === modelId);
    if (!record?.model) return failureResponse('bad-request', `${modelId} is not a WebLLM model with a download address.`);
    const controller = new AbortController();
    const entry = {
      state: {
        modelId,
        phase: 'downloading',
        doneBytes: known?.state.doneBytes ?? 0,
        totalBytes: known?.state.totalBytes ?? 0,
      } as ModelDownloadState,
      controller: controller as AbortController | undefined,
    };
    downloads.set(modelId, entry);
    const modelUrl = record.model;
    void (async () => {
      try {
        const cache = await (options.downloadCache ?? (() => caches.open(WEBLLM_MODEL_CACHE)))();
        const done = await downloadModelWeights({
          modelUrl,
          // Bound: an unbound `fetch` throws "Illegal invocation".
          fetch: options.fetch ?? ((url, init) => fetch(url, init)),
          cache,
          signal: controller.signal,
          onProgress: (progress) => {
            if (entry.controller === controller)
              entry.state = { ...entry.state, doneBytes: progress.doneBytes, totalBytes: progress.totalBytes };
          },
        });
        if (downloads.get(modelId) === entry)
          entry.state = { modelId, phase: 'done', doneBytes: done.doneBytes, totalBytes: done.totalBytes };
      } catch (error) {
        if (downloads.get(modelId) !== entry || controller.signal.aborted) return; // paused: `pause` said so
        const message =
          error instanceof ModelDownloadError
            ? error.message
            : `The download failed: ${error instanceof Error ? error.message : String(error)}`;
        entry.state = { ...entry.state, phase: 'failed', message: `${message} Resume (Download again) fetches what remains.` };
      } finally {
        if (entry.controller === controller) entry.controller = undefined;
      }
    })();
    return answer();
  }

  /** Unload every model, unless a run or check is using the engine (then a failure in words). */
  async function unload(): Promise<ResponseOf<'model-unload'>> {
    if (!llm) return { ok: true, unloaded: [] };
    const engine = await llm;
    if (createEngine.busy('webllm') || engine.callsInFlight() > 0)
      return failureResponse('bad-request', 'A run is using the model engine: stop it (or wait for it to finish), then unload the models.');
    const unloaded = [...engine.loadedModels()];
    await engine.unload();
    return { ok: true, unloaded };
  }

  async function answer(message: unknown): Promise<unknown> {
    const { request } = OffscreenEnvelopeSchema.parse(message);
    switch (request.type) {
      case 'matrix-start':
        return runs.start(request.settings);
      case 'matrix-cancel':
        return runs.cancel(request.runId);
      case 'precedent-check':
        return precedentCheck(request);
      case 'dataset-import':
        return imports(request);
      case 'candidate-count':
        return answerCandidateCount(request, options.database, options.properties);
      case 'pdf-read':
        // Bound: an unbound `fetch` throws "Illegal invocation".
        return answerPdfRead(request, { fetch: options.fetch ?? ((url, init) => fetch(url, init)) });
      case 'model-cache-status':
        try {
          await register(request.customModels);
        } catch (error) {
          return failureResponse('bad-request', toLlmError(error).message);
        }
        return cacheStatus(request.modelIds);
      case 'model-unload':
        return unload();
      case 'model-download':
        return download(request);
      case 'model-cache-delete':
        try {
          await register(request.customModels);
        } catch (error) {
          return failureResponse('bad-request', toLlmError(error).message);
        }
        if (llm && (await llm).loadedModels().includes(request.modelId))
          return failureResponse('bad-request', `${request.modelId} is loaded in the engine: unload the models first, then delete it.`);
        try {
          await options.cache.remove(request.modelId);
        } catch (error) {
          return failureResponse(
            'internal',
            `Could not delete ${request.modelId} from the model cache: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        return cacheStatus([request.modelId]);
      default:
        return engineStatus(request);
    }
  }

  return (message: unknown, sender: MessageSender, sendResponse: (response: unknown) => void): boolean => {
    if (!OffscreenEnvelopeSchema.safeParse(message).success) return false;
    if (!isOwnExtensionSender(sender, options.extensionOrigin)) {
      sendResponse(failureResponse('bad-request', 'The model engine answers only Assay’s own pages.'));
      return false;
    }
    void answer(message).then(sendResponse, (error: unknown) =>
      sendResponse({
        ok: false,
        failure: { code: 'internal', message: `The model engine failed: ${error instanceof Error ? error.message : String(error)}` },
      }),
    );
    return true;
  };
}
