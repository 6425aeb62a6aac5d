/**
 * `assay export FILE --format FORMAT [--out FILE] [--json]`: the dataset page's exports of a
 * dataset file, in a format of the one table both read (src/export/export-formats.ts: csv, json,
 * jsonl, annotations, bibtex, csl; the older names w3c and csl-json are accepted) (an Assay JSON or JSONL export, as `assay import`
 * writes). The file is read as an import reads it (rows that fail the checks are named on stderr
 * and left out; the export goes on with the others), its rows are put in the extension's export
 * order (newest first: savedAt, then id, descending) and written in the format to `--out`
 * (atomically) or stdout. With `--json` (which needs `--out`: stdout is then the summary), one
 * document `{ format, rows, rejected, out }`.
 */
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { newestFirst } from '../store/dataset-triplet';
import { EXPORT_FORMATS, exportFormatNamed, exportParts } from '../export/export-formats';
import { DatasetFileError, openFileBlob, readDatasetFile, rejectedLines, writeFileAtomically } from './dataset-files';

/** Bad options (exit 2); a `DatasetFileError` is exit 1. */
class ExportUsageError extends Error {}

/** The usage line, its formats read from the table when it is shown (so a format added there is offered). */
const usageLine = (): string => `assay export FILE --format ${EXPORT_FORMATS.map((format) => format.id).join('|')} [--out FILE] [--json]`;

/** `assay export --help`: the usage line and each format with its label, file ending and other accepted names. */
function helpText(): string {
  const width = Math.max(...EXPORT_FORMATS.map((format) => format.id.length));
  const formats = EXPORT_FORMATS.map((format) => {
    const aliases = format.aliases.length > 0 ? ` (also --format ${format.aliases.join(', ')})` : '';
    return `  ${format.id.padEnd(width)}  ${format.label}, *${format.extension}${aliases}\n`;
  });
  return (
    `usage: ${usageLine()}\n\n` +
    "Writes a dataset file (an Assay JSON or JSONL export) in one of the dataset page's export formats,\n" +
    'newest row first, to --out (atomically) or stdout; --json prints a summary (needs --out).\n\nformats:\n' +
    formats.join('')
  );
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');

/** Injected in tests: the clock that rows' times are checked against. */
export interface ExportCommandOptions {
  now?: () => Date;
}

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
      options: {
        format: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new ExportUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(helpText());
    return 0;
  }
  if (positionals.length !== 1) throw new ExportUsageError(`give exactly one dataset file: ${usageLine()}`);
  const [path] = positionals as [string];
  const name = values.format?.trim().toLowerCase();
  const format = name ? exportFormatNamed(name) : undefined;
  if (!format)
    throw new ExportUsageError(
      `${name ? `unknown format '${name}'` : 'give a --format'}; use --format ${EXPORT_FORMATS.map((known) => known.id).join(', ')}: ${usageLine()}`,
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

  const summary = { format: format.id, rows: rows.length, rejected: read.refused, out: out ?? null };
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    const line = `${rows.length} rows exported as ${format.id}${out ? ` to ${out}` : ''}${read.refused > 0 ? `; ${read.refused} refused` : ''}\n`;
    // Beside an export on stdout, the summary goes to stderr.
    if (out) process.stdout.write(line);
    else process.stderr.write(`assay export: ${line}`);
  }
  return 0;
}

/**
 * Run `assay export`. Exit codes: 0 exported (or `--help` shown) (refused rows are named on stderr and left out); 1
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
