/**
 * Progress of a batch on stderr: on a terminal, a cli-progress bar (papers done/total, failures,
 * triplets, calls per second, tokens per second, ETA) with each failure logged above it; when
 * stderr is not a terminal (a log file, CI), one plain line per paper that ends.
 */
import cliProgress from 'cli-progress';
import { terminalSafe, type TerminalLike } from '../terminal-output';
import type { BatchEvent } from './batch-run';

/** Model usage so far (a counting port's totals). */
export interface UsageCounts {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export interface BatchProgressOptions {
  terminal: TerminalLike;
  /** Papers in the batch. */
  total: number;
  usage: () => UsageCounts;
  /** Monotonic milliseconds; default `performance.now`. */
  clock?: () => number;
}

export interface BatchProgress {
  onEvent(event: BatchEvent): void;
  /** A line about the batch as a whole (resume notes, warnings), kept above the bar. */
  note(text: string): void;
  stop(): void;
}

/** Rates and ETA from what ended so far: `ended` papers of `total` in `elapsedSeconds`. */
export function progressFigures(
  counts: { ended: number; skipped: number; total: number },
  usage: UsageCounts,
  elapsedSeconds: number,
): { callsPerSecond: number; tokensPerSecond: number; etaSeconds: number | null } {
  const seconds = Math.max(elapsedSeconds, 1e-3);
  // Skipped papers cost almost nothing: the pace is that of the papers worked on.
  const worked = counts.ended - counts.skipped;
  const remaining = counts.total - counts.ended;
  return {
    callsPerSecond: usage.calls / seconds,
    tokensPerSecond: (usage.promptTokens + usage.completionTokens) / seconds,
    etaSeconds: remaining === 0 ? 0 : worked > 0 ? (seconds / worked) * remaining : null,
  };
}

/** "1 h 02 min", "3 min 05 s", "12 s", "?" for an unknown time. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '?';
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (minutes > 0) return `${minutes} min ${String(rest).padStart(2, '0')} s`;
  return `${rest} s`;
}

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * The progress display for a batch (module comment). Text from outside (file names, error
 * messages) is made safe with `terminalSafe` before it reaches the terminal, whose writes skip
 * the command's guard so the bar can move the cursor.
 */
export function createBatchProgress(options: BatchProgressOptions): BatchProgress {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const counts = { ended: 0, done: 0, skipped: 0, failed: 0, triplets: 0, total: options.total };
  const figures = () => progressFigures(counts, options.usage(), (clock() - started) / 1000);
  const line = (text: string): void => void options.terminal.write(terminalSafe(text) + '\n');

  if (!options.terminal.isTTY) {
    const status = (): string => {
      const { callsPerSecond, tokensPerSecond, etaSeconds } = figures();
      return `${counts.failed} failed, ${counts.triplets} triplets, ${number.format(callsPerSecond)} calls/s, ${number.format(tokensPerSecond)} tokens/s, ETA ${formatDuration(etaSeconds)}`;
    };
    let skippedUnreported = 0;
    return {
      onEvent(event) {
        if (event.type === 'started') return;
        counts.ended += 1;
        const position = `[${counts.ended}/${counts.total}]`;
        if (event.type === 'skipped') {
          counts.skipped += 1;
          skippedUnreported += 1;
          return;
        }
        if (skippedUnreported > 0) {
          line(`assay extract: skipped ${skippedUnreported} papers finished before`);
          skippedUnreported = 0;
        }
        if (event.type === 'done') {
          counts.done += 1;
          counts.triplets += event.rows;
          line(
            `assay extract: ${position} done ${event.file} (${event.rows} ${event.rows === 1 ? 'triplet' : 'triplets'}, ${event.seconds} s); ${status()}`,
          );
        } else {
          counts.failed += 1;
          line(`assay extract: ${position} failed ${event.file}: ${event.message} [${event.code}]; ${status()}`);
        }
      },
      note: (text) => line(`assay extract: ${text}`),
      stop() {
        if (skippedUnreported > 0) line(`assay extract: skipped ${skippedUnreported} papers finished before`);
      },
    };
  }

  const bars = new cliProgress.MultiBar(
    {
      stream: options.terminal as unknown as NodeJS.WriteStream,
      format:
        '{bar} {value}/{total} papers | {failed} failed | {triplets} triplets | {callsPerSecond} calls/s | {tokensPerSecond} tok/s | ETA {eta}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = () => {
    const { callsPerSecond, tokensPerSecond, etaSeconds } = figures();
    return {
      failed: counts.failed,
      triplets: counts.triplets,
      callsPerSecond: number.format(callsPerSecond),
      tokensPerSecond: number.format(tokensPerSecond),
      eta: formatDuration(etaSeconds),
    };
  };
  const bar = bars.create(options.total, 0, payload());
  // Rates move while calls are answered, between papers: refresh them once a second.
  const timer = setInterval(() => bar.update(counts.ended, payload()), 1000);
  timer.unref();
  return {
    onEvent(event) {
      if (event.type === 'started') return;
      counts.ended += 1;
      if (event.type === 'skipped') counts.skipped += 1;
      else if (event.type === 'done') {
        counts.done += 1;
        counts.triplets += event.rows;
      } else {
        counts.failed += 1;
        bars.log(terminalSafe(`failed ${event.file}: ${event.message} [${event.code}]`) + '\n');
      }
      bar.update(counts.ended, payload());
    },
    note: (text) => bars.log(terminalSafe(text) + '\n'),
    stop() {
      clearInterval(timer);
      bar.update(counts.ended, payload());
      bars.stop();
    },
  };
}
