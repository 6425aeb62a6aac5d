/**
 * Read a PDF with pdf.js into page layouts (lines in reading order) and map pdf.js failures to
 * `CaptureError`s. This is the only module that drives a pdf.js document; it reaches the
 * library through `pdfjs-loader.ts` and the narrowed types of `pdfjs-types.ts`.
 */
import { CaptureError } from '../errors';
import { findGutter, orderLines } from './columns';
import { loadPdfjs } from './pdfjs-loader';
import { isTextItem, type PdfDocumentProxy, type PdfXmpMetadata } from './pdfjs-types';
import { groupLines, toTextFragment, type TextFragment, type TextLine } from './text-lines';

export interface PdfPageLayout {
  /** 1-based. */
  pageNumber: number;
  /** Page box size in points. */
  width: number;
  height: number;
  /** Upright lines in reading order, running headers still included. */
  lines: TextLine[];
  /** Text of rotated runs (arXiv side stamp, rotated table headers), in content order. */
  rotatedText: string;
  /** Non-whitespace characters on the page, rotated text included. */
  characterCount: number;
}

export interface PdfLayout {
  pages: PdfPageLayout[];
  /** Information dictionary as pdf.js returns it (`Title`, `Subject`, `Custom`, …). */
  info: unknown;
  xmp: PdfXmpMetadata | null;
  /** Pages pdf.js could not read, with the reason; the rest of the document was kept. */
  pageErrors: string[];
}

/** Pages with fewer visible characters than this count as having no text layer. */
export const MIN_PAGE_CHARACTERS = 10;

/**
 * Parse `data` (not modified: pdf.js transfers the buffer it is given, so a copy is passed) and
 * lay out every page. Honours `signal` between pages (rejects with its reason, an
 * `AbortError` DOMException by default). Rejects with `CaptureError` `truncated`, `unreadable`
 * (encrypted or damaged) — never with a raw pdf.js exception.
 */
export async function readPdfLayout(data: Uint8Array, signal?: AbortSignal): Promise<PdfLayout> {
  signal?.throwIfAborted();
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: data.slice(),
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
  });
  try {
    let document: PdfDocumentProxy;
    try {
      document = await task.promise;
    } catch (error) {
      throw toPdfCaptureError(error, data);
    }
    const pages: PdfPageLayout[] = [];
    const pageErrors: string[] = [];
    for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber++) {
      signal?.throwIfAborted();
      try {
        pages.push(await readPage(document, pageNumber));
      } catch (error) {
        if (!endsWithEof(data)) throw new CaptureError('truncated', truncatedMessage(`page ${pageNumber} cannot be read`));
        pageErrors.push(`page ${pageNumber}: ${describe(error)}`);
      }
    }
    signal?.throwIfAborted();
    const metadata = await document.getMetadata().catch(() => ({ info: {}, metadata: null }));
    return { pages, info: metadata.info, xmp: metadata.metadata, pageErrors };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

async function readPage(document: PdfDocumentProxy, pageNumber: number): Promise<PdfPageLayout> {
  const page = await document.getPage(pageNumber);
  const box = page.view;
  const width = (box[2] ?? 612) - (box[0] ?? 0);
  const height = (box[3] ?? 792) - (box[1] ?? 0);
  const content = await page.getTextContent();
  page.cleanup();
  const upright: TextFragment[] = [];
  const rotated: string[] = [];
  let characterCount = 0;
  for (const item of content.items) {
    if (!isTextItem(item)) continue;
    const fragment = toTextFragment(item, box);
    if (!fragment) continue;
    characterCount += fragment.text.replace(/\s+/g, '').length;
    if (fragment.rotated) rotated.push(fragment.text);
    else upright.push(fragment);
  }
  const gutter = findGutter(upright, width);
  const lines = orderLines(groupLines(upright, gutter));
  return { pageNumber, width, height, lines, rotatedText: rotated.join(' '), characterCount };
}

/** pdf.js puts `%%EOF` at the end of every complete file; a cut file lacks it in its last 2 KB. */
function endsWithEof(data: Uint8Array): boolean {
  const tail = new TextDecoder('latin1').decode(data.subarray(Math.max(0, data.length - 2048)));
  return tail.includes('%%EOF');
}

function truncatedMessage(detail: string): string {
  return `The PDF file is truncated (${detail.replace(/\.$/, '')}; it does not end with %%EOF): download it again.`;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Map a pdf.js loading failure to a `CaptureError`: `PasswordException` → `unreadable`
 * (encrypted); a structural error (`InvalidPDFException`, missing xref/startxref,
 * `UnexpectedResponseException`) in a file without a final `%%EOF` → `truncated`; anything
 * else → `unreadable` naming the cause.
 */
export function toPdfCaptureError(error: unknown, data: Uint8Array): CaptureError {
  if (error instanceof CaptureError) return error;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException' || /password/i.test(message)) {
    return new CaptureError(
      'unreadable',
      'The PDF is encrypted (password-protected): open it with its password and save an unprotected copy.',
    );
  }
  const structural =
    /InvalidPDF|UnexpectedResponse|FormatError/.test(name) ||
    /xref|startxref|trailer|Root reference|PDF structure|end of file/i.test(message);
  if (structural && !endsWithEof(data)) return new CaptureError('truncated', truncatedMessage(message));
  return new CaptureError('unreadable', `The PDF could not be parsed (${name || 'error'}: ${message}).`);
}
