/**
 * PDF capture: bytes → `Article` with blocks in reading order, one `page` per block.
 *
 * Pipeline: pdf.js text runs → lines (baseline grouping, sub/superscripts joined) → columns
 * and reading order → running headers/footers dropped → blocks (gaps, indents, font changes)
 * → kinds and sections → reference list cut. Metadata (DOI, title, year) comes from the file's
 * metadata and page 1. Layout modules are pure; only `read-pdf.ts` drives pdf.js.
 */
import type { Article } from '../../contracts/article';
import { ArticleBuilder } from '../article-builder';
import { CaptureError } from '../errors';
import { selectBodyBlocks, type BodyBlock } from './body-blocks';
import { collectHyphenatedWords } from './join-lines';
import { buildPageBlocks, dominantFontSize } from './page-blocks';
import {
  arxivIdFromStamp,
  citationFromXmp,
  doiFromPageText,
  doiFromPdfMetadata,
  titleFromInfo,
  titleFromPageLines,
  yearFromPageLines,
  type XmpCitation,
} from './pdf-metadata';
import { MIN_PAGE_CHARACTERS, readPdfLayout, type PdfLayout } from './read-pdf';
import { dropRunningLines, type PageLines } from './running-lines';
import type { HiddenReason } from './visible-text';

export interface CapturePdfOptions {
  /** Where the PDF came from; copied to `Article.url`. */
  url?: string | null;
  /** Checked between pages; aborting rejects with the signal's reason (an `AbortError`). */
  signal?: AbortSignal;
  /** Decoded stream bytes pdf.js may allocate; tests set less than `PDF_DECODE_BUDGET_BYTES`. */
  decodeLimitBytes?: number;
}

/**
 * Capture a PDF (bytes are copied, never detached). Resolves to an `Article` with
 * `source: 'pdf'`, `adapter: 'pdfjs'`, `pageCount`, blocks carrying 1-based `page` numbers.
 * Text a reader cannot see is left out, with a warning. Rejects with `CaptureError`:
 * `no-text-layer` (scanned pages, needs OCR; or only hidden text), `too-large` (streams decoding
 * past the budget), `truncated`, `unreadable` (encrypted or damaged); with an `AbortError` when
 * `signal` aborts.
 */
export async function capturePdf(data: Uint8Array, options: CapturePdfOptions): Promise<Article> {
  const layout = await readPdfLayout(data, { signal: options.signal, decodeLimitBytes: options.decodeLimitBytes });
  return articleFromLayout(layout, options.url ?? null);
}

/**
 * Build the `Article` from page layouts read by `readPdfLayout` (split out so tests that also
 * inspect pages parse a file once). Throws `CaptureError` `no-text-layer` / `unreadable`.
 */
export function articleFromLayout(layout: PdfLayout, url: string | null): Article {
  if (layout.pages.length === 0)
    throw new CaptureError(
      'unreadable',
      `The PDF is broken: no page of it can be read (${layout.pageErrors.join('; ') || 'its page tree is empty'}).`,
    );
  const hidden = hiddenTextOf(layout);
  if (layout.pages.every((page) => page.characterCount < MIN_PAGE_CHARACTERS)) {
    if (hidden)
      throw new CaptureError('no-text-layer', `The PDF has no text a reader can see: ${hidden.replace(/^Left out /, 'it holds only ')}`);
    throw new CaptureError(
      'no-text-layer',
      `The PDF has no text layer (${layout.pages.length} page(s) of images only): it is a scanned PDF and needs OCR first.`,
    );
  }
  const warnings = layout.pageErrors.map((error) => `Skipped an unreadable page: ${error}`);
  if (hidden) warnings.push(hidden);
  const { blocks: body, referenceOnlyPages } = bodyBlocksOf(layout);
  if (referenceOnlyPages.length)
    warnings.push(`Reference list left out: ${pageList(referenceOnlyPages)} hold only references and have no blocks.`);
  const builder = new ArticleBuilder();
  for (const block of body) builder.add(block.kind, block.text, { page: block.page, ...(block.section ? { section: block.section } : {}) });
  if (builder.blockCount === 0) {
    // Everything was margin text or reference list: keep the raw lines rather than return nothing.
    for (const page of layout.pages)
      builder.add('paragraph', page.lines.map((line) => line.text).join(' ') || page.rotatedText, { page: page.pageNumber });
    warnings.push('No body text was recognised; the page text is given as is.');
  }
  const metadata = metadataOf(layout);
  if (!metadata.doi && metadata.arxivId) warnings.push(`No DOI printed; arXiv preprint ${metadata.arxivId} (from the side stamp).`);
  const { blocks, text } = builder.build();
  return {
    doi: metadata.doi,
    doiOrigin: metadata.doiOrigin,
    title: metadata.title,
    authors: metadata.citation.authors,
    journal: metadata.citation.journal,
    ...(metadata.citation.volume && { volume: metadata.citation.volume }),
    year: metadata.year,
    url,
    source: 'pdf',
    adapter: 'pdfjs',
    pageCount: layout.pages.length + layout.pageErrors.length,
    blocks,
    text,
    abstractOnly: false,
    warnings,
  };
}

