/**
 * The offscreen document's side of `dataset-import` (src/contracts/messages.ts): it runs the
 * dataset page's import jobs (src/store/import-job.ts) one at a time, so an import goes on while
 * the page is closed, and the page can stop one. Why the offscreen document: it lives until the
 * extension closes it, where the service worker is stopped after ~30 s without events, and the
 * page may be closed at any time (offscreen-engine.ts explains the document).
 */
import type { RequestOf, ResponseOf } from '../contracts/messages';
import type { AssayDatabase } from '../store/assay-database';
import { markInterruptedImports, runImportJob } from '../export/import-job';

/** Runs one import job to its end (`runImportJob`, here or in a worker); `signal` stops it between chunks. Never rejects for the job's own failures. */
export type ImportRunner = (jobId: string, signal: AbortSignal) => Promise<unknown>;

export interface ImportJobHostOptions {
  database: AssayDatabase;
  now?: () => Date;
  /** Rows per transaction (tests pass a small one); default `IMPORT_CHUNK_SIZE`. */
  chunkSize?: number;
  /**
   * Where a job runs; default `runImportJob` on `database` in this document. The offscreen
   * document passes `importWorkerRunner()` (import-worker-client.ts), so a job's checks and writes
   * leave the thread it shares with every other page of the extension (the dataset page too).
   */
  runner?: ImportRunner;
}

/**
 * Build the handler of `dataset-import` requests. On creation it marks the jobs an earlier
 * document left running as interrupted (`markInterruptedImports`); every request waits for that
 * first, so a job started after it is never marked. `run` starts the waiting job without waiting
 * for it (jobs queue: one runs at a time, in the order asked), `stop` aborts it between chunks,
 * `check` only answers. Each answers with the ids of the jobs running or queued here.
 */
export function createImportJobHost(options: ImportJobHostOptions) {
  const now = options.now ?? (() => new Date());
  const swept = markInterruptedImports(options.database, now()).catch((error: unknown) => {
    console.error('Assay could not mark interrupted imports:', error);
  });
  const controllers = new Map<string, AbortController>();
  const runner: ImportRunner =
    options.runner ??
    ((jobId, signal) =>
      runImportJob(options.database, jobId, { now, signal, ...(options.chunkSize !== undefined && { chunkSize: options.chunkSize }) }));
  let queue: Promise<unknown> = Promise.resolve();

  function run(jobId: string): void {
    if (controllers.has(jobId)) return;
    const controller = new AbortController();
    controllers.set(jobId, controller);
    queue = queue
      .then(() => runner(jobId, controller.signal))
      .catch(async (error: unknown) => {
        console.error(`Assay could not run import ${jobId}:`, error);
        // A job whose runner failed (its worker died) stays `running` in its record: one job runs
        // at a time, so the running job is this one; it is marked interrupted, as after a crash.
        await markInterruptedImports(options.database, now()).catch(() => undefined);
      })
      .finally(() => controllers.delete(jobId));
  }

  return async function handle(request: RequestOf<'dataset-import'>): Promise<ResponseOf<'dataset-import'>> {
    await swept;
    if (request.action === 'run') run(request.jobId);
    if (request.action === 'stop') controllers.get(request.jobId)?.abort();
    return { ok: true, running: [...controllers.keys()] };
  };
}
