import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toJsonl } from '../../../src/export/dataset-export';
import { createImportJob, latestImportJob } from '../../../src/export/import-job';
import { createImportJobHost } from '../../../src/extension/import-job-host';
import { importWorkerRunner, type ImportWorkerPort } from '../../../src/extension/import-worker-client';
import { serveImportJobs } from '../../../src/extension/import-worker-host';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { countTriplets } from '../../../src/store/dataset-repository';
import { withOwnKeys } from '../../../src/store/dataset-triplet';
import { until } from '../../support/dataset-worker-channel';
import { bandGapRow } from '../export/dataset-fixtures';

const NOW = new Date('2026-11-29T10:00:00.000Z');
const facts = (count: number) =>
  Array.from({ length: count }, (_, index) => withOwnKeys({ ...bandGapRow, id: `file-${index}`, material: `Ga${index}N` }));

describe('import jobs run in the import worker', () => {
  let database: AssayDatabase;
  let workerDatabase: AssayDatabase;
  let channel: MessageChannel;
  let port: ImportWorkerPort;
  let databaseCount = 0;

  beforeEach(() => {
    databaseCount += 1;
    const name = `import-worker-test-${databaseCount}`;
    database = createAssayDatabase(name);
    // The worker's own connection to the same database, as in the extension.
    workerDatabase = createAssayDatabase(name);
    channel = new MessageChannel();
    serveImportJobs(channel.port1, workerDatabase, { now: () => NOW, chunkSize: 2 });
    const other = channel.port2;
    port = {
      postMessage: (message) => other.postMessage(message),
      addEventListener: (type, listener) => other.addEventListener(type, listener),
    };
    channel.port1.start();
    channel.port2.start();
  });

  afterEach(async () => {
    channel.port1.close();
    channel.port2.close();
    workerDatabase.close();
    await database.delete();
  });

  it('runs a job the host is asked for to its end in the worker, and a second ask of it does nothing', async () => {
    const host = createImportJobHost({ database, now: () => NOW, runner: importWorkerRunner(port) });
    const id = await createImportJob(database, new NodeBlob([toJsonl(facts(5))]) as unknown as Blob, 'colleague.jsonl', NOW);
    expect(await host({ type: 'dataset-import', action: 'run', jobId: id })).toEqual({ ok: true, running: [id] });
    await host({ type: 'dataset-import', action: 'run', jobId: id });
    await until(async () => (await latestImportJob(database))?.status === 'done', 'the job to end');
    expect(await countTriplets(database)).toBe(5);
    await until(async () => (await host({ type: 'dataset-import', action: 'check' })).ok, 'the host to answer');
    expect(await host({ type: 'dataset-import', action: 'check' })).toEqual({ ok: true, running: [] });
  });

  it('stops a job between chunks when the host is asked to, keeping what was saved', async () => {
    const runner = importWorkerRunner(port);
    const id = await createImportJob(database, new NodeBlob([toJsonl(facts(400))]) as unknown as Blob, 'big.jsonl', NOW);
    const controller = new AbortController();
    const ended = runner(id, controller.signal);
    await until(async () => ((await latestImportJob(database))?.done ?? 0) > 0, 'a first chunk');
    controller.abort();
    await ended;
    const job = await latestImportJob(database);
    expect(job?.status).toBe('stopped');
    const saved = await countTriplets(database);
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(400);
  });

  it('rejects when the worker fails, and the host then marks the job interrupted', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const listeners: Array<(event: Event) => void> = [];
    const broken: ImportWorkerPort = {
      postMessage: () => listeners.forEach((listener) => listener(Object.assign(new Event('error'), { message: 'no module' }))),
      addEventListener: (type, listener) => {
        if (type === 'error') listeners.push(listener);
      },
    };
    const id = await createImportJob(database, new NodeBlob([toJsonl(facts(2))]) as unknown as Blob, 'a.jsonl', NOW);
    await expect(importWorkerRunner(broken)(id, new AbortController().signal)).rejects.toThrow('the import worker failed: no module');

    // A job the runner took (its record says running) and then lost; the host's sweep of older jobs is done first.
    const host = createImportJobHost({
      database,
      now: () => NOW,
      runner: async (jobId) => {
        await database.importJobs.update(jobId, { status: 'running' });
        throw new Error('the import worker failed');
      },
    });
    await host({ type: 'dataset-import', action: 'check' });
    expect((await latestImportJob(database))?.status).toBe('waiting');
    await host({ type: 'dataset-import', action: 'run', jobId: id });
    await until(async () => (await latestImportJob(database))?.status === 'interrupted', 'the job marked interrupted');
    expect(logged).toHaveBeenCalledWith(`Assay could not run import ${id}:`, expect.any(Error));
    logged.mockRestore();
  });
});
