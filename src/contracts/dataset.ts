/**
 * The personal dataset: one saved triplet with its full provenance (paper, evidence selectors,
 * machine verdict, the reader's review and any edit kept beside the model's answer). This is the
 * row of the `triplets` table and the line of an Assay JSON/JSONL export, so the same zod schema
 * validates what is imported.
 */
import { z } from 'zod';
import { ConditionListSchema, ProvenanceSchema } from './conditions';
import { EvidenceSchema } from './evidence';
import { boundedList, boundedText, TEXT_LIMITS } from './text-limits';
import { ReportedValueSchema } from './triplet';
import { VerificationAnswerSchema } from './verification-question';

/** The reader's decision on a machine verdict. `edited` means accepted with changes. */
export const ReviewDecisionSchema = z.enum(['pending', 'accepted', 'edited', 'rejected']);
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

/** What the model said, kept beside a reader's edit. */
export const ModelAnswerSchema = z.object({
  material: boundedText(TEXT_LIMITS.material).min(1),
  value: ReportedValueSchema,
  valueText: boundedText(TEXT_LIMITS.valueText).optional(),
  unit: boundedText(TEXT_LIMITS.unit),
});
export type ModelAnswer = z.infer<typeof ModelAnswerSchema>;

/** The source paper of a saved triplet (enough for a citation: CSL-JSON/BibTeX exports). */
export const SourcePaperSchema = z.object({
  /** `papers` key: `doi:…`, `url:…` or `title:…`. */
  key: boundedText(TEXT_LIMITS.paperKey).min(1),
  doi: boundedText(TEXT_LIMITS.doi).nullable(),
  url: boundedText(TEXT_LIMITS.url).nullable(),
  title: boundedText(TEXT_LIMITS.title),
  authors: boundedList(boundedText(TEXT_LIMITS.author), TEXT_LIMITS.authors),
  journal: boundedText(TEXT_LIMITS.journal).nullable(),
  /** Volume and pages as captured ("127", "10709-10716"); absent on rows saved before they were read. */
  volume: boundedText(TEXT_LIMITS.volume).nullable().optional(),
  pages: boundedText(TEXT_LIMITS.pages).nullable().optional(),
  year: z.number().int().nullable(),
});
export type SourcePaper = z.infer<typeof SourcePaperSchema>;

/** An ISO 8601 date and time ("2025-03-02T09:00:00.000Z"; an offset such as "+02:00" is allowed). */
const IsoTimeSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time, such as 2025-03-02T09:00:00.000Z' });

/**
 * Where an imported row came from: the file's name as the reader chose it, when it was imported,
 * and the row's id in that file (imports give every row a new id, so a file cannot name, and
 * later overwrite, a row saved here; see src/export/import-triplets.ts).
 */
export const ImportNoteSchema = z.object({
  file: boundedText(TEXT_LIMITS.fileName),
  /** ISO 8601 time of the import. */
  at: IsoTimeSchema,
  /** The row's `id` in the imported file. */
  sourceId: boundedText(TEXT_LIMITS.id),
});
export type ImportNote = z.infer<typeof ImportNoteSchema>;

export const DatasetTripletSchema = z.object({
  /** Unique id: `<run id>:<record index>` for a row saved from a run (saving the record again updates it), else a random UUID. */
  id: boundedText(TEXT_LIMITS.id).min(1),
  /**
   * Duplicate key (`mergeKeyOf`, src/store/dataset-triplet.ts):
   * `<paper>|<material>|<property>|<value> <unit>[|<conditions>]` —
   * paper `doi:<DOI lower-cased>` (else the paper key); material the Hill-order formula (else
   * the lower-cased name); value the SI value to 6 significant figures with the SI unit (else as
   * printed, with the unit as written); conditions `conditionsKey` (sorted, lower-cased
   * `kind=value` pairs joined by ";"), left out with its "|" when the row has none, so a row
   * without conditions keeps the key it had before issue 26. For example
   * `doi:10.1/x|GaN|band_gap|3.70103e-19 kg m^2 s^-2|method=hse06` (2.31 eV). 2.31 eV (HSE06) and
   * 2.31 eV (GGA/PBE) are two rows. Saving or importing a triplet whose key exists merges into
   * the existing row instead of adding one (see src/store/dataset-repository.ts). Imports
   * recompute it from the row's own fields (`withOwnKeys`); the v8 upgrade recomputed the key
   * of every stored row with conditions (src/store/migrate-conditions.ts).
   */
  mergeKey: boundedText(TEXT_LIMITS.mergeKey).min(1),
  paper: SourcePaperSchema,
  material: boundedText(TEXT_LIMITS.material).min(1),
  /** Property schema name, e.g. "band_gap". */
  property: boundedText(TEXT_LIMITS.property).min(1),
  value: ReportedValueSchema,
  valueText: boundedText(TEXT_LIMITS.valueText).optional(),
  unit: boundedText(TEXT_LIMITS.unit),
  /** The value in SI units (`toSI`), null when the unit does not convert (or is dimensionless text). */
  si: z.object({ value: ReportedValueSchema, unit: boundedText(TEXT_LIMITS.unit) }).nullable(),
  /** Structured conditions (`src/contracts/conditions.ts`); a legacy free-text string reads as one `other` condition. */
  conditions: ConditionListSchema.optional(),
  /** Measured, computed or cited (with its marker); absent in rows saved before issue 26. */
  provenance: ProvenanceSchema.optional(),
  evidence: EvidenceSchema.optional(),
  /** The machine verdict (cross-verification + grounding gate). */
  status: z.enum(['verified', 'needs_review', 'rejected']),
  /**
   * Why the verdict is not `verified`, and doubts noted on a verified one, in words ("value 99 not
   * in the quote", "only the MoA path gave this triplet"): the verdict's `reasons`, kept so a row
   * left for review says why. Absent in rows saved before issue 27 and when there were none.
   */
  reasons: boundedList(boundedText(TEXT_LIMITS.reason), TEXT_LIMITS.reasons).optional(),
  review: z.object({
    decision: ReviewDecisionSchema,
    /** ISO 8601 time of the decision. */
    at: IsoTimeSchema.optional(),
    /** The model's answer when the reader edited it. */
    original: ModelAnswerSchema.optional(),
  }),
  /** Which paths or proposers agreed ("moa", "gd", "proposers"). */
  votes: boundedList(boundedText(TEXT_LIMITS.vote), TEXT_LIMITS.votes),
  /**
   * Chain-of-Verification answers about the evidence (Eunomia): phase, conditions, measured or
   * computed, … with a supporting quote each. Absent in rows saved before it and in imports without it.
   */
  verificationAnswers: boundedList(VerificationAnswerSchema, TEXT_LIMITS.answers).optional(),
  /** Model ids that took part (the run record's roster). */
  models: boundedList(boundedText(TEXT_LIMITS.model), TEXT_LIMITS.models),
  /** The run that produced it, if any (manual entries have none). */
  runId: boundedText(TEXT_LIMITS.id).optional(),
  /** ISO 8601 time it was saved (first save; merges keep it). */
  savedAt: IsoTimeSchema,
  /** Set on a row added by an import: the file, the time, and the row's id in the file. */
  imported: ImportNoteSchema.optional(),
});
export type DatasetTriplet = z.infer<typeof DatasetTripletSchema>;
