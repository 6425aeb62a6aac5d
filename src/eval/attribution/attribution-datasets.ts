/**
 * `assay eval <dataset> --attribution`: the datasets of src/eval/evidence/ (captured article +
 * truths), then the measurement (`evaluateAttribution`).
 */
import type { Article } from '../../contracts/article';
import type { AttributionDependencies } from '../../verify/attribution';
import type { BandgapVersion } from '../bandgap/bandgap-dataset';
import { EVIDENCE_DATASETS } from '../evidence/evidence-dataset-names';
import { evidenceSplit, loadEvidenceCases, type EvidenceDataset } from '../evidence/evidence-datasets';
import type { SiConverter } from '../si-conversion';
import { evaluateAttribution, type AttributionFigures } from './attribution-evaluation';

/** Datasets the measurement supports. */
export const ATTRIBUTION_DATASETS = EVIDENCE_DATASETS;
export type AttributionDataset = EvidenceDataset;

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
export type AttributionReport = {
  dataset: AttributionDataset;
  /** The papers or files read (`evidenceSplit`). */
  split: string;
  version: string;
} & AttributionFigures;

/**
 * Read `options.dataset` and measure the attribution check on it (`evaluateAttribution`).
 * Papers without truths are left out. Rejects when the dataset's files are missing or a capture
 * fails. `version` in the report is the bandgap-200 version, '-' for the others.
 */
export async function runAttributionEvaluation(options: AttributionRunOptions): Promise<AttributionReport> {
  const cases = await loadEvidenceCases({ ...options, schemas: options.dependencies.schemas });
  const figures = evaluateAttribution(cases, options.convert, options.dependencies);
  const version = options.dataset === 'bandgap-200' ? (options.version ?? 'pub') : '-';
  return { dataset: options.dataset, split: await evidenceSplit(options.dataset, options.dataRoot, options.version), version, ...figures };
}
