import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { convertUnit, normalizeUnit, toSI } from '../../../src/text/units';

// Spellings as printed; the source of each is cited (file:line, or file@offset for MuLMS).
const spellings: [written: string, canonical: string, source: string][] = [
  ['eV', 'eV', 'bandgap-200/text-pub/73_10.1016_j.mtcomm.2023.107183.txt:26'],
  ['GPa', 'GPa', 'measeval/data/train/text/S0032386113005454-2308.txt:1'],
  ['wt.%', 'wt%', 'measeval/data/train/text/S0019103513005058-3154.txt:1'],
  ['eV s-1 K-1', 'eV s^-1 K^-1', 'bandgap-200/text-pub/88_10.1021_nl8034042.txt:394'],
  ['cm2 C− 1', 'cm^2 C^-1', 'mulms/xmi/electrolysis_01.xmi.gz (sofaString, "40 cm2 C− 1")'],
  ['mA h g−1', 'mA h g^-1', 'battery papers; brief'],
  ['mAh/g', 'mAh g^-1', 'brief'],
  ['W m^-1 K^-1', 'W m^-1 K^-1', 'brief'],
  ['W/m.K', 'W m^-1 K^-1', 'cornell-scillm/supercon-extraction/scoring/si_conversion_factors.csv'],
  ['S cm−1', 'S cm^-1', 'brief'],
  ['J mol−1', 'J mol^-1', 'brief'],
  ['m2 g−1', 'm^2 g^-1', 'brief (BET)'],
  ['m²/g', 'm^2 g^-1', 'brief'],
  ['cm⁻¹', 'cm^-1', 'brief'],
  ['Å', 'Å', 'brief'],
  ['℃', '°C', 'brief'],
  ['Ω', 'Ω', 'brief'],
  ['µm', 'μm', 'micro sign U+00B5'],
  ['μm', 'μm', 'Greek mu U+03BC'],
  ['W·m−1·K−1', 'W m^-1 K^-1', 'middle dot'],
  ['electron volts', 'eV', 'spelled'],
  ['kelvin', 'K', 'spelled'],
  ['degrees Celsius', '°C', 'spelled'],
  ['gigapascals', 'GPa', 'spelled'],
  ['%', '%', 'measeval/data/train/tsv/S0006322312001096-1136.tsv (31%)'],
  ['ppm', 'ppm', 'brief'],
  ['uOhm.cm', 'μΩ cm', 'si_conversion_factors.csv'],
  ['kOe', 'kOe', 'si_conversion_factors.csv'],
  ['m\u2126 cm2', 'mΩ cm^2', 'mulms/xmi (sofaString "specific electrical resistance (10 mΩ cm2)", OHM SIGN U+2126)'],
  ['\u25e6C', '°C', 'mulms/xmi (sofaString "at 60 ◦C", WHITE BULLET as degree sign from PDF)'],
  ['oC', '°C', 'sofc-exp texts/PMC4495617.txt ("0.12 S cm−1 at 600 oC", the PMC plain text of a superscript o)'],
  ['VRHE', 'V_RHE', 'mulms/xmi (sofaString "at E= 1.55 VRHE")'],
  ['V vs. RHE', 'V_RHE', 'electrochemistry papers'],
  ['mTorr', 'mTorr', 'mulms/xmi (sofaString "with 30 mTorr pressure")'],
  ['fs', 'fs', 'mulms/xmi (sofaString "(∆t = 1 fs)")'],
  ['‰', '‰', 'measeval/data/train (δ13C "a 4‰ shift")'],
];

describe('normalizeUnit', () => {
  it.each(spellings)('%s → %s (%s)', (written, canonical) => {
    expect(normalizeUnit(written)).toBe(canonical);
  });
  it('rejects words that are not units', () => {
    expect(normalizeUnit('participants')).toBeNull();
    expect(normalizeUnit('the')).toBeNull();
  });
});

describe('toSI', () => {
  const cases: [value: number, unit: string, si: number, siUnit: string][] = [
    [1, 'meV', 1.602176634e-22, 'kg m^2 s^-2'],
    [300, '°C', 573.15, 'K'],
    [2.5, 'GPa', 2.5e9, 'kg m^-1 s^-2'],
    [180, 'mA h g−1', 648000, 'kg^-1 s A'],
    [1, 'S cm−1', 100, 'kg^-1 m^-3 s^3 A^2'],
    [5, 'Å', 5e-10, 'm'],
    [10, 'kOe', 1, 'kg s^-2 A^-1'],
    [3, 'wt%', 0.03, ''],
  ];
  it.each(cases)('%d %s → %d %s', (value, unit, si, siUnit) => {
    const converted = toSI(value, unit);
    expect(converted?.unit).toBe(siUnit);
    expect(converted!.value).toBeCloseTo(si, 6 - Math.round(Math.log10(Math.abs(si))));
  });
  it('returns null for unknown units', () => expect(toSI(1, 'bananas')).toBeNull());
  it('checks dimensions when converting', () => {
    expect(convertUnit(1, 'eV', 'J')).toBeCloseTo(1.602176634e-19, 25);
    expect(convertUnit(1, 'eV', 'K')).toBeNull();
    expect(convertUnit(573.15, 'K', '°C')).toBeCloseTo(300, 9);
  });
  it('never throws on arbitrary unit strings', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        normalizeUnit(text);
        toSI(1, text);
      }),
    );
  });
});
