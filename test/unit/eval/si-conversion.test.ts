import { describe, expect, it } from 'vitest';
import { createSiConverter, parseSiFactors } from '../../../src/eval/si-conversion';
import { resolveDataRoot, projectRoot } from '../../../src/eval/data-root';
import { join, resolve } from 'node:path';
import { testConvert } from './scorer-doubles';

// Rows from cornell-scillm/supercon-extraction/scoring/si_conversion_factors.csv lines 1-3, 8, 19, 296.
const FACTORS_CSV = `property_unit,SI,conversion_factor,comments
,#N/A,,
K,K,1,
erg/cc.K2,J/mol.K^2,,conversion_factor = molar_mass / 1e7; material-dependent
meV,J,1.60E-22,1 meV = 1.60217663×10⁻²² J
micro-eV,J,1.60E-25,
`;

describe('parseSiFactors', () => {
  it('keeps rows with a numeric factor only', () => {
    expect(parseSiFactors(FACTORS_CSV)).toEqual([
      { unit: 'K', siUnit: 'K', factor: 1 },
      { unit: 'meV', siUnit: 'J', factor: 1.6e-22 },
      { unit: 'micro-eV', siUnit: 'J', factor: 1.6e-25 },
    ]);
  });

  it('rejects another header', () => {
    expect(() => parseSiFactors('unit,factor\nK,1\n')).toThrow(/property_unit/);
  });
});

describe('createSiConverter', () => {
  const factors = parseSiFactors(FACTORS_CSV);

  it('prefers the unit table (exact CODATA) over the rounded CSV factor', () => {
    const convert = createSiConverter({ toSI: testConvert }, factors);
    expect(convert(1, 'meV')!.value).toBeCloseTo(1.602176634e-22, 30);
  });

  it('falls back to the CSV for units the table does not read', () => {
    const convert = createSiConverter({ toSI: testConvert }, factors);
    expect(convert(2, 'micro-eV')).toEqual({ value: 2 * 1.6e-25, unit: 'J' });
    expect(createSiConverter(null, factors)(1, 'meV')).toEqual({ value: 1.6e-22, unit: 'J' });
    expect(convert(1, 'furlong')).toBeNull();
  });

  it('tries the normalized spelling second', () => {
    const convert = createSiConverter({ toSI: testConvert, normalizeUnit: (text) => (text === 'electron volts' ? 'eV' : null) }, []);
    expect(convert(1, 'electron volts')).toEqual({ value: 1.602176634e-19, unit: 'J' });
  });
});

describe('resolveDataRoot', () => {
  it('takes --data, then ASSAY_DATA, then ../shared beside the project', () => {
    expect(resolveDataRoot('/data/x', { ASSAY_DATA: '/elsewhere' })).toBe('/data/x');
    expect(resolveDataRoot(undefined, { ASSAY_DATA: '/elsewhere' })).toBe('/elsewhere');
    expect(resolveDataRoot(undefined, {})).toBe(join(projectRoot, '..', 'shared'));
    expect(resolveDataRoot('relative', {})).toBe(resolve('relative'));
  });
});
