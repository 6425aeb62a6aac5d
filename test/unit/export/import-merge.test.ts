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
import { planImportChunk, settleImportChunk, type ImportContext, type ImportLine } from '../../../src/export/import-merge';
import { importFileInMemory, memoryDataset, saveImportChunkInMemory } from '../../../src/export/memory-dataset';
import { bandGapRow } from './dataset-fixtures';

const NOW = new Date('2026-11-25T10:00:00.000Z');

/** Ids "new-1", "new-2", … */
function counter(): () => string {
  let next = 0;
  return () => `new-${(next += 1)}`;
}

/** `bandGapRow` as the distinct fact `index` (its own material, so its own merge key; its own quote, so a verified row an import keeps verified), under the file's id `file-<index>`. */
function fact(index: number): DatasetTriplet {
  const quote = { ...bandGapRow.evidence!.quote, exact: `The optical band gap of Ga${index}N was 3.2 eV.` };
  return withOwnKeys({ ...bandGapRow, id: `file-${index}`, material: `Ga${index}N`, evidence: { ...bandGapRow.evidence!, quote } });
}

const line = (row: DatasetTriplet, number: number): ImportLine => ({ row, where: `line ${number}` });

function context(addedKeys: ReadonlyMap<string, string> = new Map()): ImportContext {
  return { fileName: 'colleague.jsonl', at: NOW.toISOString(), newId: counter(), addedKeys };
}

describe('planImportChunk and settleImportChunk', () => {
  it('makes a line repeating a line of its chunk or of an earlier chunk a repeat, and every other line a candidate under a new id', () => {
    const chunk = [line(fact(1), 3), line({ ...fact(1), id: 'again' }, 4), line(fact(2), 5), line(fact(7), 6)];
    const plan = planImportChunk(chunk, context(new Map([[fact(7).mergeKey, 'line 1']])));
    expect(plan.fates).toEqual([
      { kind: 'candidate', position: 0 },
      { kind: 'repeat', of: 'line 3' },
      { kind: 'candidate', position: 1 },
      { kind: 'repeat', of: 'line 1' },
    ]);
    expect(plan.candidates).toEqual([
      { ...fact(1), id: 'new-1', imported: { file: 'colleague.jsonl', at: NOW.toISOString(), sourceId: 'file-1' } },
      { ...fact(2), id: 'new-2', imported: { file: 'colleague.jsonl', at: NOW.toISOString(), sourceId: 'file-2' } },
    ]);
  });

  it('merges a refused candidate into the stored row, and its repeats with it; a repeat of an added line names that line', () => {
    const chunk = [line(fact(1), 1), line(fact(2), 2), line({ ...fact(2), id: 'x' }, 3), line({ ...fact(1), id: 'y' }, 4)];
    const plan = planImportChunk(chunk, context());
    const outcome = settleImportChunk(chunk, plan, new Set([1]));
    expect(outcome).toEqual({
      added: ['line 1'],
      merged: [{ where: 'line 2' }, { where: 'line 3' }, { where: 'line 4', repeats: 'line 1' }],
      keys: new Map([[fact(1).mergeKey, 'line 1']]),
    });
  });

  it('in memory, refuses a candidate whose fact the dataset holds and leaves that row as it is', () => {
    const saved = { ...fact(9), id: 'saved-9', votes: ['mine'] };
    const dataset = memoryDataset([saved]);
    const outcome = saveImportChunkInMemory(dataset, [line(fact(9), 1), line(fact(3), 2)], context());
    expect(outcome.added).toEqual(['line 2']);
    expect(outcome.merged).toEqual([{ where: 'line 1' }]);
    expect(dataset.rows.map((row) => [row.id, row.votes])).toEqual([
      ['saved-9', ['mine']],
      ['new-2', fact(3).votes],
    ]);
  });
});

