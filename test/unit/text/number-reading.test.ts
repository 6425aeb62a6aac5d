/**
 * Issue 27, item 1: numbers are read as written. Decimal commas and digits grouped by spaces gave
 * silently wrong values ("6,2 eV" → 2 eV, "3 800 m²/g" → 800); one number reader (`parseNumber`,
 * `findNumberTokens`) now reads them, keeps lists, coordinates and PDF noise apart, and marks
 * digits that read two ways ("1,043 K").
 */
import { describe, expect, it } from 'vitest';
import { parseModelValue } from '../../../src/matrix/moa';
import { printedResolution } from '../../../src/properties/display-unit';
import { parseNumber, parseQuantities } from '../../../src/text/quantities';
import { decimalMarkOf, findNumberTokens } from '../../../src/text/quantities/number-tokens';
import { parseValueText } from '../../../src/text/quantities/value-text';

const values = (text: string, reading = {}) => parseQuantities(text, reading).map((quantity) => [quantity.value, quantity.unit] as const);
const number = (value: number) => ({ kind: 'number', value });

describe("decimal commas and grouped thousands (the issue's sentences)", () => {
  it.each([
    ['The band gap of AlN is 6,2 eV.', 6.2, 'eV'],
    ['The band gap of InN is 0,7 eV.', 0.7, 'eV'],
    ['MgB2 becomes superconducting at Tc = 39,5 K.', 39.5, 'K'],
    ['The BET surface area of SiO2 is 3,8 m²/g.', 3.8, 'm^2 g^-1'],
    ['The BET surface area of MOF-210 is 3 800 m²/g.', 3800, 'm^2 g^-1'],
    ['The BET surface area of MOF-210 is 3\u2009800 m²/g.', 3800, 'm^2 g^-1'],
    ['The BET surface area of MOF-210 is 3\u202f800 m²/g.', 3800, 'm^2 g^-1'],
    ['NU-110 reaches 12 500 m²/g.', 12500, 'm^2 g^-1'],
    ['a gap of 0,125 eV', 0.125, 'eV'],
  ])('%s', (sentence, value, unit) => {
    expect(values(sentence)).toEqual([[number(value), unit]]);
  });

  it('reads ranges and uncertainties written with decimal commas', () => {
    expect(values('gaps from 1,2–1,5 eV')).toEqual([[{ kind: 'range', low: 1.2, high: 1.5 }, 'eV']]);
    expect(values('Eg = 3,4 ± 0,1 eV')).toEqual([[{ kind: 'number', value: 3.4, uncertainty: 0.1 }, 'eV']]);
    expect(values('a = 3,41(2) Å')).toEqual([[{ kind: 'number', value: 3.41, uncertainty: 0.02 }, 'Å']]);
  });

  it('keeps lists, coordinates, compositions and cell pairs as separate numbers', () => {
    expect(values('gaps of 3, 5 and 7 eV')).toEqual([
      [number(3), 'eV'],
      [number(5), 'eV'],
      [number(7), 'eV'],
    ]);
    expect(values('atoms at (0,0,0) and (0, 0, 0.5) in 2 nm cells').map(([value]) => value)).toEqual([number(2)]);
    // Without a unit, "0,1" in a composition stays 0 and 1, as before (a bare number counts only after "=").
    expect(values('La2-xSrxCuO4 with x = 0,1')).toEqual([[number(0), '']]);
    expect(values('cells 3.4,5.9 eV and 3.4, 5.9 eV')).toEqual([
      [number(5.9), 'eV'],
      [number(5.9), 'eV'],
    ]);
  });

  // Lines of ../shared's captured papers where a space or comma between digits is not part of a number.
  it.each([
    [
      '(U 5 610 V, f 5 100 kHz, t 5 400 ms)',
      [610, 100, 400],
      'bandgap-200/text-pub/94_10.1038_srep04296.txt: a PDF font\'s "=" read as "5"',
    ],
    ['around 560 nm,18 580 nm,36 640 nm', [560, 580, 640], 'bandgap-200/text-arxiv/96_10.1039_C9NR04269E.txt: citations'],
    ['in the wavelength region 380 500 nm', [500], 'bandgap-200/text-pub/5_10.1016_j.mtsust.2023.100548.txt: a lost dash'],
    ['50 100 150 200 250 300 T E M P E R A T U R E (K)', [300], 'fixtures/pdf/supercon/supermat__PHC1480411-CC.pdf: an axis'],
    [
      'in a vacuum environment, 5 107 torr, at 20 C',
      [107, 20],
      'bandgap-200/text-pub/63_10.1016_j.conbuildmat.2016.05.046.txt: a lost × 10⁻⁷',
    ],
    ['V. U. Nazarov,1,2 G. Vignale', [2], 'bandgap-200/text-pub/26_10.1103_PhysRevLett.102.113001.txt: affiliations'],
    ['poly(ethylene glycol) (PEG),43,48 F127,48 citric acid', [48], 'sofc-exp/…/PMC5944822.txt: citations'],
  ])('%s', (text, expected, _source) => {
    expect(parseQuantities(text).map((quantity) => (quantity.value.kind === 'number' ? quantity.value.value : NaN))).toEqual(expected);
  });

  // Lines of ../shared's captured papers where the space groups thousands (read as the second group alone before).
  it.each([
    ['centrifuged at 15 000 rpm for 4 h', 15000, 'msptc/data/101021nn9002456.txt'],
    ['the plasma frequency as fp = 25 392 cm−1 in the nonmagnetic state', 25392, 'bandgap-200/text-pub/56_10.1007_s11467-009-0076-9.txt'],
    ['the molar volume of a gas (22 400 mL mol−1)', 22400, 'sofc-exp/…/PMC6247067.txt'],
    ['high fields of 8000 or 16 000 Oe', 16000, 'fixtures/iop/xml/limesoup__10.1088_0953-8984_22_14_146006.xml'],
  ])('%s', (text, expected, _source) => {
    expect(parseQuantities(text).map((quantity) => (quantity.value.kind === 'number' ? quantity.value.value : NaN))).toContain(expected);
  });

  it('marks "1,043" as reading two ways, unless the paper\'s decimal mark settles it', () => {
    const [ambiguous] = parseQuantities('Fe loses its ferromagnetism at 1,043 K.');
    expect(ambiguous?.value).toEqual(number(1043));
    expect(ambiguous?.ambiguity).toMatchObject({ alternative: 1.043, alternativeMark: ',' });
    expect(ambiguous?.ambiguity?.reason).toContain('1043 with a comma between thousands or 1.043 with a decimal comma');
    expect(parseQuantities('at 1,043 K', { decimalMark: '.' })[0]).toMatchObject({ value: number(1043) });
    expect(parseQuantities('at 1,043 K', { decimalMark: '.' })[0]?.ambiguity).toBeUndefined();
    expect(parseQuantities('at 1,043 K', { decimalMark: ',' })[0]).toMatchObject({ value: number(1.043) });
    // Two groups, a decimal point after the group, "000", or a whole part of 0 read one way only.
    for (const text of ['1,234,567 K', '1,234.5 K', '1,000 cycles', '0,125 eV'])
      expect(parseQuantities(text)[0]?.ambiguity, text).toBeUndefined();
  });

  it("tells a paper's decimal mark from its numbers with units, not from reference lists or DOIs", () => {
    expect(decimalMarkOf('Die Bandlücke beträgt 6,2 eV bei 300 K und 5,9 eV bei 4,2 K [8,9].')).toBe(',');
    expect(decimalMarkOf('The gap is 3.4 eV at 300 K (doi 10.1103/x) [8,9].')).toBe('.');
    expect(decimalMarkOf('Samples 1,2 and 3 [8,9].')).toBeUndefined();
  });

  it('moves past a character outside the BMP (a mathematical letter before a digit hung the reader)', () => {
    expect(findNumberTokens('the inverse of 𝑚𝑒𝑓𝑓= 𝐴 (𝐹−𝐹𝐶)−𝛼+ 𝑚0 (1) where').length).toBeGreaterThan(0);
  }, 2000);
});

