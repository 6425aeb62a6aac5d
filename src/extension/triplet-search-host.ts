/**
 * The dataset worker's side of the dataset search and order (src/ui/dataset-page/dataset-worker.ts):
 * builds the search index over its own connection to the database, with the catalog of filter
 * fields and sort keys beside it, follows the table, reports the index's state and answers the
 * page's searches (`triplet-search`) and filtered, sorted id lists (`triplet-order`), each message
 * checked against the protocol (src/contracts/messages.ts). Kept apart from the worker file so a
 * test can serve over a `MessageChannel`.
 */
import { TripletSearchRequestSchema, type TripletOrderRequest, type TripletSearchReply } from '../contracts/messages';
import type { AssayDatabase } from '../store/assay-database';
import type { TripletIdSearch } from '../store/search-triplets';
import {
  createTripletSearchIndex,
  type RowCompanion,
  type TripletSearchIndex,
  type TripletSearchIndexOptions,
} from '../store/triplet-search-index';

/**
 * The rows' filter fields and sort keys, kept in step with the index (src/ui/dataset-page/triplet-catalog.ts):
 * `order` gives the ids of the rows matching the request's query (and in `searchIds`, the search
 * index's answer, when the query searches) in the request's order, or undefined when it cannot answer.
 */
export interface TripletCatalog extends RowCompanion {
  order(request: Pick<TripletOrderRequest, 'query' | 'sort' | 'labels'>, searchIds: ReadonlySet<string> | undefined): string[] | undefined;
  /**
   * The ids of the rows one of whose five searched fields (material, property, quote, paper title,
   * DOI) holds `text` in any case, as the page's scan without an index matches
   * (`queryTriplets`, src/store/dataset-repository.ts); for a dataset whose text search was
   * dropped (`searchStopped`), so that a search still answers from memory.
   */
  scan(text: string): ReadonlySet<string>;
  /** Work out ahead what an order of every row starts from (every row newest first), so the first sort does not wait for it. */
  prepare(): void;
}

/**
 * Quiet time after the index last changed before the catalog prepares its newest-first order
 * (`TripletCatalog.prepare`): long enough that an import's chunks, a few hundred milliseconds
 * apart, do not re-sort every row after each one.
 */
export const CATALOG_PREPARE_DELAY_MS = 1000;

/**
 * The ids `catalog` gives for `request` (the search index answering its search words), or
 * undefined while the index is still applying changes (an import's rows arriving: the catalog
 * holds part of them, so the page reads IndexedDB instead and asks again at the next generation)
 * or for a search of punctuation only. Once the text search is dropped (a dataset past the
 * worker's budget), a search is the catalog's own scan, as the page's scan would match.
 */
function catalogOrder(
  index: TripletSearchIndex,
  catalog: TripletCatalog,
  request: Pick<TripletOrderRequest, 'query' | 'sort' | 'labels'>,
): string[] | undefined {
  if (!index.settled) return undefined;
  const text = request.query.search?.trim();
  const state = index.state;
  const searchStopped = state.status === 'ready' && state.searchStopped !== undefined;
  const searchIds = text ? (searchStopped ? catalog.scan(text) : index.ids(text)) : undefined;
  if (text && !searchIds) return undefined;
  return catalog.order(request, searchIds);
}

/**
 * The index and catalog as `TripletIdSearch` for code running in the worker itself (its export,
 * src/ui/dataset-page/worker-export.ts): the same answers the page gets by message, without one.
 */
export function localSearch(index: TripletSearchIndex, catalog: TripletCatalog): TripletIdSearch {
  return {
    ids: async (text) => index.ids(text),
    order: async (query, sort, labels = {}) => catalogOrder(index, catalog, { query, sort, labels: { ...labels } }),
  };
}

/** The worker's global scope (or one end of a `MessageChannel`), as far as serving uses it. */
export interface SearchHostPort {
  postMessage(message: TripletSearchReply): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/**
 * Start the index over `database` (`build`, then follow), with `catalog` beside it when given, and
 * answer every valid request on `port` with ids (null while the index, or the catalog, cannot
 * answer: an order request with no catalog, a search of punctuation only); post each new state.
 * Requests that do not parse are ignored (no request id to answer). A failed build is reported as
 * state `failed`, never thrown. Returns the index (tests close it).
 */
export function serveTripletSearch(
  port: SearchHostPort,
  database: AssayDatabase,
  options: Omit<TripletSearchIndexOptions, 'onState' | 'companion'> & { catalog?: TripletCatalog } = {},
): TripletSearchIndex {
  const { catalog, ...indexOptions } = options;
  let preparing: ReturnType<typeof setTimeout> | undefined;
  const index = createTripletSearchIndex(database, {
    ...indexOptions,
    ...(catalog && { companion: catalog }),
    onState: (state) => {
      port.postMessage({ type: 'triplet-search-state', state });
      clearTimeout(preparing);
      if (catalog && state.status === 'ready' && !state.pending)
        preparing = setTimeout(() => {
          if (index.settled) catalog.prepare();
        }, CATALOG_PREPARE_DELAY_MS);
    },
  });
  const order = (request: Pick<TripletOrderRequest, 'query' | 'sort' | 'labels'>) =>
    catalog ? catalogOrder(index, catalog, request) : undefined;
  port.addEventListener('message', (event) => {
    const request = TripletSearchRequestSchema.safeParse(event.data);
    if (!request.success) return;
    if (request.data.type !== 'triplet-search' && request.data.type !== 'triplet-order') return;
    const ids = request.data.type === 'triplet-search' ? index.ids(request.data.text) : order(request.data);
    // An order is already a list (posting copies it); a search's set is listed.
    port.postMessage({
      type: 'triplet-search-ids',
      requestId: request.data.requestId,
      ids: ids ? (Array.isArray(ids) ? ids : [...ids]) : null,
    });
  });
  void index.build().catch(() => undefined);
  return index;
}
