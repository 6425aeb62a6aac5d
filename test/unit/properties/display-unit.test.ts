import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPropertySchemas } from '../../../src/properties';
import {
  describeValueWithDisplay,
  displayTextBeside,
  displayUnitOf,
  displayValueOf,
  printedResolution,
  roundToResolution,
  toDisplayValue,
} from '../../../src/properties/display-unit';
import { convertUnit, toSI } from '../../../src/text/units';

const number = (value: number, extra: { uncertainty?: number; approximate?: boolean } = {}) => ({
  kind: 'number' as const,
  value,
  ...extra,
});

describe('toDisplayValue', () => {
  it('converts meV to eV, keeping the printed digits: 40 meV is known to 1 meV, so 0.040 eV', () => {
    const display = toDisplayValue({ value: number(40), valueText: '40', unit: 'meV' }, 'eV')!;
    expect(display.unit).toBe('eV');
    expect(display.value).toMatchObject({ kind: 'number' });
    expect(display.value.kind === 'number' && display.value.value).toBeCloseTo(0.04, 12);
    expect(display.text).toBe('0.040 eV');
  });

  it('converts °C to K with the offset, keeping the printed decimal place, not a count of significant figures', () => {
    expect(toDisplayValue({ value: number(25), valueText: '25', unit: '°C' }, 'K')!.text).toBe('298 K');
    expect(toDisplayValue({ value: number(-195.79), valueText: '−195.79', unit: '°C' }, 'K')!.text).toBe('77.36 K');
  });

  it('converts an uncertainty by the slope only: ±2 °C is ±2 K', () => {
    const display = toDisplayValue({ value: number(120, { uncertainty: 2 }), valueText: '120 ± 2', unit: '°C' }, 'K')!;
    expect(display.value).toEqual({ kind: 'number', value: 393.15, uncertainty: 2 });
    expect(display.text).toBe('393 ± 2 K');
  });

  it('converts kbar to GPa (1 kbar = 0.1 GPa) and Mbar to GPa', () => {
    expect(toDisplayValue({ value: number(12), valueText: '12', unit: 'kbar' }, 'GPa')!.text).toBe('1.2 GPa');
    expect(toDisplayValue({ value: number(1.2), valueText: '1.2', unit: 'kbar' }, 'GPa')!.text).toBe('0.12 GPa');
    expect(toDisplayValue({ value: number(4.43), valueText: '4.43', unit: 'Mbar' }, 'GPa')!.text).toBe('443 GPa');
  });

  it('converts nm to Å, and keeps trailing zeros as printed', () => {
    expect(toDisplayValue({ value: number(0.3905), valueText: '0.3905', unit: 'nm' }, 'Å')!.text).toBe('3.905 Å');
    expect(toDisplayValue({ value: number(0.39), valueText: '0.390', unit: 'nm' }, 'Å')!.text).toBe('3.90 Å');
  });

  it('converts both ends of a range and keeps "~"', () => {
    const display = toDisplayValue(
      { value: { kind: 'range', low: 120, high: 150, approximate: true }, valueText: '~120–150', unit: 'meV' },
      'eV',
    )!;
    expect(display.value.kind).toBe('range');
    if (display.value.kind === 'range') {
      expect(display.value.low).toBeCloseTo(0.12, 12);
      expect(display.value.high).toBeCloseTo(0.15, 12);
      expect(display.value.approximate).toBe(true);
    }
    expect(display.text).toBe('~0.120–0.150 eV');
  });

  it('reads the precision of scientific notation as printed', () => {
    expect(toDisplayValue({ value: number(1.5e3), valueText: '1.5 × 10^3', unit: 'MPa' }, 'GPa')!.text).toBe('1.5 GPa');
    // Without the printed text, the shortest form "1500" counts its zeros as printed digits.
    expect(toDisplayValue({ value: number(1500), unit: 'MPa' }, 'GPa')!.text).toBe('1.500 GPa');
  });

  it('shows the printed numbers when the printed unit is the display unit', () => {
    expect(toDisplayValue({ value: number(1.2), valueText: '1.20', unit: 'eV' }, 'eV')!.text).toBe('1.20 eV');
    expect(toDisplayValue({ value: number(3.2), unit: 'g cm^-3' }, 'g/cm³')!.text).toBe('3.2 g/cm³');
  });

  it('returns null, never a number, when the unit does not convert: another dimension, an unknown unit, none, below 0 K', () => {
    expect(toDisplayValue({ value: number(-300), valueText: '-300', unit: '°C' }, 'K')).toBeNull();
    expect(toDisplayValue({ value: number(3.4), valueText: '3.4', unit: 'K' }, 'eV')).toBeNull();
    expect(toDisplayValue({ value: number(500), valueText: '500', unit: 'mK' }, 'K')).toBeNull();
    expect(toDisplayValue({ value: number(0.35), valueText: '0.35', unit: '' }, 'eV')).toBeNull();
    expect(toDisplayValue({ value: number(2), valueText: '2', unit: 'kJ/mol' }, 'eV')).toBeNull();
  });

  it('writes J → eV with the slope not a power of ten never coarser than printed, in e notation when tiny', () => {
    expect(toDisplayValue({ value: number(1.6e-19), valueText: '1.6e-19', unit: 'J' }, 'eV')!.text).toBe('1.00 eV');
    expect(toDisplayValue({ value: number(1), valueText: '1', unit: 'J' }, 'eV')!.text).toBe('6e18 eV');
  });
});

