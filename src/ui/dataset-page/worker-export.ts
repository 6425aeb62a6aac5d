/**
 * The dataset page's export, run in the dataset worker (issue 31: "exports stream … no task of
 * the page over 200 ms"): the rows the table shows are read in its order (`eachShownTripletChunk`,
 * the worker's own catalog giving the ids), formatted 1,000 at a time and written straight into a
 * file of the origin private file system through a `FileSystemSyncAccessHandle` (dedicated workers
 * only: https://fs.spec.whatwg.org/#api-filesystemsyncaccesshandle), so the page's main thread only
 * hears progress and finally gets the file's name, opens it (disk-backed, no copy in memory) and
 * hands it to the browser as a download.
 *
 * Where the worker has no private file system the export ends `unavailable` and the page writes
 * the file itself, as before (dataset-io.tsx). A stop removes the file. Files are named as the
 * page's own exports (`EXPORT_FILE_PREFIX`), and earlier ones are removed when an export starts.
 */
import type { DatasetTriplet } from '../../contracts/dataset';
import { TripletSearchRequestSchema, type TripletExportRequest, type TripletSearchReply } from '../../contracts/messages';
import { exportFormatNamed } from '../../export/export-formats';
import type { AssayDatabase } from '../../store/assay-database';
import type { TripletQuery } from '../../store/dataset-repository';
import type { TripletIdSearch } from '../../store/search-triplets';
import { conditionMatcher } from '../shared/fact-conditions';
import { spellPropertyName } from '../shared/run-view-model';
import { EXPORT_FILE_PREFIX, newExportFileName } from './export-sink';
import { eachShownTripletChunk } from './sorted-triplets';
import { TRIPLET_COLUMNS } from './triplet-columns';
import type { TripletSort } from './triplet-sort';

/** Rows formatted and written per step (as the page's own export: a few tens of milliseconds of CSV). */
export const WORKER_EXPORT_STEP = 1000;

/** One export's file: bytes appended, then closed or removed. */
export interface ExportFile {
  readonly name: string;
  write(bytes: Uint8Array): void;
  close(): void;
  remove(): Promise<void>;
}

/** Where the worker's export files are made (a test passes its own). Resolves to undefined where none can be. */
export type ExportFiles = () => Promise<ExportFile | undefined>;

