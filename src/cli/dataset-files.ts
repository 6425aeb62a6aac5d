/**
 * Dataset files on disk for `assay import` and `assay export`: opening one as a Blob (read by the
 * extension's own reader, src/export/import-file.ts, so JSON Lines are streamed), reading its rows,
 * and writing a file atomically (the export formats are src/export/export-formats.ts).
 */
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileKindWords } from '../capture/node/regular-file';
import { readErrorWords } from '../capture/read-error-words';
import type { DatasetTriplet } from '../contracts/dataset';
import type { RejectedLine } from '../export/dataset-import';
import { eachCheckedChunk } from '../export/import-file';
import { IMPORT_CHUNK_SIZE } from '../export/import-merge';

/** Refused lines shown one by one on stderr per file (the rest are counted). */
export const SHOWN_REJECTED = 5;

/** A file that cannot be opened or read, in words ("a.jsonl: No such file"): exit 1. */
export class DatasetFileError extends Error {}

/**
 * `path` as a Blob read lazily from disk (`fs.openAsBlob`: `stream()` reads it in pieces), or
 * undefined when nothing is there. Throws `DatasetFileError` for a folder or any other `stat`
 * failure (permission, a loop of links).
 */
export async function openFileBlob(path: string): Promise<Blob | undefined> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DatasetFileError(`${path}: ${(error as Error).message}`);
  }
  const kind = fileKindWords(info);
  if (kind !== null) throw new DatasetFileError(`${path} is ${kind}, not a regular file: Assay reads only regular files.`);
  // Node's Blob is the web Blob the reader takes (stream, slice, text), typed apart.
  return (await openAsBlob(path)) as unknown as Blob;
}

/** The rows of a dataset file (`readDatasetFile`), how many entries it had and refused, and the first refused ones with the reason. */
export interface DatasetFile {
  rows: DatasetTriplet[];
  entries: number;
  refused: number;
  rejected: RejectedLine[];
}

/**
 * Read the Assay JSON or JSONL export `file` at time `now` as an import reads it (`eachCheckedChunk`:
 * every row validated, no time more than a day after `now`, SI value and merge key recomputed),
 * keeping the good rows in file order. Resolves to them, or the whole file's problem in the
 * extension's words. Throws `DatasetFileError` when the file cannot be read (why in words: `readErrorWords`).
 */
export async function readDatasetFile(path: string, file: Blob, now: Date): Promise<DatasetFile | { fileProblem: string }> {
  const rows: DatasetTriplet[] = [];
  try {
    const read = await eachCheckedChunk(file, now, (lines) => lines.forEach((line) => rows.push(line.row)), {
      chunkSize: IMPORT_CHUNK_SIZE,
      keptRejected: SHOWN_REJECTED,
    });
    return 'fileProblem' in read ? read : { rows, ...read };
  } catch (error) {
    throw new DatasetFileError(`${path}: could not be read (${readErrorWords(error)})`);
  }
}

/** Lines for stderr naming a file's first refused lines and the count of the rest. */
export function rejectedLines(path: string, refused: number, rejected: readonly RejectedLine[]): string[] {
  const lines = rejected.map(({ where, message }) => `${path} ${where} refused: ${message}`);
  if (refused > rejected.length) lines.push(`${path}: … and ${refused - rejected.length} more refused`);
  return lines;
}

/**
 * Write `parts` (UTF-8) to `path` so that it holds either what it held before or all of the new
 * text, never part of it: the parts go to a temporary file in the same folder (`.NAME.PID.RANDOM.tmp`,
 * created exclusively), which is flushed to disk (fsync) and renamed over `path` (rename(2) is
 * atomic within one file system, POSIX). An existing `path` keeps its permission bits, and a
 * link is followed (the file it names is replaced). On failure the temporary file is removed,
 * `path` is untouched, and the error is rethrown.
 */
export async function writeFileAtomically(path: string, parts: Iterable<string>): Promise<void> {
  const target = await realpath(path).catch(() => path);
  const mode = await stat(target).then(
    (info) => info.mode & 0o777,
    () => undefined,
  );
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', mode ?? 0o666);
  let closed = false;
  try {
    if (mode !== undefined) await handle.chmod(mode);
    // writeFile on a handle writes from its position on, the whole string (looping over short writes).
    for (const part of parts) await handle.writeFile(part, 'utf8');
    await handle.sync();
    await handle.close();
    closed = true;
    await rename(temporary, target);
  } catch (error) {
    if (!closed) await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}