describe('printedResolution and roundToResolution', () => {
  it.each([
    ['3.905', 0.001],
    ['40', 1],
    ['1.5e-3', 0.0001],
    ['1.5 × 10^3', 100],
    ['10,308', 1],
    ['3.41(2)', 0.01],
  ])('%s is known to %d', (text, resolution) => {
    expect(printedResolution(text)).toBeCloseTo(resolution, 15);
  });

  it('rounds to the place of the resolution', () => {
    expect(roundToResolution(0.04, 0.001)).toBe('0.040');
    expect(roundToResolution(298.15, 1)).toBe('298');
    // 125.5 °C in K: 398.65 rounds up as written, though its double is 398.6499…
    expect(roundToResolution(398.65, 0.1)).toBe('398.7');
    expect(roundToResolution(53.2, 10)).toBe('50');
    expect(roundToResolution(-0.0001, 0.01)).toBe('0.00');
  });
});

describe('displayUnitOf, displayValueOf and displayTextBeside', () => {
  const schemas = new Map(loadPropertySchemas().map((schema) => [schema.name, schema]));

  it('falls back to the canonical unit for a property that names no display unit', () => {
    expect(displayUnitOf({ canonicalUnit: 'W/(m K)' })).toBe('W/(m K)');
    expect(displayUnitOf({ canonicalUnit: 'W/(m K)', displayUnit: 'mW/(m K)' })).toBe('mW/(m K)');
  });

  it('looks the display unit up by property, and gives null for a property no schema describes', () => {
    expect(displayValueOf({ property: 'band_gap', value: number(850), valueText: '850', unit: 'meV' }, schemas)!.text).toBe('0.850 eV');
    expect(displayValueOf({ property: 'bulk_modulus', value: number(1600), valueText: '1600', unit: 'kbar' }, schemas)!.text).toBe(
      '160.0 GPa',
    );
    expect(displayValueOf({ property: 'unknown_thing', value: number(1), unit: 'eV' }, schemas)).toBeNull();
  });

  it('describes a verdict value with its display value for the side panel', () => {
    const tc = schemas.get('tc');
    expect(describeValueWithDisplay({ value: number(-269), valueText: '−269', unit: '°C' }, tc)).toBe('-269 °C (4 K)');
    expect(describeValueWithDisplay({ value: { kind: 'range', low: 9, high: 9.3 }, unit: 'K' }, tc)).toBe('9–9.3 K');
    expect(describeValueWithDisplay({ value: number(500), unit: 'mK' }, tc)).toBe('500 mK');
  });

  it('gives text to show beside the printed value only when it says something new', () => {
    const bandGap = schemas.get('band_gap');
    expect(displayTextBeside({ value: number(40), valueText: '40', unit: 'meV' }, bandGap)).toBe('0.040 eV');
    expect(displayTextBeside({ value: number(1.1), valueText: '1.1', unit: 'eV' }, bandGap)).toBeUndefined();
    expect(displayTextBeside({ value: number(1.1), valueText: '1.1', unit: 'K' }, bandGap)).toBeUndefined();
    expect(displayTextBeside({ value: number(1.1), valueText: '1.1', unit: 'meV' }, undefined)).toBeUndefined();
  });
});

