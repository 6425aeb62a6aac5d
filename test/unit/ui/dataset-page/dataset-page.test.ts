// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { DatasetTriplet } from '../../../../src/contracts/dataset';
import type { TripletSearchState } from '../../../../src/contracts/messages';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { saveTriplets } from '../../../../src/store/dataset-repository';
import { DatasetPage } from '../../../../src/ui/dataset-page/dataset-page';
import { TripletsSection } from '../../../../src/ui/dataset-page/triplets-section';
import { createImportJobHost } from '../../../../src/extension/import-job-host';
import type { ImportRequester } from '../../../../src/ui/dataset-page/import-control';
import { datasetTriplet } from '../dataset-fixtures';

// Tell React this is a test environment so `act` flushes effects and updates.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const schemas = new Map([['band_gap', { label: 'Band gap', canonicalUnit: 'eV' }]]);
const label = (name: string) => schemas.get(name)?.label ?? name;

/**
 * 50 band gaps: rows 0–19 GaN, 20–34 TiO2, 35–49 ZnO (so "TiO" matches 15), saved one second
 * apart (row 49 newest), each with its own merge key.
 */
function seedRows(): DatasetTriplet[] {
  return Array.from({ length: 50 }, (_, index) =>
    datasetTriplet({
      id: `row-${index}`,
      mergeKey: `key-${index}`,
      material: index < 20 ? `GaN ${index}` : index < 35 ? `TiO2 ${index}` : `ZnO ${index}`,
      value: { kind: 'number', value: 1 + index / 10 },
      savedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    }),
  );
}

let database: AssayDatabase;
let container: HTMLElement;
let root: Root;
let databaseCount = 0;

beforeEach(async () => {
  // jsdom lays nothing out: give the table's scroll box a height so the virtualizer renders rows
  // (800 px / 40 px rows = 20 on screen, plus 10 overscan).
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  databaseCount += 1;
  database = createAssayDatabase(`dataset-page-test-${databaseCount}`);
  await saveTriplets(database, seedRows());
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  act(() => root.unmount());
  container.remove();
  database.close();
  vi.restoreAllMocks();
  window.location.hash = '';
});

const byTestId = (id: string) => container.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const countLine = () => byTestId('triplet-count')?.textContent;
const rowIds = () =>
  [...container.querySelectorAll<HTMLElement>('[data-testid="triplet-table"] tbody tr[data-id]')].map((row) => row.dataset.id);

