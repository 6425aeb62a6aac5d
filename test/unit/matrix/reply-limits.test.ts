import { describe, expect, it } from 'vitest';
import { jsonSchemaFor } from '../../../src/llm/generate-object';
import { questionReplyJsonSchema } from '../../../src/matrix/chain-of-verification/question-prompt';
import { questionsFor } from '../../../src/properties';
import { bandGap } from './pipeline-fixtures';
import { ReasoningStepSchema, ReconstructionSchema } from '../../../src/matrix/gd/prompts';
import { MoaAnswerSchema } from '../../../src/matrix/moa/moa-schema';
import { REPLY_LIMITS } from '../../../src/matrix/reply-limits';

/** The value at `path` in a JSON schema object. */
function at(schema: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], schema);
}

describe('the caps on model-facing reply schemas', () => {
  it('send maxLength on every free string of a MoA triplet and maxItems on the list', () => {
    const triplets = at(jsonSchemaFor(MoaAnswerSchema)!.schema, 'properties', 'triplets');
    expect(at(triplets, 'maxItems')).toBe(REPLY_LIMITS.itemsPerReply);
    const fields = ['material', 'property', 'value', 'unit', 'quote'];
    expect(fields.map((field) => at(triplets, 'items', 'properties', field, 'maxLength'))).toEqual([200, 100, 64, 32, 1200]);
    const conditions = at(triplets, 'items', 'properties', 'conditions');
    expect(at(conditions, 'maxItems')).toBe(REPLY_LIMITS.conditionsPerTriplet);
    expect(['value', 'text'].map((field) => at(conditions, 'items', 'properties', field, 'maxLength'))).toEqual([32, 80]);
    expect(at(conditions, 'items', 'properties', 'kind', 'enum')).toContain('method');
    expect(at(triplets, 'items', 'properties', 'provenance', 'enum')).toEqual(['measured', 'computed', 'cited', 'unknown']);
  });

  it('cap the MCTS step and the reconstruction the same way', () => {
    const step = jsonSchemaFor(ReasoningStepSchema)!.schema;
    expect(at(step, 'properties', 'text', 'maxLength')).toBe(REPLY_LIMITS.stepText);
    expect(at(step, 'properties', 'materials', 'maxItems')).toBe(REPLY_LIMITS.itemsPerReply);
    expect(at(step, 'properties', 'triplets', 'items', 'properties', 'quote', 'maxLength')).toBe(REPLY_LIMITS.quote);
    expect(at(step, 'properties', 'triplets', 'items', 'properties', 'conditions', 'maxItems')).toBe(REPLY_LIMITS.conditionsPerTriplet);
    expect(at(jsonSchemaFor(ReconstructionSchema)!.schema, 'properties', 'triplets', 'maxItems')).toBe(REPLY_LIMITS.itemsPerReply);
  });

  it('cap a verification call at the facts it asks about, each answer quote at one chunk', () => {
    const questions = questionsFor(bandGap);
    const schema = questionReplyJsonSchema(questions, 3)!.schema;
    expect(at(schema, 'properties', 'facts', 'maxItems')).toBe(3);
    expect(at(schema, 'properties', 'facts', 'items', 'properties', questions[0]!.id, 'properties', 'quote', 'maxLength')).toBe(
      REPLY_LIMITS.quote,
    );
    expect(at(questionReplyJsonSchema(questions)!.schema, 'properties', 'facts', 'maxItems')).toBeUndefined();
  });

  it('advise the decoder only: a longer quote in a reply is still read (the grounding gate judges it)', () => {
    const quote = 'The band gap of GaN is 3.4 eV. '.repeat(50);
    expect(quote.length).toBeGreaterThan(REPLY_LIMITS.quote);
    const parsed = MoaAnswerSchema.safeParse({ triplets: [{ material: 'GaN', property: 'band_gap', value: '3.4', unit: 'eV', quote }] });
    expect(parsed.success).toBe(true);
  });
});
