/**
 * The side panel's review writes: one reader decision on one record (saved as it happens), and
 * "Save verified" (the kept records into the dataset, then the run marked saved). Over the
 * database given, so a test can use fake-indexeddb; the rules are in review-model.ts and src/store/dataset-rows.ts.
 */
import { buildDatasetRows, type RowProblem } from '../../store/dataset-rows';
import type { SourcePaper } from '../../contracts/dataset';
import type { MatrixRunRow, RunReview } from '../../contracts/matrix-run';
import type { AssayDatabase } from '../../store/assay-database';
import { saveTriplets } from '../../store/dataset-repository';
import { getPaper } from '../../store/paper-repository';
import { markRunSaved, recordReview } from '../../store/run-repository';

/** The result of "Save verified": rows added and merged, kept records that could not be saved, or why nothing was saved. */
export type SaveOutcome = { ok: true; added: number; merged: number; problems: RowProblem[] } | { ok: false; message: string };

/** What `ExtractionPanel` needs to review a run. */
export interface ReviewActions {
  /** Store the reader's review of record `index` of run `runId`; false when the run or record is gone. */
  review(runId: string, index: number, review: RunReview): Promise<boolean>;
  /** Save `row`'s kept records (`keptRecords`) to the dataset and mark the run saved. Never rejects. */
  saveVerified(row: MatrixRunRow): Promise<SaveOutcome>;
}

/**
 * → `ReviewActions` over `database`. `now()` dates the dataset rows and the run's `savedAt`
 * (default: the current time); `newId(index)` names new rows (default `<run id>:<index>`, see `buildDatasetRows`).
 * `saveVerified` reads the run's paper (`papers` table) for the rows' source; a paper no longer
 * saved, or a failed write, → `{ ok: false, message }` in words. Saving the same run twice
 * merges into the rows of the first save (`saveTriplets` merges by duplicate key).
 * `onRowsAdded(added)` is called after a save that added rows (the side panel then asks for
 * persistent storage: src/extension/keep-storage.ts).
 */
export function createReviewActions(
  database: AssayDatabase,
  {
    now = () => new Date(),
    newId,
    onRowsAdded,
  }: { now?: () => Date; newId?: (index: number) => string; onRowsAdded?: (added: number) => void } = {},
): ReviewActions {
  return {
    review: (runId, index, review) => recordReview(database, runId, index, review),
    async saveVerified(row) {
      try {
        const record = await getPaper(database, row.paperKey);
        if (!record)
          return { ok: false, message: 'The paper of this run is no longer saved in your dataset; capture the page again, then save.' };
        const paper: SourcePaper = {
          key: record.key,
          doi: record.doi,
          url: record.url,
          title: record.title,
          authors: record.authors,
          journal: record.journal,
          ...(record.volume && { volume: record.volume }),
          ...(record.pages && { pages: record.pages }),
          year: record.year,
        };
        const time = now();
        const { rows, problems } = buildDatasetRows(row, paper, { now: time, ...(newId ? { newId } : {}) });
        const { added, merged } = rows.length > 0 ? await saveTriplets(database, rows) : { added: 0, merged: 0 };
        await markRunSaved(database, row.id, time);
        if (added > 0) onRowsAdded?.(added);
        return { ok: true, added, merged, problems };
      } catch (error) {
        return { ok: false, message: `The triplets could not be saved: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
