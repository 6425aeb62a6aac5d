/**
 * Where the WebLLM engine runs, and where PDFs are read: an offscreen document, not the service
 * worker.
 *
 * Choice and trade-off: an MV3 service worker is stopped after ~30 s without events, and a
 * stopped worker loses everything in memory — a loaded model (hundreds of MB of weights on the
 * GPU, plus shader compilation) would have to be reloaded for every paper. WebLLM's
 * `ServiceWorkerMLCEngineHandler` works around this with keep-alive pings, which Chrome does not
 * promise to honour. An offscreen document is an ordinary (hidden) page: it has `navigator.gpu`
 * on every Chrome with WebGPU, and it lives until the extension closes it, so GPU state stays
 * loaded while the extension needs it. The cost is one `offscreen` permission (no host access)
 * and one hop of messaging. Reason: `WORKERS` — the document exists to run compute work
 * (WebLLM's engine, and later its web worker; pdf.js's parsing of a PDF) that a service worker
 * cannot keep alive or should not carry; no other offscreen reason fits better (`DOM_PARSER` is
 * for parsing HTML).
 *
 * The document also downloads and reads the PDFs shown in Chromium's viewer (`pdf-read`), so
 * pdf.js (1.7 MB) is loaded there, on demand, and not bundled into the service worker
 * (capture-pdf-tab.ts says why).
 *
 * The background forwards the engine requests to the document in an `OffscreenEnvelope`.
 */
import {
  CandidateCountResponseSchema,
  exchange,
  PdfReadResponseSchema,
  sendAndParse,
  withErrorDetail,
  type CandidateCountRequest,
  type CandidateCountResponse,
  type OffscreenEnvelope,
  type PdfReadRequest,
  type PdfReadResponse,
  type RequestOf,
  type ResponseOf,
} from '../contracts/messages';

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

/** The requests a page sends the background and the background forwards as they are (every envelope request but `pdf-read`). */
type EngineRequestType = Exclude<OffscreenEnvelope['request']['type'], 'pdf-read' | 'candidate-count'>;

/** What the offscreen document is created for, as `offscreen.createDocument` records it. */
export const OFFSCREEN_JUSTIFICATION =
  'Runs the local language model (WebLLM on WebGPU), which must stay loaded across papers, and reads PDFs open in the browser’s viewer with pdf.js.';

/**
 * Make the background's side of the offscreen document. Each call ensures the document exists
 * (created once; concurrent callers share the creation), sends it the request in an envelope,
 * and parses its answer; neither rejects.
 * - `forward(request)`: an engine request, answered with that type's response.
 * - `countCandidates({ type: 'candidate-count', paperKey, properties })`: the saved paper's
 *   quick-scan candidate count (candidate-count-host.ts), or an `internal` failure as for `readPdf`.
 * - `readPdf({ type: 'pdf-read', url })`: the `PdfReadResponse` — the article, the capture's
 *   failure as the document sent it (CaptureError code and words), or an `internal` failure
 *   saying that the document did not answer, or answered in a shape that is not the contract.
 */
export function createOffscreenForwarder(api: OffscreenApi) {
  let creating: Promise<void> | undefined;

  async function ensureDocument(): Promise<void> {
    // While a creation is in flight its document is already listed by getContexts, but may not
    // listen yet: a request sent then finds no receiver ("Receiving end does not exist"). Wait for it.
    if (creating) return creating;
    const url = api.runtime.getURL(OFFSCREEN_PATH);
    const existing = (await api.runtime.getContexts?.({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] })) ?? [];
    if (existing.length > 0) return;
    creating ??= api.offscreen
      .createDocument({
        url: OFFSCREEN_PATH,
        reasons: ['WORKERS'],
        justification: OFFSCREEN_JUSTIFICATION,
      })
      .finally(() => {
        creating = undefined;
      });
    await creating;
  }

  async function send(request: OffscreenEnvelope['request']): Promise<unknown> {
    await ensureDocument();
    const envelope: OffscreenEnvelope = { target: 'assay-offscreen', request };
    return api.runtime.sendMessage(envelope);
  }

  async function forward<Type extends EngineRequestType>(request: RequestOf<Type>): Promise<ResponseOf<Type>> {
    // Each engine request is in the envelope's union; TypeScript cannot see it through the generic `Type`.
    return sendAndParse(request, send as (message: RequestOf<Type>) => Promise<unknown>, {
      noAnswer: withErrorDetail('The model engine document did not answer'),
      malformed: (issues) => `The model engine answered in an unexpected shape: ${issues}`,
    });
  }

  async function readPdf(request: PdfReadRequest): Promise<PdfReadResponse> {
    return exchange(() => send(request), PdfReadResponseSchema, {
      noAnswer: withErrorDetail('The PDF was not read: the extension’s offscreen document, which reads PDFs, did not answer'),
      undefinedAnswer:
        'The PDF was not read: the extension’s offscreen document, which reads PDFs, closed without answering. Capture again.',
      malformed: (issues) => `The PDF was not read: the offscreen document answered in an unexpected shape: ${issues}`,
    });
  }

  async function countCandidates(request: CandidateCountRequest): Promise<CandidateCountResponse> {
    return exchange(() => send(request), CandidateCountResponseSchema, {
      noAnswer: withErrorDetail('The candidates were not counted: the extension’s offscreen document did not answer'),
      malformed: (issues) => `The candidates were not counted: the offscreen document answered in an unexpected shape: ${issues}`,
    });
  }

  return { forward, readPdf, countCandidates };
}
