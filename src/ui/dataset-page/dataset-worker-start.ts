/**
 * Starting the dataset page's worker (src/ui/dataset-page/dataset-worker.ts: the search index and
 * the catalog) and its client.
 */
import { createTripletSearchClient, type TripletSearch } from '../../extension/triplet-search-client';

/** Start the dataset worker (a module worker from the extension's own files) and its client. */
export function startDatasetWorker(): TripletSearch {
  return createTripletSearchClient(
    new Worker(new URL('./dataset-worker.ts', import.meta.url), { type: 'module', name: 'assay-dataset-worker' }),
  );
}
