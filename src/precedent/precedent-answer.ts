/**
 * The answer to a precedent question ("has this material been reported to be superconducting,
 * and at what temperature?"), as `assay precedent` and `assay eval cornell-tc` carry it
 * (docs/EVAL.md, the command contract: `{ answer: Yes|No|Unknown, values, sources, … }`).
 */
import { z } from 'zod';

/** Where a value was reported: a DOI when known, else the reference table's own code (SuperCon `refno`). */
export const precedentReferenceSchema = z.object({
  doi: z.string().min(1).optional(),
  code: z.string().min(1).optional(),
});

/**
 * One reported temperature: `Tc` (superconducting transition) or `Tcn` (lowest temperature
 * measured without superconductivity), in kelvin, with the text it was read from.
 */
export const precedentValueSchema = z.object({
  kind: z.enum(['Tc', 'Tcn']),
  value: z.number().finite(),
  unit: z.literal('K'),
  reference: precedentReferenceSchema,
  quote: z.string().min(1),
});

/** A whole answer. `values` lists the headline value first (highest Tc for Yes, lowest Tcn for No). */
export const precedentAnswerSchema = z.object({
  answer: z.enum(['Yes', 'No', 'Unknown']),
  values: z.array(precedentValueSchema),
  sources: z.array(z.string()),
});

export type PrecedentReference = z.infer<typeof precedentReferenceSchema>;
export type PrecedentValue = z.infer<typeof precedentValueSchema>;
export type PrecedentAnswer = z.infer<typeof precedentAnswerSchema>;
