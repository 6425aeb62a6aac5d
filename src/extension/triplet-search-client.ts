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
  type TripletExportRequest,
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
  /**
   * Ask the worker to write the rows the table shows to a file of the origin private file system
   * (see `TripletExportRequest`); `onProgress` hears the rows written so far. `done` resolves to
   * the file's name and row count, or to how it ended without one (`unavailable`: the worker has
   * no private file system, so the page writes the file itself). `stop` asks it to stop.
   * Optional: a test's fake search has none, and the page then writes the file itself.
   */
  exportRows?(
    request: Omit<TripletExportRequest, 'type' | 'requestId'>,
    onProgress: (written: number) => void,
  ): { done: Promise<WorkerExportResult>; stop(): void };
  /** Stop the worker; later searches answer undefined. */
  close(): void;
}

/** How a worker export ended: its file, or the reason there is none (the `triplet-export-*` replies). */
export type WorkerExportResult = { file: string; count: number } | { outcome: 'stopped' | 'unavailable' | 'failed'; message: string };

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
  const exports = new Map<number, { onProgress: (written: number) => void; resolve: (result: WorkerExportResult) => void }>();
  const endExports = (message: string) => {
    for (const { resolve } of exports.values()) resolve({ outcome: 'failed', message });
    exports.clear();
  };

  const setState = (next: TripletSearchState) => {
    state = next;
    for (const listener of listeners) listener();
  };

  port.addEventListener('message', (event) => {
    const reply = TripletSearchReplySchema.safeParse((event as MessageEvent<unknown>).data);
    if (!reply.success) return;
    const data = reply.data;
    switch (data.type) {
      case 'triplet-search-state':
        setState(data.state);
        return;
      case 'triplet-search-ids':
        pending.get(data.requestId)?.(data.ids);
        pending.delete(data.requestId);
        return;
      case 'triplet-export-progress':
        exports.get(data.requestId)?.onProgress(data.written);
        return;
      case 'triplet-export-done':
      case 'triplet-export-ended':
        exports
          .get(data.requestId)
          ?.resolve(
            data.type === 'triplet-export-done' ? { file: data.file, count: data.count } : { outcome: data.outcome, message: data.message },
          );
        exports.delete(data.requestId);
    }
  });
  port.addEventListener('error', (event) => {
    const detail = (event as Partial<ErrorEvent>).message;
    const message = typeof detail === 'string' && detail !== '' ? detail : 'the search worker failed';
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
    endExports(`the dataset worker stopped: ${message}`);
    setState({ status: 'failed', message, generation: state.generation + 1 });
  });

  /** Post `request` (without its id) and resolve to the reply's ids, or undefined after `timeoutMs`. */
  const ask = <Answer>(
    request: DistributiveOmit<TripletSearchRequest, 'requestId'>,
    read: (ids: string[] | null | undefined) => Answer | undefined,
  ) =>
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
    exportRows(request, onProgress) {
      if (closed)
        return { done: Promise.resolve({ outcome: 'unavailable', message: 'the dataset worker is closed' }), stop: () => undefined };
      const requestId = nextRequestId++;
      const done = new Promise<WorkerExportResult>((resolve) => exports.set(requestId, { onProgress, resolve }));
      port.postMessage({ ...request, type: 'triplet-export', requestId });
      return { done, stop: () => port.postMessage({ type: 'triplet-export-stop', requestId }) };
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
      endExports('the dataset page closed its worker');
    },
  };
}
