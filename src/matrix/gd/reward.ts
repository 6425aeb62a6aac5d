/**
 * The terminal reward R_L of an MCTS rollout (SLM-MATRIX Methods, text after Eq. 9: "determined
 * by evaluating the completeness, format compliance, and correctness of the extracted triplets").
 *
 * The paper names the three criteria but gives no weights or formulas. Ours, each in [0, 1]:
 * - completeness: of the materials the trajectory named along the way (A1's "materials" lists and
 *   every step's triplets), the share the final triplet set still covers — a path that identifies
 *   three materials and reports one is incomplete.
 * - format: the share of final triplets that are well formed (non-blank material, finite value,
 *   the property asked for, a unit unless the property is dimensionless, a non-blank quote) —
 *   the checks A5 asks for ("Ensure each triplet includes a material, a numerical value, and a unit").
 * - grounding (our measure of correctness, the only one available without a gold answer): the
 *   share of final triplets whose quote grounds in the text (injected `ground`, normally the
 *   gate of `src/verify/ground.ts`).
 * Weights 0.25 / 0.25 / 0.5: grounding gets half because Eq. 13's text says Reward_MCTS "reflects
 * the relevance between the generated answer and the input text", which grounding measures
 * directly; the other two split the rest equally for want of a figure in the paper.
 * An empty final set earns 0 (as Eq. 12 scores an empty original output 0).
 */
import type { RewardWeights } from '../../contracts/matrix-preset';
import type { Triplet } from '../../contracts/triplet';
import type { ExtractedTriplet, GeneratorInput, ReasoningStep } from './prompts';
import { sameMaterial } from '../../text/materials';
import { toTriplet } from './to-triplet';

/** Our weights (see the module comment); they sum to 1 so the reward stays in [0, 1]. */
export const DEFAULT_REWARD_WEIGHTS: Readonly<RewardWeights> = { completeness: 0.25, format: 0.25, grounding: 0.5 };

export interface RewardDependencies {
  /** Is this triplet grounded in the article? Default: `quoteGroundsInPassage`. */
  ground?: (triplet: Triplet) => boolean;
  /** Material equivalence. Default: `sameMaterial` of `src/text/materials` (EVAL.md's rule). */
  sameMaterial?: (a: string, b: string) => boolean;
}

export interface RewardBreakdown {
  reward: number;
  completeness: number;
  format: number;
  grounding: number;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Fallback grounding when no gate is injected: the whitespace-collapsed quote occurs in the
 * passage and shows the value as `String(value)` prints it (Unicode minus folded). Cruder than
 * `src/verify/ground.ts` (no fuzzy anchoring, no unit check); the pipeline injects the real gate.
 */
export function quoteGroundsInPassage(triplet: Triplet, passage: string): boolean {
  const quote = collapse(triplet.evidence?.quote.exact ?? '');
  if (quote === '' || !collapse(passage).includes(quote)) return false;
  if (triplet.value.kind !== 'number') return false;
  return quote.replaceAll('\u2212', '-').includes(String(triplet.value.value));
}

function normalizedProperty(property: string): string {
  return property
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** Format compliance of one triplet (see the module comment). */
export function wellFormed(triplet: ExtractedTriplet, input: GeneratorInput): boolean {
  return (
    triplet.material.trim() !== '' &&
    Number.isFinite(triplet.value) &&
    normalizedProperty(triplet.property) === normalizedProperty(input.property) &&
    (input.dimensionless === true || triplet.unit.trim() !== '') &&
    triplet.quote.trim() !== ''
  );
}

const defaultSameMaterial = (a: string, b: string): boolean => sameMaterial(a, b);

/**
 * R_L for a trajectory `steps` whose final triplet set is `triplets`:
 * `weights.completeness·completeness + weights.format·format + weights.grounding·grounding`.
 * → `{ reward, completeness, format, grounding }`, all in [0, 1] with the default weights.
 */
export function terminalReward(
  steps: readonly ReasoningStep[],
  triplets: readonly ExtractedTriplet[],
  input: GeneratorInput,
  dependencies: RewardDependencies = {},
  weights: RewardWeights = DEFAULT_REWARD_WEIGHTS,
): RewardBreakdown {
  if (triplets.length === 0) return { reward: 0, completeness: 0, format: 0, grounding: 0 };
  const same = dependencies.sameMaterial ?? defaultSameMaterial;
  const ground = dependencies.ground ?? ((triplet: Triplet) => quoteGroundsInPassage(triplet, input.passage));

  const named: string[] = [];
  for (const step of steps) {
    for (const material of [...step.materials, ...step.triplets.map((triplet) => triplet.material)]) {
      if (material.trim() !== '' && !named.some((known) => same(known, material))) named.push(material);
    }
  }
  for (const triplet of triplets) if (!named.some((known) => same(known, triplet.material))) named.push(triplet.material);
  const covered = named.filter((material) => triplets.some((triplet) => same(triplet.material, material))).length;

  const completeness = covered / named.length;
  const format = triplets.filter((triplet) => wellFormed(triplet, input)).length / triplets.length;
  const grounding = triplets.filter((triplet) => ground(toTriplet(triplet))).length / triplets.length;
  const reward = weights.completeness * completeness + weights.format * format + weights.grounding * grounding;
  return { reward, completeness, format, grounding };
}
