import { describe, expect, it } from 'vitest';
import type { Triplet } from '../../../src/contracts/triplet';
import { groundAndAttribute } from '../../../src/verify/grounding-gate';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';

const SENTENCE = 'The GaN layer has a direct band gap of 3.4 eV at 300 K.';
const article = articleFromBlocks([paragraph(SENTENCE), paragraph('Silicon wafers were cleaned in HF.')]);

function claim(material: string, value: number, quote: string): Triplet {
  return {
    material,
    property: 'band_gap',
    value: { kind: 'number', value },
    unit: 'eV',
    engine: 'test',
    evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } },
  };
}

describe('groundAndAttribute', () => {
  it('checks attribution at the grounded anchor', () => {
    const right = groundAndAttribute(claim('GaN', 3.4, SENTENCE), article);
    expect([right.grounded, right.attribution?.attributed]).toEqual([true, true]);
    const silicon = groundAndAttribute(claim('Silicon', 3.4, SENTENCE), article);
    expect(silicon.grounded).toBe(true);
    expect(silicon.attribution).toMatchObject({ attributed: false, reasons: ['material not in the evidence'] });
  });

  it('leaves attribution out when the triplet does not ground', () => {
    const result = groundAndAttribute(claim('GaN', 3.5, SENTENCE), article);
    expect(result.grounded).toBe(false);
    expect(result.attribution).toBeUndefined();
  });
});
