/**
 * The offscreen document's side of its import worker (import-worker.ts): an `ImportRunner` that
 * runs each job in the worker and resolves when the worker says it ended. Every reply is checked
 * against the protocol (src/contracts/messages.ts).
 */
import { ImportWorkerReplySchema, type ImportWorkerRequest } from '../contracts/messages';
import type { ImportRunner } from './import-job-host';

/** A `Worker` (or one end of a `MessageChannel`), as far as the runner uses it. */
export interface ImportWorkerPort {
  postMessage(message: ImportWorkerRequest): void;
  addEventListener(type: 'message' | 'error', listener: (event: Event) => void): void;
}

/**
 * A runner over `port`: `import-run` for each job, `import-stop` when its signal aborts; resolves
 * when the worker answers `import-ended` for it, and rejects (with the worker's words) when the
 * worker could not run it or fails to load. Jobs are run one at a time by the import host.
 */
export function importWorkerRunner(port: ImportWorkerPort): ImportRunner {
  const waiting = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  port.addEventListener('message', (event) => {
    const reply = ImportWorkerReplySchema.safeParse((event as MessageEvent<unknown>).data);
    if (!reply.success) return;
    const job = waiting.get(reply.data.jobId);
    waiting.delete(reply.data.jobId);
    if (reply.data.error === undefined) job?.resolve();
    else job?.reject(new Error(reply.data.error));
  });
  port.addEventListener('error', (event) => {
    const detail = (event as Partial<ErrorEvent>).message;
    const error = new Error(`the import worker failed${typeof detail === 'string' && detail !== '' ? `: ${detail}` : ''}`);
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
  });
  return (jobId, signal) =>
    new Promise<void>((resolve, reject) => {
      waiting.set(jobId, { resolve, reject });
      signal.addEventListener('abort', () => port.postMessage({ type: 'import-stop', jobId }), { once: true });
      port.postMessage({ type: 'import-run', jobId });
    });
}

/** Start the import worker (a module worker from the extension's own files) and its runner. */
export function startImportWorker(): ImportRunner {
  return importWorkerRunner(new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module', name: 'assay-import' }));
}
