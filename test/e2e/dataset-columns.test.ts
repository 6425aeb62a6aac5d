/**
 * End to end, the dataset page at common window widths (issue 28: "at 1400 px the dataset table
 * pushes Quote, Status and Decision off screen"): at 1280, 1400 and 1440 px the identifying columns
 * (material, property, value, unit), Status and Decision end inside the viewport and inside the
 * table's scroll box, with the box scrolled to its start — nothing sideways hides them. The Quote
 * cell shows one line and opens the whole quote by keyboard (Enter) in a popover that Escape closes.
 * Rows are saved through the background's test hook, as in dataset-page.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../src/contracts/dataset';
import { projectRoot } from '../support/shared-data';
import { seriousAxeViolations } from './accessibility';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { syntheticRow } from './synthetic-dataset';
import { mergeKeyOf } from '../../src/store/dataset-triplet';

const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const KEY_COLUMNS = ['material', 'property', 'value', 'unit', 'status', 'decision'];
// A long quote (a whole paragraph, as models give), so a column sized to its text would push the rest off screen.
const LONG_QUOTE =
  'Europium sulfide is a ferromagnetic semiconductor with a Curie temperature of 16.6 K that has been studied for decades. ' +
  'Thin films were grown by molecular beam epitaxy on BaF2 substrates and capped with aluminium to prevent oxidation. ' +
  'The optical band gap of EuS is 1.6 eV at room temperature, in line with earlier reports on bulk crystals.';

/** A saved row of `material` with a long title and the long quote. */
function row(index: number, material: string, value: number): DatasetTriplet {
  const base = syntheticRow(index, new Date(Date.UTC(2026, 10, 20, 12, 0, index)).toISOString());
  const changed: Omit<DatasetTriplet, 'mergeKey'> = {
    ...base,
    paper: { ...base.paper, title: 'Magneto-optical spectroscopy of europium chalcogenide thin films grown by molecular beam epitaxy' },
    material,
    property: 'band_gap',
    value: { kind: 'number', value },
    valueText: String(value),
    unit: 'eV',
    si: null,
    evidence: { quote: { type: 'TextQuoteSelector', exact: LONG_QUOTE, prefix: '', suffix: '' }, page: 2 },
  };
  return { ...changed, mergeKey: mergeKeyOf(changed) };
}

/** Each key column header's right edge, the viewport's width and the scroll box's right edge. */
const layout = (page: Page) =>
  page.evaluate((columns) => {
    const box = document.querySelector('.triplet-scroll')!.getBoundingClientRect();
    const rights = Object.fromEntries(
      columns.map((column) => [column, document.querySelector(`th[data-column="${column}"]`)?.getBoundingClientRect().right ?? Infinity]),
    );
    return { rights, viewport: window.innerWidth, boxRight: box.right, scrollLeft: document.querySelector('.triplet-scroll')!.scrollLeft };
  }, KEY_COLUMNS);

describe.skipIf(skipReason !== undefined)(skipReason ?? 'the dataset page at common widths', () => {
  let browser: ExtensionBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchExtensionBrowser(extensionDirectory, []);
    const serviceWorker = browser.context.serviceWorkers()[0]!;
    await serviceWorker.evaluate(
      (rows) => (globalThis as unknown as { assayTest: { saveTriplets(rows: unknown[]): Promise<unknown> } }).assayTest.saveTriplets(rows),
      [row(1, 'EuS', 1.6), row(2, 'Yttrium barium copper oxide (YBa2Cu3O7−δ) thin film on SrTiO3', 2.1)],
    );
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(browser.extensionUrl('dataset.html'));
    await page.getByTestId('triplet-count').filter({ hasText: '2 of 2 triplets' }).waitFor({ timeout: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  for (const width of [1280, 1400, 1440]) {
    it(`keeps material, property, value, unit, Status and Decision on screen at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const { rights, viewport, boxRight, scrollLeft } = await layout(page);
      expect(scrollLeft).toBe(0);
      // A long quote or material name does not widen its column (a whole quote made its column 1,839 px wide).
      const quoteWidth = await page.locator('th[data-column="quote"]').evaluate((cell) => cell.getBoundingClientRect().width);
      expect(quoteWidth).toBeLessThanOrEqual(240);
      for (const column of KEY_COLUMNS) {
        expect(rights[column], `${column} at ${width} px`).toBeLessThanOrEqual(viewport);
        expect(rights[column], `${column} inside the table's box at ${width} px`).toBeLessThanOrEqual(boxRight);
      }
      // And each row's status cell says the status where it can be seen.
      const status = await page.locator('tbody tr[data-id] td[data-status]').first().boundingBox();
      expect(status!.x + status!.width).toBeLessThanOrEqual(viewport);
    });
  }

  it('shows one line of a long quote and the whole quote on Enter, closed again with Escape', async () => {
    const toggle = page.getByTestId('quote-toggle').first();
    const cell = await toggle.boundingBox();
    expect(cell!.height).toBeLessThan(40);
    await toggle.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('quote-panel').first();
    await panel.waitFor();
    expect(await panel.textContent()).toBe(`${LONG_QUOTE} (page 2)`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(projectRoot, 'test-results', 'e2e', 'dataset-quote-open.png') });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('quote-toggle');
  });
});
