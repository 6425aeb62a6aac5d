/**
 * Reader for ChatExtract's recorded outputs in bandgap-200 (`3-ChatExtract/2_extracted_*.csv`):
 * columns `passage, sentence, doi, material, value, unit, material_valid, value_valid,
 * unit_valid`, `doi` written `<index>/<doi>`, cells often starting with a newline.
 * Every row with a material and a value is an answer (docs/EVAL.md). The `*_valid` flags look
 * like ChatExtract's follow-up verification verdicts (1 = the model confirmed that field, even
 * for a value "B1"), but the upstream repository does not document them, so keeping only rows
 * with all three flags at 1 is an option (`requireVerified`, replay names `…-verified`), not the
 * default. Measured on bandgap-200 pub, it halves recall (qwen2.5-14b: R 0.41 → 0.24).
 */
import { parse } from 'csv-parse/sync';
import { recordedAnswer } from './recorded-answer';
import type { PredictedTriplet } from '../triplet-scorer-types';

export interface RecordedPrediction extends PredictedTriplet {
  engine: string;
  valueText: string;
  /** ChatExtract only: the sentence the answer came from. */
  sentence?: string;
}

export interface ChatExtractOptions {
  engine: string;
  /** Keep only rows whose three `*_valid` flags are "1" (default false). */
  requireVerified?: boolean;
}

/**
 * Predictions per paper as the recorded file names it: the `doi` cell, trimmed ("14/10.1039/C7CP03960C";
 * `parsePaperReference` in paper-join.ts reads it), in file order. The dataset loader joins these to
 * the truth papers by DOI.
 */
export type RecordedByReference = Map<string, RecordedPrediction[]>;

/** Parse the CSV into predictions per paper reference (`doi` cell); rows without one are dropped. Throws when the expected columns are missing. */
export function parseChatExtractCsv(csvText: string, options: ChatExtractOptions): RecordedByReference {
  const rows = parse(csvText, { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true }) as Record<string, string>[];
  const first = rows[0];
  if (first && !['doi', 'material', 'value', 'unit'].every((name) => name in first)) {
    throw new Error('ChatExtract CSV: expected columns doi, material, value, unit');
  }
  const requireVerified = options.requireVerified ?? false;
  const byPaper: RecordedByReference = new Map();
  for (const row of rows) {
    const reference = (row.doi ?? '').trim();
    if (!reference) continue;
    if (requireVerified && !['material_valid', 'value_valid', 'unit_valid'].every((flag) => (row[flag] ?? '').trim() === '1')) continue;
    const answer = recordedAnswer(row.material ?? '', row.value ?? '', row.unit ?? '', options.engine);
    if (!answer) continue;
    const sentence = (row.sentence ?? '').trim();
    const list = byPaper.get(reference) ?? [];
    list.push({ ...answer, ...(sentence ? { sentence } : {}) });
    byPaper.set(reference, list);
  }
  return byPaper;
}
