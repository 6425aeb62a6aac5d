import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatNumber, formatQuantity, headerUnit, parseNumber, parseQuantities, parseTableQuantities } from '../../../src/text/quantities';

type Expected = { text: string; value: unknown; unit: string };
// Real sentences; source cited per case (file:line, or file + quoted context for MuLMS XMI).
const sentences: [sentence: string, expected: Expected[], source: string][] = [
  [
    'are 2.3 eV and 3.2 eV, respectively, at the HSE06 level.',
    [
      { text: '2.3 eV', value: { kind: 'number', value: 2.3 }, unit: 'eV' },
      { text: '3.2 eV', value: { kind: 'number', value: 3.2 }, unit: 'eV' },
    ],
    'bandgap-200/text-pub/73_10.1016_j.mtcomm.2023.107183.txt:26',
  ],
  [
    'A tensile modulus of 3.19 ± 0.10 GPa was measured',
    [{ text: '3.19 ± 0.10 GPa', value: { kind: 'number', value: 3.19, uncertainty: 0.1 }, unit: 'GPa' }],
    'measeval/data/train/text/S0032386113005454-2308.txt:1',
  ],
  [
    'Soluble sulfate was present at 1.3 ± 0.5 wt.% (Kounaves',
    [{ text: '1.3 ± 0.5 wt.%', value: { kind: 'number', value: 1.3, uncertainty: 0.5 }, unit: 'wt%' }],
    'measeval/data/train/text/S0019103513005058-3154.txt:1',
  ],
  [
    'a cell band gap varied in between 1.15 and 1.25 eV with WO3 on Ni foam',
    [{ text: 'between 1.15 and 1.25 eV', value: { kind: 'range', low: 1.15, high: 1.25 }, unit: 'eV' }],
    'mulms/xmi/electrolysis_01.xmi.gz (sofaString)',
  ],
  [
    'the overpotential of 400 mV was 40 cm2 C− 1. Hydrogen',
    [
      { text: '400 mV', value: { kind: 'number', value: 400 }, unit: 'mV' },
      { text: '40 cm2 C− 1', value: { kind: 'number', value: 40 }, unit: 'cm^2 C^-1' },
    ],
    'mulms/xmi/electrolysis_01.xmi.gz (sofaString)',
  ],
  [
    'for commercial electrolyzers (1.8–2.0 V) is much larger',
    [{ text: '1.8–2.0 V', value: { kind: 'range', low: 1.8, high: 2 }, unit: 'V' }],
    'mulms/xmi/electrolysis_01.xmi.gz (sofaString)',
  ],
  [
    'span- ning from about 25% from serial interconnected',
    [{ text: 'about 25%', value: { kind: 'number', value: 25, approximate: true }, unit: '%' }],
    'mulms/xmi/electrolysis_01.xmi.gz (sofaString)',
  ],
  [
    'ER stability maintained after 2000 cycles [8]. PV–technologies',
    [{ text: '2000 cycles', value: { kind: 'number', value: 2000 }, unit: 'cycles' }],
    'mulms/xmi/electrolysis_01.xmi.gz (sofaString); [8] is a reference',
  ],
  [
    'baseline examination in 1991; follow-up screenings in 1997, 2003, and 2008',
    [],
    'measeval/data/train/text/S0006322312001096-1136.txt:1 (years are not quantities)',
  ],
  [
    'Σnw ) 2.6 × 106 eV s-1 K-1',
    [{ text: '2.6 × 106 eV s-1 K-1', value: { kind: 'number', value: 2.6e6 }, unit: 'eV s^-1 K^-1' }],
    'bandgap-200/text-pub/88_10.1021_nl8034042.txt:394 (superscript lost in PDF: "× 106" is × 10^6)',
  ],
  [
    'over a photon energy range of 0.0 to 7.0 eV. Both',
    [{ text: '0.0 to 7.0 eV', value: { kind: 'range', low: 0, high: 7 }, unit: 'eV' }],
    'bandgap-200/text-pub/73_10.1016_j.mtcomm.2023.107183.txt:566',
  ],
  [
    'photon energies ranging from 0.0 to 7.0 eV, at HSE06',
    [{ text: 'from 0.0 to 7.0 eV', value: { kind: 'range', low: 0, high: 7 }, unit: 'eV' }],
    'bandgap-200/text-pub/73_10.1016_j.mtcomm.2023.107183.txt:636',
  ],
  [
    'improving during the first 1,000 cycles down to',
    [{ text: '1,000 cycles', value: { kind: 'number', value: 1000 }, unit: 'cycles' }],
    'bandgap-200/text-pub/93_10.1038_s41929-019-0400-x.txt:130',
  ],
  [
    "L is the samples' thickness, μ (1.8 × 10−5 Pa s) is the air",
    [{ text: '1.8 × 10−5 Pa s', value: { kind: 'number', value: 1.8e-5 }, unit: 'Pa s' }],
    'bandgap-200/text-pub/62_10.1016_j.ceramint.2019.10.025.txt:239',
  ],
  [
    'partial oxygen pressure of 1.2 × 10−6 mbar (Ar pressure',
    [{ text: '1.2 × 10−6 mbar', value: { kind: 'number', value: 1.2e-6 }, unit: 'mbar' }],
    'bandgap-200/text-pub/1_10.1002_adfm.202311895.txt:532',
  ],
  [
    'box with H2O and O2 levels <0.5 ppm. The LiTFSI',
    [],
    'bandgap-200/text-pub/34_10.1016_j.electacta.2017.07.121.txt:132 (a bound is left out)',
  ],
  ['surface areas (SBET > 170 m2 g−1), interes', [], 'measeval/data/train/text/S0927775713009606-1074.txt:1 (a bound is left out)'],
  [
    'stroke (odds ratio 2.30, 95% CI',
    [{ text: '95%', value: { kind: 'number', value: 95 }, unit: '%' }],
    'measeval/data/train/text/S0006322312001096-1248.txt:1 ("2.30, 95%" is not a list)',
  ],
  [
    'transplanted autografts (Figures 3I and 3J). Most',
    [],
    'measeval/data/train/text/S2213671113000738-684.txt:1 (figure panels are not units)',
  ],
  // Constructed from the brief's feature list (no corpus line at hand for these forms):
  [
    'σ = 2.5e-3 S cm−1, 1.5 x 10-3 S cm−1, 10−3 S·cm−1 and 5 ppm',
    [
      { text: '2.5e-3 S cm−1', value: { kind: 'number', value: 2.5e-3 }, unit: 'S cm^-1' },
      { text: '1.5 x 10-3 S cm−1', value: { kind: 'number', value: 1.5e-3 }, unit: 'S cm^-1' },
      { text: '10−3 S·cm−1', value: { kind: 'number', value: 1e-3 }, unit: 'S cm^-1' },
      { text: '5 ppm', value: { kind: 'number', value: 5 }, unit: 'ppm' },
    ],
    'brief: scientific notation forms',
  ],
  [
    'annealed at 500 degrees Celsius, gap 1.2-1.5 eV, κ ≈ 1.3 W m^-1 K^-1',
    [
      { text: '500 degrees Celsius', value: { kind: 'number', value: 500 }, unit: '°C' },
      { text: '1.2-1.5 eV', value: { kind: 'range', low: 1.2, high: 1.5 }, unit: 'eV' },
      { text: '≈ 1.3 W m^-1 K^-1', value: { kind: 'number', value: 1.3, approximate: true }, unit: 'W m^-1 K^-1' },
    ],
    'brief',
  ],
  [
    'gaps of 3.2, 3.4 and 3.6 eV',
    [
      { text: '3.2', value: { kind: 'number', value: 3.2 }, unit: 'eV' },
      { text: '3.4', value: { kind: 'number', value: 3.4 }, unit: 'eV' },
      { text: '3.6 eV', value: { kind: 'number', value: 3.6 }, unit: 'eV' },
    ],
    'brief: list sharing a unit',
  ],
  [
    'Tc = 39 K in MgB2 [12], measured at 300K',
    [
      { text: '39 K', value: { kind: 'number', value: 39 }, unit: 'K' },
      { text: '300K', value: { kind: 'number', value: 300 }, unit: 'K' },
    ],
    'brief',
  ],
  [
    'σ = 1.5×10−3 S cm−1 and a = 3.41(2) Å',
    [
      { text: '1.5×10−3 S cm−1', value: { kind: 'number', value: 0.0015 }, unit: 'S cm^-1' },
      { text: '3.41(2) Å', value: { kind: 'number', value: 3.41, uncertainty: 0.02 }, unit: 'Å' },
    ],
    'brief',
  ],
  ['Tc < 2 K as shown in Fig. 3 and Eq. (4)', [], 'brief: bounds, figure and equation numbers are left out'],
  [
    '2.1 electron volts and 30 gigapascals',
    [
      { text: '2.1 electron volts', value: { kind: 'number', value: 2.1 }, unit: 'eV' },
      { text: '30 gigapascals', value: { kind: 'number', value: 30 }, unit: 'GPa' },
    ],
    'brief: spelled units',
  ],
];

