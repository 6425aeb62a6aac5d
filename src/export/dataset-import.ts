/**
 * Read an Assay export back: the JSON array of `toJson`, the JSON Lines of `toJsonl`, or the CSV
 * of `toCsv` (src/export/csv-import.ts; lossy, but it keeps what the merge key reads). The file
 * is untrusted (a colleague's export, an edited file, a hostile one), so every row is validated
 * with `DatasetTripletSchema` (which caps every string, see src/contracts/text-limits.ts), its
 * times are checked, a row that contradicts itself is refused (a key written twice, a value its
 * value text does not read as: `duplicate-keys.ts`, `import-row-checks.ts`), a `verified` row its
 * own quote contradicts is kept for review, and its merge key and SI value are recomputed from its
 * own fields (`withOwnKeys`); bad rows are refused with their line and the reason, good ones kept. Saving
 * them is `runImportJob` (src/store/import-job.ts, chunk by chunk through `saveImportChunk`),
 * which never trusts their ids.
 */
import type { ImportEntry } from './import-entry';
import type { z } from 'zod';
import { DatasetTripletSchema, type DatasetTriplet } from '../contracts/dataset';
import { withOwnKeys } from '../store/dataset-triplet';
import { csvImportEntries, isAssayCsv } from './csv-import';
import { duplicateKeys, duplicateKeysMessage, mayRepeatKeys } from './duplicate-keys';
import { rowContradiction, withImportedStatus, withValueFromText } from './import-row-checks';
import type { ImportLine } from './import-merge';
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

/**
 * What `readAssayImport` found: the rows to save, the lines refused, the lines kept with a lower
 * status than they claimed (`demoted`: a `verified` row whose own quote contradicts it, now
 * `needs_review`; the message gives why), and a problem with the whole file (then nothing else).
 */
export interface AssayImportText {
  rows: ImportLine[];
  rejected: RejectedLine[];
  demoted: RejectedLine[];
  fileProblem?: string;
}

function zodMessage(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

function capped(problems: string[]): string[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_LISTED_PROBLEMS), `… and ${problems.length - MAX_LISTED_PROBLEMS} more problems.`];
}

/** Why `row`'s times cannot be taken, or undefined: savedAt and review.at must not be later than `now` (plus `CLOCK_SKEW_MS`). */
function futureTime(row: DatasetTriplet, now: Date): string | undefined {
  const latest = now.getTime() + CLOCK_SKEW_MS;
  const times: Array<[string, string | undefined]> = [
    ['savedAt', row.savedAt],
    ['review.at', row.review.at],
  ];
  for (const [field, time] of times) {
    if (time !== undefined && Date.parse(time) > latest)
      return `${field}: ${time} is later than the time of this import (${now.toISOString()})`;
  }
  return undefined;
}

/**
 * Check one entry's value (see `checkImportEntries`): its value recomputed from its value text
 * when it has none, the schema, its times, its value against its value text (a contradiction is
 * refused), then its status against its own evidence (`withImportedStatus`), and its keys.
 */
function check(value: unknown, where: string, now: Date, result: AssayImportText): void {
  const parsed = DatasetTripletSchema.safeParse(withValueFromText(value));
  if (!parsed.success) {
    result.rejected.push({ where, message: zodMessage(parsed.error) });
    return;
  }
  const refusal = futureTime(parsed.data, now) ?? rowContradiction(parsed.data);
  if (refusal !== undefined) {
    result.rejected.push({ where, message: refusal });
    return;
  }
  const { row, doubts } = withImportedStatus(parsed.data);
  if (doubts.length > 0) result.demoted.push({ where, message: `kept as needs_review: ${doubts.join('; ')}` });
  result.rows.push({ row: withOwnKeys(row), where });
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
    const repeated = new Map<number, ReturnType<typeof duplicateKeys>>();
    for (const duplicate of mayRepeatKeys(trimmed, parsed) ? duplicateKeys(trimmed) : []) {
      const element = duplicate.path[0] as number;
      repeated.set(element, [...(repeated.get(element) ?? []), duplicate]);
    }
    return {
      entries: parsed.map((value, index) => {
        const duplicates = repeated.get(index);
        return { where: `row ${index + 1}`, value, ...(duplicates && { problem: duplicateKeysMessage(duplicates, 1) }) };
      }),
      jsonLines: false,
    };
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
 * line (a line that is not JSON is refused with the parser's message); an entry with a key written
 * twice in one object is refused (`duplicateKeys`: JSON keeps the last silently); its value is
 * read from its `valueText` when it has none (`withValueFromText`); it must match
 * `DatasetTripletSchema`, have no time more than a day after `now`, and a value its `valueText`
 * reads as (`rowContradiction`: 340 against "3.4" is refused); a `verified` row whose own quote
 * does not print its value or names another material is kept as `needs_review` with the reason
 * (`withImportedStatus`, listed in `demoted`); its `si` and `mergeKey` are recomputed
 * (`withOwnKeys`). `jsonValues` counts the entries that were JSON at all (a JSONL file with none
 * is not an export). Never throws.
 */
export function checkImportEntries(entries: readonly ImportEntry[], now: Date): AssayImportText & { jsonValues: number } {
  const result: AssayImportText & { jsonValues: number } = { rows: [], rejected: [], demoted: [], jsonValues: 0 };
  for (const entry of entries) {
    let value: unknown;
    let problem: string | undefined;
    if ('text' in entry) {
      try {
        value = JSON.parse(entry.text);
      } catch (error) {
        result.rejected.push({ where: entry.where, message: `not JSON (${error instanceof Error ? error.message : String(error)})` });
        continue;
      }
      const duplicates = mayRepeatKeys(entry.text, value) ? duplicateKeys(entry.text) : [];
      if (duplicates.length > 0) problem = duplicateKeysMessage(duplicates);
    } else ({ value, problem } = entry);
    result.jsonValues += 1;
    if (problem !== undefined) result.rejected.push({ where: entry.where, message: problem });
    else check(value, entry.where, now, result);
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
  if ('fileProblem' in split) return { rows: [], rejected: [], demoted: [], fileProblem: split.fileProblem };
  const { rows, rejected, demoted, jsonValues } = checkImportEntries(split.entries, now);
  if (split.jsonLines && jsonValues === 0) return { rows: [], rejected: [], demoted: [], fileProblem: NOT_AN_EXPORT };
  return { rows, rejected, demoted };
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
