/**
 * Runs SLM-MATRIX inside the extension (in the offscreen document, next to the WebLLM engine):
 * one `runMatrix` per `matrix-start`, written to the `runs` table as it goes — progress per model
 * call, each property's verdicts as soon as it is decided, the run record at the end — so the side
 * panel can close and reopen without losing anything. `matrix-cancel` aborts the run's signal; a
 * lost GPU device reloads the engine and resumes with the properties not yet decided.
 */
import type { MatrixRunRow, MatrixRunSettings, EngineSettings } from '../contracts/matrix-run';
import { failureResponse, type ResponseOf } from '../contracts/messages';
import { engineRegistry } from '../llm/engines/registry';
import { isUnusableReply } from '../llm/generate-object';
import { toLlmError } from '../llm/llm-port';
import type { EngineRun } from '../llm/engines/engine-kind';
import { UsageMeter } from '../llm/usage-meter';
import { defaultMatrixDependencies } from '../matrix/default-dependencies';
import { runMatrix } from '../matrix/pipeline';
import { presetByName } from '../matrix/presets';
import { createSeededRandom } from '../matrix/random';
import type { EngineCheck } from '../contracts/run-record';
import { MatrixInterrupted } from '../matrix/run-record';
import { propertyCatalogue, type PropertyDefinition } from '../properties';
import type { AssayDatabase } from '../store/assay-database';
import { getPaper } from '../store/paper-repository';
import {
  appendPropertyRecords,
  createRun,
  finishRun,
  getRun,
  markStaleRunsInterrupted,
  type MatrixRunEnd,
  recordEngineStatus,
  recordProgress,
  recordResume,
} from '../store/run-repository';
import type { RunRecord } from '../contracts/run-record';
import type { VerificationRecord } from '../contracts/verification';

/** A model engine made for one run: the engine kind's `EngineRun` (src/llm/engines/engine-kind.ts). */
export type RunEngine = EngineRun;

export interface MatrixRunHostDependencies {
  database: AssayDatabase;
  /** Every property schema a run may ask for (by name). */
  properties: readonly PropertyDefinition[];
  /**
   * Make the engine for `settings`; `onStatus` takes what the engine is doing in words (model
   * download and compile progress) or null. Rejects with `LlmError` (no WebGPU, not enough GPU
   * memory, …); other errors are reported as `unavailable`.
   */
  createEngine: (settings: EngineSettings, onStatus: (text: string | null) => void) => Promise<RunEngine>;
  /** New run id; default `crypto.randomUUID()`. */
  newId?: () => string;
  now?: () => Date;
}

/** Resumes after a lost GPU device before the run gives up (one flaky device is recoverable; a loop is not). */
export const MAX_DEVICE_LOST_RESUMES = 2;

/**
 * The `error.code` of a run stopped because its own row could not be written (storage full, the
 * database closed): the run is stored `interrupted` with this code and what was saved
 * (`runWriteFailureMessage`), so it is never left `running`.
 */
export const RUN_WRITE_FAILED = 'storage-failed';

/** What the browser closing mid-run leaves behind, in the user's words. */
export const STALE_RUN_MESSAGE = 'The run stopped when the browser or the model engine closed. Results decided before that are kept.';

export interface MatrixRunHost {
  /** Check the request (paper saved, properties known), store a `running` row and start the run; → its id. Never rejects. */
  start(settings: MatrixRunSettings): Promise<ResponseOf<'matrix-start'>>;
  /** Abort the run's signal. `cancelled` false when the id is not a run going on here. */
  cancel(runId: string): ResponseOf<'matrix-cancel'>;
  /** Mark rows left `running` by an earlier document as interrupted (`STALE_RUN_MESSAGE`); → how many. */
  sweepStaleRuns(): Promise<number>;
  /** Resolves when the run ends (stored as done, cancelled or interrupted); for tests and shutdown. */
  settled(runId: string): Promise<MatrixRunRow | undefined>;
}

/**
 * Build the host. Runs are independent (each has its own AbortController, RNG and usage meter);
 * runs on an OpenAI-compatible server may overlap (the server queues them), while the in-browser
 * WebLLM engine takes one run at a time (`createRunEngineFactory` refuses a second in words).
 * Trade-off: the row is written on every progress event (a few writes per model call at most,
 * and a model call takes seconds) rather than throttled, so the panel never shows stale progress.
 */
