/**
 * `assay` as a real child process, for the tests of hangs, locks and special files: spawned in
 * its own process group, and the whole group killed with SIGKILL when it outlives `limitMs`
 * (or when the test ends early), so a hanging run never outlives its test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from './shared-data';

/** How one run ended. `timedOut`: killed at `limitMs` (then `code` is null and `signal` SIGKILL). */
export interface AssayRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from spawn to exit. */
  ms: number;
  timedOut: boolean;
}

export interface AssayProcess {
  child: ChildProcess;
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<AssayRun>;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the time (performance.now) when stderr first matches `pattern`; rejects on exit without it. */
  stderrMatch(pattern: RegExp): Promise<number>;
  /** SIGKILL to the process group (the node process and anything it started). */
  kill(): void;
}

const running = new Set<ChildProcess>();

/** Kill every process group `startAssay` started that is still running (for afterEach/afterAll). */
export function killAllAssay(): void {
  for (const child of running) killGroup(child);
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Start `node bin/assay.mjs ...args` in `cwd` (default: the project root) with `env` added to
 * this process's environment. After `limitMs` (default 60 s) the process group is killed.
 */
export function startAssay(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; limitMs?: number } = {},
): AssayProcess {
  const started = performance.now();
  const child = spawn(process.execPath, [join(projectRoot, 'bin', 'assay.mjs'), ...args], {
    cwd: options.cwd ?? projectRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  const watchers: Array<{ pattern: RegExp; resolve: (at: number) => void; reject: (error: Error) => void }> = [];
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const watcher of watchers.splice(0)) {
      if (watcher.pattern.test(stderr)) watcher.resolve(performance.now());
      else watchers.push(watcher);
    }
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, options.limitMs ?? 60_000);
  const exited = new Promise<AssayRun>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      for (const watcher of watchers.splice(0))
        watcher.reject(new Error(`assay exited without printing ${watcher.pattern}; stderr: ${stderr}`));
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started, timedOut });
    }),
  );
  return {
    child,
    exited,
    stderr: () => stderr,
    stderrMatch: (pattern) => {
      if (pattern.test(stderr)) return Promise.resolve(performance.now());
      if (!running.has(child)) return Promise.reject(new Error(`assay exited without printing ${pattern}; stderr: ${stderr}`));
      return new Promise((resolve, reject) => watchers.push({ pattern, resolve, reject }));
    },
    kill: () => killGroup(child),
  };
}

/** `startAssay(...).exited`. */
export function runAssay(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; limitMs?: number } = {},
): Promise<AssayRun> {
  return startAssay(args, options).exited;
}
