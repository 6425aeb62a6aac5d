/**
 * An import of an Assay JSON or JSONL file as a job in the `importJobs` table, so it outlives the
 * dataset page: the page stores the file and asks the offscreen document to run the job
 * (src/extension/import-job-host.ts); the document reads the file back, checks and saves it chunk
 * by chunk, and writes the job's progress in the same transaction as each chunk's rows. The page
 * only watches the job's record (a live query), so it can be closed and reopened while the import
 * goes on, and what it shows as saved is what is on disk.
 *
 * Where the time goes, and what this module does about it (100 000 rows, 2-core machine,
 * Chromium 156; `test/e2e/dataset-scale.ts`): IndexedDB's own writes dominate — about 70 µs per
 * row stored with no index and ~12 µs per index entry (`--raw-floor` measures both), so the file
 * is checked (JSON, zod, SI value and merge key) while the previous chunk commits instead of
 * before the first write; merge keys are not looked up one by one (the unique index refuses a
 * saved fact, `saveImportChunk`); and each chunk is one strictly durable transaction of
 * `IMPORT_CHUNK_SIZE` rows, flushed once.
 */
import { readErrorWords } from '../capture/read-error-words';
import { checkImportEntries } from './dataset-import';
import { importFileBatches, problemAfterReading, type ImportBatch } from './import-file';
import { TEXT_LIMITS } from '../contracts/text-limits';
import type { AssayDatabase } from '../store/assay-database';
import type { ImportJob, RejectedLine } from '../store/import-job-record';
import { addOutcome, type ImportContext } from './import-merge';
import { IMPORT_CHUNK_SIZE, importErrorText, saveImportChunk, type ImportReport } from './import-triplets';

export type { ImportFile, ImportJob, ImportJobStatus } from '../store/import-job-record';

/** Refused lines kept in a finished job's record one by one (the rest are counted): the page lists 50. */
const KEPT_REJECTED = 50;

/** Jobs kept in the table (newest first); older ones are deleted when a new import starts. */
const KEPT_JOBS = 20;

/**
 * Store `file` as a new waiting job (the offscreen document runs it: `runImportJob`), pruning
 * the table to the newest `KEPT_JOBS` jobs. Resolves to the job's id. Rejects with the storage
 * error (QuotaExceededError when the disk is full) and then stores nothing.
 */
export async function createImportJob(
  database: AssayDatabase,
  file: Blob,
  fileName: string,
  now: Date,
  newId: () => string = () => crypto.randomUUID(),
): Promise<string> {
  const id = newId();
  const at = now.toISOString();
  await database.transaction('rw', [database.importJobs, database.importFiles], async () => {
    await database.importFiles.add({ id, file });
    await database.importJobs.add({
      id,
      fileName: fileName.slice(0, TEXT_LIMITS.fileName.max),
      hasFile: true,
      bytes: file.size,
      status: 'waiting',
      startedAt: at,
      updatedAt: at,
      total: 0,
      done: 0,
      added: 0,
      merged: 0,
      refused: 0,
    });
    const old = await database.importJobs.orderBy('startedAt').reverse().offset(KEPT_JOBS).primaryKeys();
    await database.importJobs.bulkDelete(old);
    await database.importFiles.bulkDelete(old);
  });
  return id;
}

/** The newest job (by start time), or undefined when there is none: what the dataset page shows. */
export async function latestImportJob(database: AssayDatabase): Promise<ImportJob | undefined> {
  return database.importJobs.orderBy('startedAt').last();
}

/**
 * Mark every job left `running` as interrupted: called by a new offscreen document, the only
 * place jobs run, so a `running` job is one whose document died with the browser (a crash, a
 * kill). Its acknowledged rows are saved; its file is kept, so it can be run again
 * (`restartImportJob`), and the saved rows then merge instead of doubling. Resolves to how many
 * were marked.
 */
export async function markInterruptedImports(database: AssayDatabase, now: Date): Promise<number> {
  return database.transaction('rw', database.importJobs, async () => {
    const stale = await database.importJobs.filter((job) => job.status === 'running').toArray();
    for (const job of stale) {
      await database.importJobs.update(job.id, {
        status: 'interrupted',
        updatedAt: now.toISOString(),
        message: `The browser closed during this import. The ${job.done} lines acknowledged before then are saved; import the file again to finish (saved rows merge instead of doubling).`,
      });
    }
    return stale.length;
  });
}

/**
 * Make an interrupted, stopped or failed job whose file is still stored wait to run again from
 * its first line (what is saved merges). Resolves to false when the job is missing, still
 * waiting or running, or has no file.
 */
export async function restartImportJob(database: AssayDatabase, id: string, now: Date): Promise<boolean> {
  return database.transaction('rw', database.importJobs, async () => {
    const job = await database.importJobs.get(id);
    if (!job || !job.hasFile || job.status === 'waiting' || job.status === 'running') return false;
    await database.importJobs.put({
      id: job.id,
      fileName: job.fileName,
      hasFile: true,
      bytes: job.bytes,
      status: 'waiting',
      startedAt: now.toISOString(),
      updatedAt: now.toISOString(),
      total: 0,
      done: 0,
      added: 0,
      merged: 0,
      refused: 0,
    });
    return true;
  });
}

export interface RunImportOptions {
  now: () => Date;
  /** A new row id; defaults to `crypto.randomUUID()`. */
  newId?: () => string;
  chunkSize?: number;
  /** Stop between chunks (the chunk being saved is finished first). */
  signal?: AbortSignal;
}

