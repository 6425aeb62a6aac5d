/**
 * End to end: an import outlives the dataset page. The offscreen document runs it, so closing
 * the page mid-import loses nothing; a page opened later shows the running import's progress in
 * words (lines saved, share of the file, rows per second) and then its report. Stop ends an
 * import after the chunk being saved, and the page offers to run it again.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toJsonl } from '../../src/export/dataset-export';
import { projectRoot } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser } from './extension-browser';
import { readStore } from './extension-pages';
import { syntheticRow } from './synthetic-dataset';

const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const TOTAL = 30_000;
/**
 * The Stop test's file: twice as long, so the import cannot end before Stop lands. An import
 * saves about 3,000 rows a second on a 2-core machine (33.4 s for 100,000; README, "A dataset of
 * 100,000 triplets"), so 60,000 rows take ~20 s; with 30,000, an idle machine once finished the
 * whole file before the Stop was acted on.
 */
const STOP_TOTAL = 60_000;

const now = new Date('2026-11-22T12:00:00Z').toISOString();
const jsonl = (total: number) => toJsonl(Array.from({ length: total }, (_, index) => syntheticRow(index, now)));
const file = () => ({ name: 'lab.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(jsonl(TOTAL)) });

describe.skipIf(skipReason !== undefined)(skipReason ?? 'an import run by the offscreen document', () => {
  it('goes on while the dataset page is closed, and a reopened page shows its progress and then its report', async () => {
    const browser = await launchExtensionBrowser(extensionDirectory, []);
    try {
      const page = await browser.context.newPage();
      await page.goto(browser.extensionUrl('dataset.html'));
      await page.getByTestId('import-file').setInputFiles(file());
      await page.getByTestId('import-progress-text').waitFor({ timeout: 60_000 });
      await page.close();

      const reopened = await browser.context.newPage();
      await reopened.goto(browser.extensionUrl('dataset.html'));
      // Either still running (progress in words) or already finished (the report); most often running.
      const progressOrReport = reopened.getByTestId('import-progress-text').or(reopened.getByTestId('import-summary'));
      await progressOrReport.first().waitFor({ timeout: 60_000 });
      const progress = await reopened
        .getByTestId('import-progress-text')
        .textContent({ timeout: 100 })
        .catch(() => null);
      if (progress !== null)
        expect(progress).toMatch(
          /^(Reading lab\.jsonl…|Importing lab\.jsonl: [\d,]+ lines saved \(\d+% of \d+ MB\)(, [\d,]+ per second)?\.)$/,
        );
      await reopened
        .getByTestId('import-summary')
        .filter({ hasText: `lab.jsonl: Added ${TOTAL}, merged 0; 0 problems` })
        .waitFor({ timeout: 300_000 });
      expect(await readStore(reopened, 'triplets')).toHaveLength(TOTAL);
      // The file is not kept once the import ended well.
      expect(await readStore(reopened, 'importFiles')).toHaveLength(0);
    } finally {
      await browser.close();
    }
  });

  it('stops after the chunk being saved when asked, and runs the stored file again on request without doubling', async () => {
    const browser = await launchExtensionBrowser(extensionDirectory, []);
    // Over Playwright's 50 MB limit for a file given as a buffer: written to disk and given by path.
    const directory = mkdtempSync(join(tmpdir(), 'assay-import-stop-'));
    const path = join(directory, 'lab.jsonl');
    writeFileSync(path, jsonl(STOP_TOTAL));
    try {
      const page = await browser.context.newPage();
      await page.goto(browser.extensionUrl('dataset.html'));
      await page.getByTestId('import-file').setInputFiles(path);
      await page.getByTestId('import-stop').click({ timeout: 60_000 });
      const summary = page.getByTestId('import-summary');
      await summary.filter({ hasText: 'Stopped after' }).waitFor({ timeout: 120_000 });
      const saved = (await readStore(page, 'triplets')).length;
      expect(saved).toBeLessThan(STOP_TOTAL);
      await page.getByTestId('import-again').click();
      await summary.filter({ hasText: `Added ${STOP_TOTAL - saved}, merged ${saved}; 0 problems` }).waitFor({ timeout: 300_000 });
      expect(await readStore(page, 'triplets')).toHaveLength(STOP_TOTAL);
    } finally {
      await browser.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
