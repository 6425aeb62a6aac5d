/**
 * The background's request handlers, one per request type of the message protocol.
 */
import type { AssayDatabase } from '../store/assay-database';
import { browserCaptureDependencies, captureTab } from './capture-tab';
import { createHighlightHandlers, type HighlightApi } from './highlight-tab';
import type { RequestHandlers } from './message-router';
import { createOffscreenForwarder, type OffscreenApi } from './offscreen-engine';

/**
 * Build the handler map the background registers with `createMessageListener`: captures run
 * here, except that a PDF tab's PDF is downloaded and read by the offscreen document;
 * highlights go to the page's highlighter content script (injected on demand); the model
 * engine requests are forwarded to the offscreen document through `browserApi` (by `offscreen`,
 * when the background shares its forwarder with another user of the document).
 */
export function createBackgroundHandlers(
  database: AssayDatabase,
  browserApi: OffscreenApi & HighlightApi,
  offscreen: Pick<ReturnType<typeof createOffscreenForwarder>, 'forward' | 'readPdf'> = createOffscreenForwarder(browserApi),
): RequestHandlers {
  const { forward, readPdf } = offscreen;
  const capture = browserCaptureDependencies(readPdf);
  return {
    'capture-tab': (request) => captureTab(request, database, capture),
    ...createHighlightHandlers(browserApi),
    'webgpu-check': forward<'webgpu-check'>,
    'load-model': forward<'load-model'>,
    // Runs live in the offscreen document beside the engine, so they outlive the side panel.
    'matrix-start': forward<'matrix-start'>,
    'matrix-cancel': forward<'matrix-cancel'>,
    'model-cache-status': forward<'model-cache-status'>,
    'model-cache-delete': forward<'model-cache-delete'>,
    'model-unload': forward<'model-unload'>,
    // Downloads run beside the engine, so they outlive the side panel.
    'model-download': forward<'model-download'>,
    // The literature check is judged by the same engine, so it runs beside it.
    'precedent-check': forward<'precedent-check'>,
    // Imports run in the offscreen document too, so they outlive the dataset page (import-job-host.ts).
    'dataset-import': forward<'dataset-import'>,
  };
}
