/**
 * `assay eval polyie [--engine NAME]`: compound–property–value relations of PolyIE (Cheng et
 * al., arXiv 2311.07715; jerry3027/PolyIE) scored as triplets. The relations kept are those
 * whose whole property name is a synonym or symbol of one of Assay's property schemas (see
 * `polyie-dataset.ts`; on the dev files that is the band gap only); the engine extracts those
 * properties from each rebuilt document.
 *
 * PolyIE's own protocol scores relations by exact span match (its repository's baselines). An
 * extractor reads the text rather than labelling token spans, so the nearest faithful reading
 * is the triplet scorer: **strict** — the compound name equal as written (case and Unicode
 * folded; polymer names are not formulas, so no composition equality applies) or a whole
 * formula of equal composition, the value equal within 0.1% in the same unit dimension, a bound
 * only with the same bound; **lenient** — the triplet scorer's lenient matching. A value span
 * without a unit takes the schema's canonical unit on the truth side (PolyIE annotates the unit
 * in the property name or table header, e.g. "Eg (eV)"); predictions keep the unit they print.
 */
import type { EngineSetup } from '../extractor';
import { loadPropertySchemas } from '../../properties';
import { definedAliasesOf, predictionFromTriplet, scoreTriplets, type RecordedCase, type ScoredTriplets } from '../scored-triplets';
import { loadPolyie, polyieSplitFiles, polyieSplitName } from './polyie-dataset';
import type { ScorerDependencies } from '../triplet-scorer-types';

export interface PolyieEvaluationOptions {
  dataRoot: string;
  engine: { name: string } & EngineSetup;
  /** Keep the first N documents (train, validation, test, in file order). */
  limit?: number;
  dependencies: ScorerDependencies;
  progress?: (line: string) => void;
}

export interface PolyieEvaluation extends ScoredTriplets {
  dataset: 'polyie';
  /** The split files read, without "_split.json", joined by "+" ("train+validation"; `polyieSplitName`). */
  split: string;
  engine: string;
  /** Property schemas scored (those the kept relations name). */
  properties: string[];
  /** Relations in the documents scored, and those left out because their property has no schema. */
  relations: number;
  withoutSchema: number;
  groundingRate?: number;
  scoring: string;
}

/** Run the evaluation. Rejects when a PolyIE file is missing or the engine fails. */
export async function evaluatePolyie(options: PolyieEvaluationOptions): Promise<PolyieEvaluation> {
  const { engine } = options;
  const files = await polyieSplitFiles(options.dataRoot);
  let papers = await loadPolyie(options.dataRoot, loadPropertySchemas(), files);
  if (options.limit !== undefined) papers = papers.slice(0, options.limit);
  const properties = [...new Set(papers.flatMap((paper) => paper.truths.map((truth) => truth.property)))].sort();
  const cases: RecordedCase[] = [];
  let produced = 0;
  let grounded = 0;
  for (const [position, paper] of papers.entries()) {
    options.progress?.(`[${position + 1}/${papers.length}] ${paper.id}`);
    const triplets =
      properties.length === 0
        ? []
        : (await engine.extractor(paper.article, { properties })).filter((triplet) => properties.includes(triplet.property));
    if (engine.isGrounded) {
      produced += triplets.length;
      grounded += triplets.filter((triplet) => engine.isGrounded!(triplet, paper.article)).length;
    }
    cases.push({
      paper: paper.id,
      truths: paper.truths,
      predictions: triplets.map((triplet) => predictionFromTriplet(triplet, engine.status ?? 'extracted')),
      definedAliases: definedAliasesOf(paper.article),
    });
  }
  return {
    dataset: 'polyie',
    split: polyieSplitName(files),
    engine: engine.name,
    properties,
    relations: papers.reduce((total, paper) => total + paper.relations, 0),
    withoutSchema: papers.reduce((total, paper) => total + paper.withoutSchema, 0),
    ...scoreTriplets(cases, options.dependencies, engine.status ?? 'extracted'),
    ...(produced > 0 ? { groundingRate: grounded / produced } : {}),
    scoring:
      'triplets per document, one-to-one; strict: compound as written or equal whole formula, value within 0.1% in SI, bound only with bound; lenient: the earlier matching (one formula mention, phase on one side ignored, missing unit assumed)',
  };
}
