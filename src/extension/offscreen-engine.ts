/**
 * Where the WebLLM engine runs: an offscreen document, not the service worker.
 *
 * Choice and trade-off: an MV3 service worker is stopped after ~30 s without events, and a
 * stopped worker loses everything in memory — a loaded model (hundreds of MB of weights on the
 * GPU, plus shader compilation) would have to be reloaded for every paper. WebLLM's
 * `ServiceWorkerMLCEngineHandler` works around this with keep-alive pings, which Chrome does not
 * promise to honour. An offscreen document is an ordinary (hidden) page: it has `navigator.gpu`
 * on every Chrome with WebGPU, and it lives until the extension closes it, so GPU state stays
 * loaded while the extension needs it. The cost is one `offscreen` permission (no host access)
 * and one hop of messaging. Reason: `WORKERS` — the document exists to run compute work
 * (WebLLM's engine, and later its web worker) that a service worker cannot keep alive; no other
 * offscreen reason fits better (`DOM_PARSER` is for parsing HTML).
 *
 * The background forwards the engine requests to the document in an `OffscreenEnvelope`.
 */
import { sendAndParse, withErrorDetail, type OffscreenEnvelope, type RequestOf, type ResponseOf } from '../contracts/messages';

export const OFFSCREEN_PATH = '/offscreen.html';

/** The slice of the `browser` API the background needs for the offscreen document. */
export interface OffscreenApi {
  runtime: {
    getURL(path: string): string;
    sendMessage(message: unknown): Promise<unknown>;
    getContexts?(filter: { contextTypes: 'OFFSCREEN_DOCUMENT'[]; documentUrls?: string[] }): Promise<unknown[]>;
  };
  offscreen: { createDocument(parameters: { url: string; reasons: 'WORKERS'[]; justification: string }): Promise<void> };
}

type EngineRequestType = OffscreenEnvelope['request']['type'];

/**
 * Make the background's forwarders for the engine requests: each ensures the offscreen document
 * exists (created once; concurrent callers share the creation), sends it the request in an
 * envelope, and parses its answer. Never rejects.
 */
export function createOffscreenForwarder(api: OffscreenApi) {
  let creating: Promise<void> | undefined;

  async function ensureDocument(): Promise<void> {
    const url = api.runtime.getURL(OFFSCREEN_PATH);
    const existing = (await api.runtime.getContexts?.({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] })) ?? [];
    if (existing.length > 0) return;
    creating ??= api.offscreen
      .createDocument({
        url: OFFSCREEN_PATH,
        reasons: ['WORKERS'],
        justification: 'Runs the local language model (WebLLM on WebGPU), which must stay loaded across papers.',
      })
      .finally(() => {
        creating = undefined;
      });
    await creating;
  }

  return async function forward<Type extends EngineRequestType>(request: RequestOf<Type>): Promise<ResponseOf<Type>> {
    const send = async (message: RequestOf<Type>) => {
      await ensureDocument();
      const envelope = { target: 'assay-offscreen', request: message } as OffscreenEnvelope;
      return api.runtime.sendMessage(envelope);
    };
    return sendAndParse(request, send, {
      noAnswer: withErrorDetail('The model engine document did not answer'),
      malformed: (issues) => `The model engine answered in an unexpected shape: ${issues}`,
    });
  };
}
