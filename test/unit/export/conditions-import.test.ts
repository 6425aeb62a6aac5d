/**
 * Conditions through the exports and back (issue 26): the CSV's column per condition kind and
 * provenance, the JSON exports' structured list, the Web Annotation's words, and the exports
 * written before structured conditions (legacy-exports/, hand-written in that format) importing
 * through the extension's import job, `assay import` and `assay export`.
 */
import 'fake-indexeddb/auto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Blob as NodeBlob } from 'node:buffer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conditionsKey, type Condition } from '../../../src/contracts/conditions';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { runExport } from '../../../src/cli/export-command';
import { runImport } from '../../../src/cli/import-command';
import { toCsv, toJson, toJsonl, toWebAnnotations } from '../../../src/export/dataset-export';
import { readAssayImport } from '../../../src/export/dataset-import';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { withOwnKeys } from '../../../src/store/dataset-triplet';
import { createImportJob, runImportJob } from '../../../src/export/import-job';
import { bandGapRow, TIO2_PAPER } from './dataset-fixtures';

const NOW = new Date('2026-11-25T10:00:00.000Z');
const legacy = (name: string) => join(import.meta.dirname, 'legacy-exports', name);
const legacyText = (name: string) => readFileSync(legacy(name), 'utf8');

/** A BPN-GaN band gap (the example) with `conditions` and `provenance`, with its SI value and key. */
function gan(id: string, value: number, conditions: Condition[], provenance?: DatasetTriplet['provenance']): DatasetTriplet {
  const row: DatasetTriplet = {
    ...bandGapRow,
    id,
    paper: TIO2_PAPER,
    material: 'BPN-GaN',
    value: { kind: 'number', value },
    valueText: String(value),
    si: null,
    // Its own quote (the band gap row's is about TiO₂ at 3.2 eV: an import sends such a verified row to review).
    evidence: { quote: { type: 'TextQuoteSelector', exact: `BPN-GaN has an indirect band gap of ${value} eV.`, prefix: '', suffix: '' } },
    conditions,
    ...(provenance && { provenance }),
  };
  return withOwnKeys(row);
}

const hse = gan(
  'hse',
  2.31,
  [
    { kind: 'method', value: 'HSE06', text: 'HSE06 calculations', position: { type: 'TextPositionSelector', start: 10, end: 28 } },
    { kind: 'direction', value: 'indirect' },
    { kind: 'method', value: 'SOC' },
    { kind: 'temperature', value: '0 K' },
    { kind: 'other', value: 'relaxed, PAW' },
  ],
  { kind: 'cited', reference: '[19]' },
);
const pbe = gan('pbe', 2.31, [{ kind: 'method', value: 'GGA/PBE' }], { kind: 'computed' });

const readCsv = (text: string) => parse(text, { columns: true, bom: true }) as Record<string, string>[];

