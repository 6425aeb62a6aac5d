/**
 * The background ↔ highlighter hop: the background sends `{ target: 'assay-highlighter',
 * request }` with `tabs.sendMessage`; the content script answers with the request type's
 * response from the protocol (src/contracts/messages.ts). The envelope's `target` lets the
 * content script ignore every other message a tab may receive.
 */
import { z } from 'zod';
import { failureResponse, HighlightScrollRequestSchema, HighlightShowRequestSchema, type ResponseOf } from '../contracts/messages';
import type { Highlighter } from './highlighter';

export const HIGHLIGHTER_TARGET = 'assay-highlighter';

export const HighlighterEnvelopeSchema = z.object({
  target: z.literal(HIGHLIGHTER_TARGET),
  request: z.discriminatedUnion('type', [HighlightShowRequestSchema, HighlightScrollRequestSchema]),
});
export type HighlighterEnvelope = z.infer<typeof HighlighterEnvelopeSchema>;

export type HighlighterResponse = ResponseOf<'highlight-show'> | ResponseOf<'highlight-scroll'>;

/**
 * True when `document` is Chromium's PDF viewer (a document of type application/pdf, or a body
 * that is one `<embed type="application/pdf">` and no text): its text is not in this DOM.
 */
export function isPdfViewer(document: Document): boolean {
  if (document.contentType === 'application/pdf') return true;
  const embeds = document.body?.querySelectorAll('embed[type="application/pdf"]') ?? [];
  return embeds.length === 1 && (document.body?.textContent ?? '').trim().length === 0;
}

/**
 * Answer one runtime message in the page. Returns `undefined` for messages not addressed to the
 * highlighter (other listeners may answer them); a `bad-request` failure for an envelope that
 * does not parse; an `unsupported-type` failure in the PDF viewer; else `{ ok: true, report }`
 * for `highlight-show` and `{ ok: true, found }` for `highlight-scroll`. Never throws: an error
 * inside the highlighter becomes an `internal` failure.
 */
export function answerHighlighterMessage(highlighter: Highlighter, document: Document, message: unknown): HighlighterResponse | undefined {
  if (typeof message !== 'object' || message === null || (message as { target?: unknown }).target !== HIGHLIGHTER_TARGET) return undefined;
  const parsed = HighlighterEnvelopeSchema.safeParse(message);
  if (!parsed.success)
    return failureResponse('bad-request', `The highlighter received a malformed request: ${z.prettifyError(parsed.error)}`);
  if (isPdfViewer(document)) {
    return failureResponse(
      'unsupported-type',
      'This tab shows a PDF in the browser’s viewer, where Assay cannot mark text. Open the article’s HTML page to see the evidence highlighted.',
    );
  }
  const request = parsed.data.request;
  try {
    if (request.type === 'highlight-show') return { ok: true, report: highlighter.show(request.items) };
    return { ok: true, found: highlighter.scrollTo(request.id) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return failureResponse('internal', `The highlighter failed in the page: ${detail}`);
  }
}
