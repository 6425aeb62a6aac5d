/**
 * The dataset page's search worker (a dedicated module worker, started by
 * `startTripletSearchWorker`): the search index lives here, off the page's main thread, with
 * its own connection to the `assay` database.
 */
import { createAssayDatabase } from '../store/assay-database';
import { serveTripletSearch, type SearchHostPort } from './triplet-search-host';

serveTripletSearch(self as unknown as SearchHostPort, createAssayDatabase());
