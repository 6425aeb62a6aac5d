/**
 * The background's request handlers, one per request type of the message protocol.
 */
import type { AssayDatabase } from '../store/assay-database';
import { captureTab } from './capture-tab';
import type { RequestHandlers } from './message-router';

/** Build the handler map the background registers with `createMessageListener`. */
export function createBackgroundHandlers(database: AssayDatabase): RequestHandlers {
  return {
    'capture-tab': (request) => captureTab(request, database),
  };
}
