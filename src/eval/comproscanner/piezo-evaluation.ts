/**
 * `assay eval comproscanner-piezo --texts DIR [--engine NAME]`: an engine extracts d33 from the
 * papers the reader captured (`--texts DIR`, see `src/eval/paper-texts.ts`), scored against
 * ComProScanner's composition–d33 ground truth (`piezo-dataset.ts`) as triplets, one-to-one per
 * paper:
 *
 * - **strict** (the headline): the triplet scorer's strict rules — composition equal
 *   (`sameMaterialStrict`: whole formulas of equal composition at rtol 0.01, or equal text) and
 *   d33 within 0.1% after conversion to SI (pC/N and pm/V are the same quantity), a range only
 *   with a range; F1 at 1% and 10% beside it;
 * - **lenient**: ComProScanner's own matching (`comproscanner-matching.ts`): composition equal or
 *   text similarity above 0.9, value equal or inside a true range.
 *
 * Papers whose text is not in DIR still count: their truths are misses (recall measures what a
 * reader of the whole set gets). `withTexts` gives both scorings over the papers that have a
 * text only. Compositions the file lists with a null d33 are not truths (`truthsWithoutValue`).
 */
import type { Article } from '../../contracts/article';
import type { EngineSetup } from '../extractor';
import { findPaperTexts, type PaperTexts } from '../paper-texts';
import { definedAliasesOf, predictionFromTriplet, scoreTriplets, type RecordedCase, type ScoredTriplets } from '../scored-triplets';
import { modeFigures, scoreCorpus, type ModeFigures } from '../triplet-scorer';
import { scoreCorpusComproscanner } from './comproscanner-matching';
import { D33, loadPiezoPapers } from './piezo-dataset';
import type { ScorerDependencies } from '../triplet-scorer-types';

export interface PiezoEvaluationOptions {
  dataRoot: string;
  /** Folder of the captured papers. */
  textsDir: string;
  engine: { name: string } & EngineSetup;
  capture: (path: string) => Promise<Article>;
  /** Keep the first N papers of the ground truth (file order). */
  limit?: number;
  dependencies: ScorerDependencies;
  progress?: (line: string) => void;
}

export interface PiezoEvaluation extends ScoredTriplets {
  dataset: 'comproscanner-piezo';
  split: 'dev';
  engine: string;
  /** Papers with a text in `--texts`, those without one and their DOIs. */
  papersWithText: number;
  missingTexts: number;
  missingTextDois: string[];
  /** Truths of the papers without a text (counted as misses). */
  truthsWithoutText: number;
  /** Compositions listed with a null d33 (not scored). */
  truthsWithoutValue: number;
  /** Both scorings over the papers with a text only. */
  withTexts: { strict: ModeFigures; lenient: ModeFigures };
  texts: { dir: string; unreadable: PaperTexts['unreadable']; unmatched: string[]; duplicates: string[] };
  groundingRate?: number;
  scoring: string;
}

const SCORING =
  'composition–d33 triplets per paper, one-to-one; strict: sameMaterialStrict (whole formulas equal at rtol 0.01, or equal text) and d33 within ' +
  '0.1% in SI (pC/N = pm/V), a range only with a range; lenient: ComProScanner semantic_evaluator matching — composition equal, difflib ' +
  'similarity > 0.9 of the lower-cased, punctuation-free texts (its fallback to PhysBERT), or strict-equal, and value equal (0.1%) or inside ' +
  'a true [low, high] range. Papers without a text count their truths as misses; withTexts scores the papers with a text only.';

/** Run the evaluation. Rejects when the ground truth or the texts folder cannot be read, or the engine fails. */
export async function evaluatePiezo(options: PiezoEvaluationOptions): Promise<PiezoEvaluation> {
  const { engine } = options;
  let papers = await loadPiezoPapers(options.dataRoot);
  if (options.limit !== undefined) papers = papers.slice(0, options.limit);
  const texts = await findPaperTexts(
    options.textsDir,
    papers.map((paper) => paper.doi),
    options.capture,
  );
  const cases: RecordedCase[] = [];
  const withText: RecordedCase[] = [];
  let produced = 0;
  let grounded = 0;
  for (const [position, paper] of papers.entries()) {
    const text = texts.byDoi.get(paper.doi);
    if (!text) {
      cases.push({ paper: paper.doi, truths: paper.truths, predictions: [] });
      continue;
    }
    options.progress?.(`[${position + 1}/${papers.length}] ${paper.doi}`);
    const triplets = (await engine.extractor(text.article, { properties: [D33] })).filter((triplet) => triplet.property === D33);
    if (engine.isGrounded) {
      produced += triplets.length;
      grounded += triplets.filter((triplet) => engine.isGrounded!(triplet, text.article)).length;
    }
    const paperCase: RecordedCase = {
      paper: paper.doi,
      truths: paper.truths,
      predictions: triplets.map((triplet) => predictionFromTriplet(triplet, engine.status ?? 'extracted')),
      definedAliases: definedAliasesOf(text.article),
    };
    cases.push(paperCase);
    withText.push(paperCase);
  }
  const scored = scoreTriplets(cases, options.dependencies, engine.status ?? 'extracted');
  const lenient = scoreCorpusComproscanner(cases, options.dependencies);
  const missing = papers.filter((paper) => !texts.byDoi.has(paper.doi));
  return {
    dataset: 'comproscanner-piezo',
    split: 'dev',
    engine: engine.name,
    ...scored,
    lenient: modeFigures(lenient),
    papers: scored.papers.map((paper, index) => ({ ...paper, lenientMatched: lenient.papers[index]?.matched ?? 0 })),
    papersWithText: withText.length,
    missingTexts: missing.length,
    missingTextDois: missing.map((paper) => paper.doi),
    truthsWithoutText: missing.reduce((total, paper) => total + paper.truths.length, 0),
    truthsWithoutValue: papers.reduce((total, paper) => total + paper.withoutValue.length, 0),
    withTexts: {
      strict: modeFigures(scoreCorpus(withText, options.dependencies, 'strict')),
      lenient: modeFigures(scoreCorpusComproscanner(withText, options.dependencies)),
    },
    texts: { dir: options.textsDir, unreadable: texts.unreadable, unmatched: texts.unmatched, duplicates: texts.duplicates },
    ...(produced > 0 ? { groundingRate: grounded / produced } : {}),
    scoring: SCORING,
  };
}
