import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TripletSearch } from '../../../../src/extension/triplet-search-client';
import { toCsv, toJson } from '../../../../src/export/dataset-export';
import { createAssayDatabase, type AssayDatabase } from '../../../../src/store/assay-database';
import { queryTriplets, saveTriplets } from '../../../../src/store/dataset-repository';
import { sortedTripletIds } from '../../../../src/ui/dataset-page/sorted-triplets';
import type { ExportFile, ExportFiles } from '../../../../src/ui/dataset-page/worker-export';
import { serveDatasetWorker, type ServedDatasetWorker, until } from '../../../support/dataset-worker-channel';
import { datasetTriplet } from '../dataset-fixtures';

/** 2,500 rows (three steps of 1,000), two properties, values in no order. */
const rows = Array.from({ length: 2500 }, (_, index) =>
  datasetTriplet({
    id: `row-${String(index).padStart(4, '0')}`,
    mergeKey: `key-${index}`,
    material: index % 3 === 0 ? `TiO${index % 7}` : `GaN${index % 5}`,
    property: index % 2 ? 'tc' : 'band_gap',
    value: { kind: 'number', value: (index * 7919) % 1000 },
    si: { value: { kind: 'number', value: (index * 7919) % 1000 }, unit: 'J' },
    savedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index % 60)).toISOString(),
  }),
);

/** Files kept in memory, with what happened to each. */
function memoryFiles(): { files: ExportFiles; made: Array<{ name: string; bytes: Uint8Array[]; closed: boolean; removed: boolean }> } {
  const made: Array<{ name: string; bytes: Uint8Array[]; closed: boolean; removed: boolean }> = [];
  const files: ExportFiles = async () => {
    const record = { name: `assay-export-test-${made.length}`, bytes: [] as Uint8Array[], closed: false, removed: false };
    made.push(record);
    const file: ExportFile = {
      name: record.name,
      write: (bytes) => void record.bytes.push(bytes),
      close: () => void (record.closed = true),
      remove: async () => void (record.removed = true),
    };
    return file;
  };
  return { files, made };
}

// ignoreBOM: keep the byte-order mark a CSV starts with in the text compared.
const NEWEST = { column: 'saved', direction: 'descending' } as const;

const textOf = (bytes: Uint8Array[]) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(Buffer.concat(bytes));

describe('the export written by the dataset worker', () => {
  let database: AssayDatabase;
  let served: ServedDatasetWorker;
  let client: TripletSearch;
  let memory: ReturnType<typeof memoryFiles>;
  let databaseCount = 0;

  /** Export `format` of every row, newest first (or in `sort`), discarding progress; resolves to how it ended. */
  const exportAll = (format: string, sort: { column: string; direction: 'ascending' | 'descending' } = NEWEST) =>
    client.exportRows!({ format, query: {}, sort, labels: {} }, () => undefined).done;

  const serve = (files: ExportFiles) => {
    served = serveDatasetWorker(database, { files });
    client = served.client;
  };

  beforeEach(async () => {
    databaseCount += 1;
    database = createAssayDatabase(`worker-export-test-${databaseCount}`);
    await saveTriplets(database, rows);
    memory = memoryFiles();
    serve(memory.files);
    await until(() => client.state.status === 'ready', 'the worker to be ready');
  });

  afterEach(async () => {
    served.close();
    await database.delete();
  });

  it('writes exactly the rows the table shows, in its order, with progress, into one closed file', async () => {
    const query = { property: 'band_gap' };
    const sort = { column: 'value', direction: 'descending' } as const;
    const progress: number[] = [];
    const result = await client.exportRows!({ format: 'csv', query, sort, labels: {} }, (written) => progress.push(written)).done;
    const ids = await sortedTripletIds(database, query, sort, (name) => name);
    expect(ids).toHaveLength(1250);
    expect(result).toEqual({ file: memory.made[0]!.name, count: 1250 });
    expect(progress).toEqual([1000, 1250]);
    expect(memory.made[0]).toMatchObject({ closed: true, removed: false });
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(textOf(memory.made[0]!.bytes)).toBe(toCsv(ids.map((id) => byId.get(id)!)));

    // A format written whole, newest first and unfiltered: the whole table.
    const json = await exportAll('json');
    expect(json).toMatchObject({ count: 2500 });
    expect(textOf(memory.made[1]!.bytes)).toBe(toJson((await queryTriplets(database, {})).rows));
  });

  it('stops when asked, removing its file, and refuses a format or a column it does not know', async () => {
    const running = client.exportRows!({ format: 'csv', query: {}, sort: { column: 'material', direction: 'ascending' }, labels: {} }, () =>
      running.stop(),
    );
    expect(await running.done).toEqual({ outcome: 'stopped', message: 'The export was stopped.' });
    expect(memory.made[0]).toMatchObject({ removed: true });

    expect(await exportAll('xlsx')).toEqual({ outcome: 'failed', message: "no export format is called 'xlsx'" });
    expect(await exportAll('csv', { column: 'colour', direction: 'ascending' })).toEqual({
      outcome: 'failed',
      message: "the dataset table has no column 'colour'",
    });
    expect(memory.made).toHaveLength(1);
  });

  it('says the export is unavailable where the worker can make no file, so the page writes it', async () => {
    served.close();
    serve(async () => undefined);
    expect(await exportAll('csv')).toMatchObject({ outcome: 'unavailable' });
  });
});
