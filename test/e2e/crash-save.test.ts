/**
 * End to end: the browser dies in the middle of a large save (an import of 40 000 triplets, run
 * by the offscreen document in transactions of 5 000) — SIGKILL, no unload, as in a crash or a
 * power cut. Reopened on the same profile, every chunk the page had acknowledged (the lines its
 * progress bar says are saved) is there, nothing is half-written (the count is a whole number of
 * chunks and every stored row is a valid `DatasetTriplet`), the page says the import was
 * interrupted, and importing the file again completes the dataset without doubling.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DatasetTripletSchema } from '../../src/contracts/dataset';
import { toJsonl } from '../../src/export/dataset-export';
import { projectRoot } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser } from './extension-browser';
import { readStore } from './extension-pages';
import { syntheticRow } from './synthetic-dataset';
import { IMPORT_CHUNK_SIZE } from '../../src/export/import-triplets';

const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const TOTAL = 40_000;
/** An import's chunk: one transaction per 5 000 rows (`IMPORT_CHUNK_SIZE`, src/export/import-triplets.ts). */
const CHUNK = IMPORT_CHUNK_SIZE;

/** Every row of the `triplets` store, read with plain IndexedDB. */
const storedRows = (page: Page) => readStore<unknown>(page, 'triplets');

describe.skipIf(skipReason !== undefined)(skipReason ?? 'a crash in the middle of a save', () => {
  const profile = mkdtempSync(join(tmpdir(), 'assay-crash-'));
  afterAll(() => rmSync(profile, { recursive: true, force: true }));

  it('loses nothing acknowledged and leaves no half-written record', async () => {
    const now = new Date('2026-11-22T12:00:00Z').toISOString();
    const jsonl = toJsonl(Array.from({ length: TOTAL }, (_, index) => syntheticRow(index, now)));
    const file = { name: 'big.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(jsonl) };

    const first = await launchExtensionBrowser(extensionDirectory, [], [], { userDataDirectory: profile });
    const page = await first.context.newPage();
    await page.goto(first.extensionUrl('dataset.html'));
    await page.getByTestId('import-file').setInputFiles(file);
    const progress = page.locator('.dataset-import progress');
    const savedLines = async () => Number((await progress.getAttribute('data-saved-lines', { timeout: 50 }).catch(() => null)) ?? 0);
    // Wait until at least two chunks are acknowledged, then kill the browser at once.
    await expect.poll(savedLines, { timeout: 120_000, interval: 20 }).toBeGreaterThanOrEqual(2 * CHUNK);
    const acknowledged = Math.max(2 * CHUNK, await savedLines());
    await first.crash();

    const second = await launchExtensionBrowser(extensionDirectory, [], [], { userDataDirectory: profile });
    try {
      const reopened = await second.context.newPage();
      await reopened.goto(second.extensionUrl('dataset.html'));
      const rows = await storedRows(reopened);
      console.log(`crash after ${acknowledged} acknowledged rows; ${rows.length} rows after reopening`);
      expect(rows.length).toBeGreaterThanOrEqual(acknowledged);
      expect(rows.length % CHUNK).toBe(0);
      expect(rows.length).toBeLessThan(TOTAL);
      for (const row of rows) DatasetTripletSchema.parse(row);
      // The reopened page finds the job its dead document was running and says so.
      await reopened
        .getByTestId('import-summary')
        .filter({ hasText: 'The browser closed during this import' })
        .waitFor({ timeout: 60_000 });

      // The same file again: the saved rows merge, the rest are added, nothing doubles.
      await reopened.getByTestId('import-file').setInputFiles(file);
      await reopened
        .getByTestId('import-summary')
        .filter({ hasText: `Added ${TOTAL - rows.length}, merged ${rows.length}; 0 problems` })
        .waitFor({ timeout: 300_000 });
      expect(await storedRows(reopened)).toHaveLength(TOTAL);
    } finally {
      await second.close();
    }
  });
});