export function createMatrixRunHost(deps: MatrixRunHostDependencies): MatrixRunHost {
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const controllers = new Map<string, AbortController>();
  const runs = new Map<string, Promise<MatrixRunRow | undefined>>();

  async function start(settings: MatrixRunSettings): Promise<ResponseOf<'matrix-start'>> {
    const preset = presetByName(settings.preset);
    if (!preset) return failureResponse('bad-request', `Unknown preset "${settings.preset}".`);
    const known = availableProperties(deps.properties, settings);
    const unknown = settings.properties.filter((name) => !known.some((property) => property.name === name));
    if (unknown.length > 0)
      return failureResponse('bad-request', `Unknown propert${unknown.length === 1 ? 'y' : 'ies'}: ${unknown.join(', ')}.`);
    const paper = await getPaper(deps.database, settings.paperKey);
    if (!paper) return failureResponse('bad-request', 'That paper is not in your dataset any more: capture the page again, then extract.');
    const id = newId();
    // The row keeps the settings for the record, but never a server's API key.
    await createRun(deps.database, withoutApiKey(settings), { id, now: now() });
    const controller = new AbortController();
    controllers.set(id, controller);
    const done = execute(id, settings, paper.article, controller.signal)
      .catch((error: unknown) => {
        // A failed write of the run's row (or a fault) ends the run: stop it, so no more model calls are paid for.
        controller.abort();
        return storeWriteFailure(id, error);
      })
      .finally(() => controllers.delete(id));
    runs.set(id, done);
    return { ok: true, runId: id };
  }

  /** End run `id`, the write wrapped by `stored` (a failure becomes a `RunWriteError`). */
  const finish = (
    id: string,
    ending: { status: MatrixRunEnd; run?: RunRecord; error?: { code: string; message: string }; records?: VerificationRecord[] },
  ) => stored('the end of the run', finishRun(deps.database, id, ending, now()));

  /**
   * After a write of run `id` failed (or anything else escaped the run): store the run as
   * `interrupted` with `RUN_WRITE_FAILED` and, in words, what could not be stored, why, and what
   * is saved — the records and properties already in the row stay, nothing more is written (the
   * write that failed may have been the large one). If even that write fails, the row is left
   * for the next start's sweep (`sweepStaleRuns`) and the failure goes to the console.
   */
  async function storeWriteFailure(id: string, error: unknown): Promise<MatrixRunRow | undefined> {
    try {
      const row = await getRun(deps.database, id);
      const code = error instanceof RunWriteError ? RUN_WRITE_FAILED : 'internal';
      return await finishRun(
        deps.database,
        id,
        { status: 'interrupted', error: { code, message: runWriteFailureMessage(error, row) } },
        now(),
      );
    } catch (second) {
      console.error(`Assay run ${id} could not be stored, nor marked as stopped:`, error, second);
      return undefined;
    }
  }

  async function execute(
    id: string,
    settings: MatrixRunSettings,
    article: Parameters<typeof runMatrix>[0],
    signal: AbortSignal,
  ): Promise<MatrixRunRow | undefined> {
    let engine: RunEngine;
    try {
      engine = await deps.createEngine(
        settings.engine,
        (text) => void recordEngineStatus(deps.database, id, text, now()).catch(logWriteFailure),
      );
    } catch (error) {
      const reason = toLlmError(error);
      return finish(id, { status: 'interrupted', error: { code: reason.code, message: reason.message } });
    }
    try {
      return await runWith(id, settings, article, signal, engine);
    } finally {
      engine.dispose?.();
    }
  }

  async function runWith(
    id: string,
    settings: MatrixRunSettings,
    article: Parameters<typeof runMatrix>[0],
    signal: AbortSignal,
    engine: RunEngine,
  ): Promise<MatrixRunRow | undefined> {
    const preset = presetByName(settings.preset)!;
    const known = availableProperties(deps.properties, settings);
    const properties = settings.properties.map((name) => known.find((property) => property.name === name)!);
    const startedMs = now().getTime();
    const records: VerificationRecord[] = [];
    const decided = new Set<string>();
    const meter = new UsageMeter(engine.llm);
    const rng = createSeededRandom(settings.seed);
    let resumes = 0;
    let lastRun: RunRecord | undefined;
    let engineCheck: EngineCheck | undefined;
    if (engine.check) {
      try {
        engineCheck = await engine.check(meter.stage(ENGINE_CHECK_STAGE), signal);
      } catch (error) {
        const reason = toLlmError(error);
        const cancelled = signal.aborted || reason.code === 'aborted';
        return finish(id, {
          status: cancelled ? 'cancelled' : 'interrupted',
          records,
          error: {
            code: reason.code,
            message: cancelled
              ? 'Stopped during the engine check, before any fact was decided.'
              : isUnusableReply(error)
                ? engineCheckFailure(reason.message)
                : reason.message,
          },
        });
      }
    }
    const withEngine = (run: RunRecord): RunRecord => {
      const counted = engine.modelLoads ? { ...run, modelLoads: engine.modelLoads() } : run;
      return engineCheck ? { ...counted, engineCheck } : counted;
    };
    for (;;) {
      const remaining = properties.filter((property) => !decided.has(property.name));
      try {
        const result = await runMatrix(
          article,
          {
            properties: remaining,
            preset,
            models: engine.models,
            seed: settings.seed,
            ...(engine.parallel ? { parallel: engine.parallel } : {}),
          },
          defaultMatrixDependencies({
            llm: engine.llm,
            usage: meter,
            seed: settings.seed,
            rng,
            signal,
            schemas: known,
            ...(engine.embeddings ? { embeddings: engine.embeddings } : {}),
            onProgress: (event) => void recordProgress(deps.database, id, event, now()).catch(logWriteFailure),
            onPropertyDone: async (property, propertyRecords) => {
              decided.add(property.property);
              records.push(...propertyRecords);
              await stored(
                `the verdicts of ${property.property}`,
                appendPropertyRecords(deps.database, id, property.property, [...propertyRecords], now()),
              );
            },
          }),
        );
        lastRun = withEngine(mergeRun(lastRun, result.run, startedMs, now()));
        return await finish(id, { status: 'done', run: lastRun, records });
      } catch (error) {
        // A write that failed ends the run as such (`storeWriteFailure`), not as a model failure.
        if (error instanceof RunWriteError) throw error;
        if (!(error instanceof MatrixInterrupted)) {
          const reason = toLlmError(error);
          return finish(id, {
            status: 'interrupted',
            ...(lastRun ? { run: lastRun } : {}),
            records,
            error: { code: reason.code, message: reason.message },
          });
        }
        lastRun = withEngine(mergeRun(lastRun, error.partial.run, startedMs, now()));
        const canResume =
          error.reason.code === 'device-lost' && !signal.aborted && resumes < MAX_DEVICE_LOST_RESUMES && engine.recover !== undefined;
        if (canResume && (await engine.recover!(error.reason).catch(() => false))) {
          resumes += 1;
          await stored('the resume count', recordResume(deps.database, id, now()));
          continue;
        }
        return finish(id, {
          status: error.cancelled ? 'cancelled' : 'interrupted',
          run: lastRun,
          records,
          error: {
            code: error.reason.code,
            message: error.cancelled ? 'Stopped. Results decided before the stop are kept.' : error.reason.message,
          },
        });
      }
    }
  }

  return {
    start: (settings) =>
      start(settings).catch((error: unknown) =>
        failureResponse('internal', `The run could not start: ${error instanceof Error ? error.message : String(error)}`),
      ),
    cancel(runId) {
      const controller = controllers.get(runId);
      if (!controller) return { ok: true, cancelled: false };
      controller.abort();
      return { ok: true, cancelled: true };
    },
    sweepStaleRuns: () => markStaleRunsInterrupted(deps.database, STALE_RUN_MESSAGE, now()),
    settled: async (runId) => runs.get(runId),
  };
}

