/**
 * The small interface every XML format module implements. `captureXml` asks each format in
 * turn whether it reads the document, then lets the first that does write the blocks and
 * report the metadata; assembling the `Article` and the "is this an article" checks stay in
 * one place (`capture-xml.ts`).
 */
import type { ArticleBuilder } from '../article-builder';

/** What a format module reports besides the blocks it writes into the builder. */
export interface XmlReading {
  /** `jats`, `jats-acs`, `elsevier`, `elsevier-consyn`, `iop-legacy`. */
  adapter: string;
  /** As written in the XML; normalized by the caller. */
  doi: string | null;
  /** Flattened, whitespace collapsed; "" when the document has none. */
  title: string;
  authors: string[];
  journal: string | null;
  /** Volume and pages as printed, normalized by `citation-fields.ts`; absent when the format does not give them. */
  volume?: string | null;
  pages?: string | null;
  year: number | null;
  /** Blocks written from the body (not counting the abstract). */
  bodyBlocks: number;
  warnings: string[];
}

export interface XmlFormat {
  /** Whether this module reads a document with this root (and content). */
  accepts(root: Element): boolean;
  /** Write abstract and body blocks into `builder`, return the metadata. Throws `CaptureError` only for unreadable structure. */
  read(root: Element, builder: ArticleBuilder): XmlReading;
}
