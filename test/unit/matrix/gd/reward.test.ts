import { describe, expect, it } from 'vitest';
import { quoteGroundsInPassage, terminalReward } from '../../../../src/matrix/gd/reward';
import { toTriplet } from '../../../../src/matrix/gd/to-triplet';
import { ceria, input, invented, passage, praseodymia } from './fixtures';

const identify = { text: 'materials', materials: ['CeO2', 'PrO2', 'ThO2'], triplets: [], final: false };

describe('terminalReward (R_L: 0.25·completeness + 0.25·format + 0.5·grounding)', () => {
  it('is 0 for an empty final set', () => {
    expect(terminalReward([identify], [], input)).toEqual({ reward: 0, completeness: 0, format: 0, grounding: 0 });
  });

  it('is 1 for a complete, well-formed, grounded set', () => {
    const steps = [{ text: 'A1', materials: ['CeO2', 'PrO2'], triplets: [], final: false }];
    expect(terminalReward(steps, [ceria, praseodymia], input).reward).toBe(1);
  });

  it('weighs each criterion: 2 of 3 named materials, all well formed, 1 of 2 grounded', () => {
    const breakdown = terminalReward([identify], [ceria, invented], input);
    // completeness = 2/3 (ThO2 dropped), format = 1, grounding = 1/2 (999 GPa is not in the passage)
    // reward = 0.25·(2/3) + 0.25·1 + 0.5·(1/2) = 0.16666… + 0.25 + 0.25 = 0.66666…
    expect(breakdown.completeness).toBeCloseTo(2 / 3, 12);
    expect(breakdown.format).toBe(1);
    expect(breakdown.grounding).toBe(0.5);
    expect(breakdown.reward).toBeCloseTo(0.6666666666666666, 12);
  });

  it('counts a wrong property or a missing unit as a format failure, and uses the injected gate', () => {
    const wrongProperty = { ...praseodymia, property: 'band gap' };
    const noUnit = { ...ceria, unit: '' };
    const breakdown = terminalReward([], [wrongProperty, noUnit, ceria, praseodymia], input, { ground: () => true });
    // named = {PrO2, CeO2}, both covered → 1; format 2/4; grounding 4/4 → 0.25 + 0.125 + 0.5 = 0.875
    expect(breakdown).toEqual({ reward: 0.875, completeness: 1, format: 0.5, grounding: 1 });
    expect(terminalReward([], [noUnit], { ...input, dimensionless: true }, { ground: () => true }).format).toBe(1);
  });
});

describe('quoteGroundsInPassage (fallback gate)', () => {
  it('needs the quote in the passage (whitespace collapsed) and the value in the quote', () => {
    expect(quoteGroundsInPassage(toTriplet({ ...ceria, quote: 'bulk   modulus of\nCeO2 is 230 GPa' }), passage)).toBe(true);
    expect(quoteGroundsInPassage(toTriplet(invented), passage)).toBe(false);
    expect(quoteGroundsInPassage(toTriplet({ ...ceria, value: 231 }), passage)).toBe(false);
    expect(quoteGroundsInPassage(toTriplet({ ...ceria, value: -1.5, quote: 'shift of \u22121.5 GPa' }), 'a shift of \u22121.5 GPa')).toBe(
      true,
    );
  });
});
