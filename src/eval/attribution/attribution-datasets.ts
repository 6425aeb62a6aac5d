/**
 * The datasets `assay eval <dataset> --attribution` reads, as `AttributionCase`s (captured
 * article + truths): bandgap-200 (text of one version, truths with their evidence sentence),
 * supermat (the SuperMat PDFs in the data root's fixtures, Tc records), polyie (documents
 * rebuilt from tokens, relations whose property has a schema). Then the measurement.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Article } from '../../contracts/article';
import type { AttributionDependencies } from '../../verify/attribution';
import { bandgapTextFiles, loadBandgapTruth, type BandgapVersion } from '../bandgap/bandgap-dataset';
import { loadPolyie } from '../polyie/polyie-dataset';
import type { SiConverter } from '../si-conversion';
import { parseSupermatTruth } from '../supermat/supermat-truth';
import { evaluateAttribution, type AttributionCase, type AttributionFigures } from './attribution-evaluation';

/** Datasets the measurement supports. */
export const ATTRIBUTION_DATASETS = ['bandgap-200', 'supermat', 'polyie'] as const;
export type AttributionDataset = (typeof ATTRIBUTION_DATASETS)[number];

export interface AttributionRunOptions {
  dataset: AttributionDataset;
  dataRoot: string;
  /** bandgap-200 only: which text and truth. */
  version?: BandgapVersion;
  limit?: number;
  /** Capture a file into an `Article` (`captureFile` of the CLI). */
  capture: (path: string) => Promise<Article>;
  convert: SiConverter;
  dependencies: AttributionDependencies;
  progress?: (line: string) => void;
}

/** The JSON `assay eval <dataset> --attribution --json` prints. */
export type AttributionReport = { dataset: AttributionDataset; split: 'dev'; version: string } & AttributionFigures;

async function bandgapCases(options: AttributionRunOptions): Promise<AttributionCase[]> {
  const version = options.version ?? 'pub';
  const files = await bandgapTextFiles(options.dataRoot, version);
  const papers = (await loadBandgapTruth(options.dataRoot, version)).filter((paper) => paper.truths.length > 0 && files.has(paper.index));
  const cases: AttributionCase[] = [];
  for (const paper of papers.slice(0, options.limit ?? papers.length)) {
    options.progress?.(`[${cases.length + 1}/${Math.min(papers.length, options.limit ?? Infinity)}] ${paper.index}/${paper.doi}`);
    cases.push({ paper: `${paper.index}/${paper.doi}`, article: await options.capture(files.get(paper.index)!), truths: paper.truths });
  }
  return cases;
}

async function supermatCases(options: AttributionRunOptions): Promise<AttributionCase[]> {
  const truth = parseSupermatTruth(await readFile(join(options.dataRoot, 'datasets', 'supermat', 'SuperMat-2.0.csv'), 'utf8'));
  const folder = join(options.dataRoot, 'fixtures', 'pdf', 'supercon');
  const stems = new Set((await readdir(folder)).filter((name) => /^supermat__.+\.pdf$/u.test(name)).map((name) => name.slice(10, -4)));
  const papers = truth.filter((paper) => stems.has(paper.stem) && paper.truths.length > 0).sort((a, b) => a.stem.localeCompare(b.stem));
  const cases: AttributionCase[] = [];
  for (const paper of papers.slice(0, options.limit ?? papers.length)) {
    options.progress?.(`[${cases.length + 1}] ${paper.stem}`);
    cases.push({ paper: paper.stem, article: await options.capture(join(folder, `supermat__${paper.stem}.pdf`)), truths: paper.truths });
  }
  return cases;
}

async function polyieCases(options: AttributionRunOptions): Promise<AttributionCase[]> {
  const papers = (await loadPolyie(options.dataRoot, options.dependencies.schemas)).filter((paper) => paper.truths.length > 0);
  return papers
    .slice(0, options.limit ?? papers.length)
    .map((paper) => ({ paper: paper.id, article: paper.article, truths: paper.truths }));
}

/**
 * Read `options.dataset` and measure the attribution check on it (`evaluateAttribution`).
 * Papers without truths are left out. Rejects when the dataset's files are missing or a capture
 * fails. `version` in the report is the bandgap-200 version, '-' for the others.
 */
export async function runAttributionEvaluation(options: AttributionRunOptions): Promise<AttributionReport> {
  const cases =
    options.dataset === 'bandgap-200'
      ? await bandgapCases(options)
      : options.dataset === 'supermat'
        ? await supermatCases(options)
        : await polyieCases(options);
  const figures = evaluateAttribution(cases, options.convert, options.dependencies);
  const version = options.dataset === 'bandgap-200' ? (options.version ?? 'pub') : '-';
  return { dataset: options.dataset, split: 'dev', version, ...figures };
}