/**
 * The run's catalogue: the built-in schemas, then the reader's own (`settings.extraProperties`); a
 * reader's schema with a built-in name replaces it (`propertyCatalogue`, the catalogue the side
 * panel's display units read: `runDisplayUnits`).
 */
function availableProperties(builtIn: readonly PropertyDefinition[], settings: MatrixRunSettings): PropertyDefinition[] {
  return propertyCatalogue(settings.extraProperties ?? [], builtIn);
}

/** A write of the run's row that failed: what was being written ("the verdicts of band_gap") and the storage's error. */
class RunWriteError extends Error {
  constructor(
    readonly what: string,
    cause: unknown,
  ) {
    super(`Could not store ${what}: ${describeError(cause)}`, { cause });
    this.name = 'RunWriteError';
  }
}

/** `write`, its rejection turned into a `RunWriteError` naming `what`. */
function stored<T>(what: string, write: Promise<T>): Promise<T> {
  return write.catch((error: unknown) => {
    throw new RunWriteError(what, error);
  });
}

/**
 * The storage error's name and the first line of its message ("QuotaExceededError: The quota has
 * been exceeded."; Dexie appends its inner error's lines to the message), naming the inner error
 * too when Dexie wrapped one of another kind (an `AbortError` over a `QuotaExceededError`).
 */
