/**
 * Caps on the free strings and lists of the replies SLM-MATRIX asks models for (MoA, reading,
 * MCTS steps, the discriminator's reconstruction, Chain-of-Verification answers). They go out in
 * the JSON schema as `maxLength` / `maxItems`, which constrained-decoding servers (vLLM with
 * XGrammar or Outlines, llama.cpp's grammar) enforce: a model that loops inside a string or a list
 * is made to close it, so its reply ends as JSON instead of running to max_tokens. Where the
 * grammar ignores them (WebLLM 0.2.79's XGrammar), max_tokens is what stops it: the preset's, or
 * for a request without one, a bound sized to the schema (`maxTokensForSchema` in
 * `generateObject`); the reply then ends `truncated-output` after its one retry.
 *
 * The caps are advice to the decoder, not validation rules: zod accepts a longer string or list
 * (`limited`), because a real long sentence must not be lost, and every quote has to re-anchor in
 * the article at the grounding gate anyway, so a long one cannot smuggle anything in.
 */
import { z } from 'zod';
import { MAX_CHUNK_CHARS } from '../text/retrieval';

export const REPLY_LIMITS = {
  /** A material as written (formula or name): SuperMat's longest of 1,133 is 86 characters; twice that and more. */
  material: 200,
  /** The property's name as the model writes it ("band_gap", "band gap"). */
  property: 100,
  /** A value as printed: "1.45", "1.2-1.5", "(3.40 ± 0.05) × 10^3". */
  value: 64,
  /** A unit as printed: "eV", "mS cm^-1", "kJ mol−1 K−1". */
  unit: 32,
  /**
   * A quote: one sentence, table row or caption, copied from one chunk of the passage; chunks are
   * cut at `MAX_CHUNK_CHARS` (1,200), so no single-chunk quote is longer (0.24% of bandgap-200's
   * 59,433 chunks are over 1,000 characters).
   */
  quote: MAX_CHUNK_CHARS,
  /**
   * Conditions a model states for one triplet (issue 26): a method, a temperature or pressure, a
   * direction, a phase — a handful; past that the model is listing the paper, not one value.
   */
  conditionsPerTriplet: 4,
  /** A condition's normalized value as the model writes it: "HSE06", "LSDA+U+SO", "300 K", "indirect". */
  conditionValue: 32,
  /** The words a condition is copied from ("at the HSE06 level", "under 10 GPa of hydrostatic pressure"). */
  conditionText: 80,
  /** An MCTS reasoning step in words (≈ 500 tokens): a step is a few sentences, and the triplets must fit beside it. */
  stepText: 2_000,
  /**
   * Triplets (or materials) in one reply. No bandgap-200 paper states more than 20 band gaps in
   * all its text, so 32 per call is generous. A call whose text states more loses those past 32
   * on a server that enforces it; in practice max_tokens binds first (at 1,024 tokens a reply
   * holds about 20 triplets with one-sentence quotes), and such a reply ends `truncated-output`,
   * recorded in the run's problems.
   */
  itemsPerReply: 32,
} as const;

/** `schema` with a JSON-schema `maxLength` (strings) or `maxItems` (arrays) of `cap`, which zod does not enforce. */
export function limited<T extends z.ZodString | z.ZodArray<z.ZodType>>(schema: T, cap: number): T {
  return schema.meta(schema instanceof z.ZodString ? { maxLength: cap } : { maxItems: cap }) as T;
}
