/**
 * `assay eval bandgap-200`: score a replayed tool or a live extractor against the manual ground
 * truth of one version, with the triplet scorer. Papers are the truth file's papers in index
 * order (`limit` keeps the first N); texts and recorded predictions are joined to them by DOI
 * (by index only where a DOI is missing or names no truth paper; paper-join.ts), and
 * predictions for other papers are ignored.
 */
import type { Article } from '../../contracts/article';
import type { Triplet } from '../../contracts/triplet';
import { readRegularFile } from '../../capture/node/regular-file';
import type { Extractor } from '../extractor';
import { definedAliasesOf, predictionFromTriplet, scoreTriplets, type RecordedCase, type ScoredTriplets } from '../scored-triplets';
import { bandgapSplit, bandgapTextFiles, loadBandgapTruth, loadJoinedReplay, type BandgapVersion } from './bandgap-dataset';
import { BAND_GAP } from './bandgap-truth';
import type { ScorerDependencies } from '../triplet-scorer-types';

/** What produces the predictions: a recorded tool by name, or an extractor run on the texts. */
export type BandgapSource =
  | { kind: 'replay'; name: string }
  | {
      kind: 'engine';
      name: string;
      extractor: Extractor;
      /** Capture a text file into an Article (`captureFile` in the CLI). */
      capture: (path: string) => Promise<Article>;
      /** Grounding check for the grounding rate (`ground(...).verified`-style); omitted → no rate. */
      isGrounded?: (triplet: Triplet, article: Article) => boolean;
      /** Status of the engine's triplets in the re-scorable output (default `extracted`). */
      status?: string;
    };

export interface BandgapEvaluationOptions {
  dataRoot: string;
  version: BandgapVersion;
  source: BandgapSource;
  limit?: number;
  dependencies: ScorerDependencies;
  /** Progress lines (the CLI passes stderr). */
  progress?: (line: string) => void;
}

/** Scores (strict at the top, `strict` and `lenient`), per-paper counts, predictions and truths. */
export interface BandgapEvaluation extends ScoredTriplets {
  dataset: 'bandgap-200';
  /** The papers scored: "dev" (indexes ≤ 100, all the shared data holds), "test" or "dev+test" (`bandgapSplit`). */
  split: string;
  version: BandgapVersion;
  engine?: string;
  replay?: string;
  /**
   * Replays only: recorded papers joined by index (DOI missing or naming no truth paper),
   * recorded papers joined to none, and (ChemDataExtractor, BERT-PSIE) rows with no usable answer.
   */
  recorded?: { joinedByIndex: number; unjoined: number; skippedRows?: number };
  /** Share of produced triplets whose evidence re-anchors and contains the value; engines only. */
  groundingRate?: number;
}

/**
 * Run the evaluation. Each paper's own abbreviation definitions (from its text) count as
 * aliases for strict material equality. Rejects when dataset files are missing or a replay name
 * is unknown.
 */
export async function evaluateBandgap(options: BandgapEvaluationOptions): Promise<BandgapEvaluation> {
  const { dataRoot, version, source, dependencies } = options;
  // Join against every truth paper, so that `limit` cannot turn a DOI join into an index join.
  const allPapers = await loadBandgapTruth(dataRoot, version);
  const papers = options.limit === undefined ? allPapers : allPapers.slice(0, options.limit);

  const cases: RecordedCase[] = [];
  let groundedCount = 0;
  let producedCount = 0;
  const texts = await bandgapTextFiles(dataRoot, version, allPapers);
  const textPath = (index: number) => {
    const path = texts.get(index);
    if (!path) throw new Error(`bandgap-200 ${version}: no text file for paper ${index}`);
    return path;
  };
  let recordedCounts: BandgapEvaluation['recorded'];
  if (source.kind === 'replay') {
    const { byPaper: recorded, ...counts } = await loadJoinedReplay(dataRoot, version, source.name, allPapers);
    recordedCounts = counts;
    for (const paper of papers)
      cases.push({
        paper: `${paper.index}/${paper.doi}`,
        truths: paper.truths,
        predictions: (recorded.get(paper.index) ?? []).map((prediction) => ({ ...prediction, quote: prediction.sentence ?? null })),
        definedAliases: definedAliasesOf(await readRegularFile(textPath(paper.index), 'utf8')),
      });
  } else {
    for (const [position, paper] of papers.entries()) {
      const path = textPath(paper.index);
      options.progress?.(`[${position + 1}/${papers.length}] ${paper.index}/${paper.doi}`);
      const article = await source.capture(path);
      const triplets = (await source.extractor(article, { properties: [BAND_GAP] })).filter((triplet) => triplet.property === BAND_GAP);
      if (source.isGrounded) {
        producedCount += triplets.length;
        groundedCount += triplets.filter((triplet) => source.isGrounded!(triplet, article)).length;
      }
      cases.push({
        paper: `${paper.index}/${paper.doi}`,
        truths: paper.truths,
        predictions: triplets.map((triplet) => predictionFromTriplet(triplet, source.status ?? 'extracted')),
        definedAliases: definedAliasesOf(article),
      });
    }
  }

  const score = scoreTriplets(cases, dependencies, 'recorded');
  return {
    dataset: 'bandgap-200',
    split: bandgapSplit(papers),
    version,
    ...(source.kind === 'replay' ? { replay: source.name } : { engine: source.name }),
    ...(recordedCounts ? { recorded: recordedCounts } : {}),
    ...score,
    ...(source.kind === 'engine' && source.isGrounded && producedCount > 0 ? { groundingRate: groundedCount / producedCount } : {}),
  };
}
