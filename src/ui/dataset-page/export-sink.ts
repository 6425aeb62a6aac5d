/**
 * Where an export's text goes while it is written (issue 31: "exports stream … memory stays flat;
 * the first bytes reach the file at once"). In an extension page the text goes straight into a
 * file of the origin private file system (OPFS: `navigator.storage.getDirectory()`,
 * https://fs.spec.whatwg.org/#sandboxed-filesystem), part by part as it is formatted, through a
 * `FileSystemWritableFileStream`; the finished file is disk-backed, so handing it to the browser
 * as a download copies nothing into memory. Where no OPFS is offered (a test DOM, a browser
 * without it, a full disk), the parts are kept in memory and joined into a Blob at the end, as
 * exports were written before.
 *
 * An export's file is named `assay-export-<n>`; finished files are removed when the next export
 * starts (the download reads the file after the click, so it cannot be removed at once).
 */

/** One export's destination. */
export interface ExportSink {
  /** Queue `text` after what was written before; never blocks (writes are chained). */
  write(text: string): void;
  /** Wait for every write, close the file, and give its contents as a Blob of `type`. Rejects with the first write's error. */
  finish(type: string): Promise<Blob>;
  /** Drop what was written (a Stop): the file is closed and removed. Never rejects. */
  abort(): Promise<void>;
  /** `opfs` when the text streams into a file, `memory` when parts are kept. */
  kind: 'opfs' | 'memory';
}

/** The slice of the OPFS directory API the sink uses (a test passes a fake). */
export interface ExportDirectory {
  getFileHandle(
    name: string,
    options: { create: boolean },
  ): Promise<{
    createWritable(): Promise<{ write(data: string): Promise<void>; close(): Promise<void>; abort(): Promise<void> }>;
    getFile(): Promise<Blob>;
  }>;
  removeEntry(name: string): Promise<void>;
  keys(): AsyncIterable<string>;
}

/** The start of every export file's name in the private file system (the page's and the worker's). */
export const EXPORT_FILE_PREFIX = 'assay-export-';

/** A new export file's name: the prefix, the time and a random tail. */
export function newExportFileName(): string {
  return `${EXPORT_FILE_PREFIX}${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * The finished export file `name` of this page's private file system (written by the dataset
 * worker) as a Blob of `type`: disk-backed, so nothing is copied into memory. Rejects when the
 * file is not there.
 */
export async function exportedFile(
  name: string,
  type: string,
  directory: () => Promise<ExportDirectory | undefined> = pageDirectory,
): Promise<Blob> {
  const root = await directory();
  if (!root) throw new Error('this page has no private file system');
  return new Blob([await (await root.getFileHandle(name, { create: false })).getFile()], { type });
}

/** Parts kept in memory, a Blob at the end. */
function memorySink(): ExportSink {
  let parts: string[] = [];
  return {
    kind: 'memory',
    write: (text) => void parts.push(text),
    finish: async (type) => new Blob(parts, { type }),
    abort: async () => {
      parts = [];
    },
  };
}

/** The origin private file system's root in this page, or undefined where there is none. */
async function pageDirectory(): Promise<ExportDirectory | undefined> {
  const storage = globalThis.navigator?.storage as (StorageManager & { getDirectory?: () => Promise<unknown> }) | undefined;
  if (typeof storage?.getDirectory !== 'function') return undefined;
  // keys() is in the File System standard; TypeScript's DOM types lack it.
  return (await storage.getDirectory()) as unknown as ExportDirectory;
}

/**
 * A sink for one export: a new OPFS file of `directory` (default: this page's OPFS root), after
 * removing the files earlier exports left; the memory sink when there is no directory or the
 * file cannot be opened.
 */
export async function openExportSink(directory: () => Promise<ExportDirectory | undefined> = pageDirectory): Promise<ExportSink> {
  let root: ExportDirectory | undefined;
  try {
    root = await directory();
  } catch {
    root = undefined;
  }
  if (!root) return memorySink();
  try {
    for await (const name of root.keys()) if (name.startsWith(EXPORT_FILE_PREFIX)) await root.removeEntry(name).catch(() => undefined);
    const name = newExportFileName();
    const handle = await root.getFileHandle(name, { create: true });
    const writable = await handle.createWritable();
    let chain: Promise<void> = Promise.resolve();
    let failed: unknown;
    const dir = root;
    return {
      kind: 'opfs',
      write: (text) => {
        chain = chain.then(() => writable.write(text)).catch((error: unknown) => void (failed ??= error));
      },
      finish: async (type) => {
        await chain;
        if (failed !== undefined) throw failed;
        await writable.close();
        // A Blob of the disk-backed file: no copy of its contents in memory.
        return new Blob([await handle.getFile()], { type });
      },
      abort: async () => {
        await chain;
        await writable.abort().catch(() => undefined);
        await dir.removeEntry(name).catch(() => undefined);
      },
    };
  } catch {
    return memorySink();
  }
}
