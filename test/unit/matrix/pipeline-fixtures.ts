/** A small GaN article and a scripted SLM-MATRIX engine that answers per property and role (pipeline and CLI tests). */
import type { LlmRequest } from '../../../src/llm/llm-port';
import { loadPropertySchemas, selectPropertySchemas } from '../../../src/properties';
import { sameMaterial } from '../../../src/text/materials';
import { toSI } from '../../../src/text/units';
import { ground } from '../../../src/verify/ground';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';
import type { LlmScript } from '../../../src/llm/scripted-llm';
import { questionRequestShape } from '../../../src/matrix/chain-of-verification';
import type { ModelRole } from '../../../src/contracts/llm';

export const BAND_GAP_SENTENCE = 'The band gap of GaN is 3.4 eV at room temperature.';
export const BULK_MODULUS_SENTENCE = 'Nanoindentation gives a bulk modulus of 210 GPa for GaN.';

export const ARTICLE_BLOCKS = [
  { kind: 'heading' as const, text: 'Optical and elastic properties of wurtzite GaN' },
  paragraph(`${BAND_GAP_SENTENCE} Thin films were grown on sapphire by MOCVD.`),
  paragraph(BULK_MODULUS_SENTENCE),
  paragraph(
    'Samples were grown by metal-organic chemical vapour deposition on c-plane sapphire substrates and annealed in nitrogen before the optical and mechanical measurements were made.',
  ),
];
export const article = articleFromBlocks(ARTICLE_BLOCKS);
/** The article as a plain-text file (blocks separated by blank lines). */
export const ARTICLE_TEXT = ARTICLE_BLOCKS.map((block) => block.text).join('\n\n') + '\n';

export const [bandGap, bulkModulus] = selectPropertySchemas(loadPropertySchemas(), ['band_gap', 'bulk_modulus']) as [
  ReturnType<typeof loadPropertySchemas>[number],
  ReturnType<typeof loadPropertySchemas>[number],
];
export const density = selectPropertySchemas(loadPropertySchemas(), ['density'])[0]!;

export const realDependencies = {
  sameMaterial: (a: string, b: string) => sameMaterial(a, b),
  toSI,
  ground: (triplet: Parameters<typeof ground>[0], target: Parameters<typeof ground>[1]) => ground(triplet, target),
};

/** A fact as the models state it. */
export interface Fact {
  material: string;
  value: number;
  unit: string;
  quote: string;
}
export const GAN_GAP: Fact = { material: 'GaN', value: 3.4, unit: 'eV', quote: BAND_GAP_SENTENCE };
export const GAN_MODULUS: Fact = { material: 'GaN', value: 210, unit: 'GPa', quote: BULK_MODULUS_SENTENCE };

/** A reply: facts (rendered for the role) or raw text sent verbatim (e.g. malformed JSON). */
export type Reply = Fact[] | string;
/** One verification answer as a model writes it. */
export interface QuestionAnswer {
  answer: string;
  quote?: string;
}
/** How a script answers question `questionId` for fact `fact` (1-based within the call). */
export type Answerer = (fact: number, questionId: string) => QuestionAnswer;

/** Every question "not stated": the default answer of `matrixScript`, which changes no verdict. */
export const notStated: Answerer = () => ({ answer: 'not stated', quote: '' });

/**
 * The reply to a Chain-of-Verification request, answering every question of every fact it asks
 * about with `answer`. Throws on a request that is not one.
 */
export function questionReply(request: Pick<LlmRequest, 'jsonSchema' | 'messages'>, answer: Answerer = notStated): string {
  const shape = questionRequestShape(request);
  if (!shape) throw new Error('not a verification-question request');
  return JSON.stringify({
    facts: Array.from({ length: shape.facts }, (_, index) => ({
      fact: index + 1,
      ...Object.fromEntries(shape.questionIds.map((id) => [id, answer(index + 1, id)])),
    })),
  });
}

/**
 * Per role, the k-th call's reply (k counts that role's calls for that property, repairs included);
 * `questions`: the k-th verification-question call's reply (raw text, or an `Answerer`).
 */
export type RolePlan = Partial<Record<ModelRole, (k: number) => Reply>> & { questions?: (k: number) => string | Answerer };

function render(role: ModelRole, property: string, reply: Reply): string {
  if (typeof reply === 'string') return reply;
  if (role === 'proposer' || role === 'aggregator') {
    return JSON.stringify({
      triplets: reply.map((fact) => ({ material: fact.material, property, value: String(fact.value), unit: fact.unit, quote: fact.quote })),
    });
  }
  const triplets = reply.map((fact) => ({ ...fact, property }));
  if (role === 'generator')
    return JSON.stringify({
      text: 'Extracted the values and their units.',
      materials: reply.map((fact) => fact.material),
      triplets,
      final: true,
    });
  return JSON.stringify({ triplets });
}

/** Which property a request is about: the first user message names it (prompts ask for one property). */
export function propertyOf(request: Pick<LlmRequest, 'messages'>): string {
  const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
  return ['band_gap', 'bulk_modulus'].find((name) => user.includes(name)) ?? '?';
}

/**
 * A script answering by (property, role). Every role of every property defaults to the article's
 * true value: a unanimous engine. Generator steps are final at once, so each MCTS expansion is one
 * call and a rollout from a terminal node none.
 */
export function matrixScript(
  plans: Partial<Record<'band_gap' | 'bulk_modulus', RolePlan>> = {},
  extra: Omit<LlmScript, 'respond'> = {},
): LlmScript {
  const counters = new Map<string, number>();
  const truth: Record<string, Fact> = { band_gap: GAN_GAP, bulk_modulus: GAN_MODULUS };
  return {
    ...extra,
    respond: (request) => {
      const property = propertyOf(request);
      const questioning = questionRequestShape(request) !== null;
      const key = `${property}/${questioning ? 'questions' : request.role}`;
      const k = counters.get(key) ?? 0;
      counters.set(key, k + 1);
      if (questioning) {
        const reply = plans[property as 'band_gap' | 'bulk_modulus']?.questions?.(k) ?? notStated;
        return typeof reply === 'string' ? reply : questionReply(request, reply);
      }
      const plan = plans[property as 'band_gap' | 'bulk_modulus']?.[request.role];
      return render(request.role, property, plan ? plan(k) : [truth[property]!]);
    },
  };
}
