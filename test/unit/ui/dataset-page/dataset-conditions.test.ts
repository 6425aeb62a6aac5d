// @vitest-environment jsdom
/** The dataset page with conditions: Method / Temperature / Pressure / Other conditions / Provenance columns, their sort, the method and provenance filters, and the plot by method. */
import 'fake-indexeddb/auto';
import { act, createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Condition, Provenance } from '../../../../src/contracts/conditions';
import type { DatasetTriplet } from '../../../../src/contracts/dataset';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { saveTriplets } from '../../../../src/store/dataset-repository';
import { TripletsSection } from '../../../../src/ui/dataset-page/triplets-section';
import { eachShownTripletChunk, sortedTripletIds } from '../../../../src/ui/dataset-page/sorted-triplets';
import { DEFAULT_SORT } from '../../../../src/ui/dataset-page/triplet-sort';
import { conditionMatcher } from '../../../../src/ui/shared/fact-conditions';
import { datasetTriplet } from '../dataset-fixtures';
import { reactRootPerTest } from '../react-root';

const schemas = new Map([['band_gap', { label: 'Band gap', canonicalUnit: 'eV', displayUnit: 'eV' }]]);
const label = (name: string) => schemas.get(name)?.label ?? name;
const view = reactRootPerTest();

const method = (value: string): Condition => ({ kind: 'method', value });
/** A band gap of `material` at `ev` eV with `conditions` and `provenance`, saved `second` seconds into 2026. */
function gap(
  id: string,
  material: string,
  ev: number,
  conditions: Condition[],
  provenance: Provenance | undefined,
  second: number,
): DatasetTriplet {
  return datasetTriplet({
    id,
    mergeKey: `key-${id}`,
    material,
    value: { kind: 'number', value: ev },
    si: { value: { kind: 'number', value: ev * 1.602176634e-19 }, unit: 'kg m^2 s^-2' },
    ...(conditions.length > 0 && { conditions }),
    ...(provenance && { provenance }),
    savedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
  });
}

// Two methods for one material (BPN-GaN), a cited value, one without a method, one measured at a temperature and pressure.
const rows = [
  gap('pbe', 'BPN-GaN', 1.86, [method('GGA-PBE'), { kind: 'direction', value: 'indirect' }], { kind: 'computed' }, 1),
  gap('hse', 'BPN-GaN', 2.31, [method('HSE06'), { kind: 'direction', value: 'indirect' }], { kind: 'computed' }, 2),
  gap('cited', 'SmN', 0.7, [], { kind: 'cited', reference: '[19]' }, 3),
  gap('bare', 'GaN', 3.4, [], undefined, 4),
  gap(
    'uv',
    'ZnO',
    3.3,
    [
      method('UV–vis (Tauc)'),
      { kind: 'temperature', value: '300 K' },
      { kind: 'pressure', value: '1 GPa' },
      { kind: 'phase', value: 'film' },
    ],
    { kind: 'measured' },
    5,
  ),
];

let database: AssayDatabase;
let databaseCount = 0;

beforeEach(async () => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  databaseCount += 1;
  database = createAssayDatabase(`dataset-conditions-test-${databaseCount}`);
  await saveTriplets(database, rows);
});

afterEach(() => {
  database.close();
  vi.restoreAllMocks();
});

const byTestId = (id: string) => view.container.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const countLine = () => byTestId('triplet-count')?.textContent;
const rowIds = () =>
  [...view.container.querySelectorAll<HTMLElement>('[data-testid="triplet-table"] tbody tr[data-id]')].map((row) => row.dataset.id);
const cell = (id: string, column: string) => {
  const index = [...view.container.querySelectorAll('[data-testid="triplet-table"] thead th')].findIndex(
    (th) => th.getAttribute('data-column') === column,
  );
  return view.container.querySelector(`tr[data-id="${id}"]`)!.children[index]!;
};

async function until(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    if (check()) return;
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
  throw new Error(`timed out waiting for ${what}; count line: ${countLine()}; rows: ${rowIds().join(',')}`);
}

