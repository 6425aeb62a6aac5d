/**
 * The dataset page's worker served over a `MessageChannel` for unit tests: the search index (with
 * the catalog and the export when asked) on one end, the page's client on the other, every
 * request the client posts recorded. And `until`, which polls for a condition.
 */
import { afterEach, beforeEach } from 'vitest';
import type { DatasetTriplet } from '../../src/contracts/dataset';
import type { TripletSearchRequest } from '../../src/contracts/messages';
import { createTripletSearchClient, type TripletSearch } from '../../src/extension/triplet-search-client';
import { localSearch, serveTripletSearch } from '../../src/extension/triplet-search-host';
import { createAssayDatabase, type AssayDatabase } from '../../src/store/assay-database';
import { saveTriplets } from '../../src/store/dataset-repository';
import type { TripletSearchIndex } from '../../src/store/triplet-search-index';
import { createTripletCatalog } from '../../src/ui/dataset-page/triplet-catalog';
import { serveTripletExport, type ExportFiles } from '../../src/ui/dataset-page/worker-export';

/** Wait (polling every 10 ms, up to `attempts` times) until `check` holds; throws naming `what` when it never does. */
export async function until(check: () => boolean | Promise<boolean>, what: string, attempts = 200): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface ServedDatasetWorker {
  client: TripletSearch;
  index: TripletSearchIndex;
  /** Every request the client posted, in order. */
  requests: TripletSearchRequest[];
  /** Stop the index and close both ends. */
  close(): void;
}

/**
 * Serve `database` as the dataset worker does: the search index (within `maxBytes` when given),
 * with the catalog when `catalog` (default true), and the export into `files` when given; and the
 * page's client over the channel.
 */
export function serveDatasetWorker(
  database: AssayDatabase,
  options: { catalog?: boolean; files?: ExportFiles; maxBytes?: number } = {},
): ServedDatasetWorker {
  const channel = new MessageChannel();
  const catalog = options.catalog === false ? undefined : createTripletCatalog();
  const index = serveTripletSearch(channel.port1, database, {
    ...(catalog && { catalog }),
    ...(options.maxBytes !== undefined && { maxBytes: options.maxBytes }),
  });
  if (catalog && options.files) serveTripletExport(channel.port1, database, localSearch(index, catalog), options.files);
  const requests: TripletSearchRequest[] = [];
  const port = channel.port2;
  const client = createTripletSearchClient({
    postMessage: (request) => {
      requests.push(request);
      port.postMessage(request);
    },
    addEventListener: (type, listener) => port.addEventListener(type, listener),
  });
  channel.port1.start();
  channel.port2.start();
  return {
    client,
    index,
    requests,
    close: () => {
      index.close();
      channel.port1.close();
      channel.port2.close();
    },
  };
}

/**
 * For each test of the calling `describe`: a new database named `${name}-<n>` holding `seed`, and
 * the dataset worker served over it (`serveDatasetWorker` with `options`); both closed after the
 * test. The returned object holds the current test's.
 */
export function servedPerTest(
  name: string,
  seed: readonly DatasetTriplet[],
  options: { catalog?: boolean } = {},
): { database: AssayDatabase; served: ServedDatasetWorker } {
  const current = {} as { database: AssayDatabase; served: ServedDatasetWorker };
  let count = 0;
  beforeEach(async () => {
    count += 1;
    current.database = createAssayDatabase(`${name}-${count}`);
    await saveTriplets(current.database, seed);
    current.served = serveDatasetWorker(current.database, options);
  });
  afterEach(async () => {
    current.served.close();
    await current.database.delete();
  });
  return current;
}
