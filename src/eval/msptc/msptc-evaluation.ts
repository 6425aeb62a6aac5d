/**
 * `assay eval msptc`: an engine on the MSPTC dev papers rebuilt from the corpus text, and the
 * quantity parser on the same text, scored against the material–number–unit truths of the
 * `Number_Of` / `Amount_Of` / `Condition_Of` relations (`msptc-dataset.ts` for the truths,
 * `value-corpus-evaluation.ts` for the scoring).
 *
 * The corpus ships no scorer; its paper (Mysore et al., LAW 2019) reports span-level F1, which
 * the parser's figures follow (exact spans strict, overlap lenient). The values are synthesis
 * amounts and conditions (grams, millilitres, hours, °C) that no property schema describes, so
 * the engine's triplets are scored only on those whose unit has a schema's dimension, matched by
 * material, value and unit dimension (`scope` says which and how many were left out, by unit).
 */
import { loadPropertySchemas } from '../../properties';
import { evaluateValueCorpus, type ValueCorpusDatasetOptions } from '../value-corpus/value-corpus-evaluation';
import { loadMsptc, MSPTC_DEV_LIST } from './msptc-dataset';

/** How the figures were computed, printed in the JSON as `scoring`. */
export const MSPTC_SCORING =
  'truths: Number_Of (number -> unit) where the unit is an Amount_Of (-> material: property "amount") or Condition_Of ' +
  '(-> operation: property "condition", materials = the operation\'s Material arguments, else its word) argument. ' +
  'triplets (headline; --engine): the engine, asked for the property schemas in scope.schemas, against the truths whose unit ' +
  "has the SI dimension of one of those schemas' canonical units (temperatures, pressures, lengths, mass concentrations read " +
  'as densities); the rest (scope.outOfScopeByUnit) no schema can report. MSPTC labels no property, so the property is not ' +
  'compared and the unit dimension stands in for it. strict: the material equals one of the truth materials (sameMaterialStrict: ' +
  'whole formulas of equal composition with the same phase, else the same name), the value is equal in SI within 0.1% and the units ' +
  'have the same dimension; lenient: sameMaterial whatever the form, the value within 0.1% in SI, a missing unit read as the ' +
  "reported property's canonical unit. One-to-one per paper, counts summed over papers. quantities: parseQuantities " +
  '(quantities with a unit) on the title and procedure against every truth span (number through unit when adjacent, else the ' +
  'number): strict = same start and end and, when the number is readable, the same value (0.1% in SI, same dimension); ' +
  'lenient = the spans overlap; a quantity on an apparatus or property number (Apparatus-Unit, Property-Unit) is not counted ' +
  '(quantities.ignoredPredictions).';

export type MsptcEvaluationOptions = ValueCorpusDatasetOptions;

/** Run the evaluation on the dev list (`limit`: the first N papers). Rejects when a corpus file is missing or the engine fails. */
export async function evaluateMsptc(options: MsptcEvaluationOptions) {
  const papers = await loadMsptc(options.dataRoot, options.limit === undefined ? {} : { limit: options.limit });
  const {
    predictions,
    truths,
    quantities,
    papers: rows,
    ...figures
  } = await evaluateValueCorpus({
    papers,
    engine: options.engine,
    schemas: loadPropertySchemas(),
    dependencies: options.dependencies,
    ...(options.progress ? { progress: options.progress } : {}),
  });
  return {
    dataset: 'msptc' as const,
    split: 'dev' as const,
    splitList: MSPTC_DEV_LIST,
    ...figures,
    scoring: MSPTC_SCORING,
    quantities,
    papers: rows,
    predictions,
    truths,
  };
}
