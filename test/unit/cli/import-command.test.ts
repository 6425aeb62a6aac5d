import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runImport } from '../../../src/cli/import-command';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { toJson, toJsonl } from '../../../src/export/dataset-export';
import { readAssayImport } from '../../../src/export/dataset-import';
import { createAssayDatabase } from '../../../src/store/assay-database';
import { saveTriplets } from '../../../src/store/dataset-repository';
import { newestFirst, withOwnKeys } from '../../../src/store/dataset-triplet';
import { createImportJob, runImportJob } from '../../../src/export/import-job';
import { bandGapRow, datasetRows, editedRow, noDoiRow, tcRangeRow } from '../export/dataset-fixtures';

const NOW = new Date('2026-11-25T10:00:00.000Z');

let stdout = '';
let stderr = '';
let folder = '';

beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  folder = mkdtempSync(join(tmpdir(), 'assay-import-'));
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Ids "new-1", "new-2", … */
function counter(): () => string {
  let next = 0;
  return () => `new-${(next += 1)}`;
}

const at = (name: string) => join(folder, name);
const write = (name: string, text: string) => writeFileSync(at(name), text);
const options = () => ({ now: () => NOW, newId: counter() });

/** The same files imported by the extension (`runImportJob` into IndexedDB, after saving `saved`), its rows newest first. */
async function extensionImport(saved: readonly DatasetTriplet[], files: Array<[string, string]>): Promise<DatasetTriplet[]> {
  const database = createAssayDatabase(`assay-cli-import-${Math.random()}`);
  try {
    await saveTriplets(database, saved);
    const newId = counter();
    for (const [name, text] of files) {
      const id = await createImportJob(database, new NodeBlob([text]) as unknown as Blob, name, NOW, () => `job-${name}`);
      await runImportJob(database, id, { now: () => NOW, newId });
    }
    return (await database.triplets.toArray()).sort(newestFirst);
  } finally {
    await database.delete();
  }
}

