/**
 * The datasets measured without a model (`assay eval <dataset> --attribution | --context`), as
 * captured articles with their truths: bandgap-200 (text of one version, truths with their
 * evidence sentence), supermat (the SuperMat PDFs in the data root's fixtures, Tc records),
 * polyie (documents rebuilt from tokens, relations whose property has a schema); for `--context`
 * also sofc-exp (every paper, truths of properties a reader defines: `sofc-exp-evidence.ts`).
 */
import { readdir } from 'node:fs/promises';
import { readRegularFile } from '../../capture/node/regular-file';
import { join } from 'node:path';
import type { Article } from '../../contracts/article';
import type { PropertyDefinition } from '../../contracts/property';
import { bandgapSplit, bandgapTextFiles, loadBandgapTruth, type BandgapVersion } from '../bandgap/bandgap-dataset';
import { loadPolyie, polyieSplitFiles, polyieSplitName } from '../polyie/polyie-dataset';
import { propertyCatalogue } from '../../properties';
import { loadSofcExpEvidence, SOFC_EXP_READER_PROPERTIES } from '../sofc-exp/sofc-exp-evidence';
import { parseSupermatTruth } from '../supermat/supermat-truth';
import type { TruthTriplet } from '../triplet-scorer-types';
import { CONTEXT_DATASETS } from './evidence-dataset-names';

export type EvidenceDataset = (typeof CONTEXT_DATASETS)[number];

/** One paper: an identifier, its captured article and its truths. */
export interface EvidenceCase {
  paper: string;
  article: Article;
  truths: TruthTriplet[];
}

export interface EvidenceLoadOptions {
  dataset: EvidenceDataset;
  dataRoot: string;
  /** bandgap-200 only: which text and truth. */
  version?: BandgapVersion;
  limit?: number;
  /** Capture a file into an `Article` (`captureFile` of the CLI). */
  capture: (path: string) => Promise<Article>;
  /** The property schemas (polyie keeps relations whose property one of them names). */
  schemas: readonly PropertyDefinition[];
  progress?: (line: string) => void;
}

async function bandgapCases(options: EvidenceLoadOptions): Promise<EvidenceCase[]> {
  const version = options.version ?? 'pub';
  const truth = await loadBandgapTruth(options.dataRoot, version);
  const files = await bandgapTextFiles(options.dataRoot, version, truth);
  const papers = truth.filter((paper) => paper.truths.length > 0 && files.has(paper.index));
  const cases: EvidenceCase[] = [];
  for (const paper of papers.slice(0, options.limit ?? papers.length)) {
    options.progress?.(`[${cases.length + 1}/${Math.min(papers.length, options.limit ?? Infinity)}] ${paper.index}/${paper.doi}`);
    cases.push({ paper: `${paper.index}/${paper.doi}`, article: await options.capture(files.get(paper.index)!), truths: paper.truths });
  }
  return cases;
}

async function supermatCases(options: EvidenceLoadOptions): Promise<EvidenceCase[]> {
  const truth = parseSupermatTruth(await readRegularFile(join(options.dataRoot, 'datasets', 'supermat', 'SuperMat-2.0.csv'), 'utf8'));
  const folder = join(options.dataRoot, 'fixtures', 'pdf', 'supercon');
  const stems = new Set((await readdir(folder)).filter((name) => /^supermat__.+\.pdf$/u.test(name)).map((name) => name.slice(10, -4)));
  const papers = truth.filter((paper) => stems.has(paper.stem) && paper.truths.length > 0).sort((a, b) => a.stem.localeCompare(b.stem));
  const cases: EvidenceCase[] = [];
  for (const paper of papers.slice(0, options.limit ?? papers.length)) {
    options.progress?.(`[${cases.length + 1}] ${paper.stem}`);
    cases.push({ paper: paper.stem, article: await options.capture(join(folder, `supermat__${paper.stem}.pdf`)), truths: paper.truths });
  }
  return cases;
}

async function polyieCases(options: EvidenceLoadOptions): Promise<EvidenceCase[]> {
  const papers = (await loadPolyie(options.dataRoot, options.schemas)).filter((paper) => paper.truths.length > 0);
  return papers
    .slice(0, options.limit ?? papers.length)
    .map((paper) => ({ paper: paper.id, article: paper.article, truths: paper.truths }));
}

/**
 * The property catalogue `dataset`'s truths are measured against: `schemas`, and for sofc-exp
 * its reader-defined properties as well (`propertyCatalogue`).
 */
export function evidenceCatalogue(dataset: EvidenceDataset, schemas: readonly PropertyDefinition[]): PropertyDefinition[] {
  return dataset === 'sofc-exp' ? propertyCatalogue([...SOFC_EXP_READER_PROPERTIES], schemas) : [...schemas];
}

/**
 * The papers of `options.dataset` that have truths, captured (at most `limit`). Rejects when the
 * dataset's files are missing or a capture fails.
 */
export async function loadEvidenceCases(options: EvidenceLoadOptions): Promise<EvidenceCase[]> {
  if (options.dataset === 'bandgap-200') return bandgapCases(options);
  if (options.dataset === 'supermat') return supermatCases(options);
  if (options.dataset === 'sofc-exp') return loadSofcExpEvidence(options.dataRoot, options.schemas, options.limit);
  return polyieCases(options);
}

/**
 * What a result's `split` says for `dataset` under `dataRoot`: bandgap-200 the split its truth
 * papers make up (`bandgapSplit`: "dev" for papers 1–100), polyie the split files it reads
 * (`polyieSplitName`: "train+validation"), sofc-exp "all" (all of its sets stand for unseen
 * papers), supermat "dev" (the papers whose PDFs the data root holds). Rejects when the files
 * are missing.
 */
export async function evidenceSplit(dataset: EvidenceDataset, dataRoot: string, version: BandgapVersion = 'pub'): Promise<string> {
  if (dataset === 'bandgap-200') return bandgapSplit(await loadBandgapTruth(dataRoot, version));
  if (dataset === 'polyie') return polyieSplitName(await polyieSplitFiles(dataRoot));
  return dataset === 'sofc-exp' ? 'all' : 'dev';
}
