/**
 * Reader for the LangChain RAG runs recorded in bandgap-200 (`4-LangChain/output_LC_*.csv`):
 * columns `doi` ("<index>/<doi>"), `output` (the model's reply: a Markdown table
 * `| Material | Value | Unit |`, sometimes cut off mid-row, sometimes followed by a note) and
 * `status`. Every complete table row with at least three cells is one answer; the header,
 * the rule line, truncated rows and "None" rows are not.
 */
import { parse } from 'csv-parse/sync';
import { recordedAnswer } from './recorded-answer';
import type { RecordedByReference, RecordedPrediction } from './recorded-chatextract';

/** Cells of one Markdown table line, or null when the line is not a complete row. */
export function tableCells(line: string): string[] | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|') || !trimmed.endsWith('|') || trimmed.length < 2) return null;
  return trimmed
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim());
}

/** Predictions from one reply: every complete row after the header (header found by its "Material" cell). */
export function parseMarkdownAnswers(output: string, engine: string): RecordedPrediction[] {
  const answers: RecordedPrediction[] = [];
  for (const line of output.split(/\r?\n/)) {
    const cells = tableCells(line);
    if (!cells || cells.length < 3) continue;
    const [material = '', value = '', unit = ''] = cells;
    if (/^material$/i.test(material.replace(/\*/g, '').trim())) continue;
    const answer = recordedAnswer(material, value, unit, engine);
    if (answer) answers.push(answer);
  }
  return answers;
}

/** Parse the CSV into predictions per paper reference (`doi` cell); rows without one are dropped. Throws when `doi` or `output` is missing. */
export function parseLangChainCsv(csvText: string, engine: string): RecordedByReference {
  const rows = parse(csvText, { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true }) as Record<string, string>[];
  const first = rows[0];
  if (first && !('doi' in first && 'output' in first)) throw new Error('LangChain CSV: expected columns doi, output');
  const byPaper: RecordedByReference = new Map();
  for (const row of rows) {
    const reference = (row.doi ?? '').trim();
    if (!reference) continue;
    const list = byPaper.get(reference) ?? [];
    list.push(...parseMarkdownAnswers(row.output ?? '', engine));
    byPaper.set(reference, list);
  }
  return byPaper;
}
