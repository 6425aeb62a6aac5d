/**
 * Issue 27: the gate sends a fact to review, with the reason in words, when its number reads two
 * ways ("1,043 K") and the paper does not say which, and when its value lies outside the property's
 * plausible range (band gap −2 to 15 eV, Tc 0–300 K, …). Before, both were verified silently.
 */
import { describe, expect, it } from 'vitest';
import type { Triplet } from '../../../src/contracts/triplet';
import { loadPropertySchemas } from '../../../src/properties';
import { judgeFact } from '../../../src/verify/judge-fact';
import { implausibleValue } from '../../../src/verify/value-doubts';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';

function claim(material: string, property: string, value: number, unit: string, quote: string): Triplet {
  return {
    material,
    property,
    value: { kind: 'number', value },
    unit,
    engine: 'test',
    evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } },
  };
}

const CURIE = 'The Curie temperature of Fe is 1,043 K.';
const curie = (value: number) => claim('Fe', 'curie_temperature', value, 'K', CURIE);

describe('digits that read two ways', () => {
  it('go to review when the paper does not show its decimal mark', () => {
    const verdict = judgeFact(curie(1043), articleFromBlocks([paragraph(CURIE)]));
    expect(verdict.status).toBe('needs_review');
    expect(verdict.reasons).toContain(
      '"1,043" is 1043 with a comma between thousands or 1.043 with a decimal comma, and the paper\'s other numbers do not say which: check the number',
    );
  });

  it('are verified when the paper writes decimal points', () => {
    const article = articleFromBlocks([paragraph(CURIE), paragraph('Its saturation moment is 2.2 μB at 4.2 K and 1.7 T.')]);
    const verdict = judgeFact(curie(1043), article);
    expect(verdict.reasons.join(' ')).not.toContain('1,043');
    expect(verdict.status).toBe('verified');
  });

  it('go to review with the other reading when the paper writes decimal commas', () => {
    const article = articleFromBlocks([paragraph(CURIE), paragraph('Its saturation moment is 2,2 μB at 4,2 K and 1,7 T.')]);
    const verdict = judgeFact(curie(1043), article);
    expect(verdict.status).toBe('needs_review');
    expect(verdict.reasons.join(' ')).toContain('the paper writes decimal commas, so the number it prints reads 1.043, not 1043');
  });
});

describe('the plausible range of each property', () => {
  const schemas = loadPropertySchemas();
  const schema = (name: string) => schemas.find((each) => each.name === name)!;

  it('sends a value outside it to review, giving the range and its source', () => {
    const quote = 'The band gap of the hypothetical phase X2Y is 99 eV.';
    const verdict = judgeFact(claim('X2Y', 'band_gap', 99, 'eV', quote), articleFromBlocks([paragraph(quote)]));
    expect(verdict.status).toBe('needs_review');
    expect(verdict.reasons.join(' ')).toContain('99 eV is outside the plausible range of the band gap, from -2 to 15 eV (LiF');
    expect(verdict.reasons.join(' ')).toContain('Piacentini, Lynch & Olson, Phys. Rev. B 13, 5530 (1976)');
  });

  it('converts to the canonical unit first, and leaves values inside it alone', () => {
    expect(implausibleValue({ value: { kind: 'number', value: 3400 }, unit: 'meV' }, schema('band_gap'))).toBeUndefined();
    // A negative gap is a band overlap (HgTe, semimetal phases), not a wrong sign.
    expect(implausibleValue({ value: { kind: 'number', value: -0.15 }, unit: 'eV' }, schema('band_gap'))).toBeUndefined();
    expect(implausibleValue({ value: { kind: 'number', value: -5 }, unit: 'eV' }, schema('band_gap'))).toContain('from -2 to 15 eV');
    expect(implausibleValue({ value: { kind: 'number', value: 16000 }, unit: 'meV' }, schema('band_gap'))).toContain('16000 meV');
    expect(implausibleValue({ value: { kind: 'number', value: 350 }, unit: 'K' }, schema('tc'))).toContain('0–300 K');
    expect(implausibleValue({ value: { kind: 'range', low: 250, high: 320 }, unit: 'K' }, schema('tc'))).toContain('250–320 K');
    expect(implausibleValue({ value: { kind: 'number', value: 39 }, unit: 'K' }, schema('tc'))).toBeUndefined();
  });

  it('every built-in schema gives the source of its range', () => {
    for (const each of schemas) expect(each.plausibleRange.source, each.name).toMatch(/\(\d{4}\)|Handbook/);
  });
});
