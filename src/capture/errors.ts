/**
 * Why a document could not be captured. Every capture path throws `CaptureError` (never a bare
 * Error, never an empty "success"), so the CLI can print one line and the side panel can show
 * the problem in words. The error is plain data (`toJSON`) so it crosses message boundaries.
 */
import type { CaptureErrorCode, CaptureFailure } from '../contracts/capture-failure';
import { describeReadError } from './read-error-words';

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

/**
 * Turn anything thrown during capture into a `CaptureFailure`: a `CaptureError` as it is; an
 * engine or system error in words (`describeReadError`: "Invalid string length" → "the file is
 * too large to read as text (over ~512 MB of text …)", code `too-large`); anything else
 * `unreadable`, its name and message marked as unexpected.
 */
export function toCaptureFailure(error: unknown): CaptureFailure {
  if (error instanceof CaptureError) return error.toJSON();
  const { words, tooLarge } = describeReadError(error);
  return { code: tooLarge ? 'too-large' : 'unreadable', message: `Could not read the document: ${words}.` };
}
