/**
 * What a `runMatrix` run reports besides its records: the settings, models, usage per stage,
 * timings and counts, and the typed interruption (cancel, device lost, …) that still carries the
 * partial result. Plain JSON so it can be stored with the triplets.
 */
import { LlmError } from '../llm/llm-port';
import type { UsageSnapshot } from '../llm/usage-meter';
import type { VerificationRecord, VerificationStatus } from './cross-verify-refine';
import type { MatrixPreset, PresetModels } from './presets';

/** Per property: what was sent and what the control flow did. */
export interface PropertyRun {
  property: string;
  /** True when the scan found no candidate passage: no model call was made. */
  skipped: boolean;
  blockIds: string[];
  truncatedBlockIds: string[];
  passageChars: number;
  /** Scan candidates in the passage. */
  candidates: number;
  /** The browser preset's early exit fired: the MCTS path was not run. */
  earlyExit: boolean;
  /** MoA re-runs made by the refinement loop (0..K). */
  refinementRounds: number;
  converged: boolean;
  /** Model replies that stayed unusable after the repair attempt, and fallbacks taken. */
  problems: string[];
  milliseconds: number;
}

export interface RunRecord {
  engine: 'slm-matrix';
  preset: MatrixPreset;
  /** The models asked for per role (undefined: the engine's roster chose). */
  models: PresetModels;
  seed?: number;
  /** Calls, tokens and time per stage (`moa`, `refinement`, `mcts`, `discriminator`) and per model. */
  usage: UsageSnapshot;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  milliseconds: number;
  properties: PropertyRun[];
  counts: Record<VerificationStatus, number>;
  /** Model loads the engine made during the run (WebLLM's scheduler counts them; absent where a server loads its own models). */
  modelLoads?: number;
  /** Set when the run stopped early: `aborted` for a cancel, else the engine's error code. */
  interrupted?: { code: LlmError['code']; message: string };
}

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
