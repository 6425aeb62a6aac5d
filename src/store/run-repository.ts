/**
 * Reads and writes of SLM-MATRIX runs (`runs` table). The run's host (the offscreen document) is
 * the only writer: it creates the row when a run starts, records progress while it goes, appends
 * each property's verdicts as that property finishes, and finishes the row. The side panel reads
 * rows live with `useLiveQuery`, so every write is an ordinary Dexie write in a `rw` transaction.
 *
 * Every function takes the database first (no module-level instance). Times are ISO 8601 strings
 * from the `now` argument (default: the current time), so tests choose them.
 *
 * Trade-off: updates during a run apply only while the row is `running`, so an event that arrives
 * after Stop (a model call already in flight) cannot change a finished row; such a write returns
 * false instead of throwing, because it is expected, not a fault.
 */
import { Dexie } from 'dexie';
import {
  MatrixRunSettingsSchema,
  RunReviewSchema,
  type MatrixRunRow,
  type MatrixRunSettings,
  type RunReview,
} from '../contracts/matrix-run';
import { engineRegistry } from '../llm/engines/registry';
import type { VerificationRecord } from '../matrix/cross-verify-refine';
import type { MatrixProgress } from '../matrix/pipeline';
import type { RunRecord } from '../matrix/run-record';
import type { AssayDatabase } from './assay-database';

/** How a run ended (every status but `running`). */
export type MatrixRunEnd = 'done' | 'cancelled' | 'interrupted';

/**
 * Start a run: validate `settings` and add its row — `status: 'running'`, `startedAt` and
 * `updatedAt` = `now`, no progress or engine status yet, no properties done, no records, 0
 * resumes. `id` is the caller's random UUID. Resolves to the row as stored (with the parsed
 * settings: unknown keys dropped).
 *
 * Throws a `ZodError` when `settings` does not match `MatrixRunSettingsSchema`, or its engine
 * settings do not match their kind's schema (`engineRegistry.settingsSchema()`; nothing is
 * written), and rejects with Dexie's `ConstraintError` when a row with `id` already exists.
 */
export async function createRun(
  database: AssayDatabase,
  settings: MatrixRunSettings,
  { id, now = new Date() }: { id: string; now?: Date },
): Promise<MatrixRunRow> {
  const loose = MatrixRunSettingsSchema.parse(settings);
  const parsed: MatrixRunSettings = { ...loose, engine: engineRegistry.settingsSchema().parse(loose.engine) };
  const time = now.toISOString();
  const row: MatrixRunRow = {
    id,
    paperKey: parsed.paperKey,
    status: 'running',
    settings: parsed,
    startedAt: time,
    updatedAt: time,
    progress: null,
    engineStatus: null,
    propertiesDone: [],
    records: [],
    resumes: 0,
  };
  await database.transaction('rw', database.runs, () => database.runs.add(row));
  return row;
}

/**
 * Read the row `id` and, if it is still `running`, store it with `change(row)` merged in and
 * `updatedAt` = `time`, all in one `rw` transaction (so a read-modify-write cannot interleave
 * with another). Resolves to true when written; false when the row is missing or finished.
 */
async function changeWhileRunning(
  database: AssayDatabase,
  id: string,
  time: string,
  change: (row: MatrixRunRow) => Partial<MatrixRunRow>,
): Promise<boolean> {
  return database.transaction('rw', database.runs, async () => {
    const row = await database.runs.get(id);
    if (row?.status !== 'running') return false;
    await database.runs.put({ ...row, ...change(row), updatedAt: time });
    return true;
  });
}

/**
 * Store the pipeline's latest progress event on run `id` (one per model call, a few a second at
 * most). Resolves to false, writing nothing, when the run is missing or no longer `running`.
 */
export async function recordProgress(
  database: AssayDatabase,
  id: string,
  progress: MatrixProgress,
  now: Date = new Date(),
): Promise<boolean> {
  return changeWhileRunning(database, id, now.toISOString(), () => ({ progress }));
}

/**
 * Store what the engine is doing in words (e.g. "Downloading Qwen2.5-1.5B: 120 MB, 17%"), or
 * null to clear it. Resolves to false, writing nothing, when the run is missing or not `running`.
 */
export async function recordEngineStatus(
  database: AssayDatabase,
  id: string,
  text: string | null,
  now: Date = new Date(),
): Promise<boolean> {
  return changeWhileRunning(database, id, now.toISOString(), () => ({ engineStatus: text }));
}

/**
 * A property finished: append its verdicts to `records` and its name to `propertiesDone`,
 * atomically (read-modify-write in one transaction, so two appends fired together both land, in
 * the order they were called). Resolves to false, writing nothing, when the run is missing or
 * not `running`.
 */
export async function appendPropertyRecords(
  database: AssayDatabase,
  id: string,
  property: string,
  records: readonly VerificationRecord[],
  now: Date = new Date(),
): Promise<boolean> {
  return changeWhileRunning(database, id, now.toISOString(), (row) => ({
    propertiesDone: [...row.propertiesDone, property],
    records: [...row.records, ...records],
  }));
}

