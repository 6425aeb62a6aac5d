/**
 * Imports accepted rows that contradict themselves (issue 27, item 10): `value` 340 with
 * `valueText` "3.4" over a quote saying 3.4 eV was kept, and with a key written twice a row
 * claiming AlN and `verified` was kept over a GaN quote. The same rules hold in `assay import`
 * and in the extension's import job (IndexedDB), which share `checkImportEntries`.
 */
import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runImport } from '../../../src/cli/import-command';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { toCsv, toJson, toJsonl } from '../../../src/export/dataset-export';
import { readAssayImport } from '../../../src/export/dataset-import';
import { duplicateKeys, mayRepeatKeys } from '../../../src/export/duplicate-keys';
import { createAssayDatabase } from '../../../src/store/assay-database';
import { withOwnKeys } from '../../../src/store/dataset-triplet';
import { createImportJob, runImportJob } from '../../../src/export/import-job';
import { bandGapRow } from './dataset-fixtures';

const NOW = new Date('2026-11-25T10:00:00.000Z');

/** A verified GaN band gap whose quote prints it: the control row every test keeps. */
const GAN_QUOTE = 'The band gap of wurtzite GaN is 3.4 eV at room temperature.';
const gan: DatasetTriplet = withOwnKeys({
  ...bandGapRow,
  id: 'gan',
  material: 'GaN',
  value: { kind: 'number', value: 3.4 },
  valueText: '3.4',
  unit: 'eV',
  conditions: [],
  evidence: { quote: { type: 'TextQuoteSelector', exact: GAN_QUOTE, prefix: 'Results. ', suffix: ' See Fig. 2.' } },
  status: 'verified',
});

/** The row's JSON with `key` written a second time, `JSON.parse` keeping the second value. */
function withRepeatedKey(row: DatasetTriplet, key: string, second: unknown): string {
  const text = JSON.stringify(row);
  return `${text.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(second)}}`;
}

