/**
 * From the model's triplet (number + verbatim quote) to the contract `Triplet` that grounding,
 * scoring and the dataset use (`src/contracts/triplet.ts`).
 */
import type { Triplet } from '../../contracts/triplet';
import { toConditions, toProvenance } from '../model-conditions';
import type { ExtractedTriplet } from './prompts';

/**
 * `{material, property, value, unit, quote}` → `Triplet` with `value: {kind: 'number'}`, the quote
 * as a W3C TextQuoteSelector without context (anchoring finds the context), and `engine` ("mcts"
 * by default), with the conditions and provenance the model stated (unanchored: the gate keeps
 * only conditions found in the evidence). Units are kept as written; SI conversion is the
 * grounding gate's business.
 */
export function toTriplet(extracted: ExtractedTriplet, engine = 'mcts'): Triplet {
  const conditions = toConditions(extracted.conditions);
  const provenance = toProvenance(extracted.provenance);
  return {
    material: extracted.material,
    property: extracted.property,
    value: { kind: 'number', value: extracted.value },
    unit: extracted.unit,
    valueText: String(extracted.value),
    ...(conditions.length > 0 ? { conditions } : {}),
    ...(provenance ? { provenance } : {}),
    evidence: { quote: { type: 'TextQuoteSelector', exact: extracted.quote, prefix: '', suffix: '' } },
    engine,
  };
}