describe('built-in display units', () => {
  const schemas = loadPropertySchemas();

  it.each(schemas.map((schema) => [schema.name, schema] as const))(
    '%s names a display unit of its own dimension, which the unit table and js-quantities read',
    (_name, schema) => {
      expect(schema.displayUnit).toBeDefined();
      const displayUnit = schema.displayUnit!;
      // Same SI base units as the canonical unit, so range checks and display agree on the dimension.
      expect(toSI(1, displayUnit)?.unit).toBe(toSI(1, schema.canonicalUnit)!.unit);
      expect(convertUnit(1, schema.canonicalUnit, displayUnit)).not.toBeNull();
      // Every listed unit converts to it, except millikelvin, which the unit table lacks (documented in tc.json).
      for (const unit of schema.units.filter((listed) => listed !== 'mK')) expect(convertUnit(1, unit, displayUnit)).not.toBeNull();
    },
  );

  it('are the units the field prints', () => {
    const byName = Object.fromEntries(schemas.map((schema) => [schema.name, schema.displayUnit]));
    expect(byName).toMatchObject({
      band_gap: 'eV',
      tc: 'K',
      curie_temperature: 'K',
      bulk_modulus: 'GPa',
      lattice_a: 'Å',
      lattice_constant: 'Å',
      density: 'g/cm³',
      d33: 'pC/N',
      bet_surface_area: 'm²/g',
    });
  });
});

describe('round trip (property-based)', () => {
  const pairs: Array<[string, string]> = [
    ['meV', 'eV'],
    ['°C', 'K'],
    ['kbar', 'GPa'],
    ['MPa', 'GPa'],
    ['nm', 'Å'],
    ['pm', 'Å'],
    ['kg/m^3', 'g/cm³'],
  ];

  it('converting to the display unit and back gives the value within 1e-9 relative', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.oneof(fc.constant(0), fc.double({ min: 1e-6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: -1e-6, noNaN: true })),
        ([from, to], value) => {
          // Below absolute zero is no temperature (a unit test above checks that -300 °C gives null).
          fc.pre(!(from === '°C' && value < -273.15));
          const display = toDisplayValue({ value: number(value), unit: from }, to);
          expect(display).not.toBeNull();
          const shown = display!.value.kind === 'number' ? display!.value.value : NaN;
          const back = convertUnit(shown, to, from)!;
          expect(Math.abs(back - value)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(value)));
        },
      ),
    );
  });

  it('the rounded text is within half a printed digit of the exact conversion', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.integer({ min: -27315, max: 99999 }),
        fc.integer({ min: 0, max: 4 }),
        ([from, to], digits, decimals) => {
          const printed = (digits / 10 ** decimals).toFixed(decimals);
          fc.pre(!(from === '°C' && Number(printed) < -273.15));
          const display = toDisplayValue({ value: number(Number(printed)), valueText: printed, unit: from }, to)!;
          const exact = convertUnit(Number(printed), from, to)!;
          const slope = Math.abs(convertUnit(1, from, to)! - convertUnit(0, from, to)!);
          const shown = Number(display.text.replace(` ${to}`, ''));
          expect(Math.abs(shown - exact)).toBeLessThanOrEqual(0.5 * 10 ** -decimals * slope * (1 + 1e-9) + 1e-12);
        },
      ),
    );
  });
});