/**
 * Run the waiting job `id`: take it (waiting → running, in a transaction, so two callers never
 * run one job), read its file `chunkSize` entries at a time (`importFileBatches`: JSON Lines streamed, a JSON array
 * parsed whole up to `MAX_JSON_ARRAY_BYTES`), check each chunk (`checkImportEntries`) while the
 * previous one commits, and save it (`saveImportChunk`) with the job's counters in the same
 * transaction. Ends the job `done` (the file is removed), `failed` (a write failed: what was saved
 * before stays, the report says which lines were not; the file is kept), or `stopped` (`signal`;
 * the file is kept). Resolves to the ended job, or undefined when there was no waiting job `id`
 * (already taken, or unknown). Never rejects for a bad file or a failed write; rejects only when
 * the job's own record cannot be written. Throws a RangeError when `chunkSize` is not a positive integer.
 */
export async function runImportJob(database: AssayDatabase, id: string, options: RunImportOptions): Promise<ImportJob | undefined> {
  const chunkSize = options.chunkSize ?? IMPORT_CHUNK_SIZE;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  const started = options.now();
  const taken = await database.transaction('rw', [database.importJobs, database.importFiles], async () => {
    const waiting = await database.importJobs.get(id);
    const stored = await database.importFiles.get(id);
    if (!waiting || waiting.status !== 'waiting' || !stored) return undefined;
    await database.importJobs.update(id, { status: 'running', updatedAt: started.toISOString() });
    return { job: waiting, file: stored.file };
  });
  if (!taken) return undefined;
  const { job, file } = taken;
  const end = async (changes: Partial<ImportJob>, keepFile: boolean): Promise<ImportJob | undefined> => {
    await database.transaction('rw', [database.importJobs, database.importFiles], async () => {
      await database.importJobs.update(id, { ...changes, updatedAt: options.now().toISOString(), ...(keepFile ? {} : { hasFile: false }) });
      if (!keepFile) await database.importFiles.delete(id);
    });
    return database.importJobs.get(id);
  };

  let batches: AsyncIterable<ImportBatch> | Iterable<ImportBatch>;
  let jsonLines: boolean;
  try {
    const read = await importFileBatches(file, chunkSize);
    if ('fileProblem' in read) return end({ status: 'done', fileProblem: read.fileProblem }, false);
    ({ batches, jsonLines } = read);
  } catch (error) {
    return end({ status: 'failed', message: `Could not read ${job.fileName}: ${readErrorWords(error)}` }, true);
  }

  const report: ImportReport = { fileName: job.fileName, at: started.toISOString(), added: [], merged: [] };
  const addedKeys = new Map<string, string>();
  const context: ImportContext = { fileName: job.fileName, at: report.at, newId: options.newId ?? (() => crypto.randomUUID()), addedKeys };
  const rejected: RejectedLine[] = [];
  const demoted: RejectedLine[] = [];
  let refused = 0;
  let lowered = 0;
  let jsonValues = 0;
  let entriesSeen = 0;
  let pending: Promise<void> | undefined;
  let failure: { message: string; at: number } | undefined;
  const wheres: string[][] = [];

  try {
    for await (const { entries, bytes } of batches) {
      if (failure) {
        // Not saved either: list them, without checking them.
        wheres.push(entries.map((entry) => entry.where));
        continue;
      }
      if (options.signal?.aborted) break;
      // Checked while the previous chunk's transaction commits (IndexedDB writes in the browser process).
      const checked = checkImportEntries(entries, started);
      jsonValues += checked.jsonValues;
      const chunkIndex = wheres.length;
      wheres.push(entries.map((entry) => entry.where));
      entriesSeen += entries.length;
      const done = entriesSeen;
      await pending;
      if (failure) continue;
      pending = database
        .transaction('rw', [database.triplets, database.importJobs], async () => {
          const outcome = await saveImportChunk(database, checked.rows, context);
          await database.importJobs.update(id, {
            done,
            bytesDone: bytes,
            added: report.added.length + outcome.added.length,
            merged: report.merged.length + outcome.merged.length,
            refused: refused + checked.rejected.length,
            updatedAt: options.now().toISOString(),
          });
          return outcome;
        })
        .then(
          (outcome) => {
            addOutcome(report, addedKeys, outcome);
            refused += checked.rejected.length;
            lowered += checked.demoted.length;
            for (const line of checked.rejected) if (rejected.length < KEPT_REJECTED) rejected.push(line);
            for (const line of checked.demoted) if (demoted.length < KEPT_REJECTED) demoted.push(line);
            wheres[chunkIndex] = [];
          },
          (error: unknown) => {
            failure = { message: importErrorText(error), at: chunkIndex };
          },
        );
    }
    await pending;
  } catch (error) {
    await pending?.catch(() => undefined);
    return end(
      {
        status: 'failed',
        report,
        rejected,
        refused,
        lowered,
        demoted,
        message: `Could not read ${job.fileName}: ${readErrorWords(error)}`,
      },
      true,
    );
  }

  if (failure) {
    // The failed chunk and every line after it.
    report.failure = { message: failure.message, unsaved: wheres.slice(failure.at).flat() };
    return end({ status: 'failed', report, rejected, refused, lowered, demoted, message: `Saving failed: ${failure.message}` }, true);
  }
  const fileProblem = problemAfterReading({ jsonLines, entries: entriesSeen, jsonValues });
  if (fileProblem !== undefined) return end({ status: 'done', fileProblem }, false);
  if (options.signal?.aborted) {
    const saved = report.added.length + report.merged.length + refused;
    return end(
      {
        status: 'stopped',
        report,
        rejected,
        refused,
        lowered,
        demoted,
        message: `Stopped after ${saved} lines, at your request; they stay saved.`,
      },
      true,
    );
  }
  return end({ status: 'done', total: entriesSeen, report, rejected, refused, lowered, demoted }, false);
}
