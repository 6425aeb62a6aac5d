/**
 * The background's request handlers, one per request type of the message protocol.
 */
import type { AssayDatabase } from '../store/assay-database';
import { captureTab } from './capture-tab';
import type { RequestHandlers } from './message-router';
import { createOffscreenForwarder, type OffscreenApi } from './offscreen-engine';

/**
 * Build the handler map the background registers with `createMessageListener`: captures run
 * here; the model engine requests are forwarded to the offscreen document through `offscreenApi`.
 */
export function createBackgroundHandlers(database: AssayDatabase, offscreenApi: OffscreenApi): RequestHandlers {
  const forward = createOffscreenForwarder(offscreenApi);
  return {
    'capture-tab': (request) => captureTab(request, database),
    'webgpu-check': forward<'webgpu-check'>,
    'load-model': forward<'load-model'>,
    // Runs live in the offscreen document beside the engine, so they outlive the side panel.
    'matrix-start': forward<'matrix-start'>,
    'matrix-cancel': forward<'matrix-cancel'>,
  };
}
