/** A passage, its triplets, and a scripted generator that answers by action (shared by gd tests). */
import type { LlmRequest } from '../../../../src/llm/llm-port';
import type { ExtractedTriplet, GeneratorInput, ReasoningStep } from '../../../../src/matrix/gd/prompts';

export const passage = 'The bulk modulus of CeO2 is 230 GPa. For PrO2 we find a bulk modulus of 176.9 GPa.';
export const input: GeneratorInput = { passage, property: 'bulk_modulus' };

export const ceria: ExtractedTriplet = {
  material: 'CeO2',
  property: 'bulk_modulus',
  value: 230,
  unit: 'GPa',
  quote: 'The bulk modulus of CeO2 is 230 GPa.',
};
export const praseodymia: ExtractedTriplet = {
  material: 'PrO2',
  property: 'bulk_modulus',
  value: 176.9,
  unit: 'GPa',
  quote: 'For PrO2 we find a bulk modulus of 176.9 GPa.',
};
/** A value the passage never states. */
export const invented: ExtractedTriplet = {
  material: 'PrO2',
  property: 'bulk_modulus',
  value: 999,
  unit: 'GPa',
  quote: 'PrO2 has a bulk modulus of 999 GPa.',
};

const stepReplies: Record<string, ReasoningStep> = {
  A1: { text: 'What materials are mentioned? CeO2 and PrO2.', materials: ['CeO2', 'PrO2'], triplets: [], final: false },
  A2: { text: 'Values and units extracted.', materials: [], triplets: [ceria, praseodymia], final: true },
  A3: { text: 'Sub-question: the value for CeO2.', materials: [], triplets: [ceria], final: false },
  A4: { text: 'Re-evaluated.', materials: [], triplets: [ceria, praseodymia], final: false },
  A5: { text: 'Reformulated and verified.', materials: [], triplets: [ceria, invented], final: true },
};
const lastStepReply: ReasoningStep = { text: 'Final triplet set.', materials: [], triplets: [ceria, praseodymia], final: true };

/** The action a generator request asks for ("Action A3: …" in the user message). */
export function requestedAction(request: Pick<LlmRequest, 'messages'>): string {
  const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
  return /Action (A[1-5]):/.exec(user)?.[1] ?? '?';
}

/** The generator's reply: by action, or the full final set when the prompt says it is the last step. */
export function generatorReply(request: Pick<LlmRequest, 'messages'>, malformedActions: readonly string[] = []): string {
  const action = requestedAction(request);
  if (malformedActions.includes(action)) return 'not json';
  const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
  if (user.includes('This is the last step')) return JSON.stringify(lastStepReply);
  return JSON.stringify(stepReplies[action]);
}

/** An rng that returns `values` in order and throws when asked for more (to pin every draw). */
export function sequenceRandom(values: readonly number[]): () => number {
  let index = 0;
  return () => {
    const value = values[index];
    if (value === undefined) throw new Error(`rng asked for draw ${index + 1} but only ${values.length} were scripted`);
    index += 1;
    return value;
  };
}
