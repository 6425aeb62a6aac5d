/**
 * The subset of the pdf.js (`pdfjs-dist` 5.x) API that PDF capture relies on, narrowed to our
 * own small types (as the Hypothesis client does in `types/pdfjs.ts`). Only `pdfjs-loader.ts`
 * touches the real module; everything else is written against these shapes, so tests can feed
 * synthetic documents and a pdf.js upgrade shows up as a type error in one place.
 */
import type { PdfOps } from './drawn-text';

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

/** The drawing operators of a page: `fnArray[i]` is an `OPS` code, `argsArray[i]` its arguments. */
export interface PdfOperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

export interface PdfPageProxy {
  /** Page box [x0, y0, x1, y1] in PDF user-space points. */
  view: number[];
  /** The page object's reference; null for the blank page pdf.js stands in for one it could not find. */
  ref: { num: number; gen: number } | null;
  getTextContent(parameters?: { includeMarkedContent?: boolean; disableNormalization?: boolean }): Promise<PdfTextContent>;
  /** `annotationMode: AnnotationMode.DISABLE` leaves annotation appearances out. */
  getOperatorList(parameters?: { annotationMode?: number }): Promise<PdfOperatorList>;
  cleanup(): unknown;
}

/** Which optional content groups (layers) are shown; `group` is a `beginMarkedContentProps` 'OC' argument. */
export interface PdfOptionalContentConfig {
  isVisible(group: unknown): boolean;
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
  getOptionalContentConfig(): Promise<PdfOptionalContentConfig>;
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
  /** Images over this many pixels are not decoded; 0 decodes none (capture draws nothing). */
  maxImageSize: number;
}

/** The part of the `pdfjs-dist` module namespace we use. */
export interface PdfjsModule {
  getDocument(parameters: PdfDocumentParameters): PdfLoadingTask;
  GlobalWorkerOptions: { workerSrc: string; workerPort: unknown };
  VerbosityLevel: { ERRORS: number };
  /** Operator codes of `PdfOperatorList.fnArray`. */
  OPS: PdfOps;
  AnnotationMode: { DISABLE: number };
}

/** The worker module (`pdf.worker.mjs`) when run in the same thread. */
export interface PdfjsWorkerModule {
  WorkerMessageHandler: unknown;
}

/** Type guard: a text run rather than a marked-content marker. */
export function isTextItem(item: PdfTextItem | PdfTextMarkedContent): item is PdfTextItem {
  return typeof (item as PdfTextItem).str === 'string' && Array.isArray((item as PdfTextItem).transform);
}
