/**
 * End to end: the dataset page as a reader drives it, in Chromium with the built test extension
 * and the browser's own IndexedDB. Seven triplets saved by the background (band gaps in eV, meV
 * and one with no SI value, and a Tc in K): a column hidden and shown again with the keyboard
 * through the column chooser (and still hidden after a reload), the table sorted by value both
 * ways (by SI value: 6200 meV sorts above 3.4 eV although 6200 > 92 as printed), a paper view opened
 * from a title and closed with the focus back on the title, a filtered and sorted CSV export
 * holding exactly the shown rows in the shown order, and axe-core in light and dark themes, with
 * the README's screenshots.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../src/contracts/dataset';
import { projectRoot } from '../support/shared-data';
import { seriousAxeViolations, setColorScheme } from './accessibility';
import { chromiumPath, launchExtensionBrowser, type ExtensionBrowser } from './extension-browser';
import { syntheticRow } from './synthetic-dataset';
import { mergeKeyOf } from '../../src/store/dataset-triplet';

const skipReason = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found: skipping e2e tests`;
const extensionDirectory = join(projectRoot, '.output', 'chrome-mv3-test');
const screenshots = join(projectRoot, 'test-results', 'e2e');
const EV = 1.602176634e-19; // joules per electronvolt (CODATA 2018, exact)

const PAPERS = {
  nitrides: 'Band gaps of the group-III nitrides',
  oxides: 'Wide-gap oxide semiconductors',
  cuprates: 'Superconductivity in YBCO films',
};

/** A triplet of `material` with its value as printed in `unit` and its SI value (null: the unit does not convert). */
function row(
  index: number,
  material: string,
  property: string,
  printed: number,
  unit: string,
  si: { value: number; unit: string } | null,
  paper: keyof typeof PAPERS,
): DatasetTriplet {
  const base = syntheticRow(index, new Date(Date.UTC(2026, 10, 20, 12, 0, index)).toISOString());
  const doi = `10.5555/${paper}`;
  const quote = `${material} shows a ${property.replace('_', ' ')} of ${printed} ${unit}.`;
  const changed: Omit<DatasetTriplet, 'mergeKey'> = {
    ...base,
    paper: { ...base.paper, key: `doi:${doi}`, doi, title: PAPERS[paper], url: null },
    material,
    property,
    value: { kind: 'number', value: printed },
    valueText: String(printed),
    unit,
    si: si && { value: { kind: 'number', value: si.value }, unit: si.unit },
    evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' }, page: 1 + (index % 3) },
  };
  return { ...changed, mergeKey: mergeKeyOf(changed) };
}

const ROWS = [
  row(1, 'GaN', 'band_gap', 3.4, 'eV', { value: 3.4 * EV, unit: 'kg m^2 s^-2' }, 'nitrides'),
  row(2, 'AlN', 'band_gap', 6200, 'meV', { value: 6.2 * EV, unit: 'kg m^2 s^-2' }, 'nitrides'),
  row(3, 'ZnO', 'band_gap', 3.3, 'eV', { value: 3.3 * EV, unit: 'kg m^2 s^-2' }, 'oxides'),
  row(4, 'Si', 'band_gap', 1.12, 'eV', { value: 1.12 * EV, unit: 'kg m^2 s^-2' }, 'oxides'),
  row(5, 'TiO2', 'band_gap', 3.0, 'eV', { value: 3.0 * EV, unit: 'kg m^2 s^-2' }, 'oxides'),
  row(6, 'CdS', 'band_gap', 2.4, 'arb. u.', null, 'oxides'),
  row(7, 'YBa2Cu3O7', 'tc', 92, 'K', { value: 92, unit: 'K' }, 'cuprates'),
];
/** By SI value, the row without one last: Si 1.12 eV < TiO2 3.0 < ZnO 3.3 < GaN 3.4 < AlN 6.2 eV (as 6200 meV) < 92 K. */
const VALUE_ASCENDING = ['Si', 'TiO2', 'ZnO', 'GaN', 'AlN', 'YBa2Cu3O7', 'CdS'];
const VALUE_DESCENDING = ['YBa2Cu3O7', 'AlN', 'GaN', 'ZnO', 'TiO2', 'Si', 'CdS'];

