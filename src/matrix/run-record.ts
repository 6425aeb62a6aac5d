/**
 * What a `runMatrix` run reports besides its records: the settings, models, usage per stage,
 * timings and counts, and the typed interruption (cancel, device lost, …) that still carries the
 * partial result. Plain JSON so it can be stored with the triplets.
 */
import type { RunRecord } from '../contracts/run-record';
import type { VerificationRecord, VerificationStatus } from '../contracts/verification';
import { LlmError } from '../llm/llm-port';

export interface MatrixResult {
  records: VerificationRecord[];
  run: RunRecord;
}

/**
 * A run that stopped before the end — cancelled (`reason.code === 'aborted'`), or a model failure
 * such as `device-lost`, `unreachable`, `timeout`. `partial` holds the records of the properties
 * finished before the stop (never those of the property in progress) and the run record so far.
 * Trade-off: a thrown error rather than a `{ cancelled: true }` result, so a caller cannot mistake
 * a partial run for a complete one, while `partial` keeps everything that was paid for.
 */
export class MatrixInterrupted extends Error {
  override readonly name: string = 'MatrixInterrupted';
  constructor(
    readonly reason: LlmError,
    readonly partial: MatrixResult,
  ) {
    super(`the SLM-MATRIX run stopped: ${reason.message} [${reason.code}]`);
  }

  get cancelled(): boolean {
    return this.reason.code === 'aborted';
  }
}

/** The `MatrixInterrupted` of a cancel (`reason.code === 'aborted'`). */
export class MatrixCancelled extends MatrixInterrupted {
  override readonly name = 'MatrixCancelled';
}

/** Counts of records by status. */
export function countByStatus(records: readonly VerificationRecord[]): Record<VerificationStatus, number> {
  const counts: Record<VerificationStatus, number> = { verified: 0, needs_review: 0, rejected: 0 };
  for (const record of records) counts[record.status] += 1;
  return counts;
}