/** The worker's global scope (or one end of a `MessageChannel`), as far as the export uses it. */
export interface ExportHostPort {
  postMessage(message: TripletSearchReply): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/** The slice of the private file system the worker uses (TypeScript's DOM types lack the sync handle and `keys`). */
interface WorkerDirectory {
  getFileHandle(name: string, options: { create: boolean }): Promise<{ createSyncAccessHandle(): Promise<SyncHandle> }>;
  removeEntry(name: string): Promise<void>;
  keys(): AsyncIterable<string>;
}
interface SyncHandle {
  write(buffer: Uint8Array, options: { at: number }): number;
  flush(): void;
  close(): void;
}

/**
 * A new file of this worker's private file system, after removing earlier exports' files;
 * undefined where there is no private file system or no sync access (not a dedicated worker).
 */
export const privateFileSystemFiles: ExportFiles = async () => {
  const storage = globalThis.navigator?.storage as (StorageManager & { getDirectory?: () => Promise<unknown> }) | undefined;
  if (typeof storage?.getDirectory !== 'function') return undefined;
  try {
    const root = (await storage.getDirectory()) as unknown as WorkerDirectory;
    for await (const name of root.keys()) if (name.startsWith(EXPORT_FILE_PREFIX)) await root.removeEntry(name).catch(() => undefined);
    const name = newExportFileName();
    const handle = await root.getFileHandle(name, { create: true });
    if (typeof handle.createSyncAccessHandle !== 'function') {
      await root.removeEntry(name).catch(() => undefined);
      return undefined;
    }
    const access = await handle.createSyncAccessHandle();
    let at = 0;
    let open = true;
    const close = () => {
      if (!open) return;
      open = false;
      access.flush();
      access.close();
    };
    return {
      name,
      write: (bytes) => {
        at += access.write(bytes, { at });
      },
      close,
      remove: async () => {
        try {
          close();
        } catch {
          // Already unusable: removing it is all that is left.
        }
        await root.removeEntry(name).catch(() => undefined);
      },
    };
  } catch {
    return undefined;
  }
};

const COLUMN_IDS = new Set<string>(TRIPLET_COLUMNS.map((column) => column.id));

/**
 * Run export `request` over `database` (ids from `search`, the worker's own index and catalog)
 * into a file from `files`, posting progress and its end on `port`; `signal` stops it. Never
 * rejects: every end is a reply.
 */
export async function runWorkerExport(
  port: ExportHostPort,
  database: AssayDatabase,
  search: TripletIdSearch,
  request: TripletExportRequest,
  signal: AbortSignal,
  files: ExportFiles = privateFileSystemFiles,
): Promise<void> {
  const { requestId } = request;
  const ended = (outcome: 'stopped' | 'unavailable' | 'failed', message: string) =>
    port.postMessage({ type: 'triplet-export-ended', requestId, outcome, message });
  const format = exportFormatNamed(request.format);
  if (!format) return ended('failed', `no export format is called '${request.format}'`);
  if (!COLUMN_IDS.has(request.sort.column)) return ended('failed', `the dataset table has no column '${request.sort.column}'`);
  const file = await files().catch(() => undefined);
  if (!file) return ended('unavailable', 'this browser gives the dataset worker no private file system');
  const stopped = () => new DOMException('The export was stopped.', 'AbortError');
  try {
    const encoder = new TextEncoder();
    const write = (text: string) => file.write(encoder.encode(text));
    const label = (name: string) => request.labels[name] ?? spellPropertyName(name);
    const rows: DatasetTriplet[] = [];
    let written = 0;
    const count = await eachShownTripletChunk(
      database,
      // Validated by the protocol; a status or decision no row has simply matches nothing.
      request.query as TripletQuery,
      request.sort as TripletSort,
      label,
      (chunk) => {
        // Thrown inside the read, so the cursor stops too.
        if (signal.aborted) throw stopped();
        if (format.chunk) write(format.chunk(chunk, written === 0));
        else rows.push(...chunk);
        written += chunk.length;
        port.postMessage({ type: 'triplet-export-progress', requestId, written });
      },
      WORKER_EXPORT_STEP,
      search,
      request.conditions && conditionMatcher(request.conditions),
    );
    if (signal.aborted) throw stopped();
    if (!format.chunk) write(format.write(rows));
    else if (written === 0) write(format.chunk([], true));
    file.close();
    port.postMessage({ type: 'triplet-export-done', requestId, count, file: file.name });
  } catch (error) {
    await file.remove();
    if (signal.aborted) ended('stopped', 'The export was stopped.');
    else ended('failed', error instanceof Error ? error.message : String(error));
  }
}

/**
 * Answer every valid `triplet-export` request on `port` (`runWorkerExport`) and every
 * `triplet-export-stop` by stopping that export. Requests of other types are left to the search
 * host on the same port; requests that do not parse are ignored.
 */
export function serveTripletExport(port: ExportHostPort, database: AssayDatabase, search: TripletIdSearch, files?: ExportFiles): void {
  const running = new Map<number, AbortController>();
  port.addEventListener('message', (event) => {
    const request = TripletSearchRequestSchema.safeParse(event.data);
    if (!request.success) return;
    const data = request.data;
    if (data.type === 'triplet-export-stop') running.get(data.requestId)?.abort();
    if (data.type !== 'triplet-export') return;
    const controller = new AbortController();
    running.set(data.requestId, controller);
    void runWorkerExport(port, database, search, data, controller.signal, files).finally(() => running.delete(data.requestId));
  });
}
