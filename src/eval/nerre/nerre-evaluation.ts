/**
 * `assay eval llm-nerre-doping`: score predictions (a model's, recorded as data) against the
 * LLM-NERRE doping abstracts with the NERRE word-level scheme (`nerre-score.ts`). Also the
 * formula-mention floor: every formula written in the title or abstract is called a host, no
 * dopant, no link — a reference figure computable without a model, not a method.
 */
import { findMaterialMentions } from '../../text/materials';
import { loadNerreDoping, type NerreDopingRecord } from './nerre-doping-dataset';
import type { NerrePrediction } from './nerre-predictions';
import { scoreNerre, type NerreScores } from './nerre-score';
import { materialsFormulaCore, type FormulaCore } from './nerre-words';

export interface NerreDopingOptions {
  /** Data root holding `datasets/llm-nerre/doping/train.json`. */
  dataRoot: string;
  /** Predictions by abstract id (DOI); abstracts without one score as empty predictions. */
  predictions: readonly NerrePrediction[];
  /** Score only the first `limit` abstracts of the file. */
  limit?: number;
  /** What produced the predictions (a file name, `truth`, `formula-host-floor`), echoed in the result. */
  source?: string;
  formulaCore?: FormulaCore;
}

export interface NerreDopingEvaluation extends NerreScores {
  dataset: 'llm-nerre-doping';
  source: string;
  /** Abstracts scored. */
  n: number;
  /** Dataset items that failed validation and were skipped. */
  malformedRecords: number;
  /** Scored abstracts with no prediction (counted as predicting nothing). */
  missingPredictions: number;
  /** Predictions whose id names no scored abstract (ignored). */
  unknownPredictions: number;
}

/** Score `predictions` on the doping set. Throws when the data file is missing or not a JSON list. */
export async function evaluateNerreDoping(options: NerreDopingOptions): Promise<NerreDopingEvaluation> {
  const { records, malformed } = await loadNerreDoping(options.dataRoot);
  const scored = records.slice(0, options.limit ?? records.length);
  const byId = new Map(options.predictions.map((prediction) => [prediction.id, prediction]));
  const ids = new Set(scored.map((record) => record.id));
  const empty = { hosts: [], dopants: [], relations: [] };
  const scores = scoreNerre(
    scored.map((record) => ({ truth: record.truth, predicted: byId.get(record.id) ?? empty })),
    options.formulaCore ?? materialsFormulaCore,
  );
  return {
    dataset: 'llm-nerre-doping',
    source: options.source ?? 'predictions',
    n: scored.length,
    malformedRecords: malformed,
    missingPredictions: scored.filter((record) => !byId.has(record.id)).length,
    unknownPredictions: options.predictions.filter((prediction) => !ids.has(prediction.id)).length,
    ...scores,
  };
}

/** The truth as predictions (sanity check: scores 1 everywhere). */
export function truthAsPredictions(records: readonly NerreDopingRecord[]): NerrePrediction[] {
  return records.map((record) => ({ id: record.id, ...record.truth }));
}

/**
 * The formula-mention floor: hosts = the distinct formula mentions (`findMaterialMentions`,
 * kind `formula`, as written) in the title and abstract; no dopants, no links.
 */
export function formulaHostFloor(records: readonly NerreDopingRecord[]): NerrePrediction[] {
  return records.map((record) => {
    const mentions = findMaterialMentions(`${record.title}\n${record.text}`).filter((mention) => mention.kind === 'formula');
    return { id: record.id, hosts: [...new Set(mentions.map((mention) => mention.text))], dopants: [], relations: [] };
  });
}

/** A Markdown table for humans: P/R/F1 (percent, one decimal) and counts per entity type and for links. */
export function nerreTable(result: NerreDopingEvaluation): string {
  const lines = [
    `${result.source}: ${result.n} abstracts, ${result.missingPredictions} without a prediction, ${result.unknownPredictions} predictions for unknown ids, ${result.malformedRecords} malformed records skipped`,
    '',
    '| entity | tp | fp | fn | P % | R % | F1 % |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const name of ['hosts', 'dopants', 'relations'] as const) {
    const score = result[name];
    lines.push(
      `| ${name} | ${score.tp} | ${score.fp} | ${score.fn} | ${(100 * score.precision).toFixed(1)} | ${(100 * score.recall).toFixed(1)} | ${(100 * score.f1).toFixed(1)} |`,
    );
  }
  return lines.join('\n') + '\n';
}