describe('importFileInMemory', () => {
  it('merges inside one chunk, across chunks, with the file and with saved rows as the import job does (import-job.test.ts)', async () => {
    const dataset = memoryDataset([{ ...fact(9), id: 'saved-9' }]);
    const lines = [fact(1), { ...fact(1), id: 'again-1', votes: ['other'] }, fact(9), fact(2), { ...fact(1), id: 'late-1' }];
    lines.push({ ...fact(9), id: 'late-9' }, { ...fact(9), id: 'later-9' });
    const result = await importFileInMemory(dataset, new NodeBlob([toJsonl(lines)]) as unknown as Blob, {
      fileName: 'colleague.jsonl',
      now: NOW,
      newId: counter(),
      chunkSize: 2,
    });
    if ('fileProblem' in result) throw new Error(result.fileProblem);
    expect(result.report.added).toEqual(['line 1', 'line 4']);
    expect(result.report.merged).toEqual([
      { where: 'line 2', repeats: 'line 1' },
      { where: 'line 3' },
      { where: 'line 5', repeats: 'line 1' },
      { where: 'line 6' },
      { where: 'line 7' },
    ]);
    expect([result.entries, result.refused]).toEqual([7, 0]);
    expect(dataset.rows).toHaveLength(3);
  });

  it('refuses a whole file in the import job’s words, and a hostile line with its reason, changing nothing', async () => {
    const dataset = memoryDataset();
    const read = (text: string) =>
      importFileInMemory(dataset, new NodeBlob([text]) as unknown as Blob, { fileName: 'f', now: NOW, newId: counter() });
    expect(await read(' \n\n')).toEqual({ fileProblem: 'The file is empty.' });
    expect(await read('a,b\n1,2\n')).toMatchObject({ fileProblem: expect.stringMatching(/neither an Assay JSON export/) });
    const future = { ...fact(1), savedAt: '2027-01-01T00:00:00.000Z' };
    const result = await read(toJsonl([future]));
    expect(result).toMatchObject({ entries: 1, refused: 1, rejected: [{ where: 'line 1', message: expect.stringMatching(/^savedAt: /) }] });
    expect(dataset.rows).toEqual([]);
  });
});

describe('the import job and a dataset in memory agree', () => {
  let database: AssayDatabase;
  let count = 0;
  beforeEach(() => {
    count += 1;
    database = createAssayDatabase(`assay-import-merge-test-${count}`);
  });
  afterEach(async () => {
    await database.delete();
  });

  it('gives the same report and the same rows for any saved rows, file and chunk size (property)', async () => {
    const drawnLine = fc.record({ fact: fc.integer({ min: 0, max: 5 }), id: fc.constantFrom('a', 'b', 'saved-0'), votes: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }),
        fc.array(drawnLine, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 5 }),
        async (savedFacts, fileLines, chunkSize) => {
          await database.triplets.clear();
          await saveTriplets(
            database,
            savedFacts.map((index) => ({ ...fact(index), id: `saved-${index}` })),
          );
          const dataset = memoryDataset(await database.triplets.toArray());
          const text = toJsonl(fileLines.map((drawn) => ({ ...fact(drawn.fact), id: drawn.id, votes: drawn.votes ? ['file'] : [] })));
          const id = await createImportJob(database, new NodeBlob([text]) as unknown as Blob, 'f.jsonl', NOW, () => `job-${count}`);
          const job = await runImportJob(database, id, { now: () => NOW, newId: counter(), chunkSize });
          await database.importJobs.clear();
          const memory = await importFileInMemory(dataset, new NodeBlob([text]) as unknown as Blob, {
            fileName: 'f.jsonl',
            now: NOW,
            newId: counter(),
            chunkSize,
          });
          if ('fileProblem' in memory) throw new Error(memory.fileProblem);
          expect(memory.report).toEqual(job!.report);
          const byId = (rows: DatasetTriplet[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
          expect(byId(dataset.rows)).toEqual(await database.triplets.toArray());
        },
      ),
      { numRuns: 40 },
    );
  });
});
