/**
 * One batch at a time per output: `assay extract … --out FILE.jsonl` holds a lock on FILE.jsonl
 * while it runs, so a second batch on the same output refuses at once instead of interleaving
 * rows with the first and cutting its batch record (issue 27, item 7: two runs gave half rows,
 * duplicates and a broken `.assay-batch`, both exiting 0).
 *
 * The lock is proper-lockfile's: a directory `FILE.jsonl.assay-lock` made with mkdir (atomic,
 * also on network file systems), its mtime refreshed every `LOCK_STALE_MS / 2` while the run
 * lives (an unref'd timer: it never keeps the process alive). A run killed with SIGKILL cannot
 * remove it; it goes stale `LOCK_STALE_MS` after its last refresh and the next run takes it over.
 * Beside it, `FILE.jsonl.assay-lock.json` names the holder (pid, host, start time, command) for
 * the refusal message; when that holder is a process of this machine that no longer exists, the
 * next run waits out the staleness instead of refusing.
 *
 * proper-lockfile is loaded only when a batch takes a lock: on load it installs signal-exit's
 * handlers (SIGINT, SIGTERM, … remove held locks on the way out), which no other command needs.
 */
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * A lock not refreshed for this long (ms) belongs to a run that died. Trade-off: a run whose
 * event loop is blocked longer than this (one huge synchronous parse) could lose its lock to a
 * second run; a shorter time lets a rerun after a crash start sooner.
 */
export const LOCK_STALE_MS = 15_000;

/** Who holds a batch output's lock, as written beside it. */
export interface BatchLockHolder {
  pid: number;
  host: string;
  /** ISO 8601 time the holding run started. */
  startedAt: string;
  /** Its command line, e.g. "assay extract papers --out out.jsonl". */
  command: string;
}

/** The output is locked by another run (the message names it), or cannot be locked; exit 1. */
export class BatchLockError extends Error {
  override readonly name = 'BatchLockError';
}

/** A held lock; `release` removes it (and its holder file). */
export interface BatchLock {
  release(): Promise<void>;
}

export interface LockBatchOptions {
  /** This run's command line, for the holder file. */
  command: string;
  /** Called once if the lock is lost while held (another run took it over as stale); the run should stop. */
  onCompromised: (error: Error) => void;
  /** Told, in one line, when the run waits for the stale lock of a run that died. */
  onWait?: (line: string) => void;
  /** Staleness in ms; default `LOCK_STALE_MS`. */
  staleMs?: number;
}

/** `FILE.jsonl` → the lock directory `FILE.jsonl.assay-lock`. */
export function lockPathOf(outPath: string): string {
  return `${outPath}.assay-lock`;
}

/** The lock's holder file, beside the lock directory (which must stay empty for proper-lockfile to remove it). */
export function lockHolderPathOf(outPath: string): string {
  return `${lockPathOf(outPath)}.json`;
}

async function readHolder(outPath: string): Promise<BatchLockHolder | null> {
  try {
    const value = JSON.parse(await readFile(lockHolderPathOf(outPath), 'utf8')) as Partial<BatchLockHolder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string' || typeof value.startedAt !== 'string') return null;
    return {
      pid: value.pid,
      host: value.host,
      startedAt: value.startedAt,
      command: typeof value.command === 'string' ? value.command : '',
    };
  } catch {
    return null;
  }
}

/** True unless `pid` is certainly gone (ESRCH); a process of another user (EPERM) is alive. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function lockedMessage(outPath: string, holder: BatchLockHolder | null): string {
  const who = holder
    ? `another assay batch (pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, started ${holder.startedAt})`
    : 'another assay batch';
  return `${outPath} is being written by ${who}: wait for it to end, or give another --out.`;
}

/**
 * Take the lock of the batch output `outPath` (an absolute path; the file need not exist). The
 * lock is keyed by the real path of its folder, so two spellings of one output are one lock.
 * Throws `BatchLockError` when another live run holds it (the message names its pid and start
 * time) or when the folder does not exist. When the holder was a process of this machine that
 * has ended, waits (telling `onWait`) up to the staleness for its lock to go stale, then takes it.
 */
export async function lockBatchOutput(outPath: string, options: LockBatchOptions): Promise<BatchLock> {
  const staleMs = options.staleMs ?? LOCK_STALE_MS;
  let canonical: string;
  try {
    canonical = join(await realpath(dirname(outPath)), basename(outPath));
  } catch {
    throw new BatchLockError(`the folder of ${outPath} does not exist: create it, or give another --out.`);
  }
  const lockOptions = {
    realpath: false,
    lockfilePath: lockPathOf(canonical),
    stale: staleMs,
    onCompromised: options.onCompromised,
  };
  const { lock } = await import('proper-lockfile');
  let release: () => Promise<void>;
  try {
    release = await lock(canonical, lockOptions);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED')
      throw new BatchLockError(`cannot lock ${outPath}: ${(error as Error).message}`);
    const holder = await readHolder(canonical);
    if (!holder || holder.host !== hostname() || processAlive(holder.pid)) throw new BatchLockError(lockedMessage(outPath, holder));
    options.onWait?.(
      `the batch that held ${outPath} (pid ${holder.pid}, started ${holder.startedAt}) ended without releasing it; taking its lock over once it is stale (at most ${Math.ceil(staleMs / 1000)} s)`,
    );
    try {
      // proper-lockfile takes a lock over once its mtime is older than `stale`: try each second until then.
      release = await lock(canonical, {
        ...lockOptions,
        retries: { retries: Math.ceil(staleMs / 1000) + 2, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
      });
    } catch (retryError) {
      if ((retryError as NodeJS.ErrnoException).code === 'ELOCKED')
        throw new BatchLockError(lockedMessage(outPath, await readHolder(canonical)));
      throw new BatchLockError(`cannot lock ${outPath}: ${(retryError as Error).message}`);
    }
  }
  const holder: BatchLockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command: options.command };
  await writeFile(lockHolderPathOf(canonical), JSON.stringify(holder) + '\n');
  return {
    release: async () => {
      await rm(lockHolderPathOf(canonical), { force: true });
      await release().catch(() => undefined);
    },
  };
}
