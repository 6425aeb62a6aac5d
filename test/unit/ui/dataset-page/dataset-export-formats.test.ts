// @vitest-environment jsdom
/**
 * The dataset page's export buttons come from the export-format table (src/export/export-formats.ts):
 * a format added there is a button that downloads that format's file, with nothing else changed.
 */
import 'fake-indexeddb/auto';
import { act, createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { saveTriplets } from '../../../../src/store/dataset-repository';
import { DatasetIo } from '../../../../src/ui/dataset-page/dataset-io';
import { exportChoices, exportFileName, exportMediaType } from '../../../../src/ui/dataset-page/dataset-view-model';
import { FAKE_EXPORT_FORMAT, withFakeExportFormat } from '../../export/fake-export-format';
import { datasetTriplet } from '../dataset-fixtures';
import { reactRootPerTest } from '../react-root';

const view = reactRootPerTest();

/** A Blob's text through FileReader (jsdom's Blob has no text()). */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}
let database: AssayDatabase | undefined;

afterEach(() => {
  database?.close();
  database = undefined;
  vi.restoreAllMocks();
});

describe('export formats on the dataset page', () => {
  it('offers one button per format of the table, a format added there included, with its label and test id', async () => {
    expect(exportChoices().map((choice) => [choice.testId, choice.text])).toEqual([
      ['export-csv', 'CSV'],
      ['export-json', 'JSON'],
      ['export-jsonl', 'JSONL'],
      ['export-annotations', 'Web Annotations'],
      ['export-bibtex', 'BibTeX'],
      ['export-csl', 'CSL-JSON'],
    ]);
    await withFakeExportFormat(() => {
      expect(exportChoices().at(-1)).toEqual({ format: FAKE_EXPORT_FORMAT, testId: 'export-fake', text: 'Fake list' });
      expect(exportFileName('fake', new Date(2026, 10, 22))).toBe('assay-dataset-2026-11-22-fake.txt');
      expect(exportMediaType('fake')).toBe('text/plain');
    });
    expect(exportChoices().map((choice) => choice.testId)).not.toContain('export-fake');
    expect(() => exportFileName('fake', new Date())).toThrow(/no export format is called 'fake'/);
  });

  it('downloads the shown rows through the added format’s writer when its button is pressed', async () => {
    database = createAssayDatabase(`dataset-export-formats-${Date.now()}`);
    const older = datasetTriplet({ id: 'a', mergeKey: 'a', material: 'GaN', savedAt: '2026-01-01T00:00:00.000Z' });
    const newer = datasetTriplet({ id: 'b', mergeKey: 'b', material: 'ZnO', savedAt: '2026-01-02T00:00:00.000Z' });
    await saveTriplets(database, [older, newer]);
    const blobs: Blob[] = [];
    // jsdom has no object URLs: keep the Blob the page would download.
    URL.createObjectURL = vi.fn((blob: Blob) => (blobs.push(blob), 'blob:test'));
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);

    await withFakeExportFormat(async () => {
      const db = database!;
      act(() => view.root.render(createElement(DatasetIo, { database: db, query: {}, now: () => new Date(2026, 10, 22), shownCount: 2 })));
      const button = view.container.querySelector<HTMLButtonElement>('[data-testid="export-fake"]');
      expect(button?.textContent).toBe('Fake list');
      expect(button?.getAttribute('aria-label')).toBe('Export 2 shown triplets as Fake list');
      await act(async () => button!.click());
      const status = () => view.container.querySelector('.dataset-export [role="status"]')?.textContent;
      for (let attempt = 0; attempt < 100 && !status()?.startsWith('Exported'); attempt += 1) {
        await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
      }
      expect(status()).toBe('Exported 2 triplets to assay-dataset-2026-11-22-fake.txt.');
    });
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(blobs).toHaveLength(1);
    expect(blobs[0]!.type).toBe('text/plain;charset=utf-8');
    // Newest first, as the table shows them, through the fake writer.
    expect(await blobText(blobs[0]!)).toBe('ZnO\tband_gap\nGaN\tband_gap\n');
  });

  it('shows the rows written as the export goes, and Stop ends it with no file and says so', async () => {
    database = createAssayDatabase(`dataset-export-stop-${Date.now()}`);
    const rows = Array.from({ length: 6000 }, (_, index) =>
      datasetTriplet({ id: `t${index}`, mergeKey: `k${index}`, savedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString() }),
    );
    await saveTriplets(database, rows);
    URL.createObjectURL = vi.fn(() => 'blob:test');
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const db = database;
    act(() => view.root.render(createElement(DatasetIo, { database: db, query: {}, now: () => new Date(2026, 10, 22), shownCount: 6000 })));
    const status = () => view.container.querySelector('.dataset-export [role="status"]')?.textContent ?? '';
    await act(async () => view.container.querySelector<HTMLButtonElement>('[data-testid="export-csv"]')!.click());
    // Progress in rows of the shown count, chunk by chunk, then Stop.
    for (let attempt = 0; attempt < 500 && !status().startsWith('Exporting…'); attempt += 1) {
      await act(() => new Promise((resolve) => setTimeout(resolve, 1)));
    }
    expect(status()).toMatch(/^Exporting… [\d,]+ of 6,000 rows$/);
    expect(view.container.querySelector<HTMLButtonElement>('[data-testid="export-csv"]')!.disabled).toBe(true);
    await act(async () => view.container.querySelector<HTMLButtonElement>('[data-testid="export-stop"]')!.click());
    for (let attempt = 0; attempt < 500 && status().startsWith('Exporting…'); attempt += 1) {
      await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
    }
    expect(status()).toBe('Export stopped; no file was saved.');
    expect(clicked).not.toHaveBeenCalled();
    expect(view.container.querySelector('[data-testid="export-stop"]')).toBeNull();
    expect(view.container.querySelector<HTMLButtonElement>('[data-testid="export-csv"]')!.disabled).toBe(false);
  });
});
