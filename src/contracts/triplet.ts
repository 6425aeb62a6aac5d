/**
 * A material–property–value–unit fact with its evidence: what every extractor (rules, the
 * SLM-MATRIX paths, replayed tools) produces and what scoring, grounding and the dataset use.
 */
import { z } from 'zod';
import { ConditionListSchema, ProvenanceSchema } from './conditions';
import { EvidenceSchema } from './evidence';
import { boundedText, TEXT_LIMITS } from './text-limits';

/** A reported value: a number, or a range `low`–`high` ("1.2–1.5 eV"). */
export const ReportedValueSchema = z.union([
  z.object({
    kind: z.literal('number'),
    value: z.number(),
    uncertainty: z.number().nonnegative().optional(),
    approximate: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('range'), low: z.number(), high: z.number(), approximate: z.boolean().optional() }),
]);
export type ReportedValue = z.infer<typeof ReportedValueSchema>;

export const TripletSchema = z.object({
  /** The material as written (formula or name), e.g. "La2-xSrxCuO4 (x = 0.15)". */
  material: boundedText(TEXT_LIMITS.material).min(1),
  /** Property schema name, e.g. "band_gap", "tc". */
  property: boundedText(TEXT_LIMITS.property).min(1),
  value: ReportedValueSchema,
  /** Unit as written, e.g. "eV", "K", "GPa"; "" for dimensionless. */
  unit: boundedText(TEXT_LIMITS.unit),
  /** The value as printed in the text ("3.4", "~1.45", "1.2–1.5"). */
  valueText: boundedText(TEXT_LIMITS.valueText).optional(),
  /**
   * The conditions the value holds under (method, temperature, pressure, field, direction,
   * phase…), each read from the evidence with its span (`src/contracts/conditions.ts`). A legacy
   * free-text string is accepted and read as one `other` condition.
   */
  conditions: ConditionListSchema.optional(),
  /** Measured or computed in this paper, or cited from elsewhere (with its reference marker). */
  provenance: ProvenanceSchema.optional(),
  evidence: EvidenceSchema.optional(),
  /** Which extractor produced it: "rules", "moa", "mcts", or a replayed tool's name. */
  engine: boundedText(TEXT_LIMITS.engine),
});
export type Triplet = z.infer<typeof TripletSchema>;