/**
 * The engine was reloaded after a lost GPU device and the run goes on: add 1 to `resumes`.
 * Resolves to false, writing nothing, when the run is missing or not `running`.
 */
export async function recordResume(database: AssayDatabase, id: string, now: Date = new Date()): Promise<boolean> {
  return changeWhileRunning(database, id, now.toISOString(), (row) => ({ resumes: row.resumes + 1 }));
}

/**
 * End run `id` with `status` (`done`, `cancelled` for Stop, `interrupted` for a model failure):
 * set `finishedAt` and `updatedAt` to `now`, and `run` (the run record) and `error` when given.
 * `records`, when given, replaces the stored records (the final full list); otherwise the
 * appended ones stay. Resolves to the row as stored; a row already finished is left as it was
 * and returned unchanged (the first ending wins); `undefined` when there is no row `id`.
 */
export async function finishRun(
  database: AssayDatabase,
  id: string,
  ending: { status: MatrixRunEnd; run?: RunRecord; error?: { code: string; message: string }; records?: readonly VerificationRecord[] },
  now: Date = new Date(),
): Promise<MatrixRunRow | undefined> {
  const time = now.toISOString();
  return database.transaction('rw', database.runs, async () => {
    const row = await database.runs.get(id);
    if (row?.status !== 'running') return row;
    const finished: MatrixRunRow = {
      ...row,
      status: ending.status,
      finishedAt: time,
      updatedAt: time,
      ...(ending.run !== undefined && { run: ending.run }),
      ...(ending.error !== undefined && { error: ending.error }),
      ...(ending.records !== undefined && { records: [...ending.records] }),
    };
    await database.runs.put(finished);
    return finished;
  });
}

/** The run `id`, or `undefined`. */
export async function getRun(database: AssayDatabase, id: string): Promise<MatrixRunRow | undefined> {
  return database.runs.get(id);
}

/** The runs of the paper `paperKey` (`doi:…`, `url:…`, `title:…`) through the `[paperKey+startedAt]` index, oldest first. */
function runsOfPaper(database: AssayDatabase, paperKey: string) {
  return database.runs.where('[paperKey+startedAt]').between([paperKey, Dexie.minKey], [paperKey, Dexie.maxKey], true, true);
}

/** The paper's most recently started run (any status), or `undefined` when it has none. */
export async function latestRunForPaper(database: AssayDatabase, paperKey: string): Promise<MatrixRunRow | undefined> {
  return runsOfPaper(database, paperKey).last();
}

/** Every run of the paper, most recently started first. */
export async function listRunsForPaper(database: AssayDatabase, paperKey: string): Promise<MatrixRunRow[]> {
  return runsOfPaper(database, paperKey).reverse().toArray();
}

/**
 * At the host's start-up: a row still `running` belongs to a run whose page is gone (the browser
 * or the offscreen document closed mid-run). Mark each `interrupted` with
 * `error: { code: 'interrupted', message }`, `finishedAt`/`updatedAt` = `now`, keeping its
 * records and properties done. Resolves to the number of rows changed.
 */
export async function markStaleRunsInterrupted(database: AssayDatabase, message: string, now: Date = new Date()): Promise<number> {
  const time = now.toISOString();
  return database.transaction('rw', database.runs, () =>
    database.runs
      .where('status')
      .equals('running')
      .modify((row) => {
        row.status = 'interrupted';
        row.error = { code: 'interrupted', message };
        row.finishedAt = time;
        row.updatedAt = time;
      }),
  );
}

/**
 * Store the reader's review of `records[recordIndex]` of run `id` (the side panel, as each
 * decision happens). Unlike the run's own updates this works on finished rows too: review
 * happens after a run ends. `updatedAt` is left alone (it tracks the run, not the reader).
 * Resolves to false, writing nothing, when the row is missing or `recordIndex` is not an index
 * of `records`. Throws a `ZodError` when `review` does not match `RunReviewSchema`.
 */
export async function recordReview(database: AssayDatabase, id: string, recordIndex: number, review: RunReview): Promise<boolean> {
  const parsed = RunReviewSchema.parse(review);
  return database.transaction('rw', database.runs, async () => {
    const row = await database.runs.get(id);
    if (!row || !Number.isInteger(recordIndex) || recordIndex < 0 || recordIndex >= row.records.length) return false;
    await database.runs.put({ ...row, reviews: { ...row.reviews, [recordIndex]: parsed } });
    return true;
  });
}

/**
 * The run's kept triplets were saved to the dataset: set `savedAt` to `now` (any status).
 * Resolves to false, writing nothing, when there is no row `id`.
 */
export async function markRunSaved(database: AssayDatabase, id: string, now: Date = new Date()): Promise<boolean> {
  const time = now.toISOString();
  return database.transaction('rw', database.runs, async () => (await database.runs.update(id, { savedAt: time })) === 1);
}
