/**
 * Benchmark (not a test): a 100 000-triplet dataset in the built extension in Debian's Chromium,
 * through the dataset page as a reader uses it — import a JSONL file, filter by material, search
 * quote words (through the search worker's index), export CSV — each timed from the action to the
 * page showing its result. IndexedDB is the browser's own (LevelDB on disk), not fake-indexeddb.
 *
 *   npm run build:test && npx tsx test/e2e/dataset-scale.ts [--rows 100000]
 *
 * The rows are synthetic but shaped like real ones (evidence selectors, SI values, DOIs, 500
 * materials × 12 properties × 17 papers, every row a distinct fact so nothing merges).
 * The material filter's and the searches' times include the page's 300 ms typing debounce.
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

    // Search: the worker's index followed the import; once it answers, search quote words.
    started = Date.now();
    await page.waitForFunction(() => document.querySelector('[data-testid="search-index-status"]')?.textContent === '', undefined, {
      timeout: 600_000,
      polling: 100,
    });
    const indexWaitSeconds = (Date.now() - started) / 1000;
    const searchSeconds: string[] = [];
    for (const [text, pattern] of [
      ['sample 4242', /\bsample 4242\d*\.$/],
      ['measured', /\bmeasured\b/],
    ] as const) {
      const expected = rows.filter((row) => pattern.test(row.evidence!.quote.exact)).length;
      started = Date.now();
      await page.getByTestId('filter-search').fill(text);
      await page
        .getByTestId('triplet-count')
        .filter({ hasText: new RegExp(`^${expected} of`) })
        .waitFor({ timeout: 120_000 });
      searchSeconds.push(`"${text}" → ${expected} rows shown: ${((Date.now() - started) / 1000).toFixed(2)} s`);
    }
    await page.getByTestId('filter-search').fill('');

    started = Date.now();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 1_800_000 }), page.getByTestId('export-csv').click()]);
    const csvPath = await download.path();
    const exportSeconds = (Date.now() - started) / 1000;
    const csvLines = readFileSync(csvPath, 'utf8').trimEnd().split('\n').length;

    console.log(`import ${total} triplets (JSONL file → saved): ${importSeconds.toFixed(1)} s`);
    console.log(`filter by material "TiO" (typing → ${expectedMatches} rows shown, incl. 300 ms debounce): ${filterSeconds.toFixed(2)} s`);
    console.log(`search index ready after the import's last row: ${indexWaitSeconds.toFixed(1)} s`);
    for (const line of searchSeconds) console.log(`search ${line} (typing → rows, incl. 300 ms debounce)`);
    console.log(`CSV export of ${total} triplets (click → file): ${exportSeconds.toFixed(1)} s, ${csvLines - 1} data lines`);
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
