/**
 * Running a batch: papers `concurrency` at a time (p-limit), each read, hashed, skipped when an
 * earlier run finished it, captured, extracted, turned into dataset rows and handed to the
 * output (`BatchOutput`) as one unit. A paper that fails is recorded with its error and the batch
 * goes on; a fired `signal` (Ctrl-C) starts no new paper and aborts those in flight, which are
 * then neither done nor failed (a rerun does them).
 */
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import type { Article } from '../../contracts/article';
import { DatasetTripletSchema, type DatasetTriplet, type SourcePaper } from '../../contracts/dataset';
import type { RunRecord } from '../../contracts/run-record';
import type { VerificationRecord } from '../../contracts/verification';
import { toDatasetTriplet } from '../../store/dataset-rows';
import { mergeTriplets } from '../../store/dataset-triplet';
import { paperKey } from '../../store/paper-record';
import type { PaperDone } from './batch-manifest';
import type { BatchOutput } from './batch-output';

/** A paper that could not be extracted, with a code ("not-found", "unreachable", "not-decided", …) and the reason in words. */
export class PaperFailure extends Error {
  override readonly name = 'PaperFailure';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What an engine made of one paper: every verdict, the model ids that took part, and the run record (model engines). */
export interface PaperExtraction {
  records: VerificationRecord[];
  models: string[];
  run?: RunRecord;
}

/** What happens to each paper, for progress and logs. `seconds` is the paper's own time. */
export type BatchEvent =
  | { type: 'started'; file: string }
  | { type: 'done'; file: string; rows: number; seconds: number }
  | { type: 'skipped'; file: string; reason: 'done-before' | 'same-content'; sameAs?: string }
  | { type: 'failed'; file: string; code: string; message: string; seconds: number };

export interface BatchRunOptions {
  files: readonly string[];
  /** Papers in flight at once (≥ 1). */
  concurrency: number;
  output: BatchOutput;
  /** Papers finished by earlier runs, by SHA-256. */
  doneBefore: ReadonlyMap<string, PaperDone>;
  /** The settings key of the batch (`settingsKey`), part of each paper's run id. */
  settingsKey: string;
  readFile: (file: string) => Promise<Uint8Array>;
  /** Capture the bytes of `file`; rejects with a `CaptureError` (its code is recorded). */
  capture: (bytes: Uint8Array, file: string) => Promise<Article>;
  /** Extract one paper; rejects with `PaperFailure` (or anything, recorded as `internal`). */
  extract: (article: Article, signal: AbortSignal) => Promise<PaperExtraction>;
  /** The time rows are saved at (the `SOURCE_DATE_EPOCH` convention is the caller's). */
  now: () => Date;
  /** Monotonic milliseconds. */
  clock?: () => number;
  signal: AbortSignal;
  onEvent?: (event: BatchEvent) => void;
}

export interface BatchRunSummary {
  papers: number;
  done: number;
  skipped: number;
  failed: number;
  /** Rows written in this run. */
  triplets: number;
  /** True when the signal stopped the batch before every paper ended. */
  interrupted: boolean;
}

/** Verdicts a batch writes: the verified ones and those left for the reader to review; machine-rejected ones are not facts. */
export function keptForReview(record: VerificationRecord): boolean {
  return record.status === 'verified' || record.status === 'needs_review';
}

/**
 * The run id of a paper in a batch: "batch-" and 24 hex digits of SHA-256(settings key, paper
 * SHA-256), so the same paper under the same settings always gets the same rows (ids
 * `<run id>:<record index>`, the extension's convention), however often the batch is resumed.
 */
export function batchRunId(settingsKey: string, paperSha256: string): string {
  return `batch-${createHash('sha256').update(`${settingsKey}:${paperSha256}`).digest('hex').slice(0, 24)}`;
}

/** The source paper of a captured article, as the dataset keeps it (`paperKey`: DOI, else URL, else title). */
export function sourcePaperOf(article: Article): SourcePaper {
  return {
    key: paperKey(article),
    doi: article.doi,
    url: article.url,
    title: article.title,
    authors: article.authors,
    journal: article.journal,
    year: article.year,
  };
}

/**
 * The dataset rows of one paper: `toDatasetTriplet` (the extension's row builder) for each kept
 * verdict (`keptForReview`), review pending, id `<runId>:<record index>`, checked against
 * `DatasetTripletSchema` so the file imports as it is. Verdicts stating the same fact (same
 * `mergeKey`: a model that gives one sentence's value twice) are one row, merged as the
 * extension's `saveTriplets` merges a run's rows (`mergeTriplets`: the first verdict's id and
 * status, votes and models joined), so each line is one fact and an import adds every line.
 * Throws `PaperFailure('row-invalid')` naming the first field a row breaks (a bug or an
 * over-long field, never silently dropped).
 */
export function paperRows(extraction: PaperExtraction, context: { paper: SourcePaper; runId: string; now: Date }): DatasetTriplet[] {
  const rows: DatasetTriplet[] = [];
  extraction.records.forEach((record, index) => {
    if (!keptForReview(record)) return;
    const row = toDatasetTriplet(record, {
      paper: context.paper,
      models: extraction.models,
      runId: context.runId,
      id: `${context.runId}:${index}`,
      now: context.now,
    });
    const checked = DatasetTripletSchema.safeParse(row);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new PaperFailure('row-invalid', `record ${index} cannot be a dataset row: ${issue.path.join('.')}: ${issue.message}`);
    }
    rows.push(checked.data);
  });
  return oneRowPerFact(rows);
}

