/**
 * Reads and writes of SLM-MATRIX runs (`runs` table). The run's host (the offscreen document) is
 * the only writer: it creates the row when a run starts, records progress while it goes, appends
 * each property's verdicts as that property finishes, and finishes the row. The side panel reads
 * rows live with `useLiveQuery`, so every write is an ordinary Dexie write in a `rw` transaction.
 *
 * Every function takes the database first (no module-level instance). Times are ISO 8601 strings
 * from the `now` argument (default: the current time), so tests choose them.
 *
 * Every row read or written goes through `MatrixRunRowSchema` (src/contracts/matrix-run.ts). A
 * stored row that does not parse (written by an older version, or damaged) is reported through
 * the `report` argument (default: a console warning naming the row and the problem) and treated
 * as absent; it is never handed on half-read, and never crashes the reader.
 *
 * Trade-off: updates during a run apply only while the row is `running`, so an event that arrives
 * after Stop (a model call already in flight) cannot change a finished row; such a write returns
 * false instead of throwing, because it is expected, not a fault.
 */
import { Dexie } from 'dexie';
import {
  MatrixRunRowSchema,
  MatrixRunSettingsSchema,
  RunReviewSchema,
  type MatrixRunRow,
  type MatrixRunSettings,
  type RunReview,
} from '../contracts/matrix-run';
import type { VerificationRecord } from '../contracts/verification';
import type { MatrixProgress } from '../contracts/run-record';
import type { RunRecord } from '../contracts/run-record';
import { engineRegistry } from '../llm/engines/registry';
import type { AssayDatabase } from './assay-database';

/** A stored run row that does not match `MatrixRunRowSchema`: its id (if it has one) and what is wrong, in words. */
export interface UnreadableRun {
  id: string;
  problem: string;
}

/** Told about each unreadable row a read meets. */
export type UnreadableRunReporter = (unreadable: UnreadableRun) => void;

/** The default reporter: one console warning per unreadable row. */
export const warnUnreadableRun: UnreadableRunReporter = ({ id, problem }) =>
  console.warn(`Assay: the stored run ${id} could not be read and was skipped (${problem}).`);

/**
 * `value` (a row as Dexie returned it) checked against `MatrixRunRowSchema`: the row itself when
 * it parses (returned as stored, so nothing is stripped), else `undefined` after telling `report`
 * which row and which fields are wrong. `undefined` in, `undefined` out (no row, nothing to report).
 */
export function readRunRow(value: unknown, report: UnreadableRunReporter = warnUnreadableRun): MatrixRunRow | undefined {
  if (value === undefined) return undefined;
  const parsed = MatrixRunRowSchema.safeParse(value);
  if (parsed.success) return value as MatrixRunRow;
  const id =
    typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
      ? (value as { id: string }).id
      : '(no id)';
  const problem = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(row)'}: ${issue.message}`)
    .join('; ');
  report({ id, problem });
  return undefined;
}

/** Put `row` after checking it against `MatrixRunRowSchema` (throws a `ZodError`, writing nothing, when it does not match). */
async function putRunRow(database: AssayDatabase, row: MatrixRunRow): Promise<void> {
  MatrixRunRowSchema.parse(row);
  await database.runs.put(row);
}

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
  MatrixRunRowSchema.parse(row);
  await database.transaction('rw', database.runs, () => database.runs.add(row));
  return row;
}

/**
 * Read the row `id` and, if it is still `running`, store it with `change(row)` merged in and
 * `updatedAt` = `time`, all in one `rw` transaction (so a read-modify-write cannot interleave
 * with another). Resolves to true when written; false when the row is missing, unreadable (reported)
 * or finished.
 */
async function changeWhileRunning(
  database: AssayDatabase,
  id: string,
  time: string,
  change: (row: MatrixRunRow) => Partial<MatrixRunRow>,
): Promise<boolean> {
  return database.transaction('rw', database.runs, async () => {
    const row = readRunRow(await database.runs.get(id));
    if (row?.status !== 'running') return false;
    await putRunRow(database, { ...row, ...change(row), updatedAt: time });
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
 * and returned unchanged (the first ending wins); `undefined` when there is no readable row `id`.
 */
export async function finishRun(
  database: AssayDatabase,
  id: string,
  ending: { status: MatrixRunEnd; run?: RunRecord; error?: { code: string; message: string }; records?: readonly VerificationRecord[] },
  now: Date = new Date(),
): Promise<MatrixRunRow | undefined> {
  const time = now.toISOString();
  return database.transaction('rw', database.runs, async () => {
    const row = readRunRow(await database.runs.get(id));
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
    await putRunRow(database, finished);
    return finished;
  });
}

/** The run `id`, or `undefined` when there is none or it is unreadable (told to `report`). */
export async function getRun(database: AssayDatabase, id: string, report?: UnreadableRunReporter): Promise<MatrixRunRow | undefined> {
  return readRunRow(await database.runs.get(id), report);
}

/** The runs of the paper `paperKey` (`doi:…`, `url:…`, `title:…`) through the `[paperKey+startedAt]` index, oldest first. */
function runsOfPaper(database: AssayDatabase, paperKey: string) {
  return database.runs.where('[paperKey+startedAt]').between([paperKey, Dexie.minKey], [paperKey, Dexie.maxKey], true, true);
}

/**
 * The paper's most recently started readable run (any status), or `undefined` when it has none.
 * Newer rows that do not parse are told to `report` and passed over.
 */
export async function latestRunForPaper(
  database: AssayDatabase,
  paperKey: string,
  report?: UnreadableRunReporter,
): Promise<MatrixRunRow | undefined> {
  const latest = readRunRow(await runsOfPaper(database, paperKey).last(), report);
  if (latest) return latest;
  return (await listRunsForPaper(database, paperKey, report))[0];
}

/** Every readable run of the paper, most recently started first; rows that do not parse are told to `report` and left out. */
export async function listRunsForPaper(database: AssayDatabase, paperKey: string, report?: UnreadableRunReporter): Promise<MatrixRunRow[]> {
  const rows = await runsOfPaper(database, paperKey).reverse().toArray();
  return rows.map((row) => readRunRow(row, report)).filter((row): row is MatrixRunRow => row !== undefined);
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
 * Resolves to false, writing nothing, when the row is missing or unreadable (reported) or `recordIndex` is not an index
 * of `records`. Throws a `ZodError` when `review` does not match `RunReviewSchema`.
 */
export async function recordReview(database: AssayDatabase, id: string, recordIndex: number, review: RunReview): Promise<boolean> {
  const parsed = RunReviewSchema.parse(review);
  return database.transaction('rw', database.runs, async () => {
    const row = readRunRow(await database.runs.get(id));
    if (!row || !Number.isInteger(recordIndex) || recordIndex < 0 || recordIndex >= row.records.length) return false;
    await putRunRow(database, { ...row, reviews: { ...row.reviews, [recordIndex]: parsed } });
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
