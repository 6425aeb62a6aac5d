/**
 * Prompts and reply schemas of the generator–discriminator path (SLM-MATRIX Methods, "MCTS" and
 * "Discriminator-based validation"): the space-definition prompt that defines actions A1–A5 for
 * the generator, one instruction per action, and the mask-and-reconstruct prompt for the
 * discriminator. The paper's full prompt texts live in its Supplementary Notes 2–3, which we do
 * not have; these follow the Methods' descriptions of each action.
 *
 * Laid out passage first (src/matrix/passage-first.ts): the system message every role shares,
 * the passage in its DATA block (untrusted: the model is told to ignore any instruction inside
 * it), then the role's instructions, the task, the reasoning history and the action — so the
 * steps of a search share their prefix up to the last step's history in a server's cache.
 */
import { z } from 'zod';
import type { ChatMessage } from '../../llm/llm-port';
import { CONDITIONS_RULE, ModelConditionsSchema, ModelProvenanceSchema } from '../model-conditions';
import { passageFirstMessages } from '../passage-first';
import { limited, REPLY_LIMITS } from '../reply-limits';

/** The five reasoning actions of SLM-MATRIX (Methods, A1–A5). */
export const ReasoningActionSchema = z.enum(['A1', 'A2', 'A3', 'A4', 'A5']);
export type ReasoningAction = z.infer<typeof ReasoningActionSchema>;
export const REASONING_ACTIONS: readonly ReasoningAction[] = ReasoningActionSchema.options;

/** What the path extracts from: a passage and the property asked for. */
export interface GeneratorInput {
  /** The article text (or retrieved passages) to extract from. */
  passage: string;
  /** Property schema name, e.g. "band_gap", "bulk_modulus". */
  property: string;
  /** The property in words, with its usual units ("band gap, in eV"). */
  propertyDescription?: string;
  /** True when the property has no unit (a triplet's unit may then be ""). */
  dimensionless?: boolean;
}

/**
 * A triplet as the model writes it: value as a number, the evidence as a verbatim quote. Strings
 * carry a `maxLength` for constrained decoding (`REPLY_LIMITS`), not enforced here.
 */
export const ExtractedTripletSchema = z.object({
  material: limited(z.string().min(1), REPLY_LIMITS.material),
  property: limited(z.string().min(1), REPLY_LIMITS.property),
  value: z.number(),
  /** Unit as written; "" for a dimensionless property. */
  unit: limited(z.string(), REPLY_LIMITS.unit),
  /** The sentence (or table row) of the passage that states the value, copied verbatim. */
  quote: limited(z.string().min(1), REPLY_LIMITS.quote),
  /** The conditions the passage states for the value, each with the words copied from it (unanchored until the gate). */
  conditions: ModelConditionsSchema,
  provenance: ModelProvenanceSchema,
});
export type ExtractedTriplet = z.infer<typeof ExtractedTripletSchema>;

/**
 * One reasoning step S_i (Eq. 5 of SLM-MATRIX): the step in words, materials it named, the
 * triplets it holds so far, and whether the generator declares the triplet set final.
 */
export const ReasoningStepSchema = z.object({
  text: limited(z.string(), REPLY_LIMITS.stepText),
  materials: limited(z.array(limited(z.string(), REPLY_LIMITS.material)), REPLY_LIMITS.itemsPerReply).default([]),
  triplets: limited(z.array(ExtractedTripletSchema), REPLY_LIMITS.itemsPerReply).default([]),
  final: z.boolean().default(false),
});
export type ReasoningStep = z.infer<typeof ReasoningStepSchema>;

/** The discriminator's reconstruction S_d′ of a masked final output (Eq. 11). */
export const ReconstructionSchema = z.object({
  triplets: limited(z.array(ExtractedTripletSchema), REPLY_LIMITS.itemsPerReply).default([]),
});
export type Reconstruction = z.infer<typeof ReconstructionSchema>;