/** `rows` with those sharing a `mergeKey` merged into the first of them (`mergeTriplets`), in first-seen order. */
function oneRowPerFact(rows: readonly DatasetTriplet[]): DatasetTriplet[] {
  const byKey = new Map<string, DatasetTriplet>();
  for (const row of rows) {
    const earlier = byKey.get(row.mergeKey);
    byKey.set(row.mergeKey, earlier ? mergeTriplets(earlier, row) : row);
  }
  return [...byKey.values()];
}

function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function failureOf(error: unknown): { code: string; message: string } {
  if (error instanceof PaperFailure) return { code: error.code, message: error.message };
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return { code: error.code, message: error.message };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Run the batch described by `options` (module comment). Resolves to the summary once every
 * paper ended or, after the signal, once the papers in flight stopped. Rejects only when the
 * output cannot be written (disk full, …): a batch whose results cannot be kept must stop.
 */
export async function runBatch(options: BatchRunOptions): Promise<BatchRunSummary> {
  const clock = options.clock ?? (() => performance.now());
  const limit = pLimit(Math.max(1, options.concurrency));
  const summary: BatchRunSummary = { papers: options.files.length, done: 0, skipped: 0, failed: 0, triplets: 0, interrupted: false };
  /** SHA-256 → the file that claimed it in this run (two files with the same bytes are one paper). */
  const claimed = new Map<string, string>();
  let writeError: unknown = null;
  const emit = (event: BatchEvent): void => options.onEvent?.(event);

  const runPaper = async (file: string): Promise<void> => {
    if (options.signal.aborted || writeError) return;
    const started = clock();
    const seconds = (): number => Math.round(clock() - started) / 1000;
    let sha256: string | null = null;
    try {
      const bytes = await options.readFile(file);
      sha256 = sha256Of(bytes);
      if (options.doneBefore.has(sha256)) {
        summary.skipped += 1;
        emit({ type: 'skipped', file, reason: 'done-before' });
        return;
      }
      const sameAs = claimed.get(sha256);
      if (sameAs !== undefined) {
        summary.skipped += 1;
        emit({ type: 'skipped', file, reason: 'same-content', sameAs });
        return;
      }
      claimed.set(sha256, file);
      emit({ type: 'started', file });
      const article = await options.capture(bytes, file);
      const extraction = await options.extract(article, options.signal);
      if (options.signal.aborted) return;
      const runId = batchRunId(options.settingsKey, sha256);
      const rows = paperRows(extraction, { paper: sourcePaperOf(article), runId, now: options.now() });
      const done = await writeDone(rows, {
        kind: 'paper',
        status: 'done',
        file,
        sha256,
        at: new Date().toISOString(),
        seconds: seconds(),
        calls: extraction.run?.calls ?? 0,
        promptTokens: extraction.run?.promptTokens ?? 0,
        completionTokens: extraction.run?.completionTokens ?? 0,
        rows: rows.length,
        runId,
        ...(extraction.run ? { run: extraction.run } : {}),
      });
      if (!done) return;
      summary.done += 1;
      summary.triplets += rows.length;
      emit({ type: 'done', file, rows: rows.length, seconds: seconds() });
    } catch (error) {
      if (options.signal.aborted || writeError) return;
      const { code, message } = failureOf(error);
      summary.failed += 1;
      emit({ type: 'failed', file, code, message, seconds: seconds() });
      if (sha256 === null) sha256 = sha256Of(new TextEncoder().encode(`unreadable:${file}`));
      await options.output
        .paperFailed({
          kind: 'paper',
          status: 'failed',
          file,
          sha256,
          at: new Date().toISOString(),
          seconds: seconds(),
          calls: 0,
          promptTokens: 0,
          completionTokens: 0,
          error: { code, message },
        })
        .catch((failure: unknown) => (writeError ??= failure));
    }
  };

  const writeDone = async (rows: DatasetTriplet[], entry: Omit<PaperDone, 'end'>): Promise<PaperDone | null> => {
    try {
      return await options.output.paperDone(
        rows.map((row) => JSON.stringify(row)),
        entry,
      );
    } catch (error) {
      writeError ??= error;
      return null;
    }
  };

  // After the signal, queued papers still get their turn and return at once (runPaper checks it
  // first): p-limit's clearQueue would leave their promises pending forever.
  await Promise.all(options.files.map((file) => limit(() => runPaper(file))));
  if (writeError) throw writeError;
  summary.interrupted = options.signal.aborted && summary.done + summary.skipped + summary.failed < summary.papers;
  return summary;
}
