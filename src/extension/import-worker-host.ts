/**
 * The import worker's side (import-worker.ts): runs the import jobs the offscreen document asks
 * for (`runImportJob`) over the worker's own database connection, stops one when asked, and says
 * when each ended. Kept apart from the worker file so a test can serve over a `MessageChannel`.
 */
import { ImportWorkerRequestSchema, type ImportWorkerReply } from '../contracts/messages';
import { runImportJob } from '../export/import-job';
import type { AssayDatabase } from '../store/assay-database';

/** The worker's global scope (or one end of a `MessageChannel`), as far as serving uses it. */
export interface ImportWorkerScope {
  postMessage(message: ImportWorkerReply): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/**
 * Answer every valid request on `scope`: `import-run` runs the job (a job already running here is
 * not started twice) and answers `import-ended` when it ends, with `error` when it could not run;
 * `import-stop` stops it between chunks. Requests that do not parse are ignored.
 */
export function serveImportJobs(
  scope: ImportWorkerScope,
  database: AssayDatabase,
  options: { now?: () => Date; chunkSize?: number } = {},
): void {
  const running = new Map<string, AbortController>();
  scope.addEventListener('message', (event) => {
    const request = ImportWorkerRequestSchema.safeParse(event.data);
    if (!request.success) return;
    const { type, jobId } = request.data;
    if (type === 'import-stop') {
      running.get(jobId)?.abort();
      return;
    }
    if (running.has(jobId)) return;
    const controller = new AbortController();
    running.set(jobId, controller);
    void runImportJob(database, jobId, {
      now: options.now ?? (() => new Date()),
      signal: controller.signal,
      ...(options.chunkSize !== undefined && { chunkSize: options.chunkSize }),
    })
      .then(
        () => scope.postMessage({ type: 'import-ended', jobId }),
        (error: unknown) =>
          scope.postMessage({ type: 'import-ended', jobId, error: String(error instanceof Error ? error.message : error).slice(0, 2000) }),
      )
      .finally(() => running.delete(jobId));
  });
}
