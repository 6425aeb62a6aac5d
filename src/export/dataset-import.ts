/**
 * Read an Assay export back: the JSON array of `toJson`, the JSON Lines of `toJsonl`, or the CSV
 * of `toCsv` (src/export/csv-import.ts; lossy, but it keeps what the merge key reads). The file
 * is untrusted (a colleague's export, an edited file, a hostile one), so every row is validated
 * with `DatasetTripletSchema` (which caps every string, see src/contracts/text-limits.ts), its
 * times are checked, and its merge key and SI value are recomputed from its own fields
 * (`withOwnKeys`); bad rows are refused with their line and the reason, good ones kept. Saving
 * them is `runImportJob` (src/store/import-job.ts, chunk by chunk through `saveImportChunk`),
 * which never trusts their ids.
 */
import type { ImportEntry } from './import-entry';
import type { z } from 'zod';
import { DatasetTripletSchema, type DatasetTriplet } from '../contracts/dataset';
import { withOwnKeys } from '../store/dataset-triplet';
import { csvImportEntries, isAssayCsv } from './csv-import';
import type { ImportLine } from '../store/import-merge';
import type { RejectedLine } from '../store/import-job-record';

/** At most this many problems are listed one by one (then a count of the rest), so a wrong 100 000-line file does not make a 100 000-line message. */
const MAX_LISTED_PROBLEMS = 50;

/**
 * How far past the import's own clock a row's savedAt or review time may be: a day covers clocks
 * set wrong and time zones written as UTC; a time further ahead would let a row sort first for
 * years, or win every later "newer review wins" merge (`mergeTriplets`).
 */
const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

const NOT_AN_EXPORT = 'This file is neither an Assay JSON export (an array of rows) nor JSON Lines (one row per line).';

export type { RejectedLine } from '../store/import-job-record';

/** What `readAssayImport` found: the rows to save, the lines refused, and a problem with the whole file (then nothing else). */
export interface AssayImportText {
  rows: ImportLine[];
  rejected: RejectedLine[];
  fileProblem?: string;
}

function zodMessage(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

function capped(problems: string[]): string[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_LISTED_PROBLEMS), `… and ${problems.length - MAX_LISTED_PROBLEMS} more problems.`];
}

/** Why `row`'s times cannot be taken, or null: savedAt and review.at must not be later than `now` (plus `CLOCK_SKEW_MS`). */
function futureTime(row: DatasetTriplet, now: Date): string | null {
  const latest = now.getTime() + CLOCK_SKEW_MS;
  const times: Array<[string, string | undefined]> = [
    ['savedAt', row.savedAt],
    ['review.at', row.review.at],
  ];
  for (const [field, time] of times) {
    if (time !== undefined && Date.parse(time) > latest)
      return `${field}: ${time} is later than the time of this import (${now.toISOString()})`;
  }
  return null;
}

function check(value: unknown, where: string, now: Date, result: AssayImportText): void {
  const parsed = DatasetTripletSchema.safeParse(value);
  if (!parsed.success) {
    result.rejected.push({ where, message: zodMessage(parsed.error) });
    return;
  }
  const future = futureTime(parsed.data, now);
  if (future) result.rejected.push({ where, message: future });
  else result.rows.push({ row: withOwnKeys(parsed.data), where });
}

export type { ImportEntry } from './import-entry';

/** An import file split into entries (`splitAssayImport`), or the problem with the whole file. */
export type SplitImport = { entries: ImportEntry[]; jsonLines: boolean } | { fileProblem: string };

/**
 * Split an Assay JSON (array), JSONL or CSV export into entries without validating them, so a large
 * file can be checked (`checkImportEntries`) and saved chunk by chunk. A text starting with "["
 * is one JSON array (entries "row N", 1-based, already parsed; a text that is not a JSON array
 * gives `fileProblem`); a text starting with the CSV export's header (`isAssayCsv`) is CSV
 * (entries "row N", each the row its record describes: `csvImportEntries`); otherwise each
 * non-blank line is one entry ("line N", 1-based, its text).
 * An empty text gives `fileProblem`. A byte-order mark is skipped. Never throws.
 */
