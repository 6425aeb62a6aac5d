/**
 * The subset of the pdf.js (`pdfjs-dist` 5.x) API that PDF capture relies on, narrowed to our
 * own small types (as the Hypothesis client does in `types/pdfjs.ts`). Only `pdfjs-loader.ts`
 * touches the real module; everything else is written against these shapes, so tests can feed
 * synthetic documents and a pdf.js upgrade shows up as a type error in one place.
 */

/** One run of text (`TextItem` in pdf.js). `transform` is [a, b, c, d, e, f] in PDF user space. */
export interface PdfTextItem {
  str: string;
  transform: number[];
  /** Advance width in PDF user-space points (already scaled by the transform). */
  width: number;
  height: number;
  fontName: string;
  hasEOL: boolean;
}

/** Marked-content markers, only present when asked for; we never ask, but the union is real. */
export interface PdfTextMarkedContent {
  type: string;
}

export interface PdfTextContent {
  items: Array<PdfTextItem | PdfTextMarkedContent>;
}

export interface PdfPageProxy {
  /** Page box [x0, y0, x1, y1] in PDF user-space points. */
  view: number[];
  getTextContent(parameters?: { includeMarkedContent?: boolean; disableNormalization?: boolean }): Promise<PdfTextContent>;
  cleanup(): unknown;
}

/** pdf.js `Metadata` (parsed XMP): `get('prism:doi')`, `get('dc:identifier')`, … */
export interface PdfXmpMetadata {
  get(name: string): unknown;
}

export interface PdfDocumentMetadata {
  /** The document information dictionary (`Title`, `Subject`, `CreationDate`, `Custom`, …). */
  info: unknown;
  metadata: PdfXmpMetadata | null;
}

export interface PdfDocumentProxy {
  numPages: number;
  getPage(pageNumber: number): Promise<PdfPageProxy>;
  getMetadata(): Promise<PdfDocumentMetadata>;
  destroy(): Promise<void>;
}

export interface PdfLoadingTask {
  promise: Promise<PdfDocumentProxy>;
  destroy(): Promise<void>;
}

export interface PdfDocumentParameters {
  data: Uint8Array;
  verbosity: number;
  isEvalSupported: boolean;
  useSystemFonts: boolean;
  disableFontFace: boolean;
}

/** The part of the `pdfjs-dist` module namespace we use. */
export interface PdfjsModule {
  getDocument(parameters: PdfDocumentParameters): PdfLoadingTask;
  GlobalWorkerOptions: { workerSrc: string; workerPort: unknown };
  VerbosityLevel: { ERRORS: number };
}

/** The worker module (`pdf.worker.mjs`) when run in the same thread. */
export interface PdfjsWorkerModule {
  WorkerMessageHandler: unknown;
}

/** Type guard: a text run rather than a marked-content marker. */
export function isTextItem(item: PdfTextItem | PdfTextMarkedContent): item is PdfTextItem {
  return typeof (item as PdfTextItem).str === 'string' && Array.isArray((item as PdfTextItem).transform);
}