describe('an imported row that contradicts itself', () => {
  it('is refused when its value is not the number its value text prints (340 against "3.4")', () => {
    const wrong = { ...gan, id: 'wrong', value: { kind: 'number', value: 340 } };
    const read = readAssayImport([JSON.stringify(wrong), JSON.stringify(gan)].join('\n'), NOW);
    expect(read.rejected).toEqual([
      { where: 'line 1', message: 'value 340 contradicts valueText "3.4" (3.4): which was printed cannot be told' },
    ]);
    expect(read.rows.map((line) => line.row.id)).toEqual(['gan']);
  });

  it('is refused when a key is written twice in one object (JSONL line, JSON array element, nested object)', () => {
    const twice = withRepeatedKey({ ...gan, id: 'twice' }, 'material', 'AlN');
    // What JSON.parse alone makes of it: AlN, verified, over the GaN quote.
    expect(JSON.parse(twice)).toMatchObject({ material: 'AlN', status: 'verified', evidence: { quote: { exact: GAN_QUOTE } } });
    const lines = readAssayImport(`${twice}\n${JSON.stringify(gan)}`, NOW);
    expect(lines.rejected).toEqual([
      {
        where: 'line 1',
        message: 'key "material" written twice in one object (JSON keeps only the last, so which value was meant cannot be told)',
      },
    ]);
    expect(lines.rows.map((line) => line.row.material)).toEqual(['GaN']);

    const array = readAssayImport(`[${JSON.stringify(gan)},${twice}]`, NOW);
    expect(array.rejected.map((line) => [line.where, line.message.slice(0, 30)])).toEqual([['row 2', 'key "material" written twice i']]);

    const nested = JSON.stringify(gan).replace('"exact":', '"exact":"GaN 3.4 eV","exact":');
    expect(readAssayImport(nested, NOW).rejected[0]!.message).toMatch(/^key "evidence\.quote\.exact" written twice/);
    // An escaped spelling of the same key is the same key to JSON.parse, so it is to the check.
    expect(duplicateKeys('{"a":1,"\\u0061":2}')).toEqual([{ key: 'a', path: [] }]);
    // The pre-check that spares the scan: never false for a repeat, white space and `":` in strings included.
    for (const text of ['{"a":1,"a":2}', '{"a" :1, "b": {"c":[{"d":1}]}, "a" : 3}', '{"q":"x\\": y","q":2}', '[{"a":1},{"b":1,"b":2}]'])
      expect(mayRepeatKeys(text, JSON.parse(text))).toBe(true);
    for (const text of ['{"a":1,"b":{"c":[{"d":1}]}}', '[]', '"x"']) expect(mayRepeatKeys(text, JSON.parse(text))).toBe(false);
  });

  it('is kept as needs_review, with the reason, when it says verified but its own quote is about another material or value', () => {
    const aln = { ...gan, id: 'aln', material: 'AlN' };
    const made: DatasetTriplet = { ...gan, id: 'made', value: { kind: 'number', value: 99 }, valueText: '99' };
    const read = readAssayImport(toJsonl([withOwnKeys(aln), withOwnKeys(made), gan]), NOW);
    expect(read.rejected).toEqual([]);
    expect(read.rows.map(({ row }) => [row.id, row.status, row.reasons])).toEqual([
      ['aln', 'needs_review', ['imported as verified, but its quote names GaN, not AlN']],
      ['made', 'needs_review', ['imported as verified, but its quote does not print the value 99 eV']],
      ['gan', 'verified', undefined],
    ]);
    expect(read.demoted).toEqual([
      { where: 'line 1', message: 'kept as needs_review: imported as verified, but its quote names GaN, not AlN' },
      { where: 'line 2', message: 'kept as needs_review: imported as verified, but its quote does not print the value 99 eV' },
    ]);
  });

  it("keeps a reader's edit verified: the quote is checked against the answer it was read for (review.original)", () => {
    const original = { material: 'GaN', value: { kind: 'number' as const, value: 3.4 }, valueText: '3.4', unit: 'eV' };
    const review = { decision: 'edited' as const, at: NOW.toISOString(), original };
    const corrected = { ...gan, id: 'corrected', value: { kind: 'number', value: 3.2 }, valueText: '3.2', review };
    const renamed = { ...gan, id: 'renamed', material: 'AlN', review };
    const unfounded = {
      ...corrected,
      id: 'unfounded',
      review: { ...review, original: { ...original, value: { kind: 'number', value: 99 }, valueText: '99' } },
    };
    const read = readAssayImport(toJsonl([corrected, renamed, unfounded].map((row) => withOwnKeys(row as DatasetTriplet))), NOW);
    expect(read.rejected).toEqual([]);
    expect(read.rows.map(({ row }) => [row.id, row.status])).toEqual([
      ['corrected', 'verified'],
      ['renamed', 'verified'],
      ['unfounded', 'needs_review'],
    ]);
    expect(read.demoted).toEqual([
      { where: 'line 3', message: 'kept as needs_review: imported as verified, but its quote does not print the value 99 eV' },
    ]);
  });

  it('keeps a verified row whose quote shows its value bare (a table cell), in another unit, or refers back to its material', () => {
    const cell = {
      ...gan,
      id: 'cell',
      evidence: { quote: { ...gan.evidence!.quote, exact: 'GaN | 3.4 | 6.2', prefix: 'Eg (eV) ', suffix: '' } },
    };
    const milli = { ...gan, id: 'milli', value: { kind: 'number', value: 0.011 }, valueText: '0.011' };
    const inMilli = { ...milli, evidence: { quote: { ...gan.evidence!.quote, exact: 'The gap of GaN opens by 11 meV.' } } };
    const its = { ...gan, id: 'its', evidence: { quote: { ...gan.evidence!.quote, exact: 'Its band gap is 3.4 eV.' } } };
    const read = readAssayImport(toJsonl([cell, inMilli, its].map((row) => withOwnKeys(row as DatasetTriplet))), NOW);
    expect(read.rows.map(({ row }) => row.status)).toEqual(['verified', 'verified', 'verified']);
    expect(read.demoted).toEqual([]);
  });

  it('gets its value from its value text when it has none, and reads a decimal comma either way', () => {
    const { value: _value, ...noValue } = gan;
    const comma = { ...gan, id: 'comma', value: { kind: 'number', value: 1.043 }, valueText: '1,043' };
    const read = readAssayImport([JSON.stringify(noValue), JSON.stringify(comma)].join('\n'), NOW);
    expect(read.rejected).toEqual([]);
    expect(read.rows[0]!.row.value).toEqual({ kind: 'number', value: 3.4 });
    expect(read.rows[0]!.row.mergeKey).toBe(gan.mergeKey);
  });

  it('is refused with its whole CSV file when the header names a column twice', () => {
    // The export's header and its one record, each with a second "material" cell at the end.
    const [header, record] = toCsv([gan]).split(/\r?\n/);
    const doubled = `${header},material\r\n${record},AlN\r\n`;
    expect(readAssayImport(doubled, NOW)).toEqual({
      rows: [],
      rejected: [],
      demoted: [],
      fileProblem: 'This CSV file names the column "material" twice: which cell holds the value cannot be told.',
    });
  });
});

