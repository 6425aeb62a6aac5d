/**
 * `conditionsOfValue` and `conditionsOfTableCell` on sentences written for the test: pairing by
 * "respectively", clause scope, fronted adverbials, the value's own quantity, ambiguity.
 */
import { describe, expect, it } from 'vitest';
import { conditionsOfTableCell, conditionsOfValue } from '../../../../src/text/conditions';

function of(sentence: string, valueText: string): { conditions: string[]; ambiguous: string[] } {
  const start = sentence.indexOf(valueText);
  const result = conditionsOfValue(sentence, { start, end: start + valueText.length });
  return { conditions: result.conditions.map((mention) => `${mention.kind}=${mention.value}`), ambiguous: result.ambiguous };
}

describe('conditionsOfValue', () => {
  it('pairs values and conditions in order when the sentence says "respectively"', () => {
    const sentence = 'The gaps of monolayer and bilayer MoS2 are 1.9 eV and 1.6 eV, respectively, with PBE.';
    expect(of(sentence, '1.9 eV').conditions).toEqual(['phase=monolayer', 'method=PBE']);
    expect(of(sentence, '1.6 eV').conditions).toEqual(['phase=bilayer', 'method=PBE']);
  });

  it('keeps a condition in its clause of a contrast, and a fronted one for every value', () => {
    const contrast = 'The gap of Si is 0.6 eV with PBE, whereas HSE06 gives 1.2 eV.';
    expect(of(contrast, '0.6 eV').conditions).toEqual(['method=PBE']);
    expect(of(contrast, '1.2 eV').conditions).toEqual(['method=HSE06']);
    const fronted = 'Under 10 GPa, the Tc of sample A is 30 K and that of sample B is 35 K.';
    expect(of(fronted, '30 K').conditions).toEqual(['pressure=10 GPa']);
    expect(of(fronted, '35 K').conditions).toEqual(['pressure=10 GPa']);
  });

  it('pairs a condition in parentheses with the value before it', () => {
    const sentence = 'We obtain 1.1 eV (PBE) and 1.7 eV (HSE06) for bulk Si.';
    expect(of(sentence, '1.7 eV').conditions).toEqual(['method=HSE06', 'phase=bulk']);
  });

  it('never makes the value its own condition', () => {
    expect(of('The transition occurs at 39 K.', '39 K').conditions).toEqual([]);
  });

  it('drops competing conditions it cannot pair, and says why', () => {
    const result = of('The gap is 1.86 eV and 2.31 eV with GGA/PBE and HSE06.', '1.86 eV');
    expect(result.conditions).toEqual([]);
    expect(result.ambiguous).toEqual(['the sentence gives two methods (GGA/PBE, HSE06) and does not say which one 1.86 eV belongs to']);
  });
});

describe('conditionsOfTableCell', () => {
  it('takes the header and row, and the caption only for what they do not say', () => {
    const cell = conditionsOfTableCell('Gap (GGA+SOC) [eV]', 'monolayer VCClBr', 'Band gaps calculated with PBE at 0 K.');
    expect(cell.map((condition) => `${condition.from}:${condition.kind}=${condition.value}@${condition.start}`)).toEqual([
      'header:method=GGA+SOC@5',
      'row:phase=monolayer@0',
      'caption:temperature=0 K@33',
    ]);
    const twoMethods = conditionsOfTableCell('Eg [eV]', 'Si', 'Band gaps with PBE and HSE06.');
    expect(twoMethods).toEqual([]);
  });
});

describe('conditionsOfValue: parallel values', () => {
  it('reads a value written as the other one is as a value, and pairs each with the condition that follows it', () => {
    const sentence = 'Because of the overdoped nature of x=0, Tc (∼30 K) for the x=0 sample is lower than Tc (∼35 K) for x=0.2.';
    expect(of(sentence, '∼30 K')).toEqual({ conditions: ['composition=x = 0'], ambiguous: [] });
    expect(of(sentence, '∼35 K')).toEqual({ conditions: ['composition=x = 0.2'], ambiguous: [] });
  });

  it('still keeps a measurement temperature apart from the value', () => {
    const sentence = 'The gap of the film is 1.9 eV at 10 K.';
    expect(of(sentence, '1.9 eV').conditions).toEqual(['phase=thin film', 'temperature=10 K']);
  });
});
