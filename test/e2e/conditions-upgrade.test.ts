/**
 * End to end: a reader's dataset saved by an Assay from before structured conditions (issue 26)
 * opens in today's extension. The `assay` database is created at version 6, and again at 7, with Dexie in an
 * extension page, as that version declared it, holding 5,000 rows (20,000 to measure) whose
 * `conditions` is free text (half of them) or absent; the dataset page then opens it, which runs the v8 upgrade in
 * Chromium's own IndexedDB. The newest row shows its condition in the table, and every row is
 * stored migrated: a list with one `other` condition, the merge key recomputed. The time from
 * navigation to the first row shown, upgrade included, is printed beside the same after a reload.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../src/contracts/dataset';
import { projectRoot } from '../support/shared-data';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { syntheticRow } from './synthetic-dataset';

const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
/** 5,000 rows keep the suite quick; `ASSAY_E2E_UPGRADE_ROWS=20000` gives the figure in src/store/migrate-conditions.ts. */
const ROWS = Number(process.env.ASSAY_E2E_UPGRADE_ROWS ?? 5000);
const CONDITION = 'HSE06, 300 K';

/** Rows as version 7 stored them: every even one with free-text conditions, its key without them; the newest (index ROWS − 1) has CONDITION. */
function legacyRows(): DatasetTriplet[] {
  return Array.from({ length: ROWS }, (_, index) => {
    const row = syntheticRow(index, new Date(Date.UTC(2025, 0, 1, 0, 0, 0, index)).toISOString());
    const conditions = index === ROWS - 1 ? CONDITION : index % 2 === 0 ? `method ${index % 5}` : undefined;
    return (conditions === undefined ? row : { ...row, conditions }) as unknown as DatasetTriplet;
  });
}

/** Dexie's UMD build, evaluated in an extension page over the DevTools protocol (the page's CSP admits no script tag). */
const dexieSource = readFileSync(createRequire(import.meta.url).resolve('dexie/dist/dexie.js'), 'utf8');

/**
 * Delete the `assay` database and create it at version `upTo` (6 or 7) with `rows`, with the
 * schema versions 1–`upTo` declared as they were. Resolves to its version.
 */
async function seedVersion(page: Page, rows: DatasetTriplet[], upTo: 6 | 7): Promise<number> {
  await page.evaluate(dexieSource);
  return page.evaluate(
    async ({ seeded, upTo }) => {
      const Dexie = (globalThis as unknown as { Dexie: typeof import('dexie').Dexie }).Dexie;
      await Dexie.delete('assay');
      const old = new Dexie('assay');
      old.version(1).stores({ papers: 'key, capturedAt, doi' });
      old.version(2).stores({ runs: 'id, [paperKey+startedAt], status' });
      old.version(3).stores({ triplets: 'id, &mergeKey, paper.key, material, property, status, savedAt' });
      old.version(4).stores({ papers: 'key, capturedAt, doi, url' });
      old.version(5).stores({ referenceTables: 'id, importedAt', precedents: 'key' });
      old.version(6).stores({ paperVersions: '++id, [paperKey+capturedAt]' });
      if (upTo === 7)
        old.version(7).stores({
          triplets: 'id, &mergeKey, paper.key, [material+savedAt], [property+savedAt], [status+savedAt], savedAt',
          importJobs: 'id, startedAt',
          importFiles: 'id',
        });
      await old.open();
      await old.table('triplets').bulkAdd(seeded);
      const version = old.verno;
      old.close();
      return version;
    },
    { seeded: rows, upTo },
  );
}

/** The stored `triplets` rows `ids` and the database's version, read with plain IndexedDB (no schema declared, so nothing upgrades). */
function readStored(page: Page, ids: string[]) {
  return page.evaluate(
    (wanted) =>
      new Promise<{ version: number; rows: Array<DatasetTriplet | undefined>; stringConditions: number; count: number }>(
        (resolve, reject) => {
          const request = indexedDB.open('assay');
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const database = request.result;
            const store = database.transaction('triplets').objectStore('triplets');
            const all = store.getAll();
            all.onerror = () => reject(all.error);
            all.onsuccess = () => {
              const rows = all.result as DatasetTriplet[];
              const byId = new Map(rows.map((row) => [row.id, row]));
              resolve({
                version: database.version,
                rows: wanted.map((id) => byId.get(id)),
                stringConditions: rows.filter((row) => typeof row.conditions === 'string').length,
                count: rows.length,
              });
              database.close();
            };
          };
        },
      ),
    ids,
  );
}

describe.skipIf(skipReason !== undefined).each([6, 7] as const)(
  skipReason ?? 'the v8 upgrade of a version-%i dataset in Chromium',
  (upTo) => {
    let browser: ExtensionBrowser;
    let page: Page;
    const rows = legacyRows();
    const newest = rows[ROWS - 1]!;

    beforeAll(async () => {
      browser = await launchExtensionBrowser(extensionDirectory, []);
      page = await browser.context.newPage();
      await page.goto(browser.extensionUrl('welcome.html'));
      expect(await seedVersion(page, rows, upTo)).toBe(upTo);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
    });

    it('opens the dataset page on the upgraded rows, the newest showing its condition, every row stored migrated', async () => {
      const newestRow = page.locator(`[data-testid="triplet-table"] tbody tr[data-id="${newest.id}"]`);
      let started = Date.now();
      await page.goto(browser.extensionUrl('dataset.html'));
      await newestRow.waitFor({ timeout: 90_000 });
      const firstOpen = Date.now() - started;
      expect(await newestRow.textContent()).toContain(CONDITION);

      const stored = await readStored(page, [newest.id, rows[0]!.id, rows[1]!.id]);
      // Dexie stores version n as IndexedDB version 10n.
      expect(stored.version).toBe(80);
      expect(stored.count).toBe(ROWS);
      expect(stored.stringConditions).toBe(0);
      const [upgraded, even, odd] = stored.rows;
      expect(upgraded!.conditions).toEqual([{ kind: 'other', value: CONDITION, text: CONDITION }]);
      expect(upgraded!.mergeKey).toBe(`${newest.mergeKey}|other=hse06, 300 k`);
      expect(even!.conditions).toEqual([{ kind: 'other', value: 'method 0', text: 'method 0' }]);
      expect(odd).not.toHaveProperty('conditions');
      expect(odd!.mergeKey).toBe(rows[1]!.mergeKey);

      started = Date.now();
      await page.reload();
      await newestRow.waitFor({ timeout: 90_000 });
      const reopen = Date.now() - started;
      console.log(
        `dataset page, ${ROWS} rows of a version-${upTo} database (half with free-text conditions): first row shown ${firstOpen} ms after navigation with the v8 upgrade, ${reopen} ms after a reload`,
      );
    }, 180_000);
  },
);
