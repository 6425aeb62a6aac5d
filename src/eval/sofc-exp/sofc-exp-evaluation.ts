/**
 * `assay eval sofc-exp`: an engine on the SOFC-Exp dev papers rebuilt from the corpus text, and
 * the quantity parser on the annotated sentences, scored against the experiment frames' value
 * slots (`sofc-exp-dataset.ts` for the truths, `value-corpus-evaluation.ts` for the scoring).
 *
 * The corpus' own slot-filling score (boschresearch/sofc-exp_textmining_resources,
 * `code/source/trainers/sequence_tagging_trainer.py`) is conlleval over the BIO slot tags:
 * exact chunks of the right slot type, micro-averaged. The parser's span figures follow it
 * without the slot type, which neither the parser nor an engine gives (no slot has a property
 * schema); the engine's triplets are matched by material, value and unit dimension.
 */
import { loadPropertySchemas } from '../../properties';
import { evaluateValueCorpus, type ValueCorpusDatasetOptions } from '../value-corpus/value-corpus-evaluation';
import { loadSofcExp, slotSchemas, valueSlots } from './sofc-exp-dataset';

/** How the figures were computed, printed in the JSON as `scoring`. */
export const SOFC_EXP_SCORING =
  'triplets (headline; --engine): the engine, asked for the property schemas in scope.schemas, against the VALUE slot fillers ' +
  "of the dev papers' experiment frames (materials: the MATERIAL fillers of the same frame; thickness LINKs: their material) " +
  "whose unit has the SI dimension of one of those schemas' canonical units. No slot has a property schema (slots), so the " +
  'property is not compared and the unit dimension stands in for it. strict: the material equals one of the truth materials ' +
  '(sameMaterialStrict: whole formulas of equal composition with the same phase, else the same name), the value is equal in SI within ' +
  '0.1% and the units have the same dimension; lenient: sameMaterial against the materials whatever their form, the value within ' +
  "0.1% in SI, a missing unit read as the reported property's canonical unit. One-to-one per paper, counts summed over papers. " +
  'quantities: parseQuantities (quantities with a unit) in the sentences the annotators annotated, against every VALUE slot ' +
  "filler's span: the corpus' slot-filling score (conlleval exact chunks) without the slot type. strict: same start and end and, " +
  "when the truth's text holds a number, the same value (0.1% in SI, same dimension); lenient: the spans overlap.";

export type SofcExpEvaluationOptions = ValueCorpusDatasetOptions;

/** Run the evaluation on the dev set (`limit`: the first N papers). Rejects when a corpus file is missing or the engine fails. */
export async function evaluateSofcExp(options: SofcExpEvaluationOptions) {
  const schemas = loadPropertySchemas();
  const papers = await loadSofcExp(options.dataRoot, schemas, options.limit === undefined ? {} : { limit: options.limit });
  const {
    predictions,
    truths,
    quantities,
    papers: rows,
    ...figures
  } = await evaluateValueCorpus({
    papers,
    engine: options.engine,
    schemas,
    dependencies: options.dependencies,
    ...(options.progress ? { progress: options.progress } : {}),
  });
  const mapping = slotSchemas(valueSlots(papers), schemas);
  const slots = Object.fromEntries(
    Object.entries(mapping).map(([slot, schema]) => {
      const all = papers.flatMap((paper) => paper.truths).filter((truth) => truth.property === slot);
      return [slot, { schema, truths: all.length, inTripletScope: truths.filter((truth) => truth.property === slot).length }];
    }),
  );
  return {
    dataset: 'sofc-exp' as const,
    split: 'dev' as const,
    ...figures,
    scoring: SOFC_EXP_SCORING,
    slots,
    quantities,
    papers: rows,
    predictions,
    truths,
  };
}
