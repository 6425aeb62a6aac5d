/**
 * Read a PDF with pdf.js into page layouts (lines in reading order) and map pdf.js failures to
 * `CaptureError`s. This is the only module that drives a pdf.js document; it reaches the
 * library through `pdfjs-loader.ts` and the narrowed types of `pdfjs-types.ts`.
 */
import { CaptureError } from '../errors';
import { findGutter, orderLines } from './columns';
import { PDF_DECODE_BUDGET_BYTES, withDecodeBudget, type DecodeBudget } from './decode-budget';
import { drawnText, type LayerVisibility } from './drawn-text';
import { loadPdfjs } from './pdfjs-loader';
import { describeReadError } from '../read-error-words';
import { pdfProblemWords, STAND_IN_PAGE } from './pdf-error-words';
import { isTextItem, type PdfDocumentProxy, type PdfjsModule, type PdfTextItem, type PdfXmpMetadata } from './pdfjs-types';
import { groupLines, toTextFragment, type TextFragment, type TextLine } from './text-lines';
import { visibleText, type HiddenReason } from './visible-text';

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
  /** Characters drawn where a reader cannot see them (left out of `lines`), and why. */
  hidden: { characters: number; reasons: HiddenReason[] };
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

export interface ReadPdfOptions {
  /** Checked between pages; aborting rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Decoded stream bytes pdf.js may allocate (`PDF_DECODE_BUDGET_BYTES` unless a test sets less). */
  decodeLimitBytes?: number;
}

/**
 * Parse `data` (not modified: pdf.js transfers the buffer it is given, so a copy is passed) and
 * lay out every page, leaving out text a reader cannot see (`visible-text.ts`). Honours
 * `signal` between pages (rejects with its reason, an `AbortError` DOMException by default).
 * Rejects with `CaptureError` `too-large` (its streams decode to more than the budget,
 * `decode-budget.ts`), `truncated`, `unreadable` (encrypted or damaged) — never with a raw
 * pdf.js exception.
 */
export async function readPdfLayout(data: Uint8Array, options: ReadPdfOptions = {}): Promise<PdfLayout> {
  options.signal?.throwIfAborted();
  const pdfjs = await loadPdfjs();
  const limit = options.decodeLimitBytes ?? PDF_DECODE_BUDGET_BYTES;
  return withDecodeBudget(limit, (budget) => readDocument(pdfjs, data, budget, options.signal), options.signal);
}

async function readDocument(
  pdfjs: PdfjsModule,
  data: Uint8Array,
  budget: DecodeBudget,
  signal: AbortSignal | undefined,
): Promise<PdfLayout> {
  signal?.throwIfAborted();
  const task = pdfjs.getDocument({
    data: data.slice(),
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    // Capture reads text and how it is drawn, never pixels: decoding no image saves the time and
    // memory of every figure.
    maxImageSize: 0,
  });
  // pdf.js may swallow the budget's error and go on with less: check after every call.
  const withinBudget = <T>(value: T): T => {
    if (budget.exceeded) throw tooLarge(budget);
    return value;
  };
  try {
    let document: PdfDocumentProxy;
    try {
      document = withinBudget(await task.promise);
    } catch (error) {
      throw budget.exceeded ? tooLarge(budget) : toPdfCaptureError(error, data);
    }
    const layers = await document.getOptionalContentConfig().catch(() => null);
    const layerVisible: LayerVisibility | undefined = layers ? (group) => layers.isVisible(group) : undefined;
    const pages: PdfPageLayout[] = [];
    const pageErrors: string[] = [];
    for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber++) {
      signal?.throwIfAborted();
      try {
        pages.push(withinBudget(await readPage(pdfjs, document, pageNumber, layerVisible)));
      } catch (error) {
        if (budget.exceeded) throw tooLarge(budget);
        if (!endsWithEof(data)) throw new CaptureError('truncated', truncatedMessage(`page ${pageNumber} cannot be read`));
        pageErrors.push(`page ${pageNumber}: ${pdfProblemWords(error)}`);
      }
    }
    signal?.throwIfAborted();
    const metadata = withinBudget(await document.getMetadata().catch(() => ({ info: {}, metadata: null })));
    return { pages, info: metadata.info, xmp: metadata.metadata, pageErrors };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

function tooLarge(budget: DecodeBudget): CaptureError {
  const megabytes = Math.round(budget.limitBytes / (1024 * 1024));
  return new CaptureError(
    'too-large',
    `The PDF's compressed streams decode to more than ${megabytes} MB, far beyond any article's (a decompression bomb or a damaged file): reading stopped there.`,
  );
}

async function readPage(
  pdfjs: PdfjsModule,
  document: PdfDocumentProxy,
  pageNumber: number,
  layerVisible?: LayerVisibility,
): Promise<PdfPageLayout> {
  const page = await document.getPage(pageNumber);
  const box = page.view;
  const width = (box[2] ?? 612) - (box[0] ?? 0);
  const height = (box[3] ?? 792) - (box[1] ?? 0);
  // A page without an object reference is pdf.js's blank stand-in for one a broken page tree lacks.
  if (page.ref === null) throw new Error(STAND_IN_PAGE);
  const content = await page.getTextContent();
  const operators = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
  page.cleanup();
  const visible = visibleText(content.items.filter(isTextItem), drawnText(operators, pdfjs.OPS, box, layerVisible));
  return {
    ...layoutOf(visible.items, box),
    pageNumber,
    width,
    height,
    hidden: { characters: visible.hiddenCharacters, reasons: visible.reasons },
  };
}

/** Lines, rotated text and character count of a page's text items. */
function layoutOf(items: readonly PdfTextItem[], box: readonly number[]): Pick<PdfPageLayout, 'lines' | 'rotatedText' | 'characterCount'> {
  const width = (box[2] ?? 612) - (box[0] ?? 0);
  const upright: TextFragment[] = [];
  const rotated: string[] = [];
  let characterCount = 0;
  for (const item of items) {
    const fragment = toTextFragment(item, box);
    if (!fragment) continue;
    characterCount += fragment.text.replace(/\s+/g, '').length;
    if (fragment.rotated) rotated.push(fragment.text);
    else upright.push(fragment);
  }
  const gutter = findGutter(upright, width);
  const lines = orderLines(groupLines(upright, gutter));
  return { lines, rotatedText: rotated.join(' '), characterCount };
}

/** pdf.js puts `%%EOF` at the end of every complete file; a cut file lacks it in its last 2 KB. */
function endsWithEof(data: Uint8Array): boolean {
  const tail = new TextDecoder('latin1').decode(data.subarray(Math.max(0, data.length - 2048)));
  return tail.includes('%%EOF');
}

function truncatedMessage(detail: string): string {
  return `The PDF file is truncated (${detail.replace(/\.$/, '')}; it does not end with %%EOF): download it again.`;
}

/**
 * Map a pdf.js loading failure to a `CaptureError`: `PasswordException` → `unreadable`
 * (encrypted); a structural error (`InvalidPDFException`, missing xref/startxref,
 * `UnexpectedResponseException`) in a file without a final `%%EOF` → `truncated`; a JavaScript
 * size limit ("Invalid string length") → `too-large`; anything else → `unreadable` naming the
 * cause in words (`pdfProblemWords`).
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
  if (describeReadError(error).tooLarge)
    return new CaptureError('too-large', `The PDF could not be read: ${describeReadError(error).words}.`);
  return new CaptureError('unreadable', `The PDF could not be parsed: ${pdfProblemWords(error)}.`);
}
