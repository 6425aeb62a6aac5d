/**
 * The dataset page's side of the dataset search and order: asks the dataset worker
 * (src/ui/dataset-page/dataset-worker.ts, started by `startDatasetWorker`) for the ids matching a
 * search, or a filter in an order, so the index and the catalog are built, kept and searched off
 * the page's main thread. Every reply is checked against
 * the protocol (src/contracts/messages.ts); an unanswered or malformed one counts as no answer,
 * and `queryTriplets` then scans, so a search is never wrong, only slower.
 */
import {
  MAX_SEARCH_TEXT,
  TripletSearchReplySchema,
  type TripletSearchRequest,
  type TripletSearchState,
} from '../contracts/messages';
import type { TripletIdSearch } from '../store/search-triplets';

/** The search as the page uses it: ids by text, the index's state, and a way to hear of new states. */
export interface TripletSearch extends TripletIdSearch {
  /** The latest state the worker reported (`building`, 0 of 0, until its first report). */
  readonly state: TripletSearchState;
  /** Call `listener` after each new state; returns the unsubscribe function (for `useSyncExternalStore`). */
  subscribe(listener: () => void): () => void;
  /** Stop the worker; later searches answer undefined. */
  close(): void;
}

/** `Omit` over each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A `Worker` (or one end of a `MessageChannel`), as far as the client uses it. */
export interface SearchClientPort {
  postMessage(message: TripletSearchRequest): void;
  addEventListener(type: 'message' | 'error', listener: (event: Event) => void): void;
  terminate?(): void;
}

/** How long a search waits for the worker before answering undefined (the page then scans), in ms. */
export const SEARCH_REPLY_TIMEOUT_MS = 10_000;

/**
 * A client over `port`. `ids(text)` resolves to the worker's answer, or undefined at once when
 * the index is not `ready` or `text` is longer than `MAX_SEARCH_TEXT`, and after `timeoutMs`
 * (default `SEARCH_REPLY_TIMEOUT_MS`) without a reply. The last answer is kept for its text and
 * generation, so the table's pages and the plot ask the worker once per search. An `error`
 * event on the port (the worker failed to load or threw) makes the state `failed`.
 */
export function createTripletSearchClient(port: SearchClientPort, options: { timeoutMs?: number } = {}): TripletSearch {
  const timeoutMs = options.timeoutMs ?? SEARCH_REPLY_TIMEOUT_MS;
  const listeners = new Set<() => void>();
  const pending = new Map<number, (ids: string[] | null | undefined) => void>();
  let state: TripletSearchState = { status: 'building', done: 0, total: 0, generation: 0 };
  let nextRequestId = 0;
  let closed = false;
  let last: { text: string; generation: number; answer: Promise<ReadonlySet<string> | undefined> } | undefined;
  let lastOrder: { request: string; generation: number; answer: Promise<readonly string[] | undefined> } | undefined;

  const setState = (next: TripletSearchState) => {
    state = next;
    for (const listener of listeners) listener();
  };

  port.addEventListener('message', (event) => {
    const reply = TripletSearchReplySchema.safeParse((event as MessageEvent<unknown>).data);
    if (!reply.success) return;
    if (reply.data.type === 'triplet-search-state') setState(reply.data.state);
    else {
      pending.get(reply.data.requestId)?.(reply.data.ids);
      pending.delete(reply.data.requestId);
    }
  });
  port.addEventListener('error', (event) => {
    const detail = (event as Partial<ErrorEvent>).message;
    const message = typeof detail === 'string' && detail !== '' ? detail : 'the search worker failed';
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
    setState({ status: 'failed', message, generation: state.generation + 1 });
  });

  /** Post `request` (without its id) and resolve to the reply's ids, or undefined after `timeoutMs`. */
  const ask = <Answer>(request: DistributiveOmit<TripletSearchRequest, 'requestId'>, read: (ids: string[] | null | undefined) => Answer | undefined) =>
    new Promise<Answer | undefined>((resolve) => {
      const requestId = nextRequestId++;
      const timer = setTimeout(() => {
        pending.delete(requestId);
        resolve(undefined);
      }, timeoutMs);
      pending.set(requestId, (ids) => {
        clearTimeout(timer);
        resolve(read(ids));
      });
      port.postMessage({ ...request, requestId } as TripletSearchRequest);
    });

  return {
    get state() {
      return state;
    },
    ids(text) {
      if (closed || state.status !== 'ready' || text.length > MAX_SEARCH_TEXT) return Promise.resolve(undefined);
      if (last?.text === text && last.generation === state.generation) return last.answer;
      const entry = {
        text,
        generation: state.generation,
        answer: ask({ type: 'triplet-search', text }, (ids) => (ids ? new Set(ids) : undefined)),
      };
      last = entry;
      // No answer (a timeout, the index busy) is not kept: the next search asks again.
      void entry.answer.then((ids) => {
        if (ids === undefined && last === entry) last = undefined;
      });
      return entry.answer;
    },
    order(query, sort, labels = {}) {
      if (closed || state.status !== 'ready' || (query.search?.length ?? 0) > MAX_SEARCH_TEXT) return Promise.resolve(undefined);
      const key = JSON.stringify([query, sort, labels]);
      if (lastOrder?.request === key && lastOrder.generation === state.generation) return lastOrder.answer;
      const entry = {
        request: key,
        generation: state.generation,
        answer: ask({ type: 'triplet-order', query, sort, labels }, (ids) => ids ?? undefined),
      };
      lastOrder = entry;
      void entry.answer.then((ids) => {
        if (ids === undefined && lastOrder === entry) lastOrder = undefined;
      });
      return entry.answer;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      port.terminate?.();
      for (const resolve of pending.values()) resolve(undefined);
      pending.clear();
    },
  };
}