const HIDDEN_REASON_WORDS: Record<HiddenReason, string> = {
  invisible: 'drawn invisible',
  'same-colour': 'in the colour of its background',
  transparent: 'transparent',
  tiny: 'under 1 pt',
  clipped: 'outside the page or clipped away',
  'hidden-layer': 'on a hidden layer',
};

/** One warning naming the hidden text left out (characters, pages, reasons), or null when none was. */
function hiddenTextOf(layout: PdfLayout): string | null {
  const pages = layout.pages.filter((page) => page.hidden.characters > 0);
  if (pages.length === 0) return null;
  const characters = pages.reduce((sum, page) => sum + page.hidden.characters, 0);
  const reasons = [...new Set(pages.flatMap((page) => page.hidden.reasons))].map((reason) => HIDDEN_REASON_WORDS[reason]);
  return `Left out ${characters} characters of text a reader cannot see (${reasons.join(', ')}) on ${pageList(pages.map((page) => page.pageNumber))}.`;
}

function pageList(pages: readonly number[]): string {
  return pages.length === 1 ? `page ${pages[0]}` : `pages ${pages.join(', ')}`;
}

/**
 * Reading-order body blocks of the whole document (running lines and references removed), and
 * the pages that held only references.
 */
export function bodyBlocksOf(layout: PdfLayout): { blocks: BodyBlock[]; referenceOnlyPages: number[] } {
  const pageLines: PageLines[] = layout.pages.map((page) => ({ lines: page.lines, height: page.height }));
  const kept = dropRunningLines(pageLines);
  const allLines = kept.flat();
  const bodyFontSize = dominantFontSize(allLines);
  const hyphenatedWords = collectHyphenatedWords(allLines.map((line) => line.text));
  const pageBlocks = layout.pages.flatMap((page, index) => {
    const blocks = buildPageBlocks(kept[index] ?? [], page.pageNumber, bodyFontSize, hyphenatedWords);
    // A page whose only text is rotated (a landscape table) still contributes its text.
    if (blocks.length === 0 && page.lines.length === 0 && page.rotatedText.trim() && !arxivIdFromStamp(page.rotatedText)) {
      blocks.push({ kind: 'paragraph', text: page.rotatedText, page: page.pageNumber, fontSize: bodyFontSize, lines: [] });
    }
    return blocks;
  });
  const { blocks, referenceOnlyPages } = selectBodyBlocks(pageBlocks);
  return { blocks, referenceOnlyPages };
}

interface PdfMetadataResult {
  doi: string | null;
  doiOrigin: 'pdf-text' | 'pdf-metadata' | null;
  title: string;
  year: number | null;
  arxivId: string | null;
  /** Authors, journal and volume from a publisher's XMP packet (`citationFromXmp`). */
  citation: XmpCitation;
}

function metadataOf(layout: PdfLayout): PdfMetadataResult {
  const first = layout.pages[0]!;
  const firstPages: PageLines[] = layout.pages.slice(0, 2).map((page) => ({ lines: page.lines, height: page.height }));
  const textDoi = doiFromPageText(firstPages);
  const metadataDoi = doiFromPdfMetadata(layout.info, layout.xmp);
  // Printed DOI first (it is what a reader sees); the metadata DOI when nothing is printed.
  const doi = textDoi ?? metadataDoi;
  const firstPageText = first.lines.map((line) => line.text).join(' ');
  const title =
    titleFromInfo(layout.info, firstPageText) ??
    titleFromPageLines(first.lines, first.height) ??
    first.lines.find((line) => /\p{L}{3}/u.test(line.text))?.text ??
    'Untitled PDF';
  return {
    doi,
    doiOrigin: textDoi ? 'pdf-text' : metadataDoi ? 'pdf-metadata' : null,
    title,
    year: yearFromPageLines({ lines: first.lines, height: first.height }, new Date().getFullYear() + 1),
    arxivId: layout.pages.map((page) => arxivIdFromStamp(page.rotatedText)).find((id) => id !== null) ?? null,
    citation: citationFromXmp(layout.xmp),
  };
}
