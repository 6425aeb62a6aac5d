/**
 * Saving the rows of an imported file (an Assay JSON or JSONL export: a colleague's, an edited
 * one, a hostile one) into IndexedDB, one chunk per transaction, as `runImportJob` (import-job.ts)
 * drives it. Unlike `saveTriplets`, which saves the reader's own rows, nothing in the file is
 * trusted beyond what it says about its own fact:
 *
 * - The merge key and SI value are recomputed from the row's own paper, material, property, value
 *   and unit (`withOwnKeys`), so a row can only match a stored row stating the same fact.
 * - A row matching a stored row (or an earlier row of the file) is merged by leaving the stored
 *   row exactly as it is: an import never changes a saved row, its quote, review or status.
 *   (Before, a row carrying a stored row's key replaced its material, value and paper while the
 *   stored quote stayed.)
 * - Every added row gets a new id (`newId`, a random UUID), so a file cannot name a saved row and
 *   two rows with one id are two rows; the file's id is kept in `imported.sourceId` beside the
 *   file name and the import time.
 *
 * Which line merges into what is decided by import-merge.ts, which `assay import` shares (a
 * dataset in memory, memory-dataset.ts); this module only asks IndexedDB which facts it holds.
 */
import { Dexie } from 'dexie';
import type { AssayDatabase } from '../store/assay-database';
import { planImportChunk, settleImportChunk, type ChunkOutcome, type ImportContext, type ImportLine } from './import-merge';

export type { ImportReport } from '../store/import-job-record';
export { addOutcome, IMPORT_CHUNK_SIZE, type ChunkOutcome, type ImportContext, type ImportLine } from './import-merge';

/**
 * Save one chunk of checked lines (rows whose merge key was recomputed, `withOwnKeys`) inside the
 * caller's `rw` transaction on `triplets`, touching no stored row: the chunk is planned
 * (`planImportChunk`: repeats of earlier lines, candidates with new ids), the candidates are
 * added in one `bulkAdd`, and those the unique `&mergeKey` index refuses (ConstraintError: the
 * fact is saved already) are merged into the saved row, which stays as it was
 * (`settleImportChunk`). Looking the keys up by letting the index refuse them costs nothing extra
 * (IndexedDB checks the unique index on every add anyway), where a lookup per key before adding
 * walked a cursor 5 000 times per chunk. Any other failure rejects (the transaction then aborts:
 * nothing of the chunk is saved). Resolves to what the chunk did, in file order.
 */
export async function saveImportChunk(
  database: AssayDatabase,
  chunk: readonly ImportLine[],
  context: ImportContext,
): Promise<ChunkOutcome> {
  const plan = planImportChunk(chunk, context);
  const refused = new Set<number>();
  try {
    await database.triplets.bulkAdd(plan.candidates);
  } catch (error) {
    if (!(error instanceof Dexie.BulkError)) throw error;
    for (const [position, failure] of Object.entries(error.failuresByPos)) {
      if (failure.name !== 'ConstraintError') throw failure;
      refused.add(Number(position));
    }
  }
  return settleImportChunk(chunk, plan, refused);
}

/**
 * An error in words, from its innermost cause (Dexie wraps the browser's error in `inner`, and
 * repeats it in its own message): "QuotaExceededError: The quota has been exceeded." for a
 * DOMException, the first line of the message otherwise.
 */
export function importErrorText(error: unknown): string {
  let cause = error;
  while (cause instanceof Object && 'inner' in cause && cause.inner instanceof Object) cause = cause.inner;
  if (!(cause instanceof Object) || !('message' in cause)) return String(cause);
  const message = String(cause.message).split('\n')[0]!.trim();
  const name = 'name' in cause ? String(cause.name) : '';
  return name && name !== 'Error' ? `${name}: ${message}` : message;
}
