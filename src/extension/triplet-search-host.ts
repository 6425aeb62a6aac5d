/**
 * The search worker's side of the dataset search (src/extension/triplet-search-worker.ts):
 * builds the search index over its own connection to the database, follows the table, reports
 * the index's state and answers the page's searches, each message checked against the protocol
 * (src/contracts/messages.ts). Kept apart from the worker file so a test can serve over a
 * `MessageChannel`.
 */
import { TripletSearchRequestSchema, type TripletSearchReply } from '../contracts/messages';
import type { AssayDatabase } from '../store/assay-database';
import { createTripletSearchIndex, type TripletSearchIndex, type TripletSearchIndexOptions } from '../store/triplet-search-index';

/** The worker's global scope (or one end of a `MessageChannel`), as far as serving uses it. */
export interface SearchHostPort {
  postMessage(message: TripletSearchReply): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/**
 * Start the index over `database` (`build`, then follow) and answer every valid
 * `triplet-search` request on `port` with the matching ids (null while the index cannot answer);
 * post each new state. Requests that do not parse are ignored (no request id to answer). A
 * failed build is reported as state `failed`, never thrown. Returns the index (tests close it).
 */
export function serveTripletSearch(
  port: SearchHostPort,
  database: AssayDatabase,
  options: Omit<TripletSearchIndexOptions, 'onState'> = {},
): TripletSearchIndex {
  const index = createTripletSearchIndex(database, {
    ...options,
    onState: (state) => port.postMessage({ type: 'triplet-search-state', state }),
  });
  port.addEventListener('message', (event) => {
    const request = TripletSearchRequestSchema.safeParse(event.data);
    if (!request.success) return;
    const ids = index.ids(request.data.text);
    port.postMessage({ type: 'triplet-search-ids', requestId: request.data.requestId, ids: ids ? [...ids] : null });
  });
  void index.build().catch(() => undefined);
  return index;
}
