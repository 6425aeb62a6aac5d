/**
 * Why a document could not be captured, as plain data: the shape a `CaptureError` becomes when it
 * crosses a message boundary (capture content script → side panel) or is printed by the CLI.
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
  'too-large', // a file over the size limit (16 MiB of markup or text, 100 MiB of PDF), or a PDF decoding to over 256 MiB
  'binary', // bytes that are not a document: random data, an executable, text in an unknown encoding
]);
export type CaptureErrorCode = z.infer<typeof CaptureErrorCodeSchema>;

export const CaptureFailureSchema = z.object({
  code: CaptureErrorCodeSchema,
  message: z.string(),
});
export type CaptureFailure = z.infer<typeof CaptureFailureSchema>;
