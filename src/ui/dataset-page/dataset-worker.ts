/**
 * The dataset page's worker (a dedicated module worker, started by `startDatasetWorker`): the
 * search index, the catalog of every row's filter fields and sort keys, and the exports live
 * here, off the page's main thread, with their own connection to the `assay` database
 * (src/extension/triplet-search-host.ts serves searches and orders; triplet-catalog.ts;
 * worker-export.ts).
 */
import { createAssayDatabase } from '../../store/assay-database';
import { localSearch, serveTripletSearch, type SearchHostPort } from '../../extension/triplet-search-host';
import { createTripletCatalog } from './triplet-catalog';
import { serveTripletExport, type ExportHostPort } from './worker-export';

const database = createAssayDatabase();
const catalog = createTripletCatalog();
const index = serveTripletSearch(self as unknown as SearchHostPort, database, { catalog });
serveTripletExport(self as unknown as ExportHostPort, database, localSearch(index, catalog));
