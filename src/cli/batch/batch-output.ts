/**
 * A batch's output file and its batch record (`batch-manifest.ts`), opened for appending: the
 * resume check and repair when a batch is continued, then one paper at a time, rows first and
 * flushed, its record line after and flushed. See batch-manifest.ts for why this order makes a
 * SIGKILL at any moment lose at most the papers in flight.
 */
import { open, stat, truncate, type FileHandle } from 'node:fs/promises';
import {
  manifestPathOf,
  parseManifest,
  resumePoint,
  settingsKey,
  type BatchSettings,
  type ManifestHeader,
  type PaperDone,
  type PaperEntry,
  type PaperFailed,
} from './batch-manifest';

/** A batch that cannot be started or continued with this `--out`; the message says why and what to do (exit 1). */
export class BatchOutputError extends Error {
  override readonly name = 'BatchOutputError';
}

/** What opening found: a new batch, or a continued one with what it had done and what was cut. */
export interface OpenedBatch {
  output: BatchOutput;
  header: ManifestHeader;
  /** SHA-256 → the paper's done entry, from earlier runs. */
  done: ReadonlyMap<string, PaperDone>;
  /** Bytes cut from the end of the output (rows of papers in flight at a crash, a half-written line). */
  cutBytes: number;
  /** Papers that had failed before and are tried again. */
  failedBefore: number;
  /** A warning about the batch record (a cut-short last line), in words, or null. */
  warning: string | null;
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function readAll(path: string): Promise<Uint8Array | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** Write all of `bytes` at the end of the append-mode `handle` (a write may be short), then flush the data to disk. */
async function appendAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
    written += bytesWritten;
  }
  await handle.datasync();
}

function settingsDifference(before: BatchSettings, now: BatchSettings): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(now)])] as Array<keyof BatchSettings>;
  const differing = keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(now[key]));
  return differing.map((key) => `${key} ${JSON.stringify(before[key] ?? null)} → ${JSON.stringify(now[key] ?? null)}`).join('; ');
}

/**
 * Open `outPath` for a batch with `settings` at time `now`: a new batch when neither the output
 * nor its record exists (or the output is empty); else the batch is continued when the record's
 * settings key equals this run's, after cutting the output back to what the record accounts for.
 * Throws `BatchOutputError` when `outPath` holds data but has no batch record (it is some other
 * file), when the record was written with other settings (the message lists them), or when the
 * output is shorter than its record says (it was edited). Other I/O errors are thrown as they are.
 */
export async function openBatchOutput(outPath: string, settings: BatchSettings, now: Date): Promise<OpenedBatch> {
  const manifestPath = manifestPathOf(outPath);
  const key = settingsKey(settings);
  const manifestBytes = await readAll(manifestPath);
  const outputSize = (await sizeOf(outPath)) ?? 0;
  const parsed = manifestBytes ? parseManifest(manifestBytes) : null;
  const point = parsed ? resumePoint(parsed) : null;

  if (!point) {
    if (outputSize > 0)
      throw new BatchOutputError(
        `${outPath} already holds ${outputSize} bytes and has no batch record (${manifestPath}): it is not the output of a batch: give another --out, or remove it.`,
      );
    const header: ManifestHeader = { kind: 'assay-batch', version: 1, key, settings, startedAt: now.toISOString() };
    const manifest = await open(manifestPath, 'w');
    await appendAll(manifest, new TextEncoder().encode(JSON.stringify(header) + '\n'));
    const output = await open(outPath, 'w');
    return { output: new BatchOutput(output, manifest, 0), header, done: new Map(), cutBytes: 0, failedBefore: 0, warning: null };
  }
  if (point.header.key !== key)
    throw new BatchOutputError(
      `${outPath} is the output of a batch run with other settings (${settingsDifference(point.header.settings, settings)}): rerun with the same settings to continue it, or give another --out.`,
    );
  if (outputSize < point.outputEnd)
    throw new BatchOutputError(
      `${outPath} is shorter (${outputSize} bytes) than its batch record says (${point.outputEnd} bytes): it was changed after the run. Give another --out to start again.`,
    );
  const cutBytes = outputSize - point.outputEnd;
  if (cutBytes > 0) await truncate(outPath, point.outputEnd);
  if (manifestBytes && point.manifestEnd < manifestBytes.length) await truncate(manifestPath, point.manifestEnd);
  const manifest = await open(manifestPath, 'a');
  const output = await open(outPath, 'a');
  return {
    output: new BatchOutput(output, manifest, point.outputEnd),
    header: point.header,
    done: point.done,
    cutBytes,
    failedBefore: point.failedBefore,
    warning: point.problem ? `${manifestPath}: ${point.problem}; what followed was cut and those papers run again.` : null,
  };
}

/** Entries as the caller gives them: `end` is filled in by `BatchOutput.paperDone`. */
export type DoneWithoutEnd = Omit<PaperDone, 'end'>;

/**
 * The open output and record. Writes are queued one after another (papers finish concurrently),
 * so each paper's rows stay together and the record's `end` offsets only grow. After a failed
 * write (disk full) every later write rejects with the same error: the files may hold part of
 * the failed one, which only the next run's repair (`openBatchOutput`) may cut.
 */
export class BatchOutput {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The first failed write: the files may hold part of it, so nothing more is written (a rerun repairs them). */
  private broken: Error | null = null;

  constructor(
    private readonly output: FileHandle,
    private readonly manifest: FileHandle,
    private end: number,
  ) {}

  /** The output's length in bytes so far. */
  get length(): number {
    return this.end;
  }

  /**
   * Append `lines` (each one JSON document, no newline inside) to the output and flush, then the
   * paper's `done` record with the output's new length and flush. Resolves once both are on disk.
   */
  paperDone(lines: readonly string[], entry: DoneWithoutEnd): Promise<PaperDone> {
    return this.enqueue(async () => {
      const bytes = new TextEncoder().encode(lines.map((line) => line + '\n').join(''));
      if (bytes.length > 0) await appendAll(this.output, bytes);
      this.end += bytes.length;
      const done: PaperDone = { ...entry, end: this.end };
      await this.record(done);
      return done;
    });
  }

  /** Record a failed paper (nothing goes to the output). */
  paperFailed(entry: PaperFailed): Promise<PaperFailed> {
    return this.enqueue(async () => {
      await this.record(entry);
      return entry;
    });
  }

  /** Wait for queued writes, then close both files. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    await Promise.all([this.output.close(), this.manifest.close()]);
  }

  private async record(entry: PaperEntry): Promise<void> {
    await appendAll(this.manifest, new TextEncoder().encode(JSON.stringify(entry) + '\n'));
  }

  private enqueue<T>(write: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the batch output is closed'));
    const next = this.queue.then(async () => {
      if (this.broken) throw this.broken;
      try {
        return await write();
      } catch (error) {
        this.broken = error instanceof Error ? error : new Error(String(error));
        throw this.broken;
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
