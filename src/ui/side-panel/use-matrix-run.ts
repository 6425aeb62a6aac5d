/**
 * The latest SLM-MATRIX run of a paper, live: the run's host writes its row to the `runs`
 * table as it goes, and Dexie tells open pages of the same origin, so a reopened side panel
 * shows a run still going, or the partial results of one that stopped.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { MatrixRunRow } from '../../contracts/matrix-run';
import type { AssayDatabase } from '../../store/assay-database';
import { latestRunForPaper } from '../../store/run-repository';

/** The newest `runs` row of `paperKey`, re-read on every change; undefined while loading or when the paper has no run. */
export function useMatrixRun(database: AssayDatabase, paperKey: string): MatrixRunRow | undefined {
  return useLiveQuery(() => latestRunForPaper(database, paperKey), [database, paperKey]);
}

/**
 * Like `useMatrixRun`, but tells loading from absence: undefined while the first read is pending,
 * null when the paper has no run, else the newest `runs` row of `paperKey`, re-read on every change.
 */
export function useLatestRun(database: AssayDatabase, paperKey: string): MatrixRunRow | null | undefined {
  return useLiveQuery(async () => (await latestRunForPaper(database, paperKey)) ?? null, [database, paperKey]);
}