export function splitAssayImport(text: string): SplitImport {
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trim();
  if (trimmed === '') return { fileProblem: 'The file is empty.' };
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      return { fileProblem: `${NOT_AN_EXPORT} (${error instanceof Error ? error.message : String(error)})` };
    }
    if (!Array.isArray(parsed)) return { fileProblem: NOT_AN_EXPORT };
    return { entries: parsed.map((value, index) => ({ where: `row ${index + 1}`, value })), jsonLines: false };
  }
  if (isAssayCsv(trimmed)) {
    const csv = csvImportEntries(body);
    return 'fileProblem' in csv ? csv : { entries: csv.entries, jsonLines: false };
  }
  const entries: ImportEntry[] = [];
  body.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() !== '') entries.push({ where: `line ${index + 1}`, text: line });
  });
  return { entries, jsonLines: true };
}

/**
 * Check `entries` (a chunk of `splitAssayImport`'s) at time `now`: each is parsed when it is a
 * line (a line that is not JSON is refused with the parser's message), must match
 * `DatasetTripletSchema` and have no time more than a day after `now`; its `si` and `mergeKey`
 * are recomputed (`withOwnKeys`). `jsonValues` counts the entries that were JSON at all (a JSONL
 * file with none is not an export). Never throws.
 */
export function checkImportEntries(entries: readonly ImportEntry[], now: Date): AssayImportText & { jsonValues: number } {
  const result: AssayImportText & { jsonValues: number } = { rows: [], rejected: [], jsonValues: 0 };
  for (const entry of entries) {
    let value: unknown;
    if ('text' in entry) {
      try {
        value = JSON.parse(entry.text);
      } catch (error) {
        result.rejected.push({ where: entry.where, message: `not JSON (${error instanceof Error ? error.message : String(error)})` });
        continue;
      }
    } else value = entry.value;
    result.jsonValues += 1;
    check(value, entry.where, now, result);
  }
  return result;
}

/** The words for a file that is neither a JSON array nor JSON Lines (`fileProblem` of a JSONL file none of whose lines is JSON). */
export const NOT_AN_EXPORT_PROBLEM = NOT_AN_EXPORT;

/**
 * Read an Assay JSON (array), JSONL or CSV export, at time `now` (default: the clock): `splitAssayImport`
 * then `checkImportEntries` on every entry. Rows keep the order of the file; unknown keys are
 * dropped; a row Assay saved comes back unchanged. A text that is empty, not JSON, or JSONL with
 * no line that parses as JSON gives only `fileProblem`. Never throws.
 */
export function readAssayImport(text: string, now: Date = new Date()): AssayImportText {
  const split = splitAssayImport(text);
  if ('fileProblem' in split) return { rows: [], rejected: [], fileProblem: split.fileProblem };
  const { rows, rejected, jsonValues } = checkImportEntries(split.entries, now);
  if (split.jsonLines && jsonValues === 0) return { rows: [], rejected: [], fileProblem: NOT_AN_EXPORT };
  return { rows, rejected };
}

/**
 * `readAssayImport` as plain rows and problems in words ("line 3: status: …"; at most 50 listed,
 * then a count of the rest; a whole-file problem is the one problem), for callers that only read
 * the rows (`assay precedent --dataset`). Never throws.
 */
export function parseAssayImport(text: string, now: Date = new Date()): { rows: DatasetTriplet[]; problems: string[] } {
  const { rows, rejected, fileProblem } = readAssayImport(text, now);
  if (fileProblem !== undefined) return { rows: [], problems: [fileProblem] };
  return { rows: rows.map(({ row }) => row), problems: capped(rejected.map(({ where, message }) => `${where}: ${message}`)) };
}