function describeError(error: unknown): string {
  const line = (text: string) => text.split('\n')[0]!.trim();
  if (!(error instanceof Error)) return line(String(error));
  const text = `${error.name}: ${line(error.message)}`;
  const inner = (error as { inner?: unknown }).inner;
  return inner instanceof Error && inner.name !== error.name ? `${text} (${inner.name}: ${line(inner.message)})` : text;
}

/**
 * The words stored with a run stopped by a failed write (`RUN_WRITE_FAILED`): what could not be
 * stored and why, what the stored `row` holds (its properties done, of those asked), and what to
 * do — free space when the storage is full (IndexedDB's `QuotaExceededError`), else try again.
 * Any other `error` that escaped the run is named as an unexpected error, with the same account
 * of what is saved.
 */
export function runWriteFailureMessage(error: unknown, row: MatrixRunRow | undefined): string {
  const detail = describeError(error instanceof RunWriteError ? error.cause : error);
  const done = row?.propertiesDone ?? [];
  const asked = row?.settings.properties.length ?? done.length;
  const saved =
    done.length === 0
      ? 'No verdict was saved before that.'
      : `Saved before that: the verdicts of ${done.length} of ${asked} ${asked === 1 ? 'property' : 'properties'} (${done.join(', ')}), which you can review.`;
  const advice = /QuotaExceeded|quota/i.test(detail)
    ? 'The browser’s storage for Assay is full: free space (delete papers or runs you no longer need, or cached models in Settings), then run the paper again.'
    : 'Run the paper again; if it happens again, reload the extension.';
  return error instanceof RunWriteError
    ? `Assay could not store ${error.what} (${detail}), so the run was stopped. ${saved} ${advice}`
    : `The run stopped on an unexpected error (${detail}). ${saved} Run the paper again.`;
}

/** A progress line that could not be stored (storage full, database closing): the run goes on; say it where a developer looks. */
function logWriteFailure(error: unknown): void {
  console.warn('Assay could not store run progress:', error);
}

/** `settings` without its engine's secrets (the API key): the run row keeps no secret. */
function withoutApiKey(settings: MatrixRunSettings): MatrixRunSettings {
  const engine = engineRegistry.withoutSecrets(settings.engine);
  return engine === settings.engine ? settings : { ...settings, engine };
}

/** The usage stage of the engine check (`RunRecord.usage.byStage`). */
export const ENGINE_CHECK_STAGE = 'engine-check';

/** Why a run stopped at its engine check, in words: the check's failure and what it means. */
function engineCheckFailure(detail: string): string {
  return `The model failed the engine check (one short question with a two-word JSON answer), so it would fail the run's calls too: ${detail}`;
}

/**
 * Merge the run record of a resumed segment into the previous one: properties are appended, the
 * usage (one meter for the whole run) and counts are the newest, the time runs from the start.
 */
function mergeRun(previous: RunRecord | undefined, next: RunRecord, startedMs: number, at: Date): RunRecord {
  const properties = [...(previous?.properties ?? []), ...next.properties];
  const counts = { verified: 0, needs_review: 0, rejected: 0 };
  for (const run of [previous, next])
    if (run) for (const status of Object.keys(counts) as Array<keyof typeof counts>) counts[status] += run.counts[status];
  return { ...next, properties, counts, milliseconds: Math.max(0, at.getTime() - startedMs) };
}
