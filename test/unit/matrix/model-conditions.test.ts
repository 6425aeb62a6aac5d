import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { buildStepMessages, DISCRIMINATOR_INSTRUCTIONS, GENERATOR_INSTRUCTIONS, ReasoningStepSchema } from '../../../src/matrix/gd/prompts';
import { toTriplet } from '../../../src/matrix/gd/to-triplet';
import { CONDITIONS_RULE, toConditions } from '../../../src/matrix/model-conditions';
import { runMoa } from '../../../src/matrix/moa';
import { sameMaterial } from '../../../src/text/materials';
import { toSI } from '../../../src/text/units';

// A sentence of the kind issue 26 is about: one compound, two methods, "respectively".
const SENTENCE = 'The band gaps of BPN-GaN are 1.86 eV and 2.31 eV according to the GGA/PBE and HSE06 calculations, respectively.';
const PROPERTIES = [{ name: 'band_gap', units: ['eV'] }];
const crossDependencies = { sameMaterial: (a: string, b: string) => sameMaterial(a, b), toSI };
const user = (request: Omit<LlmRequest, 'signal'>) => request.messages.find((message) => message.role === 'user')!.content;

const reply = JSON.stringify({
  triplets: [
    {
      material: 'BPN-GaN',
      property: 'band_gap',
      value: '2.31',
      unit: 'eV',
      quote: SENTENCE,
      conditions: [{ kind: 'method', value: 'HSE06', text: ' HSE06 calculations ' }],
      provenance: 'computed',
    },
  ],
});

describe('the models are asked for conditions and provenance', () => {
  it('every path’s prompt states the rule: copy the words, omit what the passage does not say', () => {
    expect(CONDITIONS_RULE).toContain('in "text" copy the words that state the method, temperature, pressure');
    expect(CONDITIONS_RULE).toContain('omit what the passage does not say');
    expect(CONDITIONS_RULE).toContain('method|temperature|pressure|field|strain|frequency|direction|phase|composition|environment|other');
    expect(GENERATOR_INSTRUCTIONS).toContain(CONDITIONS_RULE);
    expect(DISCRIMINATOR_INSTRUCTIONS).toContain(CONDITIONS_RULE);
    expect(buildStepMessages({ passage: SENTENCE, property: 'band_gap' }, [], 'A2', true)[1]!.content).toContain(
      '"conditions", "provenance"',
    );
  });

  it('a scripted MoA reply with conditions yields triplets with conditions (their words kept, unanchored) and provenance', async () => {
    const llm = createScriptedLlm({ respond: () => reply });
    const result = await runMoa(
      { text: SENTENCE, properties: PROPERTIES },
      { layers: 2, proposers: ['model-a'] },
      { llm, ...crossDependencies },
    );
    expect(user(llm.calls[0]!.request)).toContain(CONDITIONS_RULE);
    // The next layer sees the conditions as part of the reference answer.
    expect(user(llm.calls[1]!.request)).toContain(
      '"conditions":[{"kind":"method","value":"HSE06","text":"HSE06 calculations"}],"provenance":"computed"',
    );
    expect(result.triplets).toEqual([
      {
        material: 'BPN-GaN',
        property: 'band_gap',
        value: { kind: 'number', value: 2.31 },
        unit: 'eV',
        valueText: '2.31',
        conditions: [{ kind: 'method', value: 'HSE06', text: 'HSE06 calculations' }],
        provenance: { kind: 'computed' },
        engine: 'moa',
        evidence: { quote: { type: 'TextQuoteSelector', exact: SENTENCE, prefix: '', suffix: '' } },
      },
    ]);
  });

  it('a reply without conditions is still valid and gives triplets without them', async () => {
    const llm = createScriptedLlm({
      respond: () =>
        JSON.stringify({ triplets: [{ material: 'BPN-GaN', property: 'band_gap', value: '1.86', unit: 'eV', quote: SENTENCE }] }),
    });
    const result = await runMoa(
      { text: SENTENCE, properties: PROPERTIES },
      { layers: 1, proposers: [undefined] },
      { llm, ...crossDependencies },
    );
    expect(result.triplets[0]).not.toHaveProperty('conditions');
    expect(result.triplets[0]).not.toHaveProperty('provenance');
  });

  it('the generator–discriminator path parses them the same way', () => {
    const step = ReasoningStepSchema.parse({
      text: 'A2',
      triplets: [
        {
          material: 'BPN-GaN',
          property: 'band_gap',
          value: 1.86,
          unit: 'eV',
          quote: SENTENCE,
          conditions: [{ kind: 'method', value: 'GGA-PBE', text: 'GGA/PBE' }],
          provenance: 'computed',
        },
      ],
    });
    expect(toTriplet(step.triplets[0]!)).toMatchObject({
      value: { kind: 'number', value: 1.86 },
      conditions: [{ kind: 'method', value: 'GGA-PBE', text: 'GGA/PBE' }],
      provenance: { kind: 'computed' },
      engine: 'mcts',
    });
    expect(
      ReasoningStepSchema.safeParse({
        text: 'x',
        triplets: [{ ...step.triplets[0]!, conditions: [{ kind: 'colour', value: 'red', text: 'red' }] }],
      }).success,
    ).toBe(false);
  });

  it('drops blank conditions and keeps a value-only one without text', () => {
    expect(
      toConditions([
        { kind: 'temperature', value: ' ', text: '' },
        { kind: 'direction', value: 'indirect', text: '' },
        { kind: 'pressure', value: '', text: 'at 10 GPa' },
      ]),
    ).toEqual([
      { kind: 'direction', value: 'indirect' },
      { kind: 'pressure', value: 'at 10 GPa', text: 'at 10 GPa' },
    ]);
  });
});
