import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatasetTriplet } from '../../../src/contracts/dataset';
import { toJson, toJsonl } from '../../../src/export/dataset-export';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { countTriplets, saveTriplets } from '../../../src/store/dataset-repository';
import { withOwnKeys } from '../../../src/store/dataset-triplet';
import {
  createImportJob,
  latestImportJob,
  markInterruptedImports,
  restartImportJob,
  runImportJob,
  type ImportJob,
} from '../../../src/export/import-job';
import { bandGapRow, datasetRows, tcRangeRow } from './dataset-fixtures';

let database: AssayDatabase;
let databaseCount = 0;

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-import-job-test-${databaseCount}`);
});

afterEach(async () => {
  vi.restoreAllMocks();
  await database.delete();
});

const NOW = new Date('2026-11-25T10:00:00.000Z');
const now = () => NOW;

/** Ids "new-1", "new-2", … */
function counter(): () => string {
  let next = 0;
  return () => `new-${(next += 1)}`;
}

/** `bandGapRow` as the distinct fact `index` (its own material, so its own merge key), under the file's id `file-<index>`. */
function fact(index: number): DatasetTriplet {
  return withOwnKeys({ ...bandGapRow, id: `file-${index}`, material: `Ga${index}N` });
}

/** Store `text` as a job and run it with `chunkSize`-row chunks; resolves to the ended job. */
let jobCount = 0;

async function importText(text: string, chunkSize = 2, name = 'colleague.jsonl'): Promise<ImportJob> {
  jobCount += 1;
  const id = await createImportJob(database, new NodeBlob([text]) as unknown as Blob, name, NOW, () => `job-${jobCount}`);
  const ended = await runImportJob(database, id, { now, newId: counter(), chunkSize });
  return ended!;
}

describe('runImportJob: merge keys in bulk', () => {
  it('merges rows that collide inside one chunk and across chunks, with the file and with saved rows, adding each fact once', async () => {
    // Saved before the import: fact 9.
    await saveTriplets(database, [{ ...fact(9), id: 'saved-9' }]);
    const lines = [
      fact(1), // line 1: added
      { ...fact(1), id: 'again-1', votes: ['other'] }, // line 2: same fact as line 1, same chunk
      fact(9), // line 3: the saved fact (chunk 2)
      fact(2), // line 4: added (chunk 2)
      { ...fact(1), id: 'late-1' }, // line 5: same fact as line 1, a later chunk
      { ...fact(9), id: 'late-9' }, // line 6: the saved fact again, same chunk as…
      { ...fact(9), id: 'later-9' }, // line 7: …this repeat of it (chunk 4)
    ];
    const job = await importText(toJsonl(lines), 2);
    expect(job.status).toBe('done');
    expect(job.report!.added).toEqual(['line 1', 'line 4']);
    expect(job.report!.merged).toEqual([
      { where: 'line 2', repeats: 'line 1' },
      { where: 'line 3' },
      { where: 'line 5', repeats: 'line 1' },
      { where: 'line 6' },
      { where: 'line 7' },
    ]);
    expect([job.added, job.merged, job.refused, job.done, job.total]).toEqual([2, 5, 0, 7, 7]);
    expect(await countTriplets(database)).toBe(3);
    // The saved row is untouched (no vote from the file), the added ones are the file's lines under new ids.
    expect((await database.triplets.get('saved-9'))?.votes).toEqual(fact(9).votes);
    const added = await database.triplets.where('mergeKey').equals(fact(1).mergeKey).toArray();
    expect(added).toHaveLength(1);
    expect(added[0]!.id).toMatch(/^new-\d+$/);
    expect(added[0]!.imported).toEqual({ file: 'colleague.jsonl', at: NOW.toISOString(), sourceId: 'file-1' });
    expect(job.hasFile).toBe(false);
    expect(await database.importFiles.count()).toBe(0);
  });

  it('re-imports a file without doubling: every line merges into the rows the first import saved', async () => {
    const text = toJsonl(Array.from({ length: 7 }, (_, index) => fact(index)));
    await importText(text, 3);
    const id = await createImportJob(database, new NodeBlob([text]) as unknown as Blob, 'again.jsonl', NOW, () => 'job-again');
    const again = await runImportJob(database, id, { now, chunkSize: 3 });
    expect([again!.added, again!.merged]).toEqual([0, 7]);
    expect(await countTriplets(database)).toBe(7);
  });
});

describe('runImportJob: reading the file', () => {
  it('streams JSON Lines with CRLF endings, a byte-order mark and blank lines, numbering lines as the file does', async () => {
    const text = `\uFEFF${JSON.stringify(fact(1))}\r\n\r\n${JSON.stringify(fact(2))}\r\nnot json\r\n`;
    const job = await importText(text, 2);
    expect(job.report!.added).toEqual(['line 1', 'line 3']);
    expect(job.refused).toBe(1);
    expect(job.rejected![0]!.where).toBe('line 4');
    expect(job.rejected![0]!.message).toMatch(/^not JSON/);
  });

  it('reads a JSON array export as rows', async () => {
    const job = await importText(toJson(datasetRows), 3, 'colleague.json');
    expect(job.report!.added).toEqual(['row 1', 'row 2', 'row 3', 'row 4']);
    expect(await countTriplets(database)).toBe(4);
  });

  it('refuses a whole file that is empty or has no JSON line, saving nothing', async () => {
    expect((await importText('  \n\n')).fileProblem).toBe('The file is empty.');
    expect((await importText('a,b,c\n1,2,3\n')).fileProblem).toMatch(/neither an Assay JSON export/);
    expect(await countTriplets(database)).toBe(0);
  });

  it('runs a job once: a second run of the same job does nothing', async () => {
    const id = await createImportJob(database, new NodeBlob([toJsonl([fact(1)])]) as unknown as Blob, 'a.jsonl', NOW, () => 'job-1');
    const [first, second] = await Promise.all([runImportJob(database, id, { now }), runImportJob(database, id, { now })]);
    expect([first, second].filter((job) => job !== undefined)).toHaveLength(1);
    expect(await countTriplets(database)).toBe(1);
  });
});

describe('runImportJob: failures, stops and crashes', () => {
  it('keeps the chunks saved before a failed write, names the lines not saved, and keeps the file to run again', async () => {
    const lines = Array.from({ length: 5 }, (_, index) => fact(index));
    const original = database.triplets.bulkAdd.bind(database.triplets);
    let writes = 0;
    vi.spyOn(database.triplets, 'bulkAdd').mockImplementation(((...args: Parameters<typeof original>) => {
      writes += 1;
      if (writes === 2) return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      return original(...args);
    }) as never);
    const job = await importText(toJsonl(lines), 2);
    expect(job.status).toBe('failed');
    expect(job.report!.added).toEqual(['line 1', 'line 2']);
    expect(job.report!.failure).toEqual({
      message: 'QuotaExceededError: The quota has been exceeded.',
      unsaved: ['line 3', 'line 4', 'line 5'],
    });
    // The progress written with the saved chunk is what is on disk.
    expect([job.done, job.added]).toEqual([2, 2]);
    expect(await countTriplets(database)).toBe(2);
    expect(job.hasFile).toBe(true);
    expect(await database.importFiles.get(job.id)).toBeDefined();
    vi.restoreAllMocks();
    expect(await restartImportJob(database, job.id, NOW)).toBe(true);
    const again = await runImportJob(database, job.id, { now, chunkSize: 2 });
    expect([again!.status, again!.added, again!.merged]).toEqual(['done', 3, 2]);
    expect(await countTriplets(database)).toBe(5);
  });

  it('stops between chunks when asked, saying what stays saved', async () => {
    const controller = new AbortController();
    const original = database.triplets.bulkAdd.bind(database.triplets);
    vi.spyOn(database.triplets, 'bulkAdd').mockImplementation(((...args: Parameters<typeof original>) => {
      controller.abort();
      return original(...args);
    }) as never);
    const id = await createImportJob(database, new NodeBlob([toJsonl([fact(1), fact(2), fact(3)])]) as unknown as Blob, 'a.jsonl', NOW);
    const job = await runImportJob(database, id, { now, chunkSize: 1, signal: controller.signal });
    expect(job!.status).toBe('stopped');
    expect(job!.message).toBe('Stopped after 1 lines, at your request; they stay saved.');
    expect(await countTriplets(database)).toBe(1);
  });

  it('marks a job a dead document left running as interrupted, leaving waiting and ended jobs alone', async () => {
    const running = await createImportJob(database, new NodeBlob(['{}']) as unknown as Blob, 'a.jsonl', NOW, () => 'running');
    await database.importJobs.update(running, { status: 'running', done: 5000 });
    await createImportJob(database, new NodeBlob(['{}']) as unknown as Blob, 'b.jsonl', new Date(NOW.getTime() + 1), () => 'waiting');
    expect(await markInterruptedImports(database, NOW)).toBe(1);
    const interrupted = await database.importJobs.get('running');
    expect(interrupted?.status).toBe('interrupted');
    expect(interrupted?.message).toMatch(/The 5000 lines acknowledged before then are saved/);
    expect((await database.importJobs.get('waiting'))?.status).toBe('waiting');
    expect((await latestImportJob(database))?.id).toBe('waiting');
  });

  it('keeps the newest 20 jobs', async () => {
    for (let index = 0; index < 22; index += 1)
      await createImportJob(
        database,
        new NodeBlob(['']) as unknown as Blob,
        `f${index}.jsonl`,
        new Date(NOW.getTime() + index),
        () => `job-${index}`,
      );
    expect(await database.importJobs.count()).toBe(20);
    expect(await database.importFiles.count()).toBe(20);
    expect(await database.importJobs.get('job-0')).toBeUndefined();
    expect((await latestImportJob(database))?.id).toBe('job-21');
  });
});

it('a chunk of tcRangeRow-shaped ranges keeps its SI values recomputed from the file', async () => {
  const lying = { ...tcRangeRow, si: { value: { kind: 'number' as const, value: 1 }, unit: 'K' } };
  await importText(toJsonl([lying]));
  const [saved] = await database.triplets.toArray();
  expect(saved!.si).toEqual(withOwnKeys(tcRangeRow).si);
});
