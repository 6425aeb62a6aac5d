import { describe, expect, it } from 'vitest';
import { FactFileError, MAX_LINE_CHARS, readFactLine, readFactLines, resolveProperty } from '../../../../src/cli/verify/fact-lines';
import { readValueInput } from '../../../../src/cli/verify/value-input';
import { loadPropertySchemas } from '../../../../src/properties';

const schemas = loadPropertySchemas();

describe('readValueInput: values as other tools write them', () => {
  it.each([
    [3.4, undefined, { kind: 'number', value: 3.4 }, ''],
    ['3.4', 'eV', { kind: 'number', value: 3.4 }, 'eV'],
    ['~1.45', 'eV', { kind: 'number', value: 1.45, approximate: true }, 'eV'],
    ['about 0.7', 'eV', { kind: 'number', value: 0.7, approximate: true }, 'eV'],
    ['−0.15', 'eV', { kind: 'number', value: -0.15 }, 'eV'],
    ['3.41(2)', 'Å', { kind: 'number', value: 3.41, uncertainty: 0.02 }, 'Å'],
    ['1.2–1.5', 'eV', { kind: 'range', low: 1.2, high: 1.5 }, 'eV'],
    ['1.2-1.5', 'eV', { kind: 'range', low: 1.2, high: 1.5 }, 'eV'],
    ['1.2 to 1.5', 'eV', { kind: 'range', low: 1.2, high: 1.5 }, 'eV'],
    ['-1.2 - -0.5', 'eV', { kind: 'range', low: -1.2, high: -0.5 }, 'eV'],
    ['3.4 ± 0.1', 'eV', { kind: 'number', value: 3.4, uncertainty: 0.1 }, 'eV'],
    ['3.4 eV', undefined, { kind: 'number', value: 3.4 }, 'eV'],
    ['1.2–1.5 eV', undefined, { kind: 'range', low: 1.2, high: 1.5 }, 'eV'],
    [{ low: '1.2', high: 1.5 }, 'eV', { kind: 'range', low: 1.2, high: 1.5 }, 'eV'],
    [{ min: 5, max: 2 }, 'K', { kind: 'range', low: 2, high: 5 }, 'K'],
    [{ kind: 'number', value: 9.2 }, 'K', { kind: 'number', value: 9.2 }, 'K'],
  ] as const)('%j %s', (input, unit, value, readUnit) => {
    const read = readValueInput(input as never, unit);
    expect(read).toMatchObject({ value, unit: readUnit });
  });

  it('refuses a bound, text that is not a number and a range with a side that is not one', () => {
    expect(readValueInput('< 5', 'K')).toEqual({ error: 'value "< 5" is a bound, not a value: give the number the paper reports' });
    expect(readValueInput('high', 'K')).toEqual({ error: 'value "high" is not a number or a range' });
    expect(readValueInput({ low: 'a', high: 2 }, 'K')).toEqual({ error: 'value range a–2 is not two numbers' });
    expect(readValueInput('3.4 eV', 'K')).toMatchObject({ error: expect.stringContaining('not a number') });
  });
});

describe('resolveProperty', () => {
  it('reads the schema name, its label in any case or spacing, and its synonyms', () => {
    expect(resolveProperty('band_gap', schemas)?.name).toBe('band_gap');
    expect(resolveProperty('Band gap', schemas)?.name).toBe('band_gap');
    expect(resolveProperty('band-gap', schemas)?.name).toBe('band_gap');
    expect(resolveProperty('bandgap', schemas)?.name).toBe('band_gap');
    expect(resolveProperty('colour', schemas)).toBeUndefined();
  });
});

