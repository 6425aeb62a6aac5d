/**
 * Reader for ChemDataExtractor 2.1.2's recorded outputs in bandgap-200
 * (`1-ChemDataExtractor/cde_1-raw.csv`: the upstream sheet "1-raw", before the authors' manual
 * cleaning; see the dataset's SOURCE.md): columns `doi` (`<index>/<doi>`), `material`, `value`,
 * `unit`. Each row is one answer, read like the other recorded tools' (`recordedAnswer`): the
 * value as printed (a leading "−" is a sign, "1.2-1.5" a range, "<0.1" a bound), the unit from
 * the unit cell unless unit text follows the number, a missing unit left missing (strict scoring
 * never credits it; lenient reads it as eV). A row without a paper reference, a material or a
 * value that reads as a number is skipped and counted. ChemDataExtractor records no evidence
 * sentence, so its answers carry no quote (in `--replay-vote` they can agree, never ground).
 */
import { parse } from 'csv-parse/sync';
import { recordedAnswer } from './recorded-answer';
import type { RecordedByReference } from './recorded-chatextract';

/** Answers per paper reference, and how many rows gave no usable answer. */
export interface RecordedRows {
  byPaper: RecordedByReference;
  /** Rows skipped: no paper reference, no material, or no value that reads as a number. */
  skipped: number;
}

/** Parse the CSV (untrusted text). Throws when a column of doi, material, value, unit is missing. */
export function parseChemDataExtractorCsv(csvText: string, engine: string): RecordedRows {
  const rows = parse(csvText, { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true }) as Record<string, string>[];
  const first = rows[0];
  if (first && !['doi', 'material', 'value', 'unit'].every((name) => name in first)) {
    throw new Error('ChemDataExtractor CSV: expected columns doi, material, value, unit');
  }
  const result: RecordedRows = { byPaper: new Map(), skipped: 0 };
  for (const row of rows) {
    const reference = (row.doi ?? '').trim();
    const answer = reference ? recordedAnswer(row.material ?? '', row.value ?? '', row.unit ?? '', engine) : null;
    if (!answer) {
      result.skipped += 1;
      continue;
    }
    const list = result.byPaper.get(reference) ?? [];
    list.push(answer);
    result.byPaper.set(reference, list);
  }
  return result;
}
