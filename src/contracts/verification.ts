/**
 * The verdict on one triplet after SLM-MATRIX dual cross-verification, refinement and Assay's
 * grounding gate (src/matrix/cross-verify-refine.ts decides it). Stored with each run (`runs`
 * table) and turned into dataset rows when the reader saves.
 */
import { z } from 'zod';
import { TripletSchema } from './triplet';
import { VerificationAnswerSchema } from './verification-question';

export const VerificationStatusSchema = z.enum(['verified', 'needs_review', 'rejected']);
export type VerificationStatus = z.infer<typeof VerificationStatusSchema>;

/** How the two paths' answers compared: a pair (agreed, conflict) or a triplet only one path gave. */
export const CrossVerifyOutcomeSchema = z.enum(['agreed', 'moa-only', 'gd-only', 'conflict']);
export type CrossVerifyOutcome = z.infer<typeof CrossVerifyOutcomeSchema>;

/** The verdict on one triplet after cross-verification and grounding. */
export const VerificationRecordSchema = z.object({
  status: VerificationStatusSchema,
  /** The triplet kept (the MoA one of an agreed pair, else whichever path gave one). */
  triplet: TripletSchema,
  /** Which paths or proposers gave an equivalent triplet ("moa", "gd", or replayed tool names). */
  votes: z.array(z.string()),
  /** For `needs_review`: both answers, for a person to adjudicate. */
  adjudication: z
    .object({
      outcome: CrossVerifyOutcomeSchema,
      moa: TripletSchema.optional(),
      gd: TripletSchema.optional(),
      reason: z.string().optional(),
    })
    .optional(),
  /** For `rejected`: the grounding gate's reasons; for `verified`, doubts it noted (fuzzy anchor). */
  reasons: z.array(z.string()),
  /**
   * Chain-of-Verification answers (src/matrix/chain-of-verification), for triplets that were
   * `verified` after grounding; absent in runs stored before it, and when none counted.
   */
  verificationAnswers: z.array(VerificationAnswerSchema).optional(),
});
export type VerificationRecord = z.infer<typeof VerificationRecordSchema>;
