/**
 * Read an Assay export back: the JSON array of `toJson` or the JSON Lines of `toJsonl`. The file
 * is untrusted (a colleague's export, an edited file, a hostile one), so every row is validated
 * with `DatasetTripletSchema` (which caps every string, see src/contracts/text-limits.ts), its
 * times are checked, and its merge key and SI value are recomputed from its own fields
 * (`withOwnKeys`); bad rows are refused with their line and the reason, good ones kept. Saving
 * them is `importTriplets` (src/store/import-triplets.ts), which never trusts their ids.
 */
import type { z } from 'zod';
import { DatasetTripletSchema, type DatasetTriplet } from '../contracts/dataset';
import { withOwnKeys } from '../store/dataset-triplet';
import type { ImportLine } from '../store/import-triplets';

/** At most this many problems are listed one by one (then a count of the rest), so a wrong 100 000-line file does not make a 100 000-line message. */
const MAX_LISTED_PROBLEMS = 50;

/**
 * How far past the import's own clock a row's savedAt or review time may be: a day covers clocks
 * set wrong and time zones written as UTC; a time further ahead would let a row sort first for
 * years, or win every later "newer review wins" merge (`mergeTriplets`).
 */
const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

const NOT_AN_EXPORT = 'This file is neither an Assay JSON export (an array of rows) nor JSON Lines (one row per line).';

/** A line (or array element) of the file that was refused, and why in words. */
export interface RejectedLine {
  where: string;
  message: string;
}

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

/**
 * Read an Assay JSON (array) or JSONL export, at time `now` (default: the clock). A text starting
 * with "[" is read as one JSON array (rows are "row N", 1-based); otherwise each non-blank line is
 * one JSON row ("line N", 1-based; a line that is not JSON is refused with the parser's message).
 * Each row must match `DatasetTripletSchema` and have no time more than a day after `now`; its
 * `si` and `mergeKey` are recomputed (a row Assay saved comes back unchanged). Rows keep the
 * order of the file; unknown keys are dropped. A text that is empty, not JSON, or JSONL with no
 * line that parses as JSON gives only `fileProblem`. A byte-order mark is skipped. Never throws.
 */
export function readAssayImport(text: string, now: Date = new Date()): AssayImportText {
  const result: AssayImportText = { rows: [], rejected: [] };
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trim();
  if (trimmed === '') return { ...result, fileProblem: 'The file is empty.' };
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      return { ...result, fileProblem: `${NOT_AN_EXPORT} (${error instanceof Error ? error.message : String(error)})` };
    }
    if (!Array.isArray(parsed)) return { ...result, fileProblem: NOT_AN_EXPORT };
    parsed.forEach((value, index) => check(value, `row ${index + 1}`, now, result));
    return result;
  }
  let jsonLines = 0;
  body.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      result.rejected.push({ where, message: `not JSON (${error instanceof Error ? error.message : String(error)})` });
      return;
    }
    jsonLines += 1;
    check(value, where, now, result);
  });
  if (jsonLines === 0) return { rows: [], rejected: [], fileProblem: NOT_AN_EXPORT };
  return result;
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
