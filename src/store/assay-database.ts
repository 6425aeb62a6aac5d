/**
 * The Dexie database `assay`: the user's personal dataset in IndexedDB, shared by every
 * extension context (background, side panel, dataset page) because they share one origin.
 *
 * Schema versions are append-only: to change indexes, add `version(n + 1).stores(...)` (with an
 * `upgrade()` when existing rows need rewriting) and never edit an older version.
 */
import { Dexie, type EntityTable } from 'dexie';
import type { DatasetTriplet } from '../contracts/dataset';
import type { MatrixRunRow } from '../contracts/matrix-run';
import type { CachedPrecedent, ReferenceTableRecord } from '../contracts/precedent-store';
import type { PaperRecord, PaperVersion } from './paper-record';
import type { ImportFile, ImportJob } from './import-job-record';
import { upgradeConditions } from './migrate-conditions';
import { tripletWriteKeys } from './triplet-mutations';

export type AssayDatabase = Dexie & {
  papers: EntityTable<PaperRecord, 'key'>;
  runs: EntityTable<MatrixRunRow, 'id'>;
  triplets: EntityTable<DatasetTriplet, 'id'>;
  referenceTables: EntityTable<ReferenceTableRecord, 'id'>;
  precedents: EntityTable<CachedPrecedent, 'key'>;
  paperVersions: EntityTable<PaperVersion, 'id'>;
  importJobs: EntityTable<ImportJob, 'id'>;
  importFiles: EntityTable<ImportFile, 'id'>;
};

export const assayDatabaseName = 'assay';

/**
 * Open (lazily, on first query) the `assay` database. Pass another `name` in tests to isolate
 * them, and `indexedDB`/`IDBKeyRange` to use something other than the global IndexedDB (the
 * unit tests install fake-indexeddb globally instead).
 */
export function createAssayDatabase(
  name: string = assayDatabaseName,
  options?: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange },
): AssayDatabase {
  // Strict durability: Chromium's default ('relaxed') reports a commit before the data reaches
  // the disk, so a crash or power cut could lose a save the reader was told had finished. The
  // cost is one flush per transaction; saves are chunked (1 000 rows each), so it stays small.
  const database = new Dexie(name, { ...options, chromeTransactionDurability: 'strict' }) as AssayDatabase;
  // Index only what `where()`/`orderBy()` use: `capturedAt` orders the dataset table, `doi`
  // is how the precedent check will look a paper up. The article text is never indexed.
  database.version(1).stores({ papers: 'key, capturedAt, doi' });
  // Version 2 adds SLM-MATRIX runs (a new table, so no `upgrade()`; `papers` is inherited
  // unchanged). `[paperKey+startedAt]` finds a paper's runs newest first, `status` finds the
  // rows a closed browser left `running`. Records, progress and the run record are not indexed.
  database.version(2).stores({ runs: 'id, [paperKey+startedAt], status' });
  // Version 3 adds the personal dataset (a new table: no `upgrade()`; `papers` and `runs` are
  // inherited). Each index serves a query of src/store/dataset-repository.ts: `&mergeKey` finds a
  // duplicate on save and enforces one row per fact; `paper.key` lists a paper's triplets;
  // `material` answers the prefix filter (`startsWithIgnoreCase`) without a full scan;
  // `property` the property filter and the list of properties (`uniqueKeys`); `status` the
  // review queue (`needs_review`, a minority of rows); `savedAt` the newest-first order. Quotes,
  // titles and the review are never indexed (search scans them).
  database.version(3).stores({ triplets: 'id, &mergeKey, paper.key, material, property, status, savedAt' });
  // v4: `papers.url`, so the side panel finds the saved paper of the page it opens on by an
  // index prefix lookup instead of reading every stored article.
  database.version(4).stores({ papers: 'key, capturedAt, doi, url' });
  // v5: the precedent check's imported reference tables (`importedAt` orders their list; the CSV
  // text is not indexed) and its cached answers, looked up by key only (see precedent-repository.ts).
  // New tables, so no `upgrade()`; the other tables are inherited unchanged.
  database.version(5).stores({ referenceTables: 'id, importedAt', precedents: 'key' });
  // v6: earlier captures of a paper (src/store/paper-repository.ts), so a new capture never
  // silently replaces a saved paper. `++id` numbers them; `[paperKey+capturedAt]` lists and
  // prunes one paper's versions newest first. The records themselves are not indexed. A new
  // table, so no `upgrade()`: existing papers simply have no earlier versions yet.
  database.version(6).stores({ paperVersions: '++id, [paperKey+capturedAt]' });
  // v7, for a dataset of 100 000+ rows (issue 15): every filter reads an index in the table's
  // newest-first order instead of sorting its matches. `[property+savedAt]` and `[status+savedAt]`
  // replace `property` and `status` (the property filter, the property list, and the review queue
  // page and count straight from them); `[material+savedAt]` replaces `material` (the material
  // prefix filter reads index keys only, sorts them by savedAt, and reads just the rows of the page
  // shown). The index count stays at six: each index entry costs about as much to write as a
  // tenth of a row (measured with `test/e2e/dataset-scale.ts --raw-floor`). `importJobs` holds
  // the dataset page's imports, run in the offscreen document (src/export/import-job.ts), and their
  // progress, so the page can be left and reopened while one runs; `importFiles` the files
  // themselves (Blobs, until the import ends), apart, because a record is rewritten whole. Dexie rebuilds the changed indexes on upgrade; no row is rewritten.
  database.version(7).stores({
    triplets: 'id, &mergeKey, paper.key, [material+savedAt], [property+savedAt], [status+savedAt], savedAt',
    importJobs: 'id, startedAt',
    importFiles: 'id',
  });
  // v8, structured conditions (issue 26): a fact's conditions are a list of kinds (method,
  // temperature, …; src/contracts/conditions.ts) and enter the merge key, so 2.31 eV (HSE06) and
  // 2.31 eV (GGA/PBE) are two rows. Rows saved before held one free-text string: it becomes one
  // `other` condition, and every merge key is recomputed (src/store/migrate-conditions.ts, which
  // says why it takes two passes). No index changes: no `where()` reads conditions yet; an
  // index for the dataset page's method or provenance filter, if one is needed at 100 000 rows,
  // belongs to a later version.
  database
    .version(8)
    .stores({})
    .upgrade(async (transaction) => {
      await upgradeConditions(transaction);
    });
  // Every write to `triplets` announces its keys with its commit, so the dataset page's search
  // index re-reads those rows only, even for a 1,000-row chunk (see src/store/triplet-mutations.ts).
  database.use(tripletWriteKeys);
  return database;
}
