/**
 * Why a document could not be captured. Every capture path throws `CaptureError` (never a bare
 * Error, never an empty "success"), so the CLI can print one line and the side panel can show
 * the problem in words. The error is plain data (`toJSON`) so it crosses message boundaries.
 */
import { CaptureErrorCodeSchema, CaptureFailureSchema, type CaptureErrorCode, type CaptureFailure } from '../contracts/capture-failure';

export { CaptureErrorCodeSchema, CaptureFailureSchema, type CaptureErrorCode, type CaptureFailure };

export class CaptureError extends Error {
  override readonly name = 'CaptureError';
  constructor(
    readonly code: CaptureErrorCode,
    message: string,
  ) {
    super(message);
  }

  toJSON(): CaptureFailure {
    return { code: this.code, message: this.message };
  }
}

/** Turn anything thrown during capture into a `CaptureFailure` (unknown errors become `unreadable`). */
export function toCaptureFailure(error: unknown): CaptureFailure {
  if (error instanceof CaptureError) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'unreadable', message: `Could not read the document: ${message}` };
}
