/**
 * `assay eval supermat`: run an extractor on the SuperMat PDFs present in the data root
 * (`fixtures/pdf/supercon/supermat__<stem>.pdf`) and score its Tc triplets against the linked
 * records of the same papers. PDFs without records in the CSV are left out (nothing tells
 * "no Tc in this paper" from "not annotated"), as are papers without a PDF.
 */
import { readdir } from 'node:fs/promises';
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import type { EngineSetup } from '../extractor';
import type { Article } from '../../contracts/article';
import { definedAliasesOf, predictionFromTriplet, scoreTriplets, type RecordedCase, type ScoredTriplets } from '../scored-triplets';
import { parseSupermatTruth, TC } from './supermat-truth';
import type { ScorerDependencies } from '../triplet-scorer-types';

export interface SupermatEvaluationOptions {
  dataRoot: string;
  engine: { name: string } & EngineSetup;
  capture: (path: string) => Promise<Article>;
  limit?: number;
  dependencies: ScorerDependencies;
  progress?: (line: string) => void;
}

/** Scores (strict at the top, `strict` and `lenient`), per-paper counts, predictions and truths. */
export interface SupermatEvaluation extends ScoredTriplets {
  dataset: 'supermat';
  split: 'dev';
  engine: string;
  /** Truth records skipped because their Tc text holds no number. */
  unreadableRecords: number;
  groundingRate?: number;
}

/** Run the evaluation. Rejects when the CSV or the PDF folder is missing, or a capture fails. */
export async function evaluateSupermat(options: SupermatEvaluationOptions): Promise<SupermatEvaluation> {
  const { dataRoot, engine } = options;
  const truth = parseSupermatTruth(await readRegularFile(join(dataRoot, 'datasets', 'supermat', 'SuperMat-2.0.csv'), 'utf8'));
  const pdfFolder = join(dataRoot, 'fixtures', 'pdf', 'supercon');
  const pdfStems = new Set(
    (await readdir(pdfFolder))
      .filter((name) => /^supermat__.+\.pdf$/.test(name))
      .map((name) => name.slice('supermat__'.length, -'.pdf'.length)),
  );
  let papers = truth.filter((paper) => pdfStems.has(paper.stem)).sort((a, b) => a.stem.localeCompare(b.stem));
  if (options.limit !== undefined) papers = papers.slice(0, options.limit);

  const cases: RecordedCase[] = [];
  let produced = 0;
  let grounded = 0;
  for (const [position, paper] of papers.entries()) {
    options.progress?.(`[${position + 1}/${papers.length}] ${paper.stem}`);
    const article = await options.capture(join(pdfFolder, `supermat__${paper.stem}.pdf`));
    const triplets = (await engine.extractor(article, { properties: [TC] })).filter((triplet) => triplet.property === TC);
    if (engine.isGrounded) {
      produced += triplets.length;
      grounded += triplets.filter((triplet) => engine.isGrounded!(triplet, article)).length;
    }
    cases.push({
      paper: paper.stem,
      truths: paper.truths,
      predictions: triplets.map((triplet) => predictionFromTriplet(triplet, engine.status ?? 'extracted')),
      definedAliases: definedAliasesOf(article),
    });
  }
  const score = scoreTriplets(cases, options.dependencies, engine.status ?? 'extracted');
  return {
    dataset: 'supermat',
    split: 'dev',
    engine: engine.name,
    ...score,
    unreadableRecords: papers.reduce((total, paper) => total + paper.unreadable, 0),
    ...(produced > 0 ? { groundingRate: grounded / produced } : {}),
  };
}
