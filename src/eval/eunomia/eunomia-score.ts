/**
 * Scoring of Eunomia case study 3 per MOF: names are paired per paper (`mof-name-matching.ts`),
 * then a pair is right when its label (Stable / Unstable / Not provided) equals the truth's.
 *
 * - Eunomia's protocol (examples/post_process_results_binary.ipynb): ternary accuracy over the
 *   MOFs whose names were paired, beside the share of ground-truth MOFs paired ("% MOFs
 *   identified"). That is `lenient.accuracy` and `lenient.identifiedShare` here. (The notebook
 *   maps a true "Not provided" to the "Unstable" class; with three labels in the file we compare
 *   the labels as they are.)
 * - Precision, recall and F1 per the project's contract (src/eval/rescorable.ts): matched = pairs
 *   with the right label; precision = matched / predicted MOFs, recall = matched / true MOFs.
 * - strict: names equal after `normalizeMofName`; lenient: Eunomia's `token_sort_ratio > 80`.
 */
import { prfFigures, type PrfFigures } from '../rescorable';
import { WATER_STABILITY_LABELS, type EunomiaMof, type WaterStabilityLabel } from './eunomia-dataset';
import { eunomiaNamePairs, strictNamePairs, EUNOMIA_NAME_THRESHOLD } from './mof-name-matching';

/** One predicted MOF of a paper. */
export interface PredictedMof {
  name: string;
  label: WaterStabilityLabel;
}

/** One paper's predictions and truths. */
export interface EunomiaCase {
  paper: string;
  predictions: readonly PredictedMof[];
  truths: readonly EunomiaMof[];
}

/** P/R/F1 (matched = paired with the right label) plus Eunomia's figures. */
export interface EunomiaFigures extends PrfFigures {
  /** Ground-truth MOFs paired with a prediction by name. */
  identified: number;
  /** identified / truths (Eunomia's "% MOFs identified", as a fraction). */
  identifiedShare: number;
  /** matched / identified: ternary accuracy over the paired MOFs (0 when none is paired). */
  accuracy: number;
}

/** Counts of paired MOFs by true label, then predicted label. */
export type Confusion = Record<WaterStabilityLabel, Record<WaterStabilityLabel, number>>;

/** Per-paper counts under both pairings. */
export interface EunomiaPaperScore {
  paper: string;
  predictions: number;
  truths: number;
  strict: { identified: number; matched: number };
  lenient: { identified: number; matched: number };
}

export interface EunomiaScore {
  strict: EunomiaFigures;
  lenient: EunomiaFigures & { threshold: number };
  /** Of the lenient pairs. */
  confusion: Confusion;
  papers: EunomiaPaperScore[];
}

type NamePairing = (predictions: readonly string[], truths: readonly string[]) => Array<[number, number]>;

function emptyConfusion(): Confusion {
  const row = () => Object.fromEntries(WATER_STABILITY_LABELS.map((label) => [label, 0])) as Record<WaterStabilityLabel, number>;
  return Object.fromEntries(WATER_STABILITY_LABELS.map((label) => [label, row()])) as Confusion;
}

function pairCounts(paperCase: EunomiaCase, pairing: NamePairing, confusion?: Confusion) {
  const pairs = pairing(
    paperCase.predictions.map((prediction) => prediction.name),
    paperCase.truths.map((truth) => truth.name),
  );
  let matched = 0;
  for (const [predictionIndex, truthIndex] of pairs) {
    const predicted = paperCase.predictions[predictionIndex]!.label;
    const truth = paperCase.truths[truthIndex]!.label;
    if (predicted === truth) matched += 1;
    if (confusion) confusion[truth][predicted] += 1;
  }
  return { identified: pairs.length, matched };
}

function figures(predictions: number, truths: number, identified: number, matched: number): EunomiaFigures {
  return {
    ...prfFigures(predictions, truths, matched),
    identified,
    identifiedShare: truths === 0 ? 0 : identified / truths,
    accuracy: identified === 0 ? 0 : matched / identified,
  };
}

/**
 * Score every paper under both pairings and sum the counts over papers (micro-average).
 * `threshold` is the lenient pairing's token-sort-ratio threshold (default 80, Eunomia's).
 */
export function scoreEunomia(cases: readonly EunomiaCase[], threshold: number = EUNOMIA_NAME_THRESHOLD): EunomiaScore {
  const confusion = emptyConfusion();
  const lenientPairing: NamePairing = (predictions, truths) => eunomiaNamePairs(predictions, truths, threshold);
  const papers = cases.map((paperCase) => ({
    paper: paperCase.paper,
    predictions: paperCase.predictions.length,
    truths: paperCase.truths.length,
    strict: pairCounts(paperCase, strictNamePairs),
    lenient: pairCounts(paperCase, lenientPairing, confusion),
  }));
  const sum = (pick: (paper: EunomiaPaperScore) => number) => papers.reduce((total, paper) => total + pick(paper), 0);
  const predictions = sum((paper) => paper.predictions);
  const truths = sum((paper) => paper.truths);
  return {
    strict: figures(
      predictions,
      truths,
      sum((paper) => paper.strict.identified),
      sum((paper) => paper.strict.matched),
    ),
    lenient: {
      ...figures(
        predictions,
        truths,
        sum((paper) => paper.lenient.identified),
        sum((paper) => paper.lenient.matched),
      ),
      threshold,
    },
    confusion,
    papers,
  };
}
