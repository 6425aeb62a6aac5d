/**
 * `assay import FILE… --out FILE.jsonl [--json]`: import Assay JSON or JSONL exports into the
 * dataset file `--out` as the extension imports a file into its dataset. The `--out` file, when
 * there, is the dataset (read and checked like any import file; the rows it holds stay as they
 * are, as saved rows do); each FILE is then imported in order with the extension's merge
 * (`importFileInMemory`: a fact already held, or repeated in the file, merges; every added row
 * gets a new id and `imported: { file, at, sourceId }`). The result is written atomically as the
 * extension's JSONL export (`toJsonl`, newest first), or not at all when a file cannot be read.
 * Every refused line is named on stderr with its reason (a row that contradicts itself: a key
 * written twice, a value its value text does not read as; see src/export/dataset-import.ts), and
 * so is every line kept with a lower status than it claimed (a verified row its own quote
 * contradicts, kept as needs_review). With `--json`, one document `{ out, rows, existing: { rows,
 * rejected }, files: [{ file, lines, added, merged, rejected, demoted, refusedLines,
 * demotedLines }], added, merged, rejected, demoted }`.
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { DatasetTriplet } from '../contracts/dataset';
import { readErrorWords } from '../capture/read-error-words';
import type { RejectedLine } from '../export/dataset-import';
import { EMPTY_FILE_PROBLEM } from '../export/import-file';
import { newestFirst } from '../store/dataset-triplet';
import { importFileInMemory, memoryDataset, type MemoryDataset } from '../export/memory-dataset';
import { DatasetFileError, openFileBlob, readDatasetFile, rejectedLines, writeFileAtomically } from './dataset-files';
import { exportFormat, exportParts } from '../export/export-formats';

/** Bad options (exit 2); a `DatasetFileError` is exit 1. */
class ImportUsageError extends Error {}

/** Exit status when the import was written but some lines were refused (as `assay extract` exits 3 when some papers failed). */
const SOME_REFUSED = 3;

const USAGE_LINE = 'assay import FILE… --out FILE.jsonl [--json]';

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

/** Injected in tests: the clock (each file's import time) and new row ids (default `crypto.randomUUID()`). */
export interface ImportCommandOptions {
  now?: () => Date;
  newId?: () => string;
  /** Entries read and merged at a time (default `IMPORT_CHUNK_SIZE`, as the extension). */
  chunkSize?: number;
}

/** What one imported file did, as the summary lists it: counts, then each refused line and each line kept with a lower status, with the reason. */
export interface ImportedFile {
  file: string;
  lines: number;
  added: number;
  merged: number;
  rejected: number;
  demoted: number;
  refusedLines: RejectedLine[];
  demotedLines: RejectedLine[];
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
      // Every line, so each refused one is named (a file's lines are already in memory as rows).
      keptRejected: Number.MAX_SAFE_INTEGER,
    });
  } catch (error) {
    throw new DatasetFileError(`${path}: could not be read (${readErrorWords(error)}). Nothing was written.`);
  }
  if ('fileProblem' in result) throw new DatasetFileError(`${path}: ${result.fileProblem} Nothing was written.`);
  for (const line of rejectedLines(path, result.refused, result.rejected)) process.stderr.write(`assay import: ${oneLine(line)}\n`);
  for (const { where, message } of result.demoted) process.stderr.write(`assay import: ${path} ${where} ${oneLine(message)}\n`);
  return {
    file: path,
    lines: result.entries,
    added: result.report.added.length,
    merged: result.report.merged.length,
    rejected: result.refused,
    demoted: result.lowered,
    refusedLines: result.rejected,
    demotedLines: result.demoted,
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
    await writeFileAtomically(out, exportParts(exportFormat('jsonl'), dataset.rows));
  } catch (error) {
    throw new DatasetFileError(`--out ${out}: could not be written (${(error as Error).message})`);
  }

  const total = (field: 'added' | 'merged' | 'rejected' | 'demoted') => imported.reduce((sum, file) => sum + file[field], 0);
  const before = { rows: existing.rows.length, rejected: existing.rejected };
  const summary = {
    out,
    rows: dataset.rows.length,
    existing: before,
    files: imported,
    added: total('added'),
    merged: total('merged'),
    rejected: total('rejected'),
    demoted: total('demoted'),
  };
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    const lines = imported.map(
      (file) =>
        `${file.file}: ${file.lines} lines, ${file.added} added, ${file.merged} merged, ${file.rejected} rejected` +
        (file.demoted > 0 ? `, ${file.demoted} kept as needs_review` : ''),
    );
    lines.push(`${out}: ${summary.rows} rows (${before.rows} there before, ${summary.added} added)`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  const refused = summary.rejected + before.rejected;
  if (refused > 0) process.stderr.write(`assay import: ${refused} line(s) refused (listed above); the others were imported\n`);
  return refused > 0 ? SOME_REFUSED : 0;
}

/**
 * Run `assay import`. Exit codes: 0 every line of every file was imported (lines kept with a
 * lower status are named on stderr); 3 the import was written but some lines were refused (each
 * named on stderr with its reason, and counted; rows of `--out` itself that are refused count
 * too, as they are left out of the rewritten file); 1 a file (an input, or `--out`) could not be
 * read at all, or is not an Assay export (the extension's words), or `--out` could not be written
 * — nothing is written then; 2 a usage error (no file, no `--out`, an unknown option). Errors are
 * one line on stderr.
 */
export async function runImport(argv: string[], options: ImportCommandOptions = {}): Promise<number> {
  try {
    return await importCommand(argv, options);
  } catch (error) {
    process.stderr.write(`assay import: ${oneLine((error as Error).message)}\n`);
    return error instanceof ImportUsageError ? 2 : 1;
  }
}
