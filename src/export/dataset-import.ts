/**
 * Read an Assay export back: the JSON array of `toJson` or the JSON Lines of `toJsonl`. The file
 * is untrusted (a colleague's export, an edited file), so every row is validated with
 * `DatasetTripletSchema`; bad rows are skipped and reported, good ones kept.
 */
import type { z } from 'zod';
import { DatasetTripletSchema, type DatasetTriplet } from '../contracts/dataset';

/** At most this many problems are listed one by one (then a count of the rest), so a wrong 100 000-line file does not make a 100 000-line message. */
const MAX_LISTED_PROBLEMS = 50;

const NOT_AN_EXPORT = 'This file is neither an Assay JSON export (an array of rows) nor JSON Lines (one row per line).';

function zodMessage(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

function capped(problems: string[]): string[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_LISTED_PROBLEMS), `… and ${problems.length - MAX_LISTED_PROBLEMS} more problems.`];
}

function validate(items: readonly { value: unknown; label: string }[]): { rows: DatasetTriplet[]; problems: string[] } {
  const rows: DatasetTriplet[] = [];
  const problems: string[] = [];
  for (const { value, label } of items) {
    const parsed = DatasetTripletSchema.safeParse(value);
    if (parsed.success) rows.push(parsed.data);
    else problems.push(`${label}: ${zodMessage(parsed.error)}`);
  }
  return { rows, problems };
}

/**
 * Parse an Assay JSON (array) or JSONL export. A text starting with "[" is read as one JSON
 * array (problems name "row N", 1-based); otherwise each non-blank line is one JSON row
 * (problems name "line N", 1-based, with JSON syntax errors and zod messages). Rows keep the
 * order of the file; unknown keys are dropped. A text that is empty, not JSON, or JSONL with no
 * line that parses as JSON gives no rows and exactly one problem. Never throws.
 */
export function parseAssayImport(text: string): { rows: DatasetTriplet[]; problems: string[] } {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return { rows: [], problems: ['The file is empty.'] };
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      return { rows: [], problems: [`${NOT_AN_EXPORT} (${error instanceof Error ? error.message : String(error)})`] };
    }
    if (!Array.isArray(parsed)) return { rows: [], problems: [NOT_AN_EXPORT] };
    const result = validate(parsed.map((value, index) => ({ value, label: `row ${index + 1}` })));
    return { rows: result.rows, problems: capped(result.problems) };
  }
  const rows: DatasetTriplet[] = [];
  const problems: string[] = [];
  let jsonLines = 0;
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (line.trim() === '') return;
      const label = `line ${index + 1}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        problems.push(`${label}: not JSON (${error instanceof Error ? error.message : String(error)})`);
        return;
      }
      jsonLines += 1;
      const result = validate([{ value, label }]);
      rows.push(...result.rows);
      problems.push(...result.problems);
    });
  if (jsonLines === 0) return { rows: [], problems: [NOT_AN_EXPORT] };
  return { rows, problems: capped(problems) };
}
