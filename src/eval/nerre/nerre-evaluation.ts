/**
 * `assay eval llm-nerre-doping`: score predictions (a model's, recorded as data) against the
 * LLM-NERRE doping abstracts, two ways:
 * - `strict` (the headline; top-level precision/recall/f1): whole host and dopant entities and
 *   whole (host, dopant) links, equal after Unicode/whitespace normalization (`nerre-items.ts`),
 *   sets per abstract, micro over abstracts; per type in `strictByType`.
 * - `lenient`: the NERRE word-level scheme (`nerre-score.ts`; lbnlp/NERRE doping/step3_score.py
 *   with docs/EVAL.md's whole formulas), its counts summed over hosts, dopants and link pairs; per
 *   type under the keys `hosts`, `dopants`, `relations`.
 * Also the formula-mention floor: every formula written in the title or abstract is called a
 * host, no dopant, no link — a reference figure computable without a model, not a method.
 */
import { findMaterialMentions } from '../../text/materials';
import { prfFigures, type EvalPrediction, type EvalTruth, type Prf, type PrfFigures } from '../rescorable';
import { loadNerreDoping, type NerreDopingRecord, type NerreEntities } from './nerre-doping-dataset';
import { predictionRows, scoreItems, truthRows, type NerreItem } from './nerre-items';
import type { NerrePrediction } from './nerre-predictions';
import { scoreNerre, type NerreScores, type WordCounts } from './nerre-score';
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
  /** `status` of the prediction rows: `recorded` (the default) for a file, `extracted` for the floor. */
  status?: string;
  formulaCore?: FormulaCore;
}

/** The item types of the doping set: host and dopant entities, and host–dopant links (material = host, value = dopant). */
export const DOPING_ITEM_TYPES = { hosts: 'host', dopants: 'dopant', relations: 'host|||dopant' } as const;

/** How the figures are computed, carried in the JSON. */
const DOPING_SCORING = {
  strict:
    'whole host and dopant entities and whole (host, dopant) links, equal after NFKC and whitespace normalization; sets per abstract; micro',
  lenient:
    'NERRE word level (lbnlp/NERRE doping/step3_score.py, per abstract): entity words split on whitespace, formulas whole (docs/EVAL.md), links as host-word × dopant-word pairs; counts of hosts, dopants and links summed',
};

/**
 * The lenient per-type figures (`hosts`, `dopants`, `relations`: word counts with upstream's
 * ratios) are kept under their keys; `strict`, `lenient` and the rows follow `src/eval/rescorable.ts`.
 */
export interface NerreDopingEvaluation extends NerreScores, Prf {
  dataset: 'llm-nerre-doping';
  source: string;
  /** Abstracts scored. */
  n: number;
  strict: PrfFigures;
  lenient: PrfFigures;
  /** Whole-entity figures per type, under the lenient figures' keys. */
  strictByType: Record<keyof NerreScores, PrfFigures>;
  scoring: typeof DOPING_SCORING;
  predictions: EvalPrediction[];
  truths: EvalTruth[];
  /** Dataset items that failed validation and were skipped. */
  malformedRecords: number;
  /** Scored abstracts with no prediction (counted as predicting nothing). */
  missingPredictions: number;
  /** Predictions whose id names no scored abstract (ignored). */
  unknownPredictions: number;
}

/** Hosts, dopants and links of one abstract as items (`DOPING_ITEM_TYPES`). */
export function dopingItems(entities: NerreEntities): NerreItem[] {
  return [
    ...entities.hosts.map((host) => ({ property: DOPING_ITEM_TYPES.hosts, material: host, value: null })),
    ...entities.dopants.map((dopant) => ({ property: DOPING_ITEM_TYPES.dopants, material: dopant, value: null })),
    ...entities.relations.map(({ host, dopant }) => ({ property: DOPING_ITEM_TYPES.relations, material: host, value: dopant })),
  ];
}

/** Word counts of the three types summed into one figure: predictions = tp + fp, truths = tp + fn, matched = tp. */
function pooledWords(scores: NerreScores): PrfFigures {
  const counts: WordCounts[] = [scores.hosts, scores.dopants, scores.relations];
  const sum = (key: keyof WordCounts) => counts.reduce((total, count) => total + count[key], 0);
  return prfFigures(sum('tp') + sum('fp'), sum('tp') + sum('fn'), sum('tp'));
}

/** Score `predictions` on the doping set. Throws when the data file is missing or not a JSON list. */
export async function evaluateNerreDoping(options: NerreDopingOptions): Promise<NerreDopingEvaluation> {
  const { records, malformed } = await loadNerreDoping(options.dataRoot);
  const scored = records.slice(0, options.limit ?? records.length);
  const byId = new Map(options.predictions.map((prediction) => [prediction.id, prediction]));
  const ids = new Set(scored.map((record) => record.id));
  const empty = { hosts: [], dopants: [], relations: [] };
  const pairs = scored.map((record) => ({ record, truth: record.truth, predicted: byId.get(record.id) ?? empty }));
  const scores = scoreNerre(pairs, options.formulaCore ?? materialsFormulaCore);
  const items = pairs.map(({ record, truth, predicted }) => ({ record, truth: dopingItems(truth), predicted: dopingItems(predicted) }));
  const strict = scoreItems(items, Object.values(DOPING_ITEM_TYPES));
  const status = options.status ?? 'recorded';
  return {
    dataset: 'llm-nerre-doping',
    source: options.source ?? 'predictions',
    n: scored.length,
    precision: strict.overall.precision,
    recall: strict.overall.recall,
    f1: strict.overall.f1,
    strict: strict.overall,
    lenient: pooledWords(scores),
    strictByType: {
      hosts: strict.byProperty[DOPING_ITEM_TYPES.hosts]!,
      dopants: strict.byProperty[DOPING_ITEM_TYPES.dopants]!,
      relations: strict.byProperty[DOPING_ITEM_TYPES.relations]!,
    },
    scoring: DOPING_SCORING,
    malformedRecords: malformed,
    missingPredictions: scored.filter((record) => !byId.has(record.id)).length,
    unknownPredictions: options.predictions.filter((prediction) => !ids.has(prediction.id)).length,
    ...scores,
    predictions: items.flatMap(({ record, predicted }) => predictionRows(record.id, predicted, status)),
    truths: items.flatMap(({ record, truth }) => truthRows(record.id, truth)),
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

/** A Markdown table for humans: strict (whole entities) and lenient (words) P/R/F1 in percent with counts, per type and overall. */
export function nerreTable(result: NerreDopingEvaluation): string {
  const percent = (value: number) => (100 * value).toFixed(1);
  const cells = (figures: PrfFigures) =>
    `${figures.matched}/${figures.predictions}/${figures.truths} | ${percent(figures.precision)} | ${percent(figures.recall)} | ${percent(figures.f1)}`;
  const words = (score: NerreScores[keyof NerreScores]) => cells(prfFigures(score.tp + score.fp, score.tp + score.fn, score.tp));
  const lines = [
    `${result.source}: ${result.n} abstracts, ${result.missingPredictions} without a prediction, ${result.unknownPredictions} predictions for unknown ids, ${result.malformedRecords} malformed records skipped`,
    '',
    '| type | strict matched/pred/truth | P % | R % | F1 % | lenient (words) matched/pred/truth | P % | R % | F1 % |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| **all** | ${cells(result.strict)} | ${cells(result.lenient)} |`,
  ];
  for (const name of ['hosts', 'dopants', 'relations'] as const)
    lines.push(`| ${name} | ${cells(result.strictByType[name])} | ${words(result[name])} |`);
  return lines.join('\n') + '\n';
}
