/**
 * Why a document could not be captured. Every capture path throws `CaptureError` (never a bare
 * Error, never an empty "success"), so the CLI can print one line and the side panel can show
 * the problem in words. The error is plain data (`toJSON`) so it crosses message boundaries.
 */
import { z } from 'zod';

export const CaptureErrorCodeSchema = z.enum([
  'empty', // nothing in the file or page
  'unsupported-type', // not HTML, XML, PDF or text
  'bot-check', // Cloudflare "Just a moment…" or another challenge page
  'search-results', // a listing of many articles, not one article
  'not-article', // a page with no article text and no article metadata
  'no-text-layer', // a PDF made of page images only
  'truncated', // a PDF or XML file that ends early
  'unreadable', // a file that could not be parsed (encrypted PDF, broken XML)
  'not-found', // a path that does not exist
  'no-tab', // extension: no capturable tab (chrome:// pages, the Web Store)
]);
export type CaptureErrorCode = z.infer<typeof CaptureErrorCodeSchema>;

export const CaptureFailureSchema = z.object({
  code: CaptureErrorCodeSchema,
  message: z.string(),
});
export type CaptureFailure = z.infer<typeof CaptureFailureSchema>;

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