describe('one reader for every value read from text', () => {
  it('parseNumber reads the digits as written', () => {
    expect(parseNumber('6,2')).toEqual({ value: 6.2, decimalMark: ',' });
    expect(parseNumber('3 800')).toEqual({ value: 3800 });
    expect(parseNumber('−3,41(2) × 10^3')).toMatchObject({ value: -3410, uncertainty: 20 });
  });

  it('the model reply reads "6,2" and "3 800" (a row was dropped, or read as 6)', () => {
    expect(parseModelValue('6,2')).toEqual(number(6.2));
    expect(parseModelValue('3 800')).toEqual(number(3800));
    expect(parseModelValue('1,2-1,5')).toEqual({ kind: 'range', low: 1.2, high: 1.5 });
    expect(parseModelValue('3.')).toEqual(number(3));
  });

  it('a dataset cell reads "6,2 eV" and "1,200 K"', () => {
    expect(parseValueText('6,2 eV')).toEqual({ value: number(6.2), unitText: 'eV' });
    expect(parseValueText('1,200 K')).toEqual({ value: number(1200), unitText: 'K' });
    expect(parseValueText('1.2 × 10^-3')?.value).toMatchObject({ kind: 'number', value: expect.closeTo(1.2e-3, 15) });
  });

  it('the display unit rounds "6,2" to its printed tenth', () => {
    expect(printedResolution('6,2')).toBeCloseTo(0.1, 15);
    expect(printedResolution('3 800')).toBe(1);
  });
});
