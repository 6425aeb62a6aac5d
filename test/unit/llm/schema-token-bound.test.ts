import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaFor } from '../../../src/llm/generate-object';
import { maxTokensForSchema, NUMBER_CHARS } from '../../../src/llm/schema-token-bound';
import { MoaAnswerSchema } from '../../../src/matrix/moa/moa-schema';
import { REPLY_LIMITS } from '../../../src/matrix/reply-limits';

const bound = (schema: z.ZodType, options?: { charsPerToken?: number }) => maxTokensForSchema(jsonSchemaFor(schema)!.schema, options);

describe('maxTokensForSchema', () => {
  it('bounds an object of capped strings, by hand', () => {
    // {"name":"<10 characters>"}: braces 2 + "name" 6 + colon 1 + 12 + comma 1 = 22 characters;
    // 2 values (the object, the string) × 2 whitespace tokens = 4; + 1 end-of-sequence token.
    expect(bound(z.object({ name: z.string().max(10) }))).toBe(27);
    // At 2 characters per token: ceil(22 / 2) + 4 + 1.
    expect(bound(z.object({ name: z.string().max(10) }), { charsPerToken: 2 })).toBe(16);
  });

  it('bounds arrays by maxItems, numbers by their longest form, enums by their longest option', () => {
    // [n,n,n]: brackets 2 + 3 × (24 + comma 1) = 77 characters; 4 values → 8; + 1.
    expect(bound(z.array(z.number()).max(3))).toBe(2 + 3 * (NUMBER_CHARS + 1) + 8 + 1);
    // "yes" is 5 characters as JSON; 1 value.
    expect(bound(z.enum(['yes', 'no']))).toBe(5 + 2 + 1);
    // A nullable string: the larger branch ("12345" with quotes = 7 characters).
    expect(bound(z.string().max(5).nullable())).toBe(7 + 2 + 1);
  });

  it('gives no bound where the schema leaves the reply unbounded', () => {
    expect(bound(z.object({ name: z.string() }))).toBeNull();
    expect(bound(z.array(z.string().max(5)))).toBeNull();
    expect(bound(z.record(z.string(), z.string().max(5)))).toBeNull();
    expect(bound(z.object({ name: z.string().max(5) }).passthrough())).toBeNull();
    expect(maxTokensForSchema({})).toBeNull();
  });

  it('bounds the MoA answer at least as long as its longest valid compact reply', () => {
    const longest = {
      triplets: Array.from({ length: REPLY_LIMITS.itemsPerReply }, () => ({
        material: 'm'.repeat(REPLY_LIMITS.material),
        property: 'p'.repeat(REPLY_LIMITS.property),
        value: 'v'.repeat(REPLY_LIMITS.value),
        unit: 'u'.repeat(REPLY_LIMITS.unit),
        quote: 'q'.repeat(REPLY_LIMITS.quote),
        conditions: Array.from({ length: REPLY_LIMITS.conditionsPerTriplet }, () => ({
          kind: 'composition',
          value: 'c'.repeat(REPLY_LIMITS.conditionValue),
          text: 't'.repeat(REPLY_LIMITS.conditionText),
        })),
        provenance: 'measured',
      })),
    };
    const tokens = bound(MoaAnswerSchema)!;
    // ASCII: at most one token per character; the bound adds whitespace and the end token.
    expect(tokens).toBeGreaterThanOrEqual(JSON.stringify(longest).length);
    expect(tokens).toBeLessThan(JSON.stringify(longest).length * 1.1);
  });
});
