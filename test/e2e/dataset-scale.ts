/**
 * Benchmark (not a test): a 100 000-triplet dataset in the built extension in Debian's Chromium,
 * through the dataset page as a reader uses it — import a JSONL file, filter by material, export
 * CSV — each timed from the action to the page showing its result. IndexedDB is the browser's
 * own (LevelDB on disk), not fake-indexeddb.
 *
 *   npm run build:test && npx tsx test/e2e/dataset-scale.ts [--rows 100000]
 *
 * The rows are synthetic but shaped like real ones (evidence selectors, SI values, DOIs, 500
 * materials × 12 properties × 17 papers, every row a distinct fact so nothing merges).
 * The material filter's time includes the page's 300 ms typing debounce.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toJsonl } from '../../src/export/dataset-export';
import { projectRoot } from '../support/shared-data';
import { launchExtensionBrowser } from './extension-browser';
import { syntheticRow } from './synthetic-dataset';

async function main(): Promise<void> {
  const rowsFlag = process.argv.indexOf('--rows');
  const total = rowsFlag >= 0 ? Number(process.argv[rowsFlag + 1]) : 100_000;
  const work = mkdtempSync(join(tmpdir(), 'assay-scale-'));
  const now = new Date('2026-11-22T12:00:00Z').toISOString();
  const rows = Array.from({ length: total }, (_, index) => syntheticRow(index, now));
  const file = join(work, 'dataset.jsonl');
  writeFileSync(file, toJsonl(rows));
  const expectedMatches = rows.filter((candidate) => candidate.material.toLowerCase().startsWith('tio')).length;
  console.log(`${total} rows, ${(readFileSync(file).length / 1e6).toFixed(1)} MB of JSONL; ${expectedMatches} match material "TiO"`);

  const browser = await launchExtensionBrowser(join(projectRoot, '.output', 'chrome-mv3-test'), []);
  try {
    const page = await browser.context.newPage();
    await page.goto(browser.extensionUrl('dataset.html'));
    await page.getByTestId('import-file').waitFor({ state: 'attached' });

    let started = Date.now();
    await page.getByTestId('import-file').setInputFiles(file);
    await page
      .getByTestId('import-summary')
      .filter({ hasText: `Added ${total}` })
      .waitFor({ timeout: 1_800_000 });
    const importSeconds = (Date.now() - started) / 1000;

    await page
      .getByTestId('triplet-count')
      .filter({ hasText: new RegExp(`^${total} of`) })
      .waitFor({ timeout: 120_000 });
    started = Date.now();
    await page.getByTestId('filter-material').fill('TiO');
    await page
      .getByTestId('triplet-count')
      .filter({ hasText: new RegExp(`^${expectedMatches}\\b`) })
      .waitFor({ timeout: 120_000 });
    const filterSeconds = (Date.now() - started) / 1000;
    await page.getByTestId('filter-material').fill('');
    await page
      .getByTestId('triplet-count')
      .filter({ hasText: new RegExp(`^${total} of`) })
      .waitFor({ timeout: 120_000 });

    started = Date.now();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 1_800_000 }), page.getByTestId('export-csv').click()]);
    const csvPath = await download.path();
    const exportSeconds = (Date.now() - started) / 1000;
    const csvLines = readFileSync(csvPath, 'utf8').trimEnd().split('\n').length;

    console.log(`import ${total} triplets (JSONL file → saved): ${importSeconds.toFixed(1)} s`);
    console.log(`filter by material "TiO" (typing → ${expectedMatches} rows shown, incl. 300 ms debounce): ${filterSeconds.toFixed(2)} s`);
    console.log(`CSV export of ${total} triplets (click → file): ${exportSeconds.toFixed(1)} s, ${csvLines - 1} data lines`);
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
