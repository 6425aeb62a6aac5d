import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { toJsonl } from '../../../src/export/dataset-export';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { saveTriplets } from '../../../src/store/dataset-repository';
import { withOwnKeys } from '../../../src/store/dataset-triplet';
import { createImportJob, runImportJob } from '../../../src/export/import-job';
import type { ImportReport } from '../../../src/export/import-triplets';
import { importFileInMemory, memoryDataset, type MemoryDataset } from '../../../src/export/memory-dataset';
import { bandGapRow, datasetRows, tcRangeRow, YBCO_PAPER } from './dataset-fixtures';

let database: AssayDatabase;
let databaseCount = 0;

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-import-test-${databaseCount}`);
});

afterEach(async () => {
  await database.delete();
});

const NOW = new Date('2026-11-25T10:00:00.000Z');

/** Ids "new-1", "new-2", … in the order rows are added. */
function counter(): () => string {
  let next = 0;
  return () => `new-${(next += 1)}`;
}

const lines = (...rows: unknown[]) => rows.map((row) => JSON.stringify(row)).join('\n');

/**
 * One way of importing a file, so every test below runs through both: the extension's import
 * job into IndexedDB (`runImportJob` → `saveImportChunk`) and `assay import`'s dataset in memory
 * (`importFileInMemory`), which start from the same saved rows.
 */
interface ImportPath {
  /** Save `rows` as the reader's own (`saveTriplets`), before the import. */
  save(rows: readonly DatasetTriplet[]): Promise<void>;
  /** Import `text` as `fileName` (default "colleague.jsonl") at NOW with ids from `counter()`; resolves to the report. */
  importText(text: string, options?: { chunkSize?: number; fileName?: string }): Promise<ImportReport>;
  /** Every row held afterwards, by id. */
  rows(): Promise<DatasetTriplet[]>;
  /** Forget every row. */
  clear(): Promise<void>;
}

const byId = (rows: DatasetTriplet[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

let jobCount = 0;
const indexedDbPath: ImportPath = {
  save: async (rows) => void (await saveTriplets(database, rows)),
  importText: async (text, { chunkSize = 5000, fileName = 'colleague.jsonl' } = {}) => {
    jobCount += 1;
    const id = await createImportJob(database, new NodeBlob([text]) as unknown as Blob, fileName, NOW, () => `job-${jobCount}`);
    const job = await runImportJob(database, id, { now: () => NOW, newId: counter(), chunkSize });
    if (!job?.report) throw new Error(`the import ended without a report: ${job?.fileProblem ?? job?.message}`);
    return job.report;
  },
  rows: async () => byId(await database.triplets.toArray()),
  clear: () => database.triplets.clear(),
};

let dataset: MemoryDataset = memoryDataset();
const memoryPath: ImportPath = {
  save: async (rows) => {
    await saveTriplets(database, rows);
    dataset = memoryDataset(await database.triplets.toArray());
  },
  importText: async (text, { chunkSize = 5000, fileName = 'colleague.jsonl' } = {}) => {
    const result = await importFileInMemory(dataset, new NodeBlob([text]) as unknown as Blob, {
      fileName,
      now: NOW,
      newId: counter(),
      chunkSize,
    });
    if ('fileProblem' in result) throw new Error(result.fileProblem);
    return result.report;
  },
  rows: async () => byId(dataset.rows),
  clear: async () => {
    await database.triplets.clear();
    dataset = memoryDataset();
  },
};

beforeEach(() => {
  dataset = memoryDataset();
});

describe.each([
  ['the import job (IndexedDB)', indexedDbPath],
  ['a dataset in memory (assay import)', memoryPath],
])('importing a file through %s', (_name, path) => {
  it('adds a row that claims a saved fact’s merge key as its own fact, leaving the saved row and its quote alone', async () => {
    await path.save([bandGapRow]);
    const { evidence: _evidence, ...noQuote } = bandGapRow;
    const hostile = {
      ...noQuote,
      id: 'hostile',
      material: 'PbI2',
      value: { kind: 'number', value: 9.9 },
      valueText: '9.9',
      paper: YBCO_PAPER,
      review: { decision: 'accepted', at: '2026-11-24T00:00:00.000Z' },
    };
    const report = await path.importText(lines(hostile));
    expect(report.added).toEqual(['line 1']);
    expect((await path.rows()).find((row) => row.id === bandGapRow.id)).toEqual(bandGapRow);
    const added = (await path.rows()).find((row) => row.id !== bandGapRow.id)!;
    expect(added).toMatchObject({ material: 'PbI2', value: { kind: 'number', value: 9.9 }, paper: YBCO_PAPER });
    expect(added.evidence).toBeUndefined();
    expect(added.mergeKey).not.toBe(bandGapRow.mergeKey);
    expect(added.mergeKey).toBe(withOwnKeys(added).mergeKey);
  });

  it('keeps two rows that share an id as two rows, and never takes a saved row’s id', async () => {
    await path.save([bandGapRow]);
    const report = await path.importText(
      lines({ ...tcRangeRow, id: bandGapRow.id }, { ...tcRangeRow, id: bandGapRow.id, material: 'LaFeAsO' }),
    );
    expect(report.added).toEqual(['line 1', 'line 2']);
    const rows = await path.rows();
    expect(rows).toHaveLength(3);
    expect(rows.find((row) => row.id === bandGapRow.id)).toEqual(bandGapRow);
    expect(
      ['new-1', 'new-2'].map((id) => rows.find((row) => row.id === id)).map((row) => [row?.material, row?.imported?.sourceId]),
    ).toEqual([
      ['YBa2Cu3O7-δ', bandGapRow.id],
      ['LaFeAsO', bandGapRow.id],
    ]);
  });

  // Conditions are part of the fact (issue 26): a file's row under other conditions is another
  // row (test/unit/export/conditions-import.test.ts), so the claim here states the same ones.
  it('merges a saved fact by leaving it unchanged: a newer review or another status in the file do not win', async () => {
    const pending = { ...tcRangeRow, review: { decision: 'pending' as const } };
    await path.save([pending]);
    const claim = {
      ...pending,
      id: 'x',
      status: 'rejected',
      review: { decision: 'rejected', at: '2026-11-24T00:00:00.000Z' },
    };
    const report = await path.importText(lines(claim, { ...claim, id: 'y' }));
    expect(report).toMatchObject({ added: [], merged: [{ where: 'line 1' }, { where: 'line 2' }] });
    expect(await path.rows()).toEqual([pending]);
  });

  it('marks added rows with the file, the time and their id in the file, and recomputes their SI value and merge key', async () => {
    const wrongSi = { ...bandGapRow, si: { value: { kind: 'number', value: 1 }, unit: 'K' }, mergeKey: tcRangeRow.mergeKey };
    await path.importText(lines(wrongSi));
    const [row] = await path.rows();
    expect(row).toEqual({
      ...bandGapRow,
      id: 'new-1',
      imported: { file: 'colleague.jsonl', at: NOW.toISOString(), sourceId: bandGapRow.id },
    });
  });

  it('reports added lines, merges into saved rows and repeats of earlier lines, in file order', async () => {
    await path.save([bandGapRow]);
    const text = toJsonl([tcRangeRow, bandGapRow, { ...tcRangeRow, id: 'again' }, datasetRows[3]!]);
    const report = await path.importText(text, { chunkSize: 2 });
    expect(report).toEqual({
      fileName: 'colleague.jsonl',
      at: NOW.toISOString(),
      added: ['line 1', 'line 4'],
      merged: [{ where: 'line 2' }, { where: 'line 3', repeats: 'line 1' }],
    });
  });

  it('never changes or loses a saved row, and adds each fact once with the file’s own fields (property)', async () => {
    const materials = ['TiO2', 'GaN', 'ZnO'];
    const papers = [bandGapRow.paper, YBCO_PAPER];
    const fact = fc.record({
      material: fc.constantFrom(...materials),
      value: fc.integer({ min: 1, max: 3 }),
      paper: fc.constantFrom(0, 1),
      quote: fc.option(fc.constantFrom('quote A', 'quote B'), { nil: undefined }),
      decision: fc.constantFrom('pending', 'accepted', 'rejected'),
      id: fc.constantFrom('a', 'b', bandGapRow.id, 'c'),
      // A hostile line may carry any saved row's merge key.
      claimedKey: fc.option(fc.constantFrom(0, 1, 2), { nil: undefined }),
    });
    type Fact = typeof fact extends fc.Arbitrary<infer Drawn> ? Drawn : never;
    const build = (drawn: Fact, index: number): DatasetTriplet => {
      const { evidence: _evidence, ...base } = bandGapRow;
      return withOwnKeys({
        ...base,
        id: `${drawn.id}`,
        material: drawn.material,
        value: { kind: 'number', value: drawn.value },
        valueText: String(drawn.value),
        paper: papers[drawn.paper]!,
        ...(drawn.quote !== undefined && {
          // The quote prints the row's fact: a verified row whose own quote contradicts it is imported for review.
          evidence: {
            quote: {
              type: 'TextQuoteSelector',
              exact: `${drawn.quote} ${index}: ${drawn.material}, ${drawn.value} eV`,
              prefix: '',
              suffix: '',
            },
          },
        }),
        review: drawn.decision === 'pending' ? { decision: 'pending' } : { decision: drawn.decision, at: '2026-11-20T00:00:00.000Z' },
      } as DatasetTriplet);
    };
    await fc.assert(
      fc.asyncProperty(fc.array(fact, { maxLength: 3 }), fc.array(fact, { minLength: 1, maxLength: 8 }), async (storedFacts, fileFacts) => {
        await path.clear();
        const stored = storedFacts.map((drawn, index) => ({ ...build(drawn, index), id: `stored-${index}` }));
        await path.save(stored);
        const before = await path.rows();
        const fileRows = fileFacts.map((drawn, index) => {
          const row = build(drawn, 100 + index);
          const claimed = drawn.claimedKey === undefined ? undefined : before[drawn.claimedKey];
          return claimed ? { ...row, mergeKey: claimed.mergeKey } : row;
        });
        const report = await path.importText(toJsonl(fileRows), { fileName: 'f.jsonl', chunkSize: 3 });
        const after = await path.rows();
        // Every saved row is still there, unchanged.
        for (const row of before) expect(after.find((candidate) => candidate.id === row.id)).toEqual(row);
        expect(report.added.length + report.merged.length).toBe(fileRows.length);
        expect(after).toHaveLength(before.length + report.added.length);
        // One row per fact, each under its own merge key.
        expect(new Set(after.map((row) => row.mergeKey)).size).toBe(after.length);
        // Ids come from `newId` only (a line whose fact turns out to be saved may use one up unused).
        const newIds = after.filter((row) => !before.some((saved) => saved.id === row.id)).map((row) => row.id);
        expect(newIds.every((id) => /^new-\d+$/.test(id))).toBe(true);
        report.added.forEach((where) => {
          const line = fileRows[Number(where.split(' ')[1]) - 1]!;
          const row = after.find((candidate) => candidate.mergeKey === withOwnKeys(line).mergeKey)!;
          const { imported, ...fields } = row;
          // The added row is the line's own row (own evidence, own review), under a new id.
          expect(newIds).toContain(row.id);
          expect(fields).toEqual({ ...withOwnKeys(line), id: row.id });
          expect(imported).toEqual({ file: 'f.jsonl', at: NOW.toISOString(), sourceId: line.id });
        });
      }),
      { numRuns: 40 },
    );
  });
});

it('the import job refuses a chunk size that is not a positive integer before writing', async () => {
  const id = await createImportJob(database, new NodeBlob([toJsonl([bandGapRow])]) as unknown as Blob, 'f.jsonl', NOW, () => 'job-0');
  await expect(runImportJob(database, id, { now: () => NOW, chunkSize: 0 })).rejects.toThrow(RangeError);
  expect(await database.triplets.count()).toBe(0);
});
