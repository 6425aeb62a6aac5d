/**
 * `assay eval llm-nerre-general` and `llm-nerre-mof`: score predictions (recorded model output,
 * the formula-mention floor, or an engine's mapped triplets — `nerre-entry-sources.ts`) against
 * every annotated abstract of the set, three ways:
 * - `strict` (the headline; top-level precision/recall/f1): whole entities and whole root links
 *   after Unicode/whitespace normalization (`nerre-entry-score.ts`, `nerre-items.ts`);
 * - `lenient`: LLM-NERRE's word-level measure with docs/EVAL.md's rule that formula entities
 *   match whole (`nerre-entry-score.ts`);
 * - `nerreProtocol`: lbnlp/NERRE `results.py` verbatim, per entity and link type, over the five
 *   cross-validation folds' validation abstracts (mean over folds) and over all scored abstracts
 *   (`nerre-protocol.ts`) — the figures to set beside the paper's.
 * An abstract without a prediction counts as predicting nothing.
 */
import type { EvalPrediction, EvalTruth, Prf, PrfFigures } from '../rescorable';
import {
  loadNerreEntries,
  loadNerreFolds,
  NERRE_TASKS,
  type NerreEntry,
  type NerreEntryRecord,
  type NerreTaskName,
} from './nerre-entry-dataset';
import { predictionKey, type NerreEntryPrediction } from './nerre-entry-predictions';
import { entryItems, entryTypes, scoreLenient } from './nerre-entry-score';
import { predictionRows, scoreItems, truthRows } from './nerre-items';
import { averageRuns, protocolRun, type ProtocolFigures } from './nerre-protocol';

export interface NerreEntryEvaluationOptions {
  task: NerreTaskName;
  /** Data root holding `datasets/llm-nerre/general_and_mofs/`. */
  dataRoot: string;
  predictions: readonly NerreEntryPrediction[];
  /** Score only the first `limit` abstracts of the annotations file. */
  limit?: number;
  /** Score only the abstracts that have a prediction (a file covering one fold, say); default false: a missing one predicts nothing. */
  onlyPredicted?: boolean;
  /** What produced the predictions (a file name, a floor, an engine), echoed in the result. */
  source?: string;
  /** `status` of the prediction rows: `recorded` for a file, `extracted` for an engine or floor. */
  status?: string;
}

/** How each figure is computed, carried in the JSON so the numbers explain themselves. */
const SCORING = {
  strict:
    'whole entities (type, text) and whole root links (link type, root, linked entity), equal after NFKC and whitespace normalization; sets per abstract; micro over abstracts',
  lenient:
    'LLM-NERRE word basis (lbnlp/NERRE general_and_mofs/results.py): per abstract and type the set of whitespace words, links as root|||word; formula fields whole (docs/EVAL.md); micro over abstracts and types',
  nerreProtocol:
    'results.py verbatim per entity and link type: byFold = mean over the 5 CV folds (val.jsonl) of the scored abstracts, allRecords = one run over all scored abstracts; link types without gold or predicted links in a run are skipped (null)',
};

export interface NerreEntryEvaluation extends Prf {
  dataset: `llm-nerre-${NerreTaskName}`;
  split: 'dev';
  source: string;
  /** Abstracts scored. */
  n: number;
  strict: PrfFigures;
  lenient: PrfFigures;
  /** Whole-entity figures per entity type and per link type (`formula|||applications`). */
  strictByType: Record<string, PrfFigures>;
  /** Word-level figures per entity type and link type. */
  lenientByType: Record<string, PrfFigures>;
  nerreProtocol: { byFold: ProtocolFigures; allRecords: ProtocolFigures };
  scoring: typeof SCORING;
  /** Annotation lines that failed validation, and repeated abstracts left out (the first annotation kept). */
  malformedRecords: number;
  duplicateRecords: number;
  /** Scored abstracts with no prediction; predictions naming no scored abstract; completions that did not parse. */
  missingPredictions: number;
  unknownPredictions: number;
  unparsablePredictions: number;
  predictions: EvalPrediction[];
  truths: EvalTruth[];
}