describe('the CSV export', () => {
  it('gives each condition kind its column, several of one kind joined with "; ", and the provenance in words', () => {
    const [first, second] = readCsv(toCsv([hse, pbe]));
    expect(first).toMatchObject({
      method: 'HSE06; SOC',
      temperature: '0 K',
      direction: 'indirect',
      pressure: '',
      phase: '',
      other_conditions: 'relaxed, PAW',
      provenance: 'cited [19]',
    });
    expect(first).not.toHaveProperty('conditions');
    expect(second).toMatchObject({ method: 'GGA/PBE', other_conditions: '', provenance: 'computed' });
  });

  it('round-trips to the same structured conditions, provenance and merge key (kind by column; spans are JSON-only)', () => {
    const { rows, rejected } = readAssayImport(toCsv([hse, pbe]), NOW);
    expect(rejected).toEqual([]);
    const [back, other] = rows.map(({ row }) => row);
    expect(back!.conditions).toEqual([
      { kind: 'method', value: 'HSE06' },
      { kind: 'method', value: 'SOC' },
      { kind: 'temperature', value: '0 K' },
      { kind: 'direction', value: 'indirect' },
      { kind: 'other', value: 'relaxed, PAW' },
    ]);
    expect(back!.provenance).toEqual({ kind: 'cited', reference: '[19]' });
    expect(other!.provenance).toEqual({ kind: 'computed' });
    expect([back!.mergeKey, other!.mergeKey]).toEqual([hse.mergeKey, pbe.mergeKey]);
    expect(back!.mergeKey).not.toBe(other!.mergeKey);
  });

  it('round-trips any text behind the apostrophe that defuses formulas (property)', () => {
    const text = fc
      .tuple(fc.constantFrom('=', '+', '-', '@', '＝', ''), fc.string({ minLength: 1, maxLength: 10 }))
      .map(([first, rest]) => first + rest)
      .filter((value) => value.trim() !== '' && !value.includes('; ') && !value.startsWith("'") && !/^[\s]/.test(value));
    fc.assert(
      fc.property(text, text, text, (material, method, other) => {
        const row = gan('p', 1.5, [
          { kind: 'method', value: method },
          { kind: 'other', value: other },
        ]);
        const [back] = readAssayImport(toCsv([{ ...row, material }]), NOW).rows;
        expect(back?.row.material).toBe(material);
        expect(back?.row.conditions).toEqual(row.conditions);
      }),
      { numRuns: 100 },
    );
  });
});

describe('the JSON exports and the Web Annotation', () => {
  it('carry the structured list with its spans and the provenance, and read back unchanged', () => {
    const line = JSON.parse(toJsonl([hse]));
    expect(line.conditions).toEqual(hse.conditions);
    expect(line.provenance).toEqual({ kind: 'cited', reference: '[19]' });
    expect(readAssayImport(toJson([hse, pbe]), NOW).rows.map(({ row }) => row)).toEqual([hse, pbe]);
  });

  it('states the conditions and provenance in the annotation body', () => {
    const body = JSON.parse(toWebAnnotations([hse])).first.items[0].body.value;
    expect(body).toContain('BPN-GaN — band gap: 2.31 eV (HSE06 · SOC · 0 K · indirect · relaxed, PAW; cited [19]).');
  });
});

describe('exports written before structured conditions', () => {
  const expected = (id: string) =>
    ({
      'old-1': [{ kind: 'other', value: 'HSE06', text: 'HSE06' }],
      'old-2': [{ kind: 'other', value: 'GGA/PBE', text: 'GGA/PBE' }],
      'old-3': [],
    })[id];

  for (const file of ['before-issue-26.json', 'before-issue-26.jsonl']) {
    it(`imports ${file}: each free-text condition becomes one 'other' condition and two methods stay two facts`, () => {
      const { rows, rejected } = readAssayImport(legacyText(file), NOW);
      expect(rejected).toEqual([]);
      expect(rows.map(({ row }) => [row.id, row.conditions ?? []])).toEqual(['old-1', 'old-2', 'old-3'].map((id) => [id, expected(id)]));
      const keys = rows.map(({ row }) => row.mergeKey);
      expect(keys[0]).toBe('doi:10.1000/bpn-gan|BPN-GaN|band_gap|3.70103e-19 kg m^2 s^-2|other=hse06');
      expect(keys[2]).toBe('doi:10.1000/bpn-gan|BPN-GaN|band_gap|2.98005e-19 kg m^2 s^-2');
      expect(new Set(keys).size).toBe(3);
    });
  }

  it('imports the old CSV: its conditions column becomes one other condition, its defused cell is restored', () => {
    const { rows, rejected } = readAssayImport(legacyText('before-issue-26.csv'), NOW);
    expect(rejected).toEqual([]);
    const [first, second, third] = rows.map(({ row }) => row);
    expect(first).toMatchObject({
      id: 'old-1',
      material: 'BPN-GaN',
      value: { kind: 'number', value: 2.31 },
      unit: 'eV',
      conditions: [{ kind: 'other', value: 'HSE06', text: 'HSE06' }],
      paper: { key: 'doi:10.1000/bpn-gan', doi: '10.1000/BPN-GaN', title: 'Band gaps of BPN-GaN heterostructures', year: 2021 },
      status: 'verified',
      review: { decision: 'accepted' },
      evidence: { quote: { exact: '2.31 eV (HSE06)' } },
      votes: ['moa'],
    });
    expect(second!.conditions).toEqual([{ kind: 'other', value: '-GGA/PBE, spin-polarized', text: '-GGA/PBE, spin-polarized' }]);
    expect(second).not.toHaveProperty('evidence');
    expect(third).not.toHaveProperty('conditions');
    // The same facts as the old JSONL export of those rows, except old-2's condition (edited in the CSV).
    const jsonl = readAssayImport(legacyText('before-issue-26.jsonl'), NOW).rows.map(({ row }) => row.mergeKey);
    expect([first!.mergeKey, third!.mergeKey]).toEqual([jsonl[0], jsonl[2]]);
  });
});