const shownMaterials = (page: Page) => page.locator('[data-testid="triplet-table"] tbody tr[data-id] th').allTextContents();
const headers = (page: Page) =>
  page
    .locator('[data-testid="triplet-table"] thead th[data-column]')
    .evaluateAll((cells) => cells.map((cell) => (cell as HTMLElement).dataset.column));
const focusedText = (page: Page) =>
  page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent ?? ''}`.trim());

/** Tab (or Shift+Tab, `key`) through the open column chooser until the checkbox labelled `name` has the focus (at most 20 presses). */
async function tabToCheckbox(page: Page, name: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let presses = 0; presses < 20; presses += 1) {
    const label = await page.evaluate(() => {
      const active = document.activeElement as HTMLInputElement | null;
      return active?.type === 'checkbox' ? (active.labels?.[0]?.textContent ?? '') : '';
    });
    if (label === name) return;
    await page.keyboard.press(key);
  }
  throw new Error(`no checkbox "${name}" reached with Tab`);
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'the dataset page: columns, sorting, paper view, filtered export, themes', () => {
  let browser: ExtensionBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchExtensionBrowser(extensionDirectory, []);
    const serviceWorker = browser.context.serviceWorkers()[0]!;
    await serviceWorker.evaluate(
      (rows) => (globalThis as unknown as { assayTest: { saveTriplets(rows: unknown[]): Promise<unknown> } }).assayTest.saveTriplets(rows),
      ROWS,
    );
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(browser.extensionUrl('dataset.html'));
    await page.getByTestId('triplet-count').filter({ hasText: '7 of 7 triplets' }).waitFor({ timeout: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('hides and shows a column with the keyboard, keeps the choice over a reload, and always leaves an identifying column', async () => {
    expect(await headers(page)).toContain('quote');
    await page.getByTestId('column-chooser').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('column-chooser-panel').waitFor();
    await tabToCheckbox(page, 'Quote');
    await page.keyboard.press('Space');
    await expect.poll(() => headers(page)).not.toContain('quote');
    await page.keyboard.press('Escape');
    await page.getByTestId('column-chooser-panel').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('column-chooser');

    await page.reload();
    await page.getByTestId('triplet-count').filter({ hasText: '7 of 7 triplets' }).waitFor();
    expect(await headers(page)).not.toContain('quote');

    await page.getByTestId('column-chooser').focus();
    await page.keyboard.press('Enter');
    await tabToCheckbox(page, 'Quote');
    await page.keyboard.press('Space');
    await expect.poll(() => headers(page)).toContain('quote');
    // Material and property hidden: value is the last identifying column and cannot go.
    for (const name of ['Property', 'Material']) {
      await tabToCheckbox(page, name, 'Shift+Tab');
      await page.keyboard.press('Space');
    }
    const panel = page.getByTestId('column-chooser-panel');
    expect(await panel.getByRole('checkbox', { name: 'Value', exact: true }).isDisabled()).toBe(true);
    expect(await headers(page)).not.toContain('material');
    for (const name of ['Material', 'Property']) await panel.getByRole('checkbox', { name, exact: true }).check();
    expect(await panel.getByRole('checkbox', { name: 'Value', exact: true }).isDisabled()).toBe(false);
    await page.keyboard.press('Escape');
    expect((await headers(page)).slice(0, 3)).toEqual(['material', 'property', 'value']);
  });

  it('sorts by value both ways, by SI value with the row that has none last', async () => {
    const valueHeader = page.locator('th[data-column="value"]');
    await valueHeader.getByRole('button', { name: 'Value' }).click();
    await expect.poll(() => valueHeader.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => shownMaterials(page)).toEqual(VALUE_ASCENDING);
    await valueHeader.getByRole('button', { name: 'Value' }).click();
    await expect.poll(() => valueHeader.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => shownMaterials(page)).toEqual(VALUE_DESCENDING);
    expect(await page.locator('th[aria-sort]').count()).toBe(1);
  });

  it('opens the paper view from a title, focusing its heading, and gives the focus back on Close', async () => {
    const title = page.getByRole('link', { name: PAPERS.nitrides }).first();
    await title.click();
    const view = page.getByTestId('paper-view');
    await view.getByRole('heading', { name: PAPERS.nitrides }).waitFor();
    await expect.poll(() => focusedText(page)).toBe(`H2 ${PAPERS.nitrides}`);
    expect(await view.locator('li[data-id]').count()).toBe(2);
    await view.getByRole('button', { name: 'Close' }).click();
    await view.waitFor({ state: 'detached' });
    await expect.poll(() => focusedText(page)).toBe(`A ${PAPERS.nitrides}`);

    // From the keyboard: Enter on the title opens it, Escape closes it, the focus comes back.
    await page.keyboard.press('Enter');
    await view.getByRole('heading', { name: PAPERS.nitrides }).waitFor();
    await expect.poll(() => focusedText(page)).toBe(`H2 ${PAPERS.nitrides}`);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    await expect.poll(() => focusedText(page)).toBe(`A ${PAPERS.nitrides}`);
  });

  it('exports exactly the filtered rows, in the table’s order, and says how many', async () => {
    expect(await page.getByTestId('triplet-table').getAttribute('aria-busy')).toBe('false');
    await page.getByTestId('filter-property').selectOption('band_gap');
    await page.getByTestId('triplet-count').filter({ hasText: '6 of 7 triplets' }).waitFor();
    await expect.poll(() => shownMaterials(page)).toEqual(VALUE_DESCENDING.filter((material) => material !== 'YBa2Cu3O7'));
    const button = page.getByRole('button', { name: 'Export 6 shown triplets as CSV' });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const records = parse(readFileSync(await download.path()).toString('utf8'), { columns: true, bom: true }) as Array<
      Record<string, string>
    >;
    expect(records.map((record) => record.material)).toEqual(['AlN', 'GaN', 'ZnO', 'TiO2', 'Si', 'CdS']);
    expect(new Set(records.map((record) => record.property))).toEqual(new Set(['band_gap']));
    await page.getByRole('status').filter({ hasText: 'Exported 6 triplets' }).waitFor();
    // The text streamed into a file of the extension's private file system, which the download read.
    const streamed = (await page.evaluate(`(async () => {
      const names = [];
      for await (const name of (await navigator.storage.getDirectory()).keys()) names.push(name);
      return names;
    })()`)) as string[];
    expect(streamed.filter((name) => name.startsWith('assay-export-'))).toHaveLength(1);
  });

  it('has no serious or critical accessibility problem in the light and dark themes', async () => {
    // Band gaps only, so the page shows the property's plot, in eV on its titled axis.
    await page.getByTestId('filter-property').selectOption('band_gap');
    await page.getByTestId('triplet-count').filter({ hasText: '6 of 7 triplets' }).waitFor();
    await page.locator('figure[data-testid="property-plot"] canvas').waitFor();
    expect(await page.getByTestId('property-plot').textContent()).toMatch(/eV/);
    // Opening a paper from its title scrolled the table sideways to the link: back to the first column for the screenshots.
    await page.locator('.triplet-scroll').evaluate((box) => box.scrollTo(0, 0));
    mkdirSync(screenshots, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await setColorScheme(page, scheme);
      expect(await seriousAxeViolations(page), scheme).toEqual([]);
      await page.screenshot({ path: join(screenshots, `dataset-page-${scheme}.png`), fullPage: true });
    }
    // The open column chooser and the paper view too.
    await page.getByTestId('column-chooser').click();
    expect(await seriousAxeViolations(page), 'dark, column chooser open').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: PAPERS.oxides }).first().click();
    await page.getByTestId('paper-view').waitFor();
    for (const scheme of ['dark', 'light'] as const) {
      await setColorScheme(page, scheme);
      expect(await seriousAxeViolations(page), `${scheme}, paper view`).toEqual([]);
    }
  });
});
