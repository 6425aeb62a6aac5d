/**
 * The precedent judge's reply (the answer schema of the reliability-gap paper, Appendix F, cut
 * to what Assay can ground): Yes / No / Unknown; every value with the id of the retrieved text
 * it was read from and a quote copied from that text; related superconductors and electronic or
 * magnetic phases mentioned. The reply is a model's claim: `runJudge` grounds every value
 * before anything of it reaches an answer.
 */
import { z } from 'zod';

/** Absent, or null as small models often write it. */
const optionalText = z.string().nullish();

/**
 * One value the model claims: `Tc` (a superconducting transition temperature), `Tcn` (the
 * lowest temperature measured without superconductivity) or `value` (another property), as
 * the number and unit printed in the quote.
 */
export const judgeValueSchema = z.object({
  kind: z.enum(['Tc', 'Tcn', 'value']),
  value: z.number().finite(),
  unit: z.string(),
  conditions: optionalText,
  sourceId: z.string().min(1),
  quote: z.string().min(1),
});

/** A closely related material the texts call a superconductor (or otherwise note). */
export const judgeRelatedSchema = z.object({ material: z.string().min(1), note: z.string() });

/** An electronic or magnetic phase stated in the texts (Mott insulator, antiferromagnet, CDW, …). */
export const judgePhaseSchema = z.object({
  phase: z.string().min(1),
  note: z.string(),
  sourceId: optionalText,
  quote: optionalText,
});

/** The whole reply. Lists may be omitted (read as empty). */
export const judgeReplySchema = z.object({
  answer: z.enum(['Yes', 'No', 'Unknown']),
  values: z.array(judgeValueSchema).default([]),
  related: z.array(judgeRelatedSchema).default([]),
  phases: z.array(judgePhaseSchema).default([]),
});

export type JudgeValue = z.infer<typeof judgeValueSchema>;
export type JudgeRelated = z.infer<typeof judgeRelatedSchema>;
export type JudgePhase = z.infer<typeof judgePhaseSchema>;
export type JudgeReply = z.infer<typeof judgeReplySchema>;

/**
 * A text the judge may read: an abstract or passage from any source (literature search, the
 * local dataset, a file). `id` is what the model cites as `sourceId` (a DOI, an arXiv id, a
 * dataset key); `origin` names where it came from (e.g. `crossref`, `dataset`).
 */
export const retrievedTextSchema = z.object({
  id: z.string().min(1),
  doi: z.string().min(1).nullable(),
  title: z.string(),
  year: z.number().int().nullable(),
  text: z.string(),
  origin: z.string().min(1),
});
export type RetrievedText = z.infer<typeof retrievedTextSchema>;