describe('through the import job, assay import and assay export', () => {
  let database: AssayDatabase;
  let count = 0;
  let stdout = '';
  beforeEach(() => {
    database = createAssayDatabase(`assay-conditions-import-${(count += 1)}`);
    stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await database.delete();
  });

  for (const file of ['before-issue-26.csv', 'before-issue-26.jsonl']) {
    it(`the extension's import job stores ${file} structured, then merges it a second time`, async () => {
      let next = 0;
      const run = async () => {
        const blob = new NodeBlob([legacyText(file)]) as unknown as Blob;
        const id = await createImportJob(database, blob, file, NOW, () => `job-${(next += 1)}`);
        return (await runImportJob(database, id, { now: () => NOW, newId: () => `new-${(next += 1)}` }))!;
      };
      expect((await run()).report!.added).toEqual(file.endsWith('.csv') ? ['row 1', 'row 2', 'row 3'] : ['line 1', 'line 2', 'line 3']);
      const stored = await database.triplets.toArray();
      expect(stored.every((row) => row.conditions === undefined || Array.isArray(row.conditions))).toBe(true);
      expect(stored.find((row) => row.imported?.sourceId === 'old-1')!.conditions).toEqual([
        { kind: 'other', value: 'HSE06', text: 'HSE06' },
      ]);
      expect((await run()).report!.added).toEqual([]);
      expect(await database.triplets.count()).toBe(3);
    });
  }

  it('assay import reads an old CSV and JSONL into one dataset; assay export writes it as the new CSV', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'assay-conditions-'));
    const out = join(folder, 'dataset.jsonl');
    expect(
      await runImport([legacy('before-issue-26.csv'), legacy('before-issue-26.jsonl'), '--out', out, '--json'], { now: () => NOW }),
    ).toBe(0);
    // old-1 and old-3 are the same facts in both files; old-2's condition differs ("-GGA/PBE, …" vs "GGA/PBE").
    expect(JSON.parse(stdout)).toMatchObject({ rows: 4, added: 4, merged: 2 });
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as DatasetTriplet);
    expect(rows.map((row) => conditionsKey(row.conditions)).sort()).toEqual([
      '',
      'other=-gga/pbe, spin-polarized',
      'other=gga/pbe',
      'other=hse06',
    ]);

    stdout = '';
    expect(await runExport([legacy('before-issue-26.csv'), '--format', 'csv', '--out', join(folder, 'new.csv')], { now: () => NOW })).toBe(
      0,
    );
    const records = readCsv(readFileSync(join(folder, 'new.csv'), 'utf8'));
    expect(records.map((record) => [record.id, record.other_conditions, record.method])).toEqual([
      ['old-3', '', ''],
      ['old-2', "'-GGA/PBE, spin-polarized", ''],
      ['old-1', 'HSE06', ''],
    ]);
  });
});
