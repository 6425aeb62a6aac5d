import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runExport } from '../../../src/cli/export-command';
import { main } from '../../../src/cli/main';
import { toBibtex, toCslJson, toJson, toJsonl, toWebAnnotations } from '../../../src/export/dataset-export';
import { bandGapRow, datasetRows, editedRow, noDoiRow, tcRangeRow } from '../export/dataset-fixtures';
import { FAKE_EXPORT_FORMAT, withFakeExportFormat } from '../export/fake-export-format';

const NOW = new Date('2026-11-25T10:00:00.000Z');
/** The fixture rows newest first (savedAt descending), the dataset page's export order. */
const NEWEST_FIRST = [editedRow, tcRangeRow, bandGapRow, noDoiRow];

let stdout = '';
let stderr = '';
let folder = '';

beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  folder = mkdtempSync(join(tmpdir(), 'assay-export-'));
  // File order is not the export order: the export sorts newest first.
  writeFileSync(join(folder, 'dataset.jsonl'), toJsonl(datasetRows));
});

afterEach(() => {
  vi.restoreAllMocks();
});

const at = (name: string) => join(folder, name);
const exportTo = (format: string, ...rest: string[]) => runExport([at('dataset.jsonl'), '--format', format, ...rest], { now: () => NOW });

describe('assay export', () => {
  it('writes CSV with the dataset page’s columns and values, newest first', async () => {
    expect(await exportTo('csv', '--out', at('dataset.csv'))).toBe(0);
    const text = readFileSync(at('dataset.csv'), 'utf8');
    expect(text.startsWith('\uFEFFid,material,property,value,')).toBe(true);
    const records: Array<Record<string, string>> = parse(text, { bom: true, columns: true });
    expect(
      records.map((record) => [
        record.id,
        record.material,
        record.property,
        record.value,
        record.value_low,
        record.value_high,
        record.unit,
      ]),
    ).toEqual(
      NEWEST_FIRST.map((row) => [
        row.id,
        row.material,
        row.property,
        row.value.kind === 'number' ? String(row.value.value) : '',
        row.value.kind === 'range' ? String(row.value.low) : '',
        row.value.kind === 'range' ? String(row.value.high) : '',
        row.unit,
      ]),
    );
    expect(records[1]).toMatchObject({ doi: tcRangeRow.paper.doi, quote: tcRangeRow.evidence!.quote.exact, saved_at: tcRangeRow.savedAt });
    // The Tc range in its display unit (K) beside it; the SI base value is left to JSON/JSONL.
    expect(records[1]).toMatchObject({ display_low: '92', display_high: '93', display_unit: 'K' });
    expect(Object.keys(records[0]!).filter((column) => column.startsWith('si'))).toEqual([]);
    expect(stdout).toBe(`4 rows exported as csv to ${at('dataset.csv')}\n`);
  });

  it.each([
    ['json', toJson],
    ['jsonl', toJsonl],
    ['annotations', toWebAnnotations],
    ['bibtex', toBibtex],
    ['csl', toCslJson],
  ] as const)('writes %s as the dataset page does, to --out or to stdout alike', async (format, exporter) => {
    const expected = exporter(NEWEST_FIRST);
    expect(await exportTo(format, '--out', at(`out.${format}`), '--json')).toBe(0);
    expect(readFileSync(at(`out.${format}`), 'utf8')).toBe(expected);
    expect(JSON.parse(stdout)).toEqual({ format, rows: 4, rejected: 0, out: at(`out.${format}`) });
    stdout = '';
    expect(await exportTo(format)).toBe(0);
    expect(stdout).toBe(expected);
    expect(stderr).toBe(`assay export: 4 rows exported as ${format}\n`);
  });

  it.each([
    ['w3c', 'annotations', toWebAnnotations],
    ['CSL-JSON', 'csl', toCslJson],
  ] as const)('accepts the older name %s for %s, writing the same file and naming the format by its id', async (alias, id, exporter) => {
    expect(await exportTo(alias, '--out', at('out.txt'), '--json')).toBe(0);
    expect(readFileSync(at('out.txt'), 'utf8')).toBe(exporter(NEWEST_FIRST));
    expect(JSON.parse(stdout)).toEqual({ format: id, rows: 4, rejected: 0, out: at('out.txt') });
  });

  it('offers a format added to the export table: in --help, in the usage error, and as --format (or its alias)', async () => {
    await withFakeExportFormat(async () => {
      expect(await runExport(['--help'])).toBe(0);
      expect(stdout).toMatch(/^usage: assay export FILE --format csv\|json\|jsonl\|annotations\|bibtex\|csl\|fake /);
      expect(stdout).toMatch(/\n {2}fake {9}Fake list, \*-fake\.txt \(also --format pretend\)\n/);
      expect(stdout).toMatch(/\n {2}annotations {2}Web Annotations, \*-annotations\.jsonld \(also --format w3c\)\n/);
      stdout = '';
      expect(await exportTo('xlsx')).toBe(2);
      expect(stderr).toMatch(/use --format csv, json, jsonl, annotations, bibtex, csl, fake:/);
      stderr = '';
      expect(await exportTo('fake', '--out', at('out.txt'), '--json')).toBe(0);
      expect(readFileSync(at('out.txt'), 'utf8')).toBe(NEWEST_FIRST.map((row) => `${row.material}\t${row.property}\n`).join(''));
      expect(JSON.parse(stdout)).toMatchObject({ format: 'fake', rows: 4 });
      stdout = '';
      expect(await exportTo('pretend')).toBe(0);
      expect(stdout).toBe(FAKE_EXPORT_FORMAT.write(NEWEST_FIRST));
    });
    // `assay export --help` reaches the command (the dispatcher does not answer it with the general usage).
    stdout = '';
    expect(await main(['export', '--help'])).toBe(0);
    expect(stdout).toMatch(/^usage: assay export FILE --format csv\|json\|jsonl\|annotations\|bibtex\|csl /);
    // Out of the table again, it is an unknown format.
    stderr = '';
    expect(await exportTo('fake')).toBe(2);
    expect(stderr).toMatch(/^assay export: unknown format 'fake'; use --format csv, json, jsonl, annotations, bibtex, csl:/);
  });

  it('leaves out the rows that fail the checks, naming them on stderr, and exports the others', async () => {
    const future = { ...editedRow, savedAt: '2027-06-01T00:00:00.000Z' };
    writeFileSync(at('dataset.jsonl'), `${toJsonl([bandGapRow, future])}{"material":"=cmd()"}\n`);
    expect(await exportTo('jsonl', '--out', at('out.jsonl'), '--json')).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ format: 'jsonl', rows: 1, rejected: 2, out: at('out.jsonl') });
    expect(readFileSync(at('out.jsonl'), 'utf8')).toBe(toJsonl([bandGapRow]));
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^assay export: .*dataset\.jsonl line 2 refused: savedAt: 2027-06-01/);
    expect(lines[1]).toMatch(/^assay export: .*dataset\.jsonl line 3 refused: /);
  });

  it('exits 1 on a missing file or one that is not an export, writing nothing', async () => {
    expect(await runExport([at('missing.jsonl'), '--format', 'csv', '--out', at('out.csv')])).toBe(1);
    expect(stderr).toBe(`assay export: ${at('missing.jsonl')}: No such file\n`);
    writeFileSync(at('table.csv'), 'a,b\n1,2\n');
    stderr = '';
    expect(await runExport([at('table.csv'), '--format', 'csv', '--out', at('out.csv')])).toBe(1);
    expect(stderr).toMatch(/^assay export: .*table\.csv: This file is neither an Assay JSON export/);
    expect(readdirSync(folder).sort()).toEqual(['dataset.jsonl', 'table.csv']);
    expect(stdout).toBe('');
  });

  it('exits 2 on a usage error: no file, an unknown or missing format, --json without --out', async () => {
    expect(await runExport(['--format', 'csv'])).toBe(2);
    expect(stderr).toMatch(
      /^assay export: give exactly one dataset file: assay export FILE --format csv\|json\|jsonl\|annotations\|bibtex\|csl /,
    );
    stderr = '';
    expect(await exportTo('xlsx')).toBe(2);
    expect(stderr).toMatch(/^assay export: unknown format 'xlsx'; use --format csv, json, jsonl, annotations, bibtex, csl:/);
    stderr = '';
    expect(await runExport([at('dataset.jsonl')])).toBe(2);
    expect(stderr).toMatch(/^assay export: give a --format/);
    stderr = '';
    expect(await exportTo('csv', '--json')).toBe(2);
    expect(stderr).toMatch(/^assay export: --json prints a summary on stdout, so the export needs --out FILE/);
    expect(stdout).toBe('');
  });
});
