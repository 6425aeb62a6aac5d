/**
 * The dataset page's worker (a dedicated module worker, started by `startDatasetWorker`): the
 * search index and the catalog of every row's filter fields and sort keys live here, off the
 * page's main thread, with their own connection to the `assay` database
 * (src/extension/triplet-search-host.ts serves them; src/ui/dataset-page/triplet-catalog.ts).
 */
import { createAssayDatabase } from '../../store/assay-database';
import { serveTripletSearch, type SearchHostPort } from '../../extension/triplet-search-host';
import { createTripletCatalog } from './triplet-catalog';

serveTripletSearch(self as unknown as SearchHostPort, createAssayDatabase(), { catalog: createTripletCatalog() });