/** Instruction per action, after the Methods' definitions of A1–A5. */
export const ACTION_INSTRUCTIONS: Readonly<Record<ReasoningAction, string>> = {
  A1: 'A1 Material identification: identify the materials (chemical formulas, compositions, named compounds) the passage reports the property for. Ask yourself: "What materials are mentioned in the text?" List them in "materials".',
  A2: 'A2 Inference completion and property extraction: using the materials identified so far, finish the remaining reasoning and return the structured triplets (material, property, value, unit, quote).',
  A3: 'A3 Problem decomposition and sub-question exploration: break the extraction into simpler sub-questions (first the materials, then their values, then their units), answer the next one, and record what it yields.',
  A4: 'A4 Accuracy enhancement via re-evaluation: re-check the previous steps against the passage for uncertainty or inconsistency (wrong material, value or unit) and correct the triplets.',
  A5: 'A5 Problem reformulation and output verification: restate the task and verify the output. Ensure each triplet includes a material, a numerical value and a unit, and that its quote is copied verbatim from the passage.',
};

function taskLine(input: GeneratorInput): string {
  const described = input.propertyDescription ? ` (${input.propertyDescription})` : '';
  return `Task: extract every material–property–value–unit triplet for the property "${input.property}"${described} reported in the passage.`;
}

/** The space-definition prompt of the generator (paper: "Space Definition Prompt"), after the passage. */
export const GENERATOR_INSTRUCTIONS = [
  'You are the generator in a search over reasoning steps for materials-science data extraction from the passage above.',
  'Each reply is ONE reasoning step, taking the action you are given. Allowed actions:',
  ...REASONING_ACTIONS.map((action) => `- ${ACTION_INSTRUCTIONS[action]}`),
  'Reply with JSON only: {"text": string, "materials": string[], "triplets": [{"material", "property", "value": number, "unit", "quote", "conditions", "provenance"}], "final": boolean}.',
  CONDITIONS_RULE,
  '"triplets" holds the complete triplet set as it stands after this step. Set "final" to true only when the set is complete and checked.',
].join('\n');

function historyText(history: readonly { action: ReasoningAction; step: ReasoningStep }[]): string {
  if (history.length === 0) return 'Reasoning history: (none yet)';
  const lines = history.map(({ action, step }, index) => `S${index + 1} [${action}]: ${JSON.stringify(step)}`);
  return ['Reasoning history:', ...lines].join('\n');
}

/**
 * Messages for one generator step (paper: "Please generate the next action based on the current
 * reasoning history"): the shared system message; user = passage block, space definition, task,
 * history, action.
 * `lastStep` tells the model this step ends the trajectory and must hold the final triplet set.
 */
export function buildStepMessages(
  input: GeneratorInput,
  history: readonly { action: ReasoningAction; step: ReasoningStep }[],
  action: ReasoningAction,
  lastStep: boolean,
): ChatMessage[] {
  const closing = lastStep ? 'This is the last step: return the complete final triplet set and set "final" to true.' : '';
  return passageFirstMessages(input.passage, [
    GENERATOR_INSTRUCTIONS,
    taskLine(input),
    historyText(history),
    `Please generate the next step based on the current reasoning history. Action ${action}: ${ACTION_INSTRUCTIONS[action]}`,
    closing,
  ]);
}

/** The discriminator prompt (paper: "Discriminator Prompt"; mask-and-reconstruct), after the passage. */
export const DISCRIMINATOR_INSTRUCTIONS = [
  'You are the discriminator checking a reasoning path for materials-science data extraction from the passage above.',
  'The final step of the path has been masked. From the passage and the earlier steps alone, reconstruct the final structured output: every material–property–value–unit triplet the path leads to.',
  'Reply with JSON only: {"triplets": [{"material", "property", "value": number, "unit", "quote", "conditions", "provenance"}]}. Use an empty list when the steps lead to no triplet.',
  CONDITIONS_RULE,
].join('\n');

/** The placeholder substituted for the final output S_d (deterministic, one-time masking). */
export const MASK_TOKEN = '[MASKED FINAL OUTPUT]';

/**
 * Messages asking the discriminator to reconstruct S_d′ (Eq. 11) from x ⊕ S_1 … S_{d−1}: the final
 * step is replaced by `MASK_TOKEN` by explicit substitution, as the Methods require (no random mask).
 */
export function buildReconstructionMessages(
  input: GeneratorInput,
  precedingSteps: readonly { action: ReasoningAction; step: ReasoningStep }[],
): ChatMessage[] {
  return passageFirstMessages(input.passage, [
    DISCRIMINATOR_INSTRUCTIONS,
    taskLine(input),
    historyText(precedingSteps),
    `S${precedingSteps.length + 1}: ${MASK_TOKEN}`,
    'Reconstruct the masked final output.',
  ]);
}
