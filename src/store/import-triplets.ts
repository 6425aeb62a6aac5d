/**
 * Saving the rows of an imported file (an Assay JSON or JSONL export: a colleague's, an edited
 * one, a hostile one). Unlike `saveTriplets`, which saves the reader's own rows, nothing in the
 * file is trusted beyond what it says about its own fact:
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
 * Rows are written `chunkSize` (default `IMPORT_CHUNK_SIZE`) per `rw` transaction. When a chunk fails (QuotaExceededError, a
 * closed database), the chunks before it are saved and stay saved; the report says which lines
 * were saved and which were not, and the error in words.
 */
import { Dexie } from 'dexie';
import type { DatasetTriplet } from '../contracts/dataset';
import { TEXT_LIMITS } from '../contracts/text-limits';
import type { AssayDatabase } from './assay-database';
import type { ImportReport } from './import-job-record';
import { withOwnKeys } from './dataset-triplet';

/** One row of an imported file and where it stands there: "line 3" (JSONL) or "row 3" (a JSON array), 1-based. */
export interface ImportLine {
  row: DatasetTriplet;
  where: string;
}

export type { ImportReport } from './import-job-record';

/**
 * Rows per transaction. Each transaction is flushed to disk once (strict durability, see
 * assay-database.ts) before its rows are reported saved, so this is also how often progress is
 * acknowledged: 5 000 rows is about half a second of writing on a 2-core machine, and 20 flushes
 * per 100 000 rows instead of 100 (the 1 000 of before).
 */
export const IMPORT_CHUNK_SIZE = 5000;

export interface ImportOptions {
  /** The file's name as the reader chose it (recorded in each added row's `imported.file`). */
  fileName: string;
  now: Date;
  /** A new row id; defaults to `crypto.randomUUID()` (tests pass a counter). */
  newId?: () => string;
  chunkSize?: number;
  /** Called after each chunk commits with the lines done so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** What one saved chunk did: its lines added and merged (file order), and the merge keys it added → their line. */
export interface ChunkOutcome {
  added: string[];
  merged: ImportReport['merged'];
  keys: Map<string, string>;
}

/** What a chunk needs from the whole import: the file's name and time (for each row's `imported` note), new ids, and the merge keys added by earlier chunks → their line. */
export interface ImportContext {
  fileName: string;
  at: string;
  newId: () => string;
  addedKeys: ReadonlyMap<string, string>;
}

/**
 * Save `lines` (rows already validated by `DatasetTripletSchema`, as `readAssayImport` gives
 * them) as described in this module's comment. Resolves to the report; a failed write does not
 * reject, it ends the report with `failure` (what was saved before it stays saved and listed).
 * Throws a RangeError, before writing anything, when `chunkSize` is not a positive integer.
 */
export async function importTriplets(database: AssayDatabase, lines: readonly ImportLine[], options: ImportOptions): Promise<ImportReport> {
  const chunkSize = options.chunkSize ?? IMPORT_CHUNK_SIZE;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  const report: ImportReport = {
    fileName: options.fileName.slice(0, TEXT_LIMITS.fileName.max),
    at: options.now.toISOString(),
    added: [],
    merged: [],
  };
  const addedKeys = new Map<string, string>();
  const context: ImportContext = {
    fileName: report.fileName,
    at: report.at,
    newId: options.newId ?? (() => crypto.randomUUID()),
    addedKeys,
  };
  for (let start = 0; start < lines.length; start += chunkSize) {
    const chunk = lines.slice(start, start + chunkSize).map(({ row, where }) => ({ row: withOwnKeys(row), where }));
    try {
      const outcome = await database.transaction('rw', database.triplets, () => saveImportChunk(database, chunk, context));
      addOutcome(report, addedKeys, outcome);
    } catch (error) {
      report.failure = { message: importErrorText(error), unsaved: lines.slice(start).map((line) => line.where) };
      return report;
    }
    options.onProgress?.(start + chunk.length, lines.length);
  }
  return report;
}

/** Add a committed chunk's outcome to the report and its keys to `addedKeys`. */
export function addOutcome(report: ImportReport, addedKeys: Map<string, string>, outcome: ChunkOutcome): void {
  report.added.push(...outcome.added);
  report.merged.push(...outcome.merged);
  for (const [key, where] of outcome.keys) addedKeys.set(key, where);
}

/**
 * Save one chunk of checked lines (rows whose merge key was recomputed, `withOwnKeys`) inside the
 * caller's `rw` transaction on `triplets`, touching no stored row: a line repeating an earlier
 * line of the file (this chunk's or `context.addedKeys`) is merged as its repeat; the others are
 * added in one `bulkAdd` with new ids, and those the unique `&mergeKey` index refuses
 * (ConstraintError: the fact is saved already) are merged into the saved row, which stays as it
 * was. Looking the keys up by letting the index refuse them costs nothing extra (IndexedDB checks
 * the unique index on every add anyway), where a lookup per key before adding walked a cursor
 * 5 000 times per chunk. Any other failure rejects (the transaction then aborts: nothing of the
 * chunk is saved). Resolves to what the chunk did, in file order.
 */
export async function saveImportChunk(
  database: AssayDatabase,
  chunk: readonly ImportLine[],
  context: ImportContext,
): Promise<ChunkOutcome> {
  type Fate = { kind: 'repeat'; of: string } | { kind: 'candidate'; position: number };
  const keys = new Map<string, string>();
  const fates: Fate[] = [];
  const rows: DatasetTriplet[] = [];
  for (const { row, where } of chunk) {
    const earlier = keys.get(row.mergeKey) ?? context.addedKeys.get(row.mergeKey);
    if (earlier !== undefined) {
      fates.push({ kind: 'repeat', of: earlier });
      continue;
    }
    keys.set(row.mergeKey, where);
    fates.push({ kind: 'candidate', position: rows.length });
    rows.push({ ...row, id: context.newId(), imported: { file: context.fileName, at: context.at, sourceId: row.id } });
  }
  const saved = new Set<number>(rows.keys());
  try {
    await database.triplets.bulkAdd(rows);
  } catch (error) {
    if (!(error instanceof Dexie.BulkError)) throw error;
    for (const [position, failure] of Object.entries(error.failuresByPos)) {
      if (failure.name !== 'ConstraintError') throw failure;
      saved.delete(Number(position));
    }
  }
  const outcome: ChunkOutcome = { added: [], merged: [], keys: new Map() };
  // A line that repeats a line of this chunk whose fact turned out to be saved already merges into the saved row, as that line did.
  const savedBefore = new Set(rows.filter((_, position) => !saved.has(position)).map((row) => row.mergeKey));
  chunk.forEach(({ row, where }, index) => {
    const fate = fates[index]!;
    if (fate.kind === 'candidate' && saved.has(fate.position)) {
      outcome.added.push(where);
      outcome.keys.set(row.mergeKey, where);
    } else if (fate.kind === 'repeat' && !savedBefore.has(row.mergeKey)) outcome.merged.push({ where, repeats: fate.of });
    else outcome.merged.push({ where });
  });
  return outcome;
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
