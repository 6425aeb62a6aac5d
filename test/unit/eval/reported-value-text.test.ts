import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseValueText, readNumber } from '../../../src/eval/reported-value-text';

describe('parseValueText on real cells', () => {
  it.each([
    // bandgap-200/manual_pub__manual.csv line 7 ("Manual" column)
    ['1.66', { kind: 'number', value: 1.66 }, ''],
    // manual_pub__manual.csv line 16
    ['~1.45', { kind: 'number', value: 1.45, approximate: true }, ''],
    // manual_pub__manual.csv line 47
    ['~-0.15', { kind: 'number', value: -0.15, approximate: true }, ''],
    // manual_pub__manual.csv line 57: an upper bound is read as its limit, approximate
    ['<0.002', { kind: 'number', value: 0.002, approximate: true }, ''],
    // manual_pub__manual.csv line 147
    ['1.5-2.3', { kind: 'range', low: 1.5, high: 2.3 }, ''],
    // recorded-pub/4-LangChain/output_LC_11_0620-1606.csv line 13
    ['2.01 Å', { kind: 'number', value: 2.01 }, 'Å'],
    // recorded-pub/4-LangChain/output_LC_11_0620-1606.csv line 44
    ['1.1 eV', { kind: 'number', value: 1.1 }, 'eV'],
    // recorded-pub/3-ChatExtract/2_extracted_llama2-13b_CE_1_0921-0950.csv line 476
    ['43 eV.', { kind: 'number', value: 43 }, 'eV'],
    // recorded-pub/3-ChatExtract/2_extracted_llama2-13b_CE_1_0921-0950.csv line 108
    ['10^-4', { kind: 'number', value: 1e-4 }, ''],
    ['1.2 × 10^-3 eV', { kind: 'number', value: 1.2e-3 }, 'eV'],
  ])('%s', (text, value, unitText) => {
    const parsed = parseValueText(text);
    expect(parsed?.unitText).toBe(unitText);
    if ('value' in value) expect(parsed?.value).toMatchObject({ ...value, value: expect.closeTo(value.value, 12) });
    else expect(parsed?.value).toEqual(value);
  });

  it.each(['None', 'B1', '---', '**Value**', ''])('%s is not a value', (text) => {
    // "B1": recorded-pub/3-ChatExtract/2_extracted_qwen2.5-14b_CE_3_0921-0950.csv (paper 14).
    expect(parseValueText(text)).toBeNull();
  });
});

describe('parseValueText properties', () => {
  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        parseValueText(text);
      }),
    );
  });

  it('reads back any finite number it is given (format → parse round trip)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), (value) => {
        const parsed = parseValueText(String(value));
        expect(parsed?.value.kind).toBe('number');
        if (parsed?.value.kind === 'number') expect(parsed.value.value).toBe(Object.is(value, -0) ? 0 : value);
      }),
    );
  });

  it('reads ranges written low-high', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), (low, high) => {
        expect(parseValueText(`${low / 100}-${high / 100} eV`)).toEqual({
          value: { kind: 'range', low: low / 100, high: high / 100 },
          unitText: 'eV',
        });
      }),
    );
  });

  it('readNumber handles unicode minus and powers of ten', () => {
    expect(readNumber('−0.15')).toBe(-0.15);
    expect(readNumber('3 x 10^2')).toBe(300);
    expect(readNumber('abc')).toBeNull();
  });
});
