/**
 * Degenerate repetition: a language model that falls into a loop and emits the same short unit
 * over and over until max_tokens stops it ("GaN GaN GaN …", a triplet object copied again and
 * again, endless whitespace inside a JSON grammar). Holtzman et al., "The Curious Case of Neural
 * Text Degeneration" (ICLR 2020), name it and show that likelihood-maximising decoding (greedy,
 * low temperature) falls into it; Xu et al., "Learning to Break the Loop" (NeurIPS 2022), show it
 * reinforces itself: each repetition makes the next more likely, so a loop seldom ends on its own.
 *
 * This module only names why a reply that already failed (did not parse or validate) failed: a
 * usable reply is never judged by it, so a false positive costs a wrong label on a failure, not a
 * lost answer.
 */

/** A repetition loop at the end of a reply. */
export interface Repetition {
  /** The repeated unit (the shortest period of the tail). */
  unit: string;
  /** Whole copies of `unit` in the periodic tail (the tail may end inside one more copy). */
  repeats: number;
  /** Characters of the periodic tail. */
  chars: number;
}

/** When a tail counts as a loop (`detectRepetition`). */
export interface RepetitionRule {
  /** Longest unit looked for (characters). */
  maxUnitChars: number;
  /** Fewest consecutive copies of the unit. */
  minRepeats: number;
  /** Fewest characters the periodic tail must cover. */
  minChars: number;
}

/**
 * The default rule, with why each number:
 * - `maxUnitChars` 512: a whole triplet object with a one-sentence quote (≈ 150–400 characters)
 *   is the longest unit a model loops over in an extraction reply; longer units are left to the
 *   other labels (`truncated-output`, `malformed-output`).
 * - `minRepeats` 4: four exact copies in a row of a long unit (a whole triplet, material, value,
 *   quote and all, character for character) at the end of a reply that failed are a loop, not four
 *   facts; with self-reinforcement (Xu et al. 2022) a loop that started goes on far past four.
 * - `minChars` 200 (≈ 50 tokens at 4 characters per token): a short unit must repeat for that long,
 *   e.g. a 1-character unit 200 times, a 5-character one 40 times. The exact periodic runs a
 *   well-formed reply holds (indentation, "0000" in a number, "---" in a table row) are far shorter.
 */
export const REPETITION_RULE: Readonly<RepetitionRule> = { maxUnitChars: 512, minRepeats: 4, minChars: 200 };

/**
 * The loop at the end of `text`, or null. The rule: the last L characters of `text` are periodic
 * with period p (each equals the character p before it), 1 ≤ p ≤ `maxUnitChars`, with
 * L ≥ `minRepeats`·p and L ≥ `minChars`; the smallest such p is the unit. The tail may end inside
 * a copy (a reply cut at max_tokens mid-unit still counts). Only the tail is looked at: a loop
 * runs until the reply ends, and whatever came before it (the JSON's opening) is not repeated.
 * Exact repetition only: a loop whose copies differ (a counter that increments, sampled
 * variations) is not detected and keeps its other label. O(n · maxUnitChars) at worst, far less
 * in practice (a non-periodic tail fails at its first comparison). Never throws.
 */
export function detectRepetition(text: string, rule: RepetitionRule = REPETITION_RULE): Repetition | null {
  const end = text.length;
  for (let period = 1; period <= rule.maxUnitChars && period * rule.minRepeats <= end; period += 1) {
    let index = end - 1;
    while (index - period >= 0 && text[index] === text[index - period]) index -= 1;
    // Characters index+1 … end−1 equal the one `period` before them; with the first copy, the tail is `period` longer.
    const chars = end - 1 - index + period;
    if (chars >= rule.minRepeats * period && chars >= rule.minChars) {
      const start = end - chars;
      return { unit: text.slice(start, start + period), repeats: Math.floor(chars / period), chars };
    }
  }
  return null;
}
