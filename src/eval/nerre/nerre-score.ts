/**
 * NERRE word-level scoring, after lbnlp/NERRE `doping/step3_score.py` (`evaluate`; Dagdelen et
 * al., Nat. Commun. 15, 1418 (2024)), applied per abstract instead of per sentence:
 * - entities of one type: gold words G and predicted words T (repeats kept, see `entityWords`);
 *   tp = words of G found in T, fn = words of G not in T, fp = words of T not in G;
 *   precision = tp / (tp + fp) (0 when nothing is predicted), recall = tp / (tp + fn),
 *   F1 = tp / (tp + (fp + fn) / 2) — upstream's formulas, counts summed over abstracts (micro).
 * - links: every (host word, dopant word) pair of every host–dopant link, repeats kept; correct =
 *   gold pairs found among the predicted pairs, fp = predicted pairs not among the gold pairs;
 *   precision = correct / (correct + fp), recall = correct / gold pairs, F1 their harmonic mean (0
 *   when either is 0). Upstream divides by all predicted pairs instead, which puts precision above
 *   1 when a gold pair repeats (`TiO 2` doped with `N` and `N element` gives `TiO2 N` twice, and one
 *   predicted `TiO2 N` is "correct" twice); the two agree whenever no pair repeats.
 * Where upstream divides by zero (no gold words at all) the ratio here is 0.
 */
import type { Prf } from '../rescorable';
import type { NerreEntities } from './nerre-doping-dataset';
import { entitiesWords, entityWords, materialsFormulaCore, type FormulaCore } from './nerre-words';

/** Word counts of one entity type (or link pairs: tp = correct, fp/fn = predicted/gold − correct). */
export interface WordCounts {
  tp: number;
  fp: number;
  fn: number;
}

export type WordScore = WordCounts & Prf;

/** Scores per entity type and for host–dopant links. */
export interface NerreScores {
  hosts: WordScore;
  dopants: WordScore;
  relations: WordScore;
}

/** Upstream's per-type counting on two word lists (membership, repeats counted). */
export function countWords(gold: readonly string[], predicted: readonly string[]): WordCounts {
  const predictedSet = new Set(predicted);
  const goldSet = new Set(gold);
  const tp = gold.filter((word) => predictedSet.has(word)).length;
  return { tp, fn: gold.length - tp, fp: predicted.filter((word) => !goldSet.has(word)).length };
}

/** Upstream's link pairs: `host-word dopant-word` for every word of each side of each link. */
export function relationPairs(relations: NerreEntities['relations'], formulaCore: FormulaCore = materialsFormulaCore): string[] {
  return relations.flatMap(({ host, dopant }) => {
    const dopantWords = entityWords(dopant, formulaCore);
    return entityWords(host, formulaCore).flatMap((hostWord) => dopantWords.map((dopantWord) => `${hostWord} ${dopantWord}`));
  });
}

/** Link counts: correct = gold pairs present among predicted pairs; fp = predicted pairs absent from the gold (as `countWords`). */
export function countPairs(gold: readonly string[], predicted: readonly string[]): WordCounts {
  return countWords(gold, predicted);
}

function add(total: WordCounts, part: WordCounts): void {
  total.tp += part.tp;
  total.fp += part.fp;
  total.fn += part.fn;
}

/** Entity ratios, upstream formulas: F1 = tp / (tp + (fp + fn) / 2). */
export function wordScore(counts: WordCounts): WordScore {
  const { tp, fp, fn } = counts;
  return {
    ...counts,
    precision: tp + fp === 0 ? 0 : tp / (tp + fp),
    recall: tp + fn === 0 ? 0 : tp / (tp + fn),
    f1: tp === 0 ? 0 : tp / (tp + 0.5 * (fp + fn)),
  };
}

/** Link ratios: precision = correct / (correct + fp), recall = correct / gold, harmonic F1 (0 when either is 0). */
export function pairScore(counts: WordCounts): WordScore {
  const precision = counts.tp + counts.fp === 0 ? 0 : counts.tp / (counts.tp + counts.fp);
  const recall = counts.tp + counts.fn === 0 ? 0 : counts.tp / (counts.tp + counts.fn);
  return { ...counts, precision, recall, f1: precision === 0 || recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** Counts of one abstract: truth against prediction (an absent prediction is all misses). */
export function countAbstract(
  truth: NerreEntities,
  predicted: NerreEntities,
  formulaCore: FormulaCore = materialsFormulaCore,
): Record<keyof NerreScores, WordCounts> {
  return {
    hosts: countWords(entitiesWords(truth.hosts, formulaCore), entitiesWords(predicted.hosts, formulaCore)),
    dopants: countWords(entitiesWords(truth.dopants, formulaCore), entitiesWords(predicted.dopants, formulaCore)),
    relations: countPairs(relationPairs(truth.relations, formulaCore), relationPairs(predicted.relations, formulaCore)),
  };
}

/** Micro-averaged scores over pairs of (truth, prediction), one pair per abstract. */
export function scoreNerre(
  pairs: Iterable<{ truth: NerreEntities; predicted: NerreEntities }>,
  formulaCore: FormulaCore = materialsFormulaCore,
): NerreScores {
  const totals = { hosts: { tp: 0, fp: 0, fn: 0 }, dopants: { tp: 0, fp: 0, fn: 0 }, relations: { tp: 0, fp: 0, fn: 0 } };
  for (const { truth, predicted } of pairs) {
    const counts = countAbstract(truth, predicted, formulaCore);
    add(totals.hosts, counts.hosts);
    add(totals.dopants, counts.dopants);
    add(totals.relations, counts.relations);
  }
  return { hosts: wordScore(totals.hosts), dopants: wordScore(totals.dopants), relations: pairScore(totals.relations) };
}
