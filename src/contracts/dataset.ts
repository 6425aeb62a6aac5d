/**
 * The personal dataset: one saved triplet with its full provenance (paper, evidence selectors,
 * machine verdict, the reader's review and any edit kept beside the model's answer). This is the
 * row of the `triplets` table and the line of an Assay JSON/JSONL export, so the same zod schema
 * validates what is imported.
 */
import { z } from 'zod';
import { EvidenceSchema } from './evidence';
import { ReportedValueSchema } from './triplet';
import { VerificationAnswerSchema } from './verification-question';

/** The reader's decision on a machine verdict. `edited` means accepted with changes. */
export const ReviewDecisionSchema = z.enum(['pending', 'accepted', 'edited', 'rejected']);
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

/** What the model said, kept beside a reader's edit. */
export const ModelAnswerSchema = z.object({
  material: z.string().min(1),
  value: ReportedValueSchema,
  valueText: z.string().optional(),
  unit: z.string(),
});
export type ModelAnswer = z.infer<typeof ModelAnswerSchema>;

/** The source paper of a saved triplet (enough for a citation: CSL-JSON/BibTeX exports). */
export const SourcePaperSchema = z.object({
  /** `papers` key: `doi:…`, `url:…` or `title:…`. */
  key: z.string().min(1),
  doi: z.string().nullable(),
  url: z.string().nullable(),
  title: z.string(),
  authors: z.array(z.string()),
  journal: z.string().nullable(),
  year: z.number().int().nullable(),
});
export type SourcePaper = z.infer<typeof SourcePaperSchema>;

export const DatasetTripletSchema = z.object({
  /** Unique id: `<run id>:<record index>` for a row saved from a run (saving the record again updates it), else a random UUID. */
  id: z.string().min(1),
  /**
   * Duplicate key: DOI (else paper key) | material (normalized formula, else lower-cased name) |
   * property | value in SI (else as printed). Saving or importing a triplet whose key exists
   * merges into the existing row instead of adding one (see src/store/dataset-repository.ts).
   */
  mergeKey: z.string().min(1),
  paper: SourcePaperSchema,
  material: z.string().min(1),
  /** Property schema name, e.g. "band_gap". */
  property: z.string().min(1),
  value: ReportedValueSchema,
  valueText: z.string().optional(),
  unit: z.string(),
  /** The value in SI units (`toSI`), null when the unit does not convert (or is dimensionless text). */
  si: z.object({ value: ReportedValueSchema, unit: z.string() }).nullable(),
  conditions: z.string().optional(),
  evidence: EvidenceSchema.optional(),
  /** The machine verdict (cross-verification + grounding gate). */
  status: z.enum(['verified', 'needs_review', 'rejected']),
  review: z.object({
    decision: ReviewDecisionSchema,
    /** ISO 8601 time of the decision. */
    at: z.string().optional(),
    /** The model's answer when the reader edited it. */
    original: ModelAnswerSchema.optional(),
  }),
  /** Which paths or proposers agreed ("moa", "gd", "proposers"). */
  votes: z.array(z.string()),
  /**
   * Chain-of-Verification answers about the evidence (Eunomia): phase, conditions, measured or
   * computed, … with a supporting quote each. Absent in rows saved before it and in imports without it.
   */
  verificationAnswers: z.array(VerificationAnswerSchema).optional(),
  /** Model ids that took part (the run record's roster). */
  models: z.array(z.string()),
  /** The run that produced it, if any (imports and manual entries have none). */
  runId: z.string().optional(),
  /** ISO 8601 time it was saved (first save; merges keep it). */
  savedAt: z.string(),
});
export type DatasetTriplet = z.infer<typeof DatasetTripletSchema>;
