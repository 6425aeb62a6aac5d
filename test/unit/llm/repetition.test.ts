import { describe, expect, it } from 'vitest';
import { detectRepetition, REPETITION_RULE } from '../../../src/llm/repetition';

/** A triplet object as a model writes one in a MoA reply. */
const triplet = (material: string, value: string, quote: string) =>
  JSON.stringify({ material, property: 'band_gap', value, unit: 'eV', quote });

describe('detectRepetition', () => {
  it('names a short unit looped to the end of a reply, even when the reply stops inside a copy', () => {
    const looped = '{"triplets":[{"material":"' + 'GaN '.repeat(100) + 'Ga';
    expect(detectRepetition(looped)).toEqual({ unit: 'GaN ', repeats: 100, chars: 402 });
  });

  it('names a whole triplet copied over and over (a long unit)', () => {
    const copy = triplet('GaN', '3.4', 'The band gap of GaN is 3.4 eV at room temperature.') + ',';
    const reply = '{"triplets":[' + triplet('AlN', '6.2', 'AlN has a band gap of 6.2 eV.') + ',' + copy.repeat(5);
    const found = detectRepetition(reply);
    expect(found?.unit.length).toBe(copy.length);
    expect(found?.repeats).toBe(5);
    // The unit is a rotation of the copy (where the periodic tail starts is where the copies agree).
    expect((found!.unit + found!.unit).includes(copy)).toBe(true);
  });

  it('names a whitespace run inside a JSON grammar', () => {
    expect(detectRepetition('{"triplets": [' + '\n'.repeat(300))).toMatchObject({ unit: '\n', repeats: 300 });
  });

  it('finds no loop in a long list of distinct values', () => {
    const values = Array.from({ length: 200 }, (_, index) => (1 + index / 100).toFixed(2));
    const list = JSON.stringify({ values: values.map(Number) });
    expect(list.length).toBeGreaterThan(REPETITION_RULE.minChars * 4);
    expect(detectRepetition(list)).toBeNull();
    // Distinct triplets that share everything but the material and value (a table's rows).
    const rows = Array.from({ length: 40 }, (_, index) =>
      triplet(`Sample ${index + 1}`, (3 + index / 10).toFixed(1), 'Table 2 lists the band gaps of the annealed films.'),
    );
    const reply = `{"triplets":[${rows.join(',')}`;
    expect(detectRepetition(reply)).toBeNull();
  });

  it('ignores the short periodic runs of a well-formed reply', () => {
    expect(detectRepetition('{"value": "1.000000000", "unit": "eV", "note": "----------"}')).toBeNull();
    expect(detectRepetition('')).toBeNull();
    // 199 characters of one unit: under the rule's 200.
    expect(detectRepetition('a'.repeat(199))).toBeNull();
    expect(detectRepetition('a'.repeat(200))).toMatchObject({ unit: 'a', repeats: 200 });
  });

  it('needs four copies of a long unit', () => {
    const unit = 'x'.repeat(59) + 'y';
    expect(detectRepetition(unit.repeat(3))).toBeNull();
    expect(detectRepetition(unit.repeat(4))).toMatchObject({ unit, repeats: 4, chars: 240 });
  });
});