/** Score `predictions` on a set. Throws when a data file is missing; never on a bad prediction. */
export async function evaluateNerreEntries(options: NerreEntryEvaluationOptions): Promise<NerreEntryEvaluation> {
  const task = NERRE_TASKS[options.task];
  const { records, malformed, duplicates } = await loadNerreEntries(options.dataRoot, task);
  const byKey = new Map(options.predictions.map((prediction) => [prediction.key, prediction]));
  const lookup = (record: NerreEntryRecord) =>
    byKey.get(predictionKey({ id: record.id })) ?? byKey.get(predictionKey({ text: record.text }));
  const scored = records.slice(0, options.limit ?? records.length).filter((record) => !options.onlyPredicted || lookup(record));
  const predictedOf = (record: NerreEntryRecord): NerreEntry[] => lookup(record)?.entries ?? [];

  const pairs = scored.map((record) => ({ record, truth: record.entries, predicted: predictedOf(record) }));
  const itemPairs = pairs.map(({ record, truth, predicted }) => ({
    record,
    truth: entryItems(truth, task),
    predicted: entryItems(predicted, task),
  }));
  const strict = scoreItems(itemPairs, entryTypes(task));
  const lenient = scoreLenient(pairs, task);

  const scoredIds = new Map(scored.map((record) => [record.text, record.id]));
  const folds = (await loadNerreFolds(options.dataRoot, task, scoredIds)).map((fold) =>
    fold.filter((record) => scoredIds.has(record.text)),
  );
  const byFold = averageRuns(
    folds
      .filter((fold) => fold.length > 0)
      .map((fold) =>
        protocolRun(
          fold.map((record) => ({ truth: record.entries, predicted: predictedOf(record) })),
          task,
        ),
      ),
    task,
  );

  const used = new Set(scored.flatMap((record) => [predictionKey({ id: record.id }), predictionKey({ text: record.text })]));
  const status = options.status ?? 'recorded';
  return {
    dataset: `llm-nerre-${task.name}`,
    split: 'dev',
    source: options.source ?? 'predictions',
    n: scored.length,
    precision: strict.overall.precision,
    recall: strict.overall.recall,
    f1: strict.overall.f1,
    strict: strict.overall,
    lenient: lenient.overall,
    strictByType: strict.byProperty,
    lenientByType: lenient.byType,
    nerreProtocol: { byFold, allRecords: protocolRun(pairs, task) },
    scoring: SCORING,
    malformedRecords: malformed,
    duplicateRecords: duplicates,
    missingPredictions: scored.filter((record) => !lookup(record)).length,
    unknownPredictions: options.predictions.filter((prediction) => !used.has(prediction.key)).length,
    unparsablePredictions: scored.filter((record) => lookup(record)?.entries === null).length,
    predictions: itemPairs.flatMap(({ record, predicted }) => predictionRows(record.id, predicted, status)),
    truths: itemPairs.flatMap(({ record, truth }) => truthRows(record.id, truth)),
  };
}

/** A Markdown table for humans: strict and lenient P/R/F1 (percent) with counts, per type and overall. */
export function nerreEntryTable(result: NerreEntryEvaluation): string {
  const percent = (value: number) => (100 * value).toFixed(1);
  const row = (name: string, strict: PrfFigures, lenient: PrfFigures) =>
    `| ${name} | ${strict.matched}/${strict.predictions}/${strict.truths} | ${percent(strict.precision)} | ${percent(strict.recall)} | ${percent(strict.f1)} | ${lenient.matched}/${lenient.predictions}/${lenient.truths} | ${percent(lenient.precision)} | ${percent(lenient.recall)} | ${percent(lenient.f1)} |`;
  const lines = [
    `${result.dataset} — ${result.source}: ${result.n} abstracts, ${result.missingPredictions} without a prediction, ${result.unparsablePredictions} unparsable, ${result.unknownPredictions} for unknown abstracts`,
    '',
    '| type | strict matched/pred/truth | P % | R % | F1 % | lenient matched/pred/truth | P % | R % | F1 % |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('**all**', result.strict, result.lenient),
  ];
  for (const type of Object.keys(result.strictByType)) lines.push(row(type, result.strictByType[type]!, result.lenientByType[type]!));
  return lines.join('\n') + '\n';
}
