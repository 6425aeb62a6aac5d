import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { toJsonl } from '../../../src/export/dataset-export';
import { readAssayImport } from '../../../src/export/dataset-import';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { countTriplets, saveTriplets } from '../../../src/store/dataset-repository';
import { withOwnKeys } from '../../../src/store/dataset-triplet';
import { importTriplets, type ImportReport } from '../../../src/store/import-triplets';
import { bandGapRow, datasetRows, tcRangeRow, YBCO_PAPER } from '../export/dataset-fixtures';

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

/** What the dataset page does with a file: read it, then import the rows it kept. */
async function importText(text: string, options: { chunkSize?: number } = {}): Promise<ImportReport> {
  return importTriplets(database, readAssayImport(text, NOW).rows, { fileName: 'colleague.jsonl', now: NOW, newId: counter(), ...options });
}

const lines = (...rows: unknown[]) => rows.map((row) => JSON.stringify(row)).join('\n');

describe('importTriplets', () => {
  it('adds a row that claims a saved fact’s merge key as its own fact, leaving the saved row and its quote alone', async () => {
    await saveTriplets(database, [bandGapRow]);
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
    const report = await importText(lines(hostile));
    expect(report.added).toEqual(['line 1']);
    expect(await database.triplets.get(bandGapRow.id)).toEqual(bandGapRow);
    const added = (await database.triplets.toArray()).find((row) => row.id !== bandGapRow.id)!;
    expect(added).toMatchObject({ material: 'PbI2', value: { kind: 'number', value: 9.9 }, paper: YBCO_PAPER });
    expect(added.evidence).toBeUndefined();
    expect(added.mergeKey).not.toBe(bandGapRow.mergeKey);
    expect(added.mergeKey).toBe(withOwnKeys(added).mergeKey);
  });

  it('keeps two rows that share an id as two rows, and never takes a saved row’s id', async () => {
    await saveTriplets(database, [bandGapRow]);
    const report = await importText(lines({ ...tcRangeRow, id: bandGapRow.id }, { ...tcRangeRow, id: bandGapRow.id, material: 'LaFeAsO' }));
    expect(report.added).toEqual(['line 1', 'line 2']);
    expect(await countTriplets(database)).toBe(3);
    expect(await database.triplets.get(bandGapRow.id)).toEqual(bandGapRow);
    expect((await database.triplets.bulkGet(['new-1', 'new-2'])).map((row) => [row?.material, row?.imported?.sourceId])).toEqual([
      ['YBa2Cu3O7-δ', bandGapRow.id],
      ['LaFeAsO', bandGapRow.id],
    ]);
  });

  it('merges a saved fact by leaving it unchanged: a newer review, another status or conditions in the file do not win', async () => {
    const pending = { ...tcRangeRow, review: { decision: 'pending' as const } };
    await saveTriplets(database, [pending]);
    const claim = {
      ...pending,
      id: 'x',
      status: 'rejected',
      conditions: 'planted',
      review: { decision: 'rejected', at: '2026-11-24T00:00:00.000Z' },
    };
    const report = await importText(lines(claim, { ...claim, id: 'y' }));
    expect(report).toMatchObject({ added: [], merged: [{ where: 'line 1' }, { where: 'line 2' }] });
    expect(await database.triplets.toArray()).toEqual([pending]);
  });

  it('marks added rows with the file, the time and their id in the file, and recomputes their SI value and merge key', async () => {
    const wrongSi = { ...bandGapRow, si: { value: { kind: 'number', value: 1 }, unit: 'K' }, mergeKey: tcRangeRow.mergeKey };
    await importText(lines(wrongSi));
    const [row] = await database.triplets.toArray();
    expect(row).toEqual({
      ...bandGapRow,
      id: 'new-1',
      imported: { file: 'colleague.jsonl', at: NOW.toISOString(), sourceId: bandGapRow.id },
    });
  });

  it('reports added lines, merges into saved rows and repeats of earlier lines, in file order', async () => {
    await saveTriplets(database, [bandGapRow]);
    const text = toJsonl([tcRangeRow, bandGapRow, { ...tcRangeRow, id: 'again' }, datasetRows[3]!]);
    const report = await importText(text, { chunkSize: 2 });
    expect(report).toEqual({
      fileName: 'colleague.jsonl',
      at: NOW.toISOString(),
      added: ['line 1', 'line 4'],
      merged: [{ where: 'line 2' }, { where: 'line 3', repeats: 'line 1' }],
    });
  });

  it('reports what was saved when a later chunk fails (QuotaExceededError), and keeps it saved', async () => {
    const rows = datasetRows.map((row) => toJsonl([row]).trimEnd());
    const bulkAdd = database.triplets.bulkAdd.bind(database.triplets);
    let calls = 0;
    vi.spyOn(database.triplets, 'bulkAdd').mockImplementation((...args: Parameters<typeof bulkAdd>) => {
      calls += 1;
      if (calls === 2) return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) as never;
      return bulkAdd(...args);
    });
    const progress: number[] = [];
    const report = await importTriplets(database, readAssayImport(rows.join('\n'), NOW).rows, {
      fileName: 'big.jsonl',
      now: NOW,
      chunkSize: 2,
      newId: counter(),
      onProgress: (done) => progress.push(done),
    });
    expect(report.added).toEqual(['line 1', 'line 2']);
    expect(report.failure).toEqual({ message: 'QuotaExceededError: The quota has been exceeded.', unsaved: ['line 3', 'line 4'] });
    expect(progress).toEqual([2]);
    expect((await database.triplets.toArray()).map((row) => row.imported?.sourceId)).toEqual([datasetRows[0]!.id, datasetRows[1]!.id]);
  });

  it('refuses a chunk size that is not a positive integer before writing', async () => {
    await expect(importTriplets(database, [], { fileName: 'f', now: NOW, chunkSize: 0 })).rejects.toThrow(RangeError);
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
          evidence: { quote: { type: 'TextQuoteSelector', exact: `${drawn.quote} ${index}`, prefix: '', suffix: '' } },
        }),
        review: drawn.decision === 'pending' ? { decision: 'pending' } : { decision: drawn.decision, at: '2026-11-20T00:00:00.000Z' },
      } as DatasetTriplet);
    };
    await fc.assert(
      fc.asyncProperty(fc.array(fact, { maxLength: 3 }), fc.array(fact, { minLength: 1, maxLength: 8 }), async (storedFacts, fileFacts) => {
        await database.triplets.clear();
        const stored = storedFacts.map((drawn, index) => ({ ...build(drawn, index), id: `stored-${index}` }));
        await saveTriplets(database, stored);
        const before = await database.triplets.toArray();
        const fileRows = fileFacts.map((drawn, index) => {
          const row = build(drawn, 100 + index);
          const claimed = drawn.claimedKey === undefined ? undefined : before[drawn.claimedKey];
          return claimed ? { ...row, mergeKey: claimed.mergeKey } : row;
        });
        const report = await importTriplets(database, readAssayImport(toJsonl(fileRows), NOW).rows, {
          fileName: 'f.jsonl',
          now: NOW,
          newId: counter(),
          chunkSize: 3,
        });
        const after = await database.triplets.toArray();
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
