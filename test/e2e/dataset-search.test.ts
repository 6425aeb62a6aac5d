/**
 * End to end: the dataset page's search, answered by the search index in its worker, in
 * Chromium with the built test extension and the browser's own IndexedDB. 3,000 rows imported
 * through the page are found by quote words exactly (words in any order, which the old substring
 * scan could not do, so the index answered); a row saved by the background service worker and
 * one imported in a second dataset tab — other extension contexts, whose writes reach the
 * page's worker only through Dexie's BroadcastChannel — are found without a reload; a row
 * deleted on the page is gone from the results.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../src/contracts/dataset';
import { toJsonl } from '../../src/export/dataset-export';
import { projectRoot } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { syntheticRow } from './synthetic-dataset';

const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const TOTAL = 3000;
const NOW = '2026-11-22T12:00:00.000Z';

/** Row `index` of the synthetic dataset with `quote` as its evidence (a fact of its own, so it never merges). */
function rowWithQuote(index: number, quote: string): DatasetTriplet {
  const row = syntheticRow(index, NOW);
  return { ...row, evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } } };
}

async function importRows(page: Page, name: string, rows: DatasetTriplet[]): Promise<void> {
  await page.getByTestId('import-file').setInputFiles({ name, mimeType: 'application/jsonl', buffer: Buffer.from(toJsonl(rows)) });
  await page
    .getByTestId('import-summary')
    .filter({ hasText: `${name}: Added ${rows.length}` })
    .waitFor({ timeout: 120_000 });
}

/** Type `text` in the search field and wait for the count line to read `count` of `saved`. */
async function search(page: Page, text: string, count: number, saved: number): Promise<void> {
  await page.getByTestId('filter-search').fill(text);
  await page
    .getByTestId('triplet-count')
    .filter({ hasText: new RegExp(`^${count} of ${saved} triplets?`) })
    .waitFor({ timeout: 30_000 });
}

const shownIds = (page: Page) =>
  page.locator('[data-testid="triplet-table"] tbody tr[data-id]').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.id));

/** The material of each shown row (imports give rows new ids, so rows are told apart by their own fields). */
const shownMaterials = (page: Page) => page.locator('[data-testid="triplet-table"] tbody tr[data-id] th').allTextContents();

describe.skipIf(skipReason !== undefined)(skipReason ?? 'searching the dataset page through the search index', () => {
  let browser: ExtensionBrowser;
  let page: Page;
  let serviceWorker: Worker;

  beforeAll(async () => {
    browser = await launchExtensionBrowser(extensionDirectory, []);
    serviceWorker = browser.context.serviceWorkers()[0]!;
    page = await browser.context.newPage();
    await page.goto(browser.extensionUrl('dataset.html'));
    await importRows(
      page,
      'synthetic.jsonl',
      Array.from({ length: TOTAL }, (_, index) => syntheticRow(index, NOW)),
    );
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('finds exactly the rows holding every quote word, in any order, once the index has the imported rows', async () => {
    await page
      .getByTestId('triplet-count')
      .filter({ hasText: `${TOTAL} of ${TOTAL} triplets` })
      .waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('search-index-status').textContent(), { timeout: 60_000 }).toBe('');

    // "ZnSe3" is the material of rows 261, 761, …, 2761 (index % 500 = 261), in their quotes too.
    const expected = Array.from({ length: TOTAL }, (_, index) => syntheticRow(index, NOW)).filter((row) =>
      row.evidence!.quote.exact.includes(' ZnSe3 '),
    );
    expect(expected).toHaveLength(6);
    await search(page, 'sample znse3', 6, TOTAL);
    expect(new Set(await shownMaterials(page))).toEqual(new Set(['ZnSe3']));
    // "… in sample 1234." — the words reversed: no substring of any row, one row by its words.
    await search(page, '1234 sample', 1, TOTAL);
    expect(await page.locator('[data-testid="triplet-table"] tbody tr[data-id]').first().textContent()).toContain('sample 1234');
  });

  it('finds rows written by the service worker and by another dataset tab without a reload, and drops a deleted row', async () => {
    await search(page, 'kesterite', 0, TOTAL);

    // The background service worker saves a row, as it does a run's results.
    await serviceWorker.evaluate(
      (rows) => (globalThis as unknown as { assayTest: { saveTriplets(rows: unknown[]): Promise<unknown> } }).assayTest.saveTriplets(rows),
      [rowWithQuote(TOTAL, 'A kesterite absorber made in the background')],
    );
    await page
      .getByTestId('triplet-count')
      .filter({ hasText: `1 of ${TOTAL + 1} triplets` })
      .waitFor({ timeout: 30_000 });

    // A second dataset tab imports a row: its writes reach this page's worker over BroadcastChannel.
    const other = await browser.context.newPage();
    await other.goto(browser.extensionUrl('dataset.html'));
    await importRows(other, 'other-tab.jsonl', [rowWithQuote(TOTAL + 1, 'Kesterite grown in another tab')]);
    await other.close();
    await page
      .getByTestId('triplet-count')
      .filter({ hasText: `2 of ${TOTAL + 2} triplets` })
      .waitFor({ timeout: 30_000 });
    await search(page, 'kesterite tab', 1, TOTAL + 2);

    // Deleted on this page: gone from the search.
    const [id] = await shownIds(page);
    await page.locator(`[data-testid="triplet-table"] tr[data-id="${id}"] input[type="checkbox"]`).check();
    await page.getByTestId('delete-selected').click();
    await search(page, 'kesterite', 1, TOTAL + 1);
  });
});
