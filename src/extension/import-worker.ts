/**
 * The offscreen document's import worker (a dedicated module worker, started by
 * `startImportWorker`, import-worker-client.ts): import jobs run here (import-worker-host.ts),
 * with the worker's own connection to the `assay` database, off the main thread that every page
 * of the extension shares (Chromium runs them in one renderer): on it, an import's parsing,
 * checks and writes of 5,000-row chunks were tasks of 150–200 ms of the dataset page, and its
 * garbage was collected there.
 */
import { createAssayDatabase } from '../store/assay-database';
import { serveImportJobs, type ImportWorkerScope } from './import-worker-host';

serveImportJobs(self as unknown as ImportWorkerScope, createAssayDatabase());
