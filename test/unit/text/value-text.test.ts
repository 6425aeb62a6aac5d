import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuantities } from '../../../src/text/quantities';
import { parseValueText } from '../../../src/text/quantities/value-text';

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

  it('reads unicode minus and powers of ten', () => {
    expect(parseValueText('−0.15')?.value).toEqual({ kind: 'number', value: -0.15 });
    expect(parseValueText('3 x 10^2')?.value).toEqual({ kind: 'number', value: 300 });
    expect(parseValueText('abc')).toBeNull();
  });
});

describe('parseValueText reads cells as the quantity reader reads papers', () => {
  // The evaluation's cell reader had a number grammar of its own (eval/reported-value-text.ts)
  // beside the dataset's (store/dataset-rows.ts, by parseQuantities); where they differed it read
  // less: each case below is a real cell of ../shared's datasets that it misread.
  it.each([
    // supermat truth: the digit uncertainty and the unit were cut off as a "bracketed note" (203, "").
    ['203(1) K', { kind: 'number', value: 203, uncertainty: 1 }, 'K'],
    // sofc-exp: "between … and …" was not a value at all (null).
    ['between 350 and 550 °C', { kind: 'range', low: 350, high: 550 }, '°C'],
    // sofc-exp: an en-dash exponent was unit text (4, "× 10–5 bar").
    ['4 × 10–5 bar', { kind: 'number', value: 4e-5 }, 'bar'],
    // bandgap-200 recorded answers: a flattened superscript with U+2212 (10, "−3") and a range joined by U+2212 (1500, "−1600 °C").
    ['10−3', { kind: 'number', value: 1e-3 }, ''],
    ['1500−1600 °C', { kind: 'range', low: 1500, high: 1600 }, '°C'],
  ])('%s', (text, value, unitText) => {
    const parsed = parseValueText(text);
    expect(parsed?.unitText).toBe(unitText);
    if ('value' in value) expect(parsed?.value).toMatchObject({ ...value, value: expect.closeTo(value.value, 12) });
    else expect(parsed?.value).toEqual(value);
  });

  it('reads a bare value as the dataset Edit form does (parseQuantities with a probe unit)', () => {
    for (const text of [
      '3.4',
      '~1.45',
      '1.2–1.5',
      'between 1.2 and 1.5',
      '3.4 ± 0.1',
      '3.41(2)',
      '1.5e-3',
      '2.6 × 10^6',
      '6,2',
      '10−3',
      '1−10',
      'nearly 3',
    ]) {
      const [quantity] = parseQuantities(`${text} K`);
      expect(parseValueText(text), text).toEqual({ value: quantity!.value, unitText: '' });
    }
  });
});
