import { describe, expect, it } from 'vitest';
import { foldEvidence } from '../../../../src/ui/side-panel/evidence-fold';
import { triplet } from '../run-fixtures';

const paragraph =
  'Europium chalcogenides are ferromagnetic semiconductors that have been studied for decades. ' +
  'Thin films were grown by molecular beam epitaxy on BaF2 substrates at 300 °C and capped with aluminium. ' +
  'The optical band gap of EuS is 1.6 eV at room temperature, in line with earlier reports. ' +
  'Below the Curie temperature the absorption edge shifts to lower energies by about 0.2 eV.';

describe('foldEvidence', () => {
  it('folds a long quote to the sentence that prints the value, marking what was left out', () => {
    const folded = foldEvidence(paragraph, triplet({ material: 'EuS', value: { kind: 'number', value: 1.6 } }));
    expect(folded).toEqual({
      shown: '… The optical band gap of EuS is 1.6 eV at room temperature, in line with earlier reports. …',
      folded: true,
    });
  });

  it('finds the value as printed ("~1.60") or by its number, and falls back to the first sentence', () => {
    const printed = paragraph.replace('1.6 eV', '~1.60 eV');
    expect(foldEvidence(printed, triplet({ value: { kind: 'number', value: 1.6 }, valueText: '~1.60' })).shown).toContain('~1.60 eV');
    expect(foldEvidence(paragraph, triplet({ value: { kind: 'number', value: 7.7 } })).shown).toBe(
      'Europium chalcogenides are ferromagnetic semiconductors that have been studied for decades. …',
    );
  });

  it('shows a short quote or a single long sentence whole', () => {
    expect(foldEvidence('The band gap of EuS is 1.6 eV.', triplet())).toEqual({ shown: 'The band gap of EuS is 1.6 eV.', folded: false });
    const long = `The band gap ${'of the thin film '.repeat(30)}is 1.6 eV`;
    expect(foldEvidence(long, triplet({ value: { kind: 'number', value: 1.6 } }))).toEqual({ shown: long, folded: false });
  });
});