describe('assay import and the extension apply the same rules', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('names each refused and each demoted line, exits 3, and the import job refuses and demotes the same lines', async () => {
    let stderr = '';
    let stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
    const folder = mkdtempSync(join(tmpdir(), 'assay-contradiction-'));
    const text = [
      JSON.stringify({ ...gan, id: 'wrong', value: { kind: 'number', value: 340 } }),
      withRepeatedKey({ ...gan, id: 'twice' }, 'material', 'AlN'),
      JSON.stringify(withOwnKeys({ ...gan, id: 'aln', material: 'AlN' })),
      JSON.stringify(gan),
    ].join('\n');
    writeFileSync(join(folder, 'hostile.jsonl'), text);
    let next = 0;
    const newId = () => `new-${(next += 1)}`;

    const code = await runImport([join(folder, 'hostile.jsonl'), '--out', join(folder, 'out.jsonl'), '--json'], { now: () => NOW, newId });
    expect(code).toBe(3);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ rows: 2, added: 2, rejected: 2, demoted: 1 });
    expect(summary.files[0].refusedLines.map((line: { where: string }) => line.where)).toEqual(['line 1', 'line 2']);
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/hostile\.jsonl line 1 refused: value 340 contradicts valueText "3\.4"/);
    expect(lines[1]).toMatch(/hostile\.jsonl line 2 refused: key "material" written twice/);
    expect(lines[2]).toMatch(/hostile\.jsonl line 3 kept as needs_review: imported as verified, but its quote names GaN, not AlN$/);
    expect(lines[3]).toBe('assay import: 2 line(s) refused (listed above); the others were imported');
    const written = readAssayImport(readFileSync(join(folder, 'out.jsonl'), 'utf8'), NOW).rows.map(({ row }) => [row.material, row.status]);
    expect(written.sort()).toEqual([
      ['AlN', 'needs_review'],
      ['GaN', 'verified'],
    ]);

    const database = createAssayDatabase(`assay-contradiction-${Math.random()}`);
    try {
      const id = await createImportJob(database, new NodeBlob([text]) as unknown as Blob, 'hostile.jsonl', NOW, () => 'job');
      const job = await runImportJob(database, id, { now: () => NOW, newId });
      expect(job).toMatchObject({ status: 'done', refused: 2, lowered: 1 });
      expect(job!.rejected!.map((line) => line.where)).toEqual(['line 1', 'line 2']);
      expect(job!.demoted).toEqual(summary.files[0].demotedLines);
      const stored = (await database.triplets.toArray()).map((row) => [row.material, row.status, row.reasons]);
      expect(stored.sort()).toEqual([
        ['AlN', 'needs_review', ['imported as verified, but its quote names GaN, not AlN']],
        ['GaN', 'verified', undefined],
      ]);
    } finally {
      await database.delete();
    }
  });

  it('refuses a JSON array element with a repeated key in the job too', async () => {
    const database = createAssayDatabase(`assay-contradiction-${Math.random()}`);
    try {
      const text = `[${JSON.stringify(gan)},${withRepeatedKey({ ...gan, id: 'twice' }, 'status', 'verified')}]`;
      expect(JSON.parse(text)).toHaveLength(2);
      const id = await createImportJob(database, new NodeBlob([text]) as unknown as Blob, 'hostile.json', NOW, () => 'job');
      const job = await runImportJob(database, id, { now: () => NOW });
      expect(job).toMatchObject({ status: 'done', refused: 1 });
      expect(job!.rejected![0]).toMatchObject({ where: 'row 2', message: expect.stringMatching(/^key "status" written twice/) });
      expect(toJson([gan])).toContain('"GaN"');
    } finally {
      await database.delete();
    }
  });
});
