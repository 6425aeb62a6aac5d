/**
 * The latest SLM-MATRIX run of a paper, live: the run's host writes its row to the `runs`
 * table as it goes, and Dexie tells open pages of the same origin, so a reopened side panel
 * shows a run still going, or the partial results of one that stopped.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { MatrixRunRow } from '../../contracts/matrix-run';
import type { AssayDatabase } from '../../store/assay-database';
import { latestRunForPaper, listRunsForPaper } from '../../store/run-repository';

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

/**
 * How many stored runs of `paperKey` do not match the run schema (an older version wrote them,
 * or they are damaged) and so are passed over by the reads above; re-counted on every change,
 * 0 while loading.
 */
export function useUnreadableRunCount(database: AssayDatabase, paperKey: string): number {
  return (
    useLiveQuery(async () => {
      let count = 0;
      await listRunsForPaper(database, paperKey, () => {
        count += 1;
      });
      return count;
    }, [database, paperKey]) ?? 0
  );
}

/** The side panel's line for `count` unreadable runs (`useUnreadableRunCount`), or null for none. */
export function unreadableRunsText(count: number): string | null {
  if (count === 0) return null;
  const runs = count === 1 ? '1 earlier run of this paper' : `${count} earlier runs of this paper`;
  return `${runs} could not be read (saved by another version of Assay, or damaged) and ${count === 1 ? 'is' : 'are'} not shown.`;
}
