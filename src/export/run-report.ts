/**
 * A run's report as one JSON document: for every property asked, what the run concluded — its
 * verdicts, or "Not provided in this paper" with what was searched (chunks ranked and read, model
 * calls), or "not decided" when failed model calls left it open, or that the run stopped before
 * the property. So a dataset built from runs can tell
 * "not reported in the paper" from "not extracted". The side panel offers it as "Download run
 * report (JSON)"; the personal dataset's exports (`dataset-export.ts`) stay one row per saved
 * triplet, which is what `parseAssayImport` reads back.
 */
import type { MatrixRunRow } from '../contracts/matrix-run';
import type { NotDecided, NotProvided, PropertyRun } from '../contracts/run-record';
import type { Triplet } from '../contracts/triplet';
import type { VerificationStatus } from '../contracts/verification';

/** The words a report and the side panel use for an abstention. */
export const NOT_PROVIDED = 'Not provided in this paper';

/** One property of a run report. */
export type RunReportProperty =
  | { property: string; outcome: 'triplets'; triplets: Array<Triplet & { status: VerificationStatus }> }
  | {
      property: string;
      outcome: 'not_provided';
      statement: typeof NOT_PROVIDED;
      reason: NotProvided['reason'];
      searched: Omit<NotProvided, 'reason'>;
    }
  /** Failed model calls, not the paper, left it undecided (`PropertyRun.notDecided`). */
  | { property: string; outcome: 'not_decided'; code: NotDecided['code']; message: string; calls: number }
  | { property: string; outcome: 'not_run' };

/** The document `toRunReport` writes. */
export interface RunReport {
  format: 'assay-run-report';
  version: 1;
  runId: string;
  paperKey: string;
  status: MatrixRunRow['status'];
  preset: MatrixRunRow['settings']['preset'];
  startedAt: string;
  finishedAt?: string;
  properties: RunReportProperty[];
}

function propertyOutcome(name: string, row: MatrixRunRow, runs: ReadonlyMap<string, PropertyRun>): RunReportProperty {
  const triplets = row.records
    .filter((record) => record.triplet.property === name)
    .map((record) => ({ ...record.triplet, status: record.status }));
  if (triplets.length > 0) return { property: name, outcome: 'triplets', triplets };
  const notProvided = runs.get(name)?.notProvided;
  if (notProvided) {
    const { reason, ...searched } = notProvided;
    return { property: name, outcome: 'not_provided', statement: NOT_PROVIDED, reason, searched };
  }
  const notDecided = runs.get(name)?.notDecided;
  if (notDecided) return { property: name, outcome: 'not_decided', ...notDecided };
  return { property: name, outcome: 'not_run' };
}

/**
 * `row` as a `RunReport`, pretty-printed JSON: one entry per property of `row.settings.properties`
 * in run order — `triplets` (every verdict, with its status) when the run has records for it;
 * `not_provided` when the run record says it abstained (`PropertyRun.notProvided`);
 * `not_decided` with the failures' code, message and calls when failed model calls left it
 * undecided (`PropertyRun.notDecided`); `not_run`
 * otherwise (the run stopped before it, or the row was stored before abstention was recorded).
 * Page and model text is data in the JSON, never markup. Never throws.
 */
export function toRunReport(row: MatrixRunRow): string {
  const runs = new Map((row.run?.properties ?? []).map((property) => [property.property, property]));
  const report: RunReport = {
    format: 'assay-run-report',
    version: 1,
    runId: row.id,
    paperKey: row.paperKey,
    status: row.status,
    preset: row.settings.preset,
    startedAt: row.startedAt,
    ...(row.finishedAt ? { finishedAt: row.finishedAt } : {}),
    properties: row.settings.properties.map((name) => propertyOutcome(name, row, runs)),
  };
  return JSON.stringify(report, null, 2) + '\n';
}

/** "assay-run-<first 8 characters of the run id>.json": the report's download name. */
export function runReportFileName(row: Pick<MatrixRunRow, 'id'>): string {
  return `assay-run-${row.id.slice(0, 8)}.json`;
}