describe('assay import', () => {
  it('imports two overlapping files into an existing dataset file as the extension would, writing its JSONL export', async () => {
    const existing = [bandGapRow];
    const first = toJsonl([tcRangeRow, { ...bandGapRow, id: 'theirs', votes: ['other'] }, { ...tcRangeRow, id: 'again' }]);
    const second = toJson([editedRow, { ...tcRangeRow, id: 'third' }, noDoiRow]);
    write('dataset.jsonl', toJsonl(existing));
    write('first.jsonl', first);
    write('second.json', second);

    const code = await runImport([at('first.jsonl'), at('second.json'), '--out', at('dataset.jsonl'), '--json'], options());
    expect([code, stderr]).toEqual([0, '']);
    expect(JSON.parse(stdout)).toEqual({
      out: at('dataset.jsonl'),
      rows: 4,
      existing: { rows: 1, rejected: 0 },
      files: [
        { file: at('first.jsonl'), lines: 3, added: 1, merged: 2, rejected: 0, demoted: 0, refusedLines: [], demotedLines: [] },
        { file: at('second.json'), lines: 3, added: 2, merged: 1, rejected: 0, demoted: 0, refusedLines: [], demotedLines: [] },
      ],
      added: 3,
      merged: 3,
      rejected: 0,
      demoted: 0,
    });

    const text = readFileSync(at('dataset.jsonl'), 'utf8');
    const reread = readAssayImport(text, NOW);
    expect(reread.rejected).toEqual([]);
    const rows = reread.rows.map((line) => line.row);
    // The saved row stays as it was (no vote from the file); added rows are new, marked with their file.
    expect(rows.find((row) => row.id === bandGapRow.id)).toEqual(bandGapRow);
    expect(rows.filter((row) => row.id !== bandGapRow.id).map((row) => [row.id, row.imported])).toEqual([
      ['new-3', { file: 'second.json', at: NOW.toISOString(), sourceId: editedRow.id }],
      ['new-1', { file: 'first.jsonl', at: NOW.toISOString(), sourceId: tcRangeRow.id }],
      ['new-5', { file: 'second.json', at: NOW.toISOString(), sourceId: noDoiRow.id }],
    ]);
    // Exactly the rows the extension holds after the same imports, written as its export (newest first, toJsonl).
    const extension = await extensionImport(existing, [
      ['first.jsonl', first],
      ['second.json', second],
    ]);
    expect(rows).toEqual(extension);
    expect(text).toBe(toJsonl(extension));
    expect(readdirSync(folder).sort()).toEqual(['dataset.jsonl', 'first.jsonl', 'second.json']);
  });

  it('creates the dataset file when it is missing, and prints a line per file without --json', async () => {
    write('a.jsonl', toJsonl(datasetRows));
    expect(await runImport([at('a.jsonl'), '--out', at('new.jsonl')], options())).toBe(0);
    expect(stdout).toBe(`${at('a.jsonl')}: 4 lines, 4 added, 0 merged, 0 rejected\n${at('new.jsonl')}: 4 rows (0 there before, 4 added)\n`);
    expect(readAssayImport(readFileSync(at('new.jsonl'), 'utf8'), NOW).rows.map((line) => line.row.id)).toEqual([
      'new-3',
      'new-2',
      'new-1',
      'new-4',
    ]);
  });

  it('refuses hostile lines with their reason on stderr, imports the rest and exits 3', async () => {
    const future = { ...withOwnKeys({ ...bandGapRow, material: 'GaN' }), savedAt: '2027-06-01T00:00:00.000Z' };
    const badSchema = { ...tcRangeRow, status: 'approved', material: 'x'.repeat(100_000) };
    write('hostile.jsonl', [JSON.stringify(future), JSON.stringify(badSchema), 'not json', JSON.stringify(noDoiRow)].join('\n'));
    expect(await runImport([at('hostile.jsonl'), '--out', at('out.jsonl'), '--json'], options())).toBe(3);
    expect(JSON.parse(stdout).files).toMatchObject([{ file: at('hostile.jsonl'), lines: 4, added: 1, merged: 0, rejected: 3, demoted: 0 }]);
    expect(JSON.parse(stdout).files[0].refusedLines.map((line: { where: string }) => line.where)).toEqual(['line 1', 'line 2', 'line 3']);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('assay import: 3 line(s) refused (listed above); the others were imported');
    expect(lines[0]).toMatch(/^assay import: .*hostile\.jsonl line 1 refused: savedAt: 2027-06-01T00:00:00.000Z is later than/);
    expect(lines[1]).toMatch(/hostile\.jsonl line 2 refused: .*material.*status/);
    expect(lines[2]).toMatch(/hostile\.jsonl line 3 refused: not JSON/);
    const rows = readAssayImport(readFileSync(at('out.jsonl'), 'utf8'), NOW).rows;
    expect(rows.map((line) => line.row.imported?.sourceId)).toEqual([noDoiRow.id]);
  });

  it('leaves out of the rewritten dataset file the rows of it that fail the checks, saying so', async () => {
    const future = { ...tcRangeRow, savedAt: '2027-06-01T00:00:00.000Z' };
    write('dataset.jsonl', toJsonl([bandGapRow, future]));
    write('more.jsonl', toJsonl([noDoiRow]));
    expect(await runImport([at('more.jsonl'), '--out', at('dataset.jsonl'), '--json'], options())).toBe(3);
    expect(JSON.parse(stdout)).toMatchObject({ rows: 2, existing: { rows: 1, rejected: 1 } });
    expect(stderr).toMatch(/dataset\.jsonl line 2 refused: savedAt: .*\n.*1 row\(s\) of .*dataset\.jsonl were refused and are left out/);
    expect(readAssayImport(readFileSync(at('dataset.jsonl'), 'utf8'), NOW).rows.map((line) => line.row.id)).toEqual([
      bandGapRow.id,
      'new-1',
    ]);
  });

  it('writes nothing and exits 1 when a file is missing or not an export, or the dataset file is not one', async () => {
    const before = toJsonl([bandGapRow]);
    write('dataset.jsonl', before);
    write('good.jsonl', toJsonl([tcRangeRow]));
    write('table.csv', 'material,value\nGaN,3.4\n');
    const mtime = statSync(at('dataset.jsonl')).mtimeMs;
    const untouched = () => {
      expect(readFileSync(at('dataset.jsonl'), 'utf8')).toBe(before);
      expect(statSync(at('dataset.jsonl')).mtimeMs).toBe(mtime);
      expect(readdirSync(folder).sort()).toEqual(['dataset.jsonl', 'good.jsonl', 'table.csv']);
    };

    expect(await runImport([at('good.jsonl'), at('missing.jsonl'), '--out', at('dataset.jsonl')], options())).toBe(1);
    expect(stderr).toBe(`assay import: ${at('missing.jsonl')}: No such file. Nothing was written.\n`);
    untouched();

    stderr = '';
    expect(await runImport([at('good.jsonl'), at('table.csv'), '--out', at('dataset.jsonl')], options())).toBe(1);
    expect(stderr).toMatch(/^assay import: .*table\.csv: This file is neither an Assay JSON export .* Nothing was written\.\n$/);
    untouched();

    stderr = '';
    expect(await runImport([at('good.jsonl'), '--out', at('table.csv')], options())).toBe(1);
    expect(stderr).toMatch(/^assay import: --out .*table\.csv: This file is neither an Assay JSON export/);
    expect(readFileSync(at('table.csv'), 'utf8')).toBe('material,value\nGaN,3.4\n');
    expect(stdout).toBe('');
  });

  it('exits 1 when the dataset file cannot be written, leaving no temporary file', async () => {
    write('good.jsonl', toJsonl([tcRangeRow]));
    expect(await runImport([at('good.jsonl'), '--out', join(folder, 'no-such-folder', 'out.jsonl')], options())).toBe(1);
    expect(stderr).toMatch(/^assay import: --out .*out\.jsonl: could not be written \(ENOENT/);
    expect(readdirSync(folder)).toEqual(['good.jsonl']);
  });

  it('exits 2 on a usage error: no file, no --out, an unknown option', async () => {
    write('good.jsonl', toJsonl([tcRangeRow]));
    expect(await runImport(['--out', at('out.jsonl')], options())).toBe(2);
    expect(stderr).toMatch(/^assay import: give the files to import: assay import FILE… --out FILE\.jsonl \[--json\]\n$/);
    stderr = '';
    expect(await runImport([at('good.jsonl')], options())).toBe(2);
    expect(stderr).toMatch(/^assay import: give the dataset file to import into with --out/);
    stderr = '';
    expect(await runImport([at('good.jsonl'), '--out', at('out.jsonl'), '--merge'], options())).toBe(2);
    expect(stderr).toMatch(/^assay import: .*--merge/);
    expect(readdirSync(folder)).toEqual(['good.jsonl']);
  });
});