function type(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

function choose(select: HTMLSelectElement, value: string): void {
  act(() => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

function renderSection(): void {
  act(() => view.root.render(createElement(TripletsSection, { database, schemas, label, debounceMs: 0 })));
}

describe('the dataset table’s condition columns', () => {
  it('shows method, temperature, pressure, the other conditions and the provenance, each in its column', async () => {
    renderSection();
    await until(() => countLine() === '5 of 5 triplets', 'all rows');
    const headings = [...view.container.querySelectorAll('[data-testid="triplet-table"] thead th')].map((th) => th.textContent);
    expect(headings).toEqual(expect.arrayContaining(['Method', 'Temperature', 'Pressure', 'Other conditions', 'Provenance']));
    expect(headings).not.toContain('Conditions');
    expect(['method', 'temperature', 'pressure', 'otherConditions', 'provenance'].map((column) => cell('uv', column).textContent)).toEqual([
      'UV–vis (Tauc)',
      '300 K',
      '1 GPa',
      'film',
      'measured',
    ]);
    expect(cell('hse', 'otherConditions').textContent).toBe('indirect');
    expect(cell('bare', 'method').textContent).toBe('—');
    expect(cell('bare', 'provenance').textContent).toBe('—');
    expect(cell('cited', 'provenance').querySelector('.provenance-cited')?.textContent).toBe('cited [19]');
  });

  it('sorts by method, rows without one last in both directions', async () => {
    renderSection();
    await until(() => countLine() === '5 of 5 triplets', 'all rows');
    const sortBy = (column: string) =>
      act(() => view.container.querySelector<HTMLButtonElement>(`th[data-column="${column}"] button`)!.click());
    sortBy('method');
    await until(() => rowIds()[0] === 'pbe', 'the method order');
    // GGA-PBE, HSE06, UV–vis; then the two without a method, newest first.
    expect(rowIds()).toEqual(['pbe', 'hse', 'uv', 'bare', 'cited']);
    sortBy('method');
    await until(() => rowIds()[0] === 'uv', 'the method order reversed');
    expect(rowIds()).toEqual(['uv', 'hse', 'pbe', 'bare', 'cited']);
    sortBy('provenance');
    await until(() => rowIds()[0] === 'cited', 'the provenance order');
    expect(rowIds()).toEqual(['cited', 'hse', 'pbe', 'uv', 'bare']);
  });
});

describe('the method and provenance filters', () => {
  it('keeps the rows of a method typed in any spelling, and both methods of one material stay two rows', async () => {
    renderSection();
    await until(() => countLine() === '5 of 5 triplets', 'all rows');
    type(byTestId('filter-method') as HTMLInputElement, 'gga/pbe');
    await until(() => countLine() === '1 of 5 triplets', 'the GGA-PBE row');
    expect(rowIds()).toEqual(['pbe']);
    type(byTestId('filter-method') as HTMLInputElement, '');
    type(byTestId('filter-material') as HTMLInputElement, 'BPN');
    await until(() => countLine() === '2 of 5 triplets', 'both BPN-GaN rows');
    expect(rowIds().map((id) => cell(id!, 'method').textContent)).toEqual(['HSE06', 'GGA-PBE']);
  });

  it('shows cited values only, or hides them, and combines with the other filters', async () => {
    renderSection();
    await until(() => countLine() === '5 of 5 triplets', 'all rows');
    const provenance = byTestId('filter-provenance') as HTMLSelectElement;
    expect(view.container.querySelector(`label[for="${provenance.id}"]`)?.textContent).toBe('Provenance');
    choose(provenance, 'cited');
    await until(() => countLine() === '1 of 5 triplets', 'the cited row');
    expect(rowIds()).toEqual(['cited']);
    choose(provenance, 'not_cited');
    await until(() => countLine() === '4 of 5 triplets', 'all but the cited row');
    expect(rowIds()).toEqual(['uv', 'bare', 'hse', 'pbe']);
    choose(provenance, 'unknown');
    await until(() => countLine() === '1 of 5 triplets', 'the row without provenance');
    expect(rowIds()).toEqual(['bare']);
    choose(provenance, 'computed');
    type(byTestId('filter-method') as HTMLInputElement, 'hse');
    await until(() => countLine() === '1 of 5 triplets' && rowIds()[0] === 'hse', 'the HSE06 computed row');
  });

  it('plots one series per method, "no method" its own, and says so in the caption', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderSection();
    await until(() => countLine() === '5 of 5 triplets', 'all rows');
    const property = byTestId('filter-property') as HTMLSelectElement;
    await until(() => property.options.length === 2, 'the property list');
    choose(property, 'band_gap');
    const caption = () => byTestId('property-plot')?.querySelector('figcaption')?.textContent ?? '';
    await until(() => caption().includes('By method'), 'the plot');
    expect(caption()).toContain('By method: GGA-PBE 1, HSE06 1, UV–vis (Tauc) 1, no method 2.');
    choose(byTestId('filter-provenance') as HTMLSelectElement, 'not_cited');
    await until(() => caption().includes('no method 1.'), 'the plot without the cited row');
    expect(caption()).toContain('4 values');
  });
});

describe('sortedTripletIds and the export with a condition filter', () => {
  it('tests the filter in memory on the rows the query selects, in any order, and exports exactly those', async () => {
    const hideCited = conditionMatcher({ method: '', provenance: 'not_cited' })!;
    expect(await sortedTripletIds(database, {}, DEFAULT_SORT, label, undefined, hideCited)).toEqual(['uv', 'bare', 'hse', 'pbe']);
    expect(
      await sortedTripletIds(database, { material: 'BPN' }, { column: 'value', direction: 'ascending' }, label, undefined, hideCited),
    ).toEqual(['pbe', 'hse']);
    const exported: string[] = [];
    const count = await eachShownTripletChunk(
      database,
      {},
      DEFAULT_SORT,
      label,
      (chunk) => exported.push(...chunk.map((row) => row.id)),
      2,
      undefined,
      hideCited,
    );
    expect(count).toBe(4);
    expect(exported).toEqual(['uv', 'bare', 'hse', 'pbe']);
  });
});
