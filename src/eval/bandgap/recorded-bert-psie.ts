/**
 * Reader for BERT-PSIE's recorded outputs in bandgap-200 (`2-BERT-PSIE/psie_1-raw.csv`: the
 * upstream sheet "1-raw", before the authors' manual cleaning; see the dataset's SOURCE.md):
 * columns `sentence` (the sentence the answer came from), `doi` (`<index>_<doi with / as _>`),
 * `material`, `value` (number and unit in one cell, as the fine-tuned MatSciBERT tagged them).
 *
 * How a value cell is read (decided here; the upstream authors cleaned these by hand):
 * - word-piece spacing is undone: "1 . 4 eV" → "1.4 eV", "−0 . 15 eV" → "−0.15 eV";
 * - one pair of enclosing brackets is dropped: "(2.00eV)" → "2.00eV";
 * - then it is read like every recorded answer (`recordedAnswer`): the unit is the text after
 *   the number ("57 meV" → meV, "4.37eV" → eV); a number without a unit ("1 . 95") keeps no
 *   unit, which strict scoring never credits and lenient reads as eV; a range ("1.2 - 1.5 eV")
 *   is a range, a bound ("< 0.1 eV") a bound;
 * - fragments of a split number ("4", "37", "27" for 4.37 and 4.27; "014") are kept as the
 *   numbers they print: the tool answered them, and they score as the wrong values they are.
 * A row without a paper reference or a material, or whose value has no number ("meV", "to",
 * "") is skipped and counted. The sentence becomes the answer's evidence quote.
 */
import { parse } from 'csv-parse/sync';
import { recordedAnswer } from './recorded-answer';
import type { RecordedRows } from './recorded-chemdataextractor';

/** A BERT-PSIE value cell with word-piece spacing and enclosing brackets undone (see the module comment). */
export function psieValueText(cell: string): string {
  let text = cell.replace(/\s+/g, ' ').trim();
  const bracketed = /^\((.*)\)$/s.exec(text);
  if (bracketed) text = bracketed[1]!.trim();
  return text.replace(/(\d)\s*\.\s*(?=\d)/g, '$1.');
}

/** Parse the CSV (untrusted text). Throws when a column of sentence, doi, material, value is missing. */
export function parseBertPsieCsv(csvText: string, engine: string): RecordedRows {
  const rows = parse(csvText, { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true }) as Record<string, string>[];
  const first = rows[0];
  if (first && !['sentence', 'doi', 'material', 'value'].every((name) => name in first)) {
    throw new Error('BERT-PSIE CSV: expected columns sentence, doi, material, value');
  }
  const result: RecordedRows = { byPaper: new Map(), skipped: 0 };
  for (const row of rows) {
    const reference = (row.doi ?? '').trim();
    const answer = reference ? recordedAnswer(row.material ?? '', psieValueText(row.value ?? ''), '', engine) : null;
    if (!answer) {
      result.skipped += 1;
      continue;
    }
    const sentence = (row.sentence ?? '').replace(/\s+/g, ' ').trim();
    const list = result.byPaper.get(reference) ?? [];
    list.push({ ...answer, ...(sentence ? { sentence } : {}) });
    result.byPaper.set(reference, list);
  }
  return result;
}
