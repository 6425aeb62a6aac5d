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
 * Rows are written `chunkSize` per `rw` transaction. When a chunk fails (QuotaExceededError, a
 * closed database), the chunks before it are saved and stay saved; the report says which lines
 * were saved and which were not, and the error in words.
 */
import type { DatasetTriplet } from '../contracts/dataset';
import { TEXT_LIMITS } from '../contracts/text-limits';
import type { AssayDatabase } from './assay-database';
import { withOwnKeys } from './dataset-triplet';

/** One row of an imported file and where it stands there: "line 3" (JSONL) or "row 3" (a JSON array), 1-based. */
export interface ImportLine {
  row: DatasetTriplet;
  where: string;
}

/** What an import did, line by line, in file order. */
export interface ImportReport {
  /** The file name as given (cut to `TEXT_LIMITS.fileName`) and the import's time (ISO 8601). */
  fileName: string;
  at: string;
  /** Lines saved as new rows. */
  added: string[];
  /** Lines stating a fact already saved (the saved row is left unchanged), or the fact of an earlier line of the file (`repeats`: "line 2"). */
  merged: Array<{ where: string; repeats?: string }>;
  /** Set when a write failed: the error in words and the lines not saved (the failed chunk and every later one). */
  failure?: { message: string; unsaved: string[] };
}

/** Rows per transaction: `saveTriplets`' chunk, for the same reason (fast, yet no transaction holds the database for seconds). */
const DEFAULT_CHUNK_SIZE = 1000;

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

/**
 * Save `lines` (rows already validated by `DatasetTripletSchema`, as `readAssayImport` gives
 * them) as described in this module's comment. Resolves to the report; a failed write does not
 * reject, it ends the report with `failure` (what was saved before it stays saved and listed).
 * Throws a RangeError, before writing anything, when `chunkSize` is not a positive integer.
 */
export async function importTriplets(database: AssayDatabase, lines: readonly ImportLine[], options: ImportOptions): Promise<ImportReport> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  const newId = options.newId ?? (() => crypto.randomUUID());
  const report: ImportReport = {
    fileName: options.fileName.slice(0, TEXT_LIMITS.fileName.max),
    at: options.now.toISOString(),
    added: [],
    merged: [],
  };
  // Merge key → the line that added it, across chunks, so a repeat names the line it repeats.
  const addedKeys = new Map<string, string>();
  for (let start = 0; start < lines.length; start += chunkSize) {
    const chunk = lines.slice(start, start + chunkSize).map(({ row, where }) => ({ row: withOwnKeys(row), where }));
    try {
      const outcome = await database.transaction('rw', database.triplets, () => saveChunk(database, chunk, addedKeys, report, newId));
      report.added.push(...outcome.added);
      report.merged.push(...outcome.merged);
      for (const [key, where] of outcome.keys) addedKeys.set(key, where);
    } catch (error) {
      report.failure = { message: errorText(error), unsaved: lines.slice(start).map((line) => line.where) };
      return report;
    }
    options.onProgress?.(start + chunk.length, lines.length);
  }
  return report;
}

/** One chunk inside the caller's transaction: which keys are stored, then one `bulkAdd` of the new rows. Touches no stored row. */
async function saveChunk(
  database: AssayDatabase,
  chunk: readonly ImportLine[],
  addedKeys: ReadonlyMap<string, string>,
  report: Pick<ImportReport, 'fileName' | 'at'>,
  newId: () => string,
): Promise<{ added: string[]; merged: ImportReport['merged']; keys: Map<string, string> }> {
  // Index keys only: the stored rows themselves are never read, let alone written.
  const stored = new Set(
    (
      await database.triplets
        .where('mergeKey')
        .anyOf(chunk.map(({ row }) => row.mergeKey))
        .keys()
    ).map(String),
  );
  const keys = new Map<string, string>();
  const added: string[] = [];
  const merged: ImportReport['merged'] = [];
  const rows: DatasetTriplet[] = [];
  for (const { row, where } of chunk) {
    const earlier = keys.get(row.mergeKey) ?? addedKeys.get(row.mergeKey);
    if (earlier !== undefined || stored.has(row.mergeKey)) {
      merged.push(earlier === undefined ? { where } : { where, repeats: earlier });
      continue;
    }
    keys.set(row.mergeKey, where);
    added.push(where);
    rows.push({ ...row, id: newId(), imported: { file: report.fileName, at: report.at, sourceId: row.id } });
  }
  await database.triplets.bulkAdd(rows);
  return { added, merged, keys };
}

/**
 * An error in words, from its innermost cause (Dexie wraps the browser's error in `inner`, and
 * repeats it in its own message): "QuotaExceededError: The quota has been exceeded." for a
 * DOMException, the first line of the message otherwise.
 */
function errorText(error: unknown): string {
  let cause = error;
  while (cause instanceof Object && 'inner' in cause && cause.inner instanceof Object) cause = cause.inner;
  if (!(cause instanceof Object) || !('message' in cause)) return String(cause);
  const message = String(cause.message).split('\n')[0]!.trim();
  const name = 'name' in cause ? String(cause.name) : '';
  return name && name !== 'Error' ? `${name}: ${message}` : message;
}
