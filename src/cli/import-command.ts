/**
 * `assay import FILE… --out FILE.jsonl [--json]`: import Assay JSON or JSONL exports into the
 * dataset file `--out` as the extension imports a file into its dataset. The `--out` file, when
 * there, is the dataset (read and checked like any import file; the rows it holds stay as they
 * are, as saved rows do); each FILE is then imported in order with the extension's merge
 * (`importFileInMemory`: a fact already held, or repeated in the file, merges; every added row
 * gets a new id and `imported: { file, at, sourceId }`). The result is written atomically as the
 * extension's JSONL export (`toJsonl`, newest first), or not at all when a file cannot be read.
 * With `--json`, one document `{ out, rows, existing: { rows, rejected }, files: [{ file, lines,
 * added, merged, rejected }], added, merged, rejected }`.
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { DatasetTriplet } from '../contracts/dataset';
import { EMPTY_FILE_PROBLEM } from '../export/import-file';
import { newestFirst } from '../store/dataset-triplet';
import { importFileInMemory, memoryDataset, type MemoryDataset } from '../store/memory-dataset';
import {
  DatasetFileError,
  exportParts,
  openFileBlob,
  readDatasetFile,
  rejectedLines,
  SHOWN_REJECTED,
  writeFileAtomically,
} from './dataset-files';

/** Bad options (exit 2); a `DatasetFileError` is exit 1. */
class ImportUsageError extends Error {}

const USAGE_LINE = 'assay import FILE… --out FILE.jsonl [--json]';

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

/** Injected in tests: the clock (each file's import time) and new row ids (default `crypto.randomUUID()`). */
export interface ImportCommandOptions {
  now?: () => Date;
  newId?: () => string;
  /** Entries read and merged at a time (default `IMPORT_CHUNK_SIZE`, as the extension). */
  chunkSize?: number;
}

/** What one imported file did, as the summary lists it. */
export interface ImportedFile {
  file: string;
  lines: number;
  added: number;
  merged: number;
  rejected: number;
}

/**
 * The `--out` dataset as read (`readDatasetFile`): its good rows, as they are, and how many it
 * refused (reported on stderr: they are left out of the rewritten file). No rows when the file
 * is not there yet or empty; throws `DatasetFileError` when it is not an Assay export.
 */
async function readExisting(out: string, now: Date): Promise<{ rows: DatasetTriplet[]; rejected: number }> {
  const blob = await openFileBlob(out);
  if (!blob) return { rows: [], rejected: 0 };
  const read = await readDatasetFile(out, blob, now);
  if ('fileProblem' in read) {
    if (read.fileProblem === EMPTY_FILE_PROBLEM) return { rows: [], rejected: 0 };
    throw new DatasetFileError(`--out ${out}: ${read.fileProblem} Nothing was written.`);
  }
  for (const line of rejectedLines(out, read.refused, read.rejected)) process.stderr.write(`assay import: ${oneLine(line)}\n`);
  if (read.refused > 0)
    process.stderr.write(`assay import: ${read.refused} row(s) of ${out} were refused and are left out of the rewritten file\n`);
  return { rows: read.rows, rejected: read.refused };
}

/** Import `path` into `dataset` at `now`; throws `DatasetFileError` when it cannot be read or is not an export. */
async function importFile(path: string, dataset: MemoryDataset, now: Date, options: ImportCommandOptions): Promise<ImportedFile> {
  const blob = await openFileBlob(path);
  if (!blob) throw new DatasetFileError(`${path}: No such file. Nothing was written.`);
  let result;
  try {
    result = await importFileInMemory(dataset, blob, {
      fileName: basename(path),
      now,
      ...(options.newId && { newId: options.newId }),
      ...(options.chunkSize && { chunkSize: options.chunkSize }),
      keptRejected: SHOWN_REJECTED,
    });
  } catch (error) {
    throw new DatasetFileError(`${path}: could not be read (${(error as Error).message}). Nothing was written.`);
  }
  if ('fileProblem' in result) throw new DatasetFileError(`${path}: ${result.fileProblem} Nothing was written.`);
  for (const line of rejectedLines(path, result.refused, result.rejected)) process.stderr.write(`assay import: ${oneLine(line)}\n`);
  return {
    file: path,
    lines: result.entries,
    added: result.report.added.length,
    merged: result.report.merged.length,
    rejected: result.refused,
  };
}

async function importCommand(argv: string[], options: ImportCommandOptions): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { out: { type: 'string' }, json: { type: 'boolean' } } });
  } catch (error) {
    throw new ImportUsageError((error as Error).message);
  }
  const { values, positionals: files } = parsed;
  if (files.length === 0) throw new ImportUsageError(`give the files to import: ${USAGE_LINE}`);
  const out = values.out?.trim();
  if (!out) throw new ImportUsageError(`give the dataset file to import into with --out (created when missing): ${USAGE_LINE}`);
  const now = options.now ?? (() => new Date());

  const existing = await readExisting(out, now());
  const dataset = memoryDataset(existing.rows);
  const imported: ImportedFile[] = [];
  for (const file of files) imported.push(await importFile(file, dataset, now(), options));

  // The extension's export order (the savedAt index walked backwards), so the file reads as an export of the same dataset.
  dataset.rows.sort(newestFirst);
  try {
    await writeFileAtomically(out, exportParts('jsonl', dataset.rows));
  } catch (error) {
    throw new DatasetFileError(`--out ${out}: could not be written (${(error as Error).message})`);
  }

  const total = (field: 'added' | 'merged' | 'rejected') => imported.reduce((sum, file) => sum + file[field], 0);
  const before = { rows: existing.rows.length, rejected: existing.rejected };
  const summary = {
    out,
    rows: dataset.rows.length,
    existing: before,
    files: imported,
    added: total('added'),
    merged: total('merged'),
    rejected: total('rejected'),
  };
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    const lines = imported.map(
      (file) => `${file.file}: ${file.lines} lines, ${file.added} added, ${file.merged} merged, ${file.rejected} rejected`,
    );
    lines.push(`${out}: ${summary.rows} rows (${before.rows} there before, ${summary.added} added)`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}

/**
 * Run `assay import`. Exit codes: 0 every file was read (lines refused are reported on stderr,
 * and counted); 1 a file (an input, or `--out`) could not be read at all, or is not an Assay
 * export (the extension's words), or `--out` could not be written — nothing is written then; 2 a
 * usage error (no file, no `--out`, an unknown option). Errors are one line on stderr.
 */
export async function runImport(argv: string[], options: ImportCommandOptions = {}): Promise<number> {
  try {
    return await importCommand(argv, options);
  } catch (error) {
    process.stderr.write(`assay import: ${oneLine((error as Error).message)}\n`);
    return error instanceof ImportUsageError ? 2 : 1;
  }
}
