/**
 * Evidence selectors, as the W3C Web Annotation Data Model defines them
 * (https://www.w3.org/TR/annotation-model/#text-quote-selector and #text-position-selector):
 * a quote with some context either side, and character offsets into `Article.text`. A quote is
 * re-anchored by position first, then by a fuzzy match of quote + context (Hypothesis client).
 */
import { z } from 'zod';
import { boundedText, TEXT_LIMITS } from './text-limits';

export const TextQuoteSelectorSchema = z.object({
  type: z.literal('TextQuoteSelector'),
  exact: boundedText(TEXT_LIMITS.quote).min(1),
  prefix: boundedText(TEXT_LIMITS.quoteContext),
  suffix: boundedText(TEXT_LIMITS.quoteContext),
});
export type TextQuoteSelector = z.infer<typeof TextQuoteSelectorSchema>;

export const TextPositionSelectorSchema = z.object({
  type: z.literal('TextPositionSelector'),
  /** UTF-16 offsets into `Article.text`, end exclusive. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type TextPositionSelector = z.infer<typeof TextPositionSelectorSchema>;

export const EvidenceSchema = z.object({
  quote: TextQuoteSelectorSchema,
  position: TextPositionSelectorSchema.optional(),
  /** `Block.id` the quote lies in, and its page for PDFs. */
  blockId: boundedText(TEXT_LIMITS.blockId).optional(),
  page: z.number().int().positive().optional(),
});
export type Evidence = z.infer<typeof EvidenceSchema>;