describe('parseQuantities on real sentences', () => {
  it.each(sentences)('%s', (sentence, expected) => {
    const found = parseQuantities(sentence).map((quantity) => ({ text: quantity.text, value: quantity.value, unit: quantity.unit }));
    expect(found).toEqual(expected);
  });
  it('fills SI values', () => {
    const [quantity] = parseQuantities('heated at 300 °C for 2 h');
    expect(quantity?.si?.unit).toBe('K');
    expect(quantity?.si?.value).toEqual({ kind: 'number', value: 573.15 });
  });
});

describe('parseTableQuantities', () => {
  // Tab-separated table block as captured (src/capture): header units apply to bare cells.
  const table = 'Compound\tEg (eV)\tTc [K]\ta / Å\nMgB2\t3.4\t39 K\t3.086(2)\nLaO\t~1.2–1.5\t-\t4.1 ± 0.1';
  it('gives bare cells the unit of their column header', () => {
    const found = parseTableQuantities(table, 100);
    expect(found.map((quantity) => [quantity.text, quantity.unit, quantity.value])).toEqual([
      ['3.4', 'eV', { kind: 'number', value: 3.4 }],
      ['39 K', 'K', { kind: 'number', value: 39 }],
      ['3.086(2)', 'Å', { kind: 'number', value: 3.086, uncertainty: 0.002 }],
      ['~1.2–1.5', 'eV', { kind: 'range', low: 1.2, high: 1.5, approximate: true }],
      ['4.1 ± 0.1', 'Å', { kind: 'number', value: 4.1, uncertainty: 0.1 }],
    ]);
    for (const quantity of found) expect(table.slice(quantity.start - 100, quantity.end - 100)).toBe(quantity.text);
  });
  it('reads header units', () => {
    expect(headerUnit('Eg (eV)')).toEqual({ unit: 'eV', unitText: 'eV' });
    expect(headerUnit('σ, S cm−1')).toEqual({ unit: 'S cm^-1', unitText: 'S cm−1' });
    expect(headerUnit('Compound')).toBeNull();
  });
});

describe('properties', () => {
  it('never throws and offsets always match the text', () => {
    const alphabet = fc.constantFrom(...'0123456789.,-−–±×x^eE()[] %KeVmgcs/Å°C~≈<=and to between'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: alphabet })), (text) => {
        for (const quantity of parseQuantities(text)) expect(text.slice(quantity.start, quantity.end)).toBe(quantity.text);
      }),
      { numRuns: 500 },
    );
  });
  it('parseNumber(formatNumber(x)) round-trips', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const parsed = parseNumber(formatNumber(value));
        expect(parsed?.value).toBe(value === 0 ? 0 : value);
      }),
    );
  });
  it('formatQuantity output parses back to the same value and unit', () => {
    const value = fc.double({ min: 0.001, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(value, fc.constantFrom('eV', 'K', 'GPa', 'S cm^-1'), (number, unit) => {
        const [quantity] = parseQuantities(formatQuantity({ value: { kind: 'number', value: number }, unit }));
        expect(quantity?.unit).toBe(unit);
        expect(quantity?.value).toEqual({ kind: 'number', value: number });
      }),
    );
  });
});