/** Let IndexedDB, live queries and timers run until `check` holds (or fail after ~3 s). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    if (check()) return;
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
  throw new Error(
    `timed out waiting for ${what}; count line: ${countLine()}; import: ${container.querySelector('.dataset-import')?.textContent}`,
  );
}

/** Set an input's value the way a user's typing does, so React's onChange fires. */
function type(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/**
 * The import host the offscreen document runs (import-job-host.ts), called directly instead of
 * through the background, with 1 000-row chunks (so 1 200 rows are two chunks).
 */
function requestImport(): ImportRequester {
  const host = createImportJobHost({ database, chunkSize: 1000 });
  return (request) => host(request);
}

function renderSection(undoMs?: number): void {
  act(() =>
    root.render(
      createElement(TripletsSection, {
        database,
        schemas,
        label,
        debounceMs: 0,
        requestImport: requestImport(),
        ...(undoMs !== undefined && { undoMs }),
      }),
    ),
  );
}

/** A file as the file input gives it: Node's Blob (which fake-indexeddb can store, as a browser stores a File) with a name. */
function chosenFile(text: string, name: string): File {
  return Object.assign(new NodeBlob([text]), { name }) as unknown as File;
}

describe('the triplets section', () => {
  it('shows a virtualized window of the newest rows and narrows the count by material prefix', async () => {
    renderSection();
    await until(() => countLine() === '50 of 50 triplets', 'all 50 rows');
    const table = byTestId('triplet-table')!;
    expect(table.getAttribute('aria-rowcount')).toBe('51'); // 50 rows + the header row
    // 20 rows fit the 800 px box, 10 more are overscan: 30 of 50 in the DOM, newest (row-49) first.
    expect(rowIds()).toHaveLength(30);
    expect(rowIds()[0]).toBe('row-49');
    expect(table.querySelector('tr[data-id="row-49"]')?.getAttribute('aria-rowindex')).toBe('2');

    type(byTestId('filter-material') as HTMLInputElement, 'tio');
    await until(() => countLine() === '15 of 50 triplets', 'the TiO2 rows');
    // Rows 20–34, newest first.
    expect(rowIds()).toEqual(Array.from({ length: 15 }, (_, index) => `row-${34 - index}`));

    type(byTestId('filter-material') as HTMLInputElement, 'Fe');
    await until(() => countLine() === '0 of 50 triplets', 'no rows');
    expect(byTestId('triplets-empty')?.textContent).toBe('No triplets match these filters.');
    expect(byTestId('triplet-table')).toBeNull();
  });

  it('shows each value in the display unit of its property beside the value as printed, and a dash where it does not convert', async () => {
    await saveTriplets(database, [
      datasetTriplet({
        id: 'mev',
        mergeKey: 'mev',
        material: 'MoS2',
        savedAt: '2026-02-01T00:00:00.000Z',
        value: { kind: 'number', value: 850 },
        valueText: '850',
        unit: 'meV',
      }),
      datasetTriplet({
        id: 'kelvin',
        mergeKey: 'kelvin',
        material: 'Nb',
        savedAt: '2026-02-01T00:00:01.000Z',
        value: { kind: 'number', value: 9.2 },
        unit: 'K',
      }),
    ]);
    act(() => root.render(createElement(DatasetPage, { database, debounceMs: 0, requestImport: requestImport() })));
    await until(() => countLine() === '52 of 52 triplets', 'all 52 rows');
    const headings = [...container.querySelectorAll('[data-testid="triplet-table"] thead th')].map((cell) => cell.textContent);
    expect(headings).toContain('Value (display unit)');
    expect(headings).not.toContain('SI value');
    const cells = (id: string) => [...container.querySelectorAll(`tr[data-id="${id}"] > *`)].map((cell) => cell.textContent);
    expect(cells('mev')).toEqual(expect.arrayContaining(['850', 'meV', '0.850 eV']));
    expect(container.querySelector('tr[data-id="row-49"] [data-testid="display-value"]')?.textContent).toBe('5.9 eV');
    // A band gap in kelvin is a misreading, not a number to convert.
    expect(container.querySelector('tr[data-id="kelvin"] [data-testid="display-value"]')?.textContent).toBe('—');
  });

  it('loads the next 200-row page when the reader scrolls past the first', async () => {
    // 250 more rows, older than the seed (saved in 2025): 300 in all, newest first.
    const older = Array.from({ length: 250 }, (_, index) =>
      datasetTriplet({
        id: `old-${index}`,
        mergeKey: `old-key-${index}`,
        material: `Si ${index}`,
        savedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
      }),
    );
    await saveTriplets(database, older);
    renderSection();
    await until(() => countLine() === '300 of 300 triplets', 'all 300 rows');
    const scrollBox = container.querySelector<HTMLElement>('.triplet-scroll')!;
    // Scroll to row 250 (250 × 40 px): rows 240–279 are rendered (10 overscan either side), all on page 1 (rows 200–399).
    Object.defineProperty(scrollBox, 'scrollTop', { value: 250 * 40, configurable: true });
    act(() => {
      scrollBox.dispatchEvent(new Event('scroll'));
    });
    // Row index i is the (i + 1)-th newest: index 250 is the 200th-newest older row = old-49 (old-249 is index 50).
    await until(() => rowIds().includes('old-49'), 'page 1');
    const rendered = [...container.querySelectorAll<HTMLElement>('[data-testid="triplet-table"] tbody tr[aria-rowindex]')];
    expect(rendered[0]!.getAttribute('aria-rowindex')).toBe('242'); // index 240 + 2
    expect(container.querySelector('tr[data-id="old-49"]')?.getAttribute('aria-rowindex')).toBe('252');
    expect(rowIds()).not.toContain('row-49');
  });

  it('deletes the selected rows and puts them back on Undo', async () => {
    renderSection();
    await until(() => rowIds().includes('row-48'), 'the first rows');
    for (const id of ['row-49', 'row-48']) {
      act(() => container.querySelector<HTMLInputElement>(`tr[data-id="${id}"] input[type="checkbox"]`)!.click());
    }
    expect(byTestId('delete-selected')?.textContent).toBe('Delete selected (2)');

    act(() => byTestId('delete-selected')!.click());
    await until(() => countLine() === '48 of 48 triplets', 'the delete');
    expect(rowIds()).not.toContain('row-49');
    expect(rowIds()).not.toContain('row-48');
    expect(byTestId('delete-status')?.textContent).toBe('Deleted 2 triplets. Undo');

    act(() => byTestId('undo-delete')!.click());
    await until(() => countLine() === '50 of 50 triplets', 'the undo');
    expect(rowIds().slice(0, 2)).toEqual(['row-49', 'row-48']);
    expect(byTestId('delete-status')?.textContent).toBe('Restored 2 triplets.');
    expect(byTestId('undo-delete')).toBeNull();
  });

  it('withdraws the undo offer after its time', async () => {
    renderSection(100);
    await until(() => rowIds().includes('row-0') || rowIds().length === 30, 'the first rows');
    act(() => container.querySelector<HTMLInputElement>('tr[data-id="row-49"] input[type="checkbox"]')!.click());
    act(() => byTestId('delete-selected')!.click());
    await until(() => byTestId('undo-delete') !== null, 'the undo offer');
    await until(() => byTestId('undo-delete') === null, 'the offer to go');
    expect(countLine()).toBe('49 of 49 triplets');
  });

  it('imports a JSONL file: adds new rows under new ids, merges a repeat, keeps a saved row a hostile line names, lists refused lines', async () => {
    renderSection();
    await until(() => countLine() === '50 of 50 triplets', 'all 50 rows');
    const row3Before = await database.triplets.get('row-3');
    const lines = [
      JSON.stringify(datasetTriplet({ id: 'new-1', material: 'AlN' })),
      JSON.stringify(datasetTriplet({ id: 'new-2', material: 'InN' })),
      // The fact of line 1 again under another id: merges with it.
      JSON.stringify(datasetTriplet({ id: 'copy-of-1', material: 'AlN', votes: ['other'] })),
      // Claims row-3's id and merge key for another fact: added as its own row, row-3 untouched.
      JSON.stringify(datasetTriplet({ id: 'row-3', mergeKey: 'key-3', material: 'InP', evidence: undefined })),
      JSON.stringify({ id: 'broken' }),
    ];
    const file = chosenFile(lines.join('\n'), 'mine.jsonl');
    const input = byTestId('import-file') as HTMLInputElement;
    expect(input.accept).toBe('.json,.jsonl');
    // The page asks its navigator.storage for persistent storage when rows come (issue 29, item 8).
    const storage = { persisted: vi.fn(async () => false), persist: vi.fn(async () => true) };
    Object.defineProperty(navigator, 'storage', { value: storage, configurable: true });
    onTestFinished(() => void Reflect.deleteProperty(navigator, 'storage'));
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    act(() => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await until(() => byTestId('import-summary') !== null, 'the import summary');
    expect(storage.persist).toHaveBeenCalledTimes(1);
    const summary = byTestId('import-summary')!;
    expect(summary.querySelector('p')?.textContent).toBe('mine.jsonl: Added 3, merged 1; 1 problem');
    expect([...summary.querySelectorAll('[data-testid="import-report"]')].map((sentence) => sentence.textContent)).toEqual([
      'Added 3: lines 1, 2 and 4.',
      'Merged 1 as a repeat of an earlier line: line 3 (same fact as line 1).',
    ]);
    const problems = [...summary.querySelectorAll('[data-testid="import-refused"] li')].map((item) => item.textContent);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^line 5: /);
    // Lines 1–3 say verified over a quote about GaN (the fixture's): kept, for review, with the reason (issue 27, item 10).
    const demoted = [...summary.querySelectorAll('[data-testid="import-demoted"] li')].map((item) => item.textContent);
    expect(demoted).toEqual([
      'line 1: kept as needs_review: imported as verified, but its quote names GaN, not AlN',
      'line 2: kept as needs_review: imported as verified, but its quote names GaN, not InN',
      'line 3: kept as needs_review: imported as verified, but its quote names GaN, not AlN',
    ]);
    await until(() => countLine() === '53 of 53 triplets', 'the imported rows');
    expect(await database.triplets.get('row-3')).toEqual(row3Before);
    // The imports are the oldest rows (savedAt 2026-01-01T00:00:00Z), below the rendered window: filter to reach one.
    type(byTestId('filter-material') as HTMLInputElement, 'AlN');
    await until(() => countLine() === '1 of 53 triplets', 'the AlN row');
    const [alnId] = rowIds();
    expect(alnId).not.toBe('new-1');
    const aln = await database.triplets.get(alnId!);
    expect(aln?.imported).toEqual({ file: 'mine.jsonl', at: expect.any(String), sourceId: 'new-1' });
    expect(aln?.votes).toEqual(['moa', 'gd']);
    expect(aln?.status).toBe('needs_review');
    expect(container.querySelector(`tr[data-id="${alnId}"] [data-testid="triplet-imported"]`)?.textContent).toMatch(
      /^ imported \(Imported from mine\.jsonl on \d{4}-\d{2}-\d{2}\)$/,
    );
  });

  it('says what was saved when a write fails in the middle of an import, not only the error', async () => {
    renderSection();
    await until(() => countLine() === '50 of 50 triplets', 'all 50 rows');
    // 1 200 rows: the first chunk of 1 000 commits, the second fails as a full disk would.
    const text = Array.from({ length: 1200 }, (_, index) =>
      JSON.stringify(
        datasetTriplet({
          id: `bulk-${index}`,
          material: `AlN ${index}`,
          // Its own quote: a verified row whose quote names another material is checked further and kept for review.
          evidence: { quote: { type: 'TextQuoteSelector', exact: `AlN ${index} has a band gap of 3.4 eV`, prefix: '', suffix: '' } },
        }),
      ),
    ).join('\n');
    // The second chunk's write fails, whichever bulk write the import uses.
    const table = database.triplets;
    const original = { bulkAdd: table.bulkAdd, bulkPut: table.bulkPut };
    let writes = 0;
    const failSecond = (name: 'bulkAdd' | 'bulkPut') =>
      function (this: typeof table, ...args: unknown[]) {
        writes += 1;
        if (writes === 2) return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
        return (original[name] as (...args: unknown[]) => Promise<unknown>).apply(this, args);
      } as never;
    vi.spyOn(table, 'bulkAdd').mockImplementation(failSecond('bulkAdd'));
    vi.spyOn(table, 'bulkPut').mockImplementation(failSecond('bulkPut'));
    const file = chosenFile(text, 'big.jsonl');
    const input = byTestId('import-file') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    act(() => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await until(() => byTestId('import-summary') !== null, 'the import summary');
    const summary = byTestId('import-summary')!;
    expect(summary.getAttribute('role')).toBe('alert');
    expect([...summary.querySelectorAll('[data-testid="import-report"]')].map((sentence) => sentence.textContent)).toEqual([
      'Added 1000: lines 1–1000.',
      'The import stopped at line 1001 because saving failed: QuotaExceededError: The quota has been exceeded.',
      'Saved before the failure: 1000 rows (1000 added, 0 merged); they stay saved.',
      'Not saved: lines 1001–1200. Import the file again to add them; the saved ones merge instead of doubling.',
    ]);
    await until(() => countLine() === '1050 of 1050 triplets', 'the saved rows');
  });

  it('plots the chosen property with a caption of its statistics', async () => {
    // jsdom has no canvas; Chart.js then gives up quietly (the caption is what is tested).
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderSection();
    await until(() => countLine() === '50 of 50 triplets', 'all 50 rows');
    expect(byTestId('property-plot')?.textContent).toBe('Choose a property above to plot its values per material.');
    const select = byTestId('filter-property') as HTMLSelectElement;
    await until(() => select.options.length === 2, 'the property list');
    act(() => {
      select.value = 'band_gap';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    type(byTestId('filter-material') as HTMLInputElement, 'ZnO');
    // ZnO rows 35–49 have values 1 + index / 10: 4.5 … 5.9, median row 42 → 5.2; 15 materials (each named apart).
    await until(() => byTestId('property-plot')?.querySelector('figcaption')?.textContent?.includes('15 values') === true, 'the plot');
    expect(byTestId('property-plot')!.querySelector('figcaption')!.textContent).toBe(
      'Band gap: 15 values from 15 materials, in eV: min 4.5, median 5.2, max 5.9 eV.',
    );
    expect(byTestId('property-plot')!.querySelector('canvas')?.getAttribute('aria-hidden')).toBe('true');
    consoleError.mockRestore();
  });
});

describe('the triplets section with a search index', () => {
  /** A search index whose state and answer the test sets; `ids` answers only when ready. */
  function scriptedSearch() {
    const listeners = new Set<() => void>();
    const search = {
      state: { status: 'building', done: 20, total: 50, generation: 0 } as TripletSearchState,
      answer: new Set<string>(),
      asked: [] as string[],
      ids(text: string) {
        search.asked.push(text);
        return Promise.resolve(search.state.status === 'ready' ? search.answer : undefined);
      },
      subscribe(listener: () => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close: () => undefined,
      set(state: TripletSearchState, answer: string[]) {
        search.state = state;
        search.answer = new Set(answer);
        act(() => listeners.forEach((listener) => listener()));
      },
    };
    return search;
  }

  it('says the index is building, scans meanwhile, then shows the index’s answer and follows its generations', async () => {
    const search = scriptedSearch();
    act(() => root.render(createElement(TripletsSection, { database, schemas, label, debounceMs: 0, search })));
    expect(byTestId('search-index-status')?.textContent).toBe('Indexing quotes for search: 20 of 50');
    expect(byTestId('filter-search')?.getAttribute('aria-describedby')).toBe(byTestId('search-index-status')?.id);

    type(byTestId('filter-search') as HTMLInputElement, 'TiO2 34');
    // Not built: the substring scan answers ("TiO2 34" is row 34's material).
    await until(() => countLine() === '1 of 50 triplets', 'the scan');
    expect(rowIds()).toEqual(['row-34']);

    // The index answers ids newest first.
    search.set({ status: 'ready', rows: 50, generation: 1 }, ['row-7', 'row-3']);
    await until(() => countLine() === '2 of 50 triplets', 'the index’s answer');
    expect(byTestId('search-index-status')?.textContent).toBe('');
    expect(rowIds()).toEqual(['row-7', 'row-3']);
    expect(search.asked.at(-1)).toBe('TiO2 34');

    // A new generation (a row written elsewhere was indexed): the table asks again.
    search.set({ status: 'ready', rows: 50, generation: 2 }, ['row-9', 'row-7', 'row-3']);
    await until(() => countLine() === '3 of 50 triplets', 'the new generation’s answer');
    expect(rowIds()).toEqual(['row-9', 'row-7', 'row-3']);
  });
});

describe('the dataset page', () => {
  it('opens the paper view from #paper=<key> with the citation and the model’s original of an edit', async () => {
    const edited = datasetTriplet({
      id: 'edited',
      mergeKey: 'edited-key',
      paper: { ...datasetTriplet().paper, key: 'doi:10.1000/edited', doi: '10.1000/edited', title: 'Edited paper' },
      material: 'GaN',
      value: { kind: 'number', value: 3.5 },
      review: { decision: 'edited', original: { material: 'GaN', value: { kind: 'number', value: 3.2 }, unit: 'eV' } },
    });
    await saveTriplets(database, [edited]);
    window.location.hash = '#paper=doi%3A10.1000%2Fedited';
    act(() => root.render(createElement(DatasetPage, { database, view: window, debounceMs: 0 })));
    await until(() => container.querySelector('[data-testid="paper-view"] li') !== null, 'the paper view');
    const view = byTestId('paper-view')!;
    expect(view.querySelector('h2')?.textContent).toBe('Edited paper');
    expect(byTestId('paper-citation')?.textContent).toBe(
      'Nakamura S, Mukai T. Edited paper. Jpn. J. Appl. Phys. (1994). DOI: 10.1000/edited',
    );
    expect(view.querySelector('.paper-triplet-edit')?.textContent).toBe('Model said: GaN, 3.2 eV · reader’s value: GaN, 3.5 eV');
    expect(view.querySelector('blockquote')?.textContent).toBe('GaN has a band gap of 3.4 eV');
    // The papers section is there too, empty (no paper was captured in this test).
    await until(() => byTestId('dataset-empty') !== null, 'the papers section');

    act(() => (view.querySelector('.paper-view-close') as HTMLButtonElement).click());
    expect(byTestId('paper-view')).toBeNull();
    expect(window.location.hash).toBe('');
  });
});
