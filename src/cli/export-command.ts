/**
 * `assay export FILE --format csv|json|jsonl|w3c|bibtex|csl-json [--out FILE] [--json]`: the
 * dataset page's exports of a dataset file (an Assay JSON or JSONL export, as `assay import`
 * writes). The file is read as an import reads it (rows that fail the checks are named on stderr
 * and left out; the export goes on with the others), its rows are put in the extension's export
 * order (newest first: savedAt, then id, descending) and written in the format to `--out`
 * (atomically) or stdout. With `--json` (which needs `--out`: stdout is then the summary), one
 * document `{ format, rows, rejected, out }`.
 */
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { newestFirst } from '../store/dataset-triplet';
import {
  DatasetFileError,
  EXPORT_FORMATS,
  exportParts,
  openFileBlob,
  readDatasetFile,
  rejectedLines,
  writeFileAtomically,
  type ExportFormat,
} from './dataset-files';

/** Bad options (exit 2); a `DatasetFileError` is exit 1. */
class ExportUsageError extends Error {}

const USAGE_LINE = `assay export FILE --format ${EXPORT_FORMATS.join('|')} [--out FILE] [--json]`;

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

/** Injected in tests: the clock that rows' times are checked against. */
export interface ExportCommandOptions {
  now?: () => Date;
}

const isFormat = (format: string): format is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(format);

/** Write `parts` to stdout in order, waiting for it to drain when its buffer is full (a slow pipe). */
async function writeToStdout(parts: Iterable<string>): Promise<void> {
  for (const part of parts) if (!process.stdout.write(part)) await once(process.stdout, 'drain');
}

async function exportCommand(argv: string[], options: ExportCommandOptions): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { format: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' } },
    });
  } catch (error) {
    throw new ExportUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new ExportUsageError(`give exactly one dataset file: ${USAGE_LINE}`);
  const [path] = positionals as [string];
  const format = values.format?.trim().toLowerCase();
  if (!format || !isFormat(format))
    throw new ExportUsageError(
      `${format ? `unknown format '${format}'` : 'give a --format'}; use --format ${EXPORT_FORMATS.join(', ')}: ${USAGE_LINE}`,
    );
  const out = values.out?.trim() || undefined;
  if (values.json && !out)
    throw new ExportUsageError('--json prints a summary on stdout, so the export needs --out FILE to go to; or leave out --json');

  const blob = await openFileBlob(path);
  if (!blob) throw new DatasetFileError(`${path}: No such file`);
  const read = await readDatasetFile(path, blob, (options.now ?? (() => new Date()))());
  if ('fileProblem' in read) throw new DatasetFileError(`${path}: ${read.fileProblem}`);
  for (const line of rejectedLines(path, read.refused, read.rejected)) process.stderr.write(`assay export: ${oneLine(line)}\n`);

  // The dataset page's export order (`eachTripletChunk`: the savedAt index walked backwards).
  const rows = read.rows.sort(newestFirst);
  const parts = exportParts(format, rows);
  if (out) {
    try {
      await writeFileAtomically(out, parts);
    } catch (error) {
      throw new DatasetFileError(`--out ${out}: could not be written (${(error as Error).message})`);
    }
  } else await writeToStdout(parts);

  const summary = { format, rows: rows.length, rejected: read.refused, out: out ?? null };
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    const line = `${rows.length} rows exported as ${format}${out ? ` to ${out}` : ''}${read.refused > 0 ? `; ${read.refused} refused` : ''}\n`;
    // Beside an export on stdout, the summary goes to stderr.
    if (out) process.stdout.write(line);
    else process.stderr.write(`assay export: ${line}`);
  }
  return 0;
}

/**
 * Run `assay export`. Exit codes: 0 exported (refused rows are named on stderr and left out); 1
 * the file cannot be read or is not an Assay export (the extension's words), or `--out` could not
 * be written (it is then untouched); 2 a usage error (no file or several, no or an unknown
 * `--format`, `--json` without `--out`). Errors are one line on stderr.
 */
export async function runExport(argv: string[], options: ExportCommandOptions = {}): Promise<number> {
  try {
    return await exportCommand(argv, options);
  } catch (error) {
    process.stderr.write(`assay export: ${oneLine((error as Error).message)}\n`);
    return error instanceof ExportUsageError ? 2 : 1;
  }
}