describe('readFactLine: one line validated at the boundary', () => {
  it('reads a fact with a quote, free-text conditions and a range value', () => {
    const line = JSON.stringify({
      material: 'SmN',
      property: 'band gap',
      value: '1.2–1.5',
      unit: 'eV',
      quote: 'a gap of 1.2–1.5 eV',
      conditions: 'LSDA+U',
      doi: '10.1088/0953-8984/27/11/115503',
    });
    const read = readFactLine(line, 4, schemas);
    expect(read).toMatchObject({
      index: 4,
      quoteGiven: true,
      triplet: {
        material: 'SmN',
        property: 'band_gap',
        value: { kind: 'range', low: 1.2, high: 1.5 },
        unit: 'eV',
        valueText: '1.2–1.5',
        conditions: [{ kind: 'other', value: 'LSDA+U' }],
        evidence: { quote: { exact: 'a gap of 1.2–1.5 eV' } },
        engine: 'input',
      },
    });
    expect(read).not.toHaveProperty('triplet.doi');
  });

  it('reads structured conditions, and a line without a quote as one to locate', () => {
    const line = JSON.stringify({
      material: 'GaN',
      property: 'band_gap',
      value: 3.4,
      unit: 'eV',
      conditions: [{ kind: 'method', value: 'HSE06', text: 'HSE06' }],
    });
    expect(readFactLine(line, 0, schemas)).toMatchObject({
      quoteGiven: false,
      triplet: { conditions: [{ kind: 'method', value: 'HSE06', text: 'HSE06' }] },
    });
  });

  it.each([
    ['not json', /^not JSON: /],
    ['[1, 2]', /^not a JSON object$/],
    ['{"material":"SmN","property":"band_gap","value":1,"unit":"eV","__proto__":{"polluted":true}}', /"__proto__" key is not allowed/],
    ['{"property":"band_gap","value":1,"unit":"eV"}', /^invalid fact: material: /],
    ['{"material":"  ","property":"band_gap","value":1,"unit":"eV"}', /material is empty/],
    ['{"material":"SmN","property":"colour","value":1,"unit":"eV"}', /^unknown property "colour"; known: .*band_gap/],
    ['{"material":"SmN","property":"band_gap","value":"n/a","unit":"eV"}', /not a number or a range/],
    ['{"material":"SmN","property":"band_gap","value":true,"unit":"eV"}', /^invalid fact: value/],
    [JSON.stringify({ material: 'x'.repeat(501), property: 'band_gap', value: 1, unit: 'eV' }), /a material is at most 500 characters/],
    [
      JSON.stringify({ material: 'SmN', property: 'band_gap', value: 1, unit: 'eV', conditions: [{ kind: 'colour', value: 'red' }] }),
      /conditions/,
    ],
  ])('rejects %s with its reason', (line, reason) => {
    const read = readFactLine(line, 2, schemas);
    expect(read).toMatchObject({ index: 2, error: expect.stringMatching(reason) });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a line over the size limit before parsing it', () => {
    const read = readFactLine(`{"material":"${'a'.repeat(MAX_LINE_CHARS)}"}`, 0, schemas);
    expect(read).toMatchObject({ error: expect.stringMatching(/over the 100000 limit of one fact/) });
  });
});

describe('readFactLines: the whole file', () => {
  const good = JSON.stringify({ material: 'GaN', property: 'band_gap', value: 3.4, unit: 'eV' });

  it('gives one result per non-blank line, in order, with the line number as index', () => {
    const read = readFactLines(`\uFEFF${good}\n\nnot json\r\n${good}\n`, schemas);
    expect(read.map((line) => [line.index, 'triplet' in line])).toEqual([
      [0, true],
      [2, false],
      [3, true],
    ]);
  });

  it('throws FactFileError for an empty file and for a file that is not JSONL at all', () => {
    expect(() => readFactLines('\n  \n', schemas)).toThrow(new FactFileError('the triplets file is empty: give one JSON object per line'));
    expect(() => readFactLines('material,property,value\nGaN,band_gap,3.4\n', schemas)).toThrow(
      /is not JSONL: no line is a JSON object \(line 1: not JSON/,
    );
    expect(() => readFactLines('[1]\n"text"\n', schemas)).toThrow(FactFileError);
  });

  it('keeps a file whose objects are all invalid facts: each is a rejected line, not a bad file', () => {
    expect(readFactLines('{"material":"GaN"}\n', schemas)).toEqual([{ index: 0, error: expect.stringMatching(/^invalid fact/) }]);
  });
});
