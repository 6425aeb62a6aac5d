/**
 * DOI, title and year of a PDF from its information dictionary, XMP packet and first-page text.
 * Pure (no pdf.js): callers pass the `info` object and an XMP getter as pdf.js returns them.
 */
import { findDois, normalizeDoi } from '../doi';
import { normalizeVolume } from '../citation-fields';
import type { PdfXmpMetadata } from './pdfjs-types';
import type { PageLines } from './running-lines';
import { joinLineTexts } from './join-lines';
import type { TextLine } from './text-lines';

/** Top and bottom 15 % of page 1: where publishers print the journal line and the DOI. */
const BANNER_SHARE = 0.15;

function stringField(record: unknown, key: string): string | null {
  if (!record || typeof record !== 'object') return null;
  const value = (record as Record<string, unknown>)[key];
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((entry) => typeof entry === 'string').join(' ') || null;
  return null;
}

/**
 * A DOI recorded in the document metadata: XMP `prism:doi`, `pdfx:doi`, `dc:identifier`, or
 * the info dictionary's `doi`/`DOI` (custom keys) or `Subject` (Elsevier writes
 * "Journal, 123 (2004) 45. doi:10.1016/…" there). Null when none is a DOI.
 */
export function doiFromPdfMetadata(info: unknown, xmp: PdfXmpMetadata | null): string | null {
  const custom = info && typeof info === 'object' ? (info as Record<string, unknown>).Custom : undefined;
  const candidates = [
    xmp ? stringOf(xmp.get('prism:doi')) : null,
    xmp ? stringOf(xmp.get('pdfx:doi')) : null,
    stringField(custom, 'doi') ?? stringField(custom, 'DOI'),
    stringField(info, 'doi'),
    xmp ? stringOf(xmp.get('dc:identifier')) : null,
    stringField(info, 'Subject'),
    stringField(info, 'Keywords'),
  ];
  for (const candidate of candidates) {
    const doi = candidate ? (normalizeDoi(candidate) ?? findDois(candidate)[0] ?? null) : null;
    if (doi) return doi;
  }
  return null;
}

/** What a publisher's XMP packet says of the paper's citation (`citationFromXmp`). */
export interface XmpCitation {
  authors: string[];
  journal: string | null;
  volume: string | null;
}

const NO_XMP_CITATION: XmpCitation = { authors: [], journal: null, volume: null };

/**
 * Authors (`dc:creator`, in order), journal (`prism:publicationName`) and volume
 * (`prism:volume`) from a PDF's XMP packet, only when the packet names the publication: that
 * tells a publisher's packet from a word processor's, whose `dc:creator` is whoever saved the
 * file. Pages are left out: IOP writes the PDF's own pages ("1"–"8") where the paper is cited
 * by article number (125015).
 */
export function citationFromXmp(xmp: PdfXmpMetadata | null): XmpCitation {
  if (!xmp) return NO_XMP_CITATION;
  // pdf.js keys the packet by lower-case name ("prism:publicationname"); both are asked for.
  const journal =
    stringOf(xmp.get('prism:publicationname') ?? xmp.get('prism:publicationName'))
      ?.replace(/\s+/g, ' ')
      .trim() || null;
  if (!journal) return NO_XMP_CITATION;
  const creators = xmp.get('dc:creator');
  const names = (Array.isArray(creators) ? creators : [creators])
    .filter((name): name is string => typeof name === 'string')
    .map((name) => name.replace(/\s+/g, ' ').trim())
    .filter((name) => /\p{L}{2}/u.test(name) && name.length <= 200);
  return { authors: names, journal, volume: normalizeVolume(stringOf(xmp.get('prism:volume'))) };
}

function stringOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((entry) => typeof entry === 'string').join(' ') || null;
  return null;
}

/** Looks like a reference-list entry ("[12] A. B. Author, Phys. Rev. B …") rather than a banner. */
function isReferenceLine(text: string): boolean {
  return /^\[\d+\]/.test(text) || /^\d{1,3}\.?\s+\p{Lu}\.\s*\p{Lu}?/u.test(text);
}

/**
 * The DOI printed on the first pages: first one in page 1's top/bottom banner, else the first
 * one anywhere on pages 1–2 outside reference-list lines. `pages` are the raw (unfiltered)
 * lines of the first pages in reading order. A DOI split over two runs is found in the run
 * text joined without spaces ("doi:10.1088/0953-" + "8984/28/9/094014").
 */
export function doiFromPageText(pages: readonly PageLines[]): string | null {
  const first = pages[0];
  if (first) {
    const banner = first.lines.filter((line) => line.y >= first.height * (1 - BANNER_SHARE) || line.y <= first.height * BANNER_SHARE);
    const doi = firstDoi(banner);
    if (doi) return doi;
  }
  for (const page of pages.slice(0, 2)) {
    const doi = firstDoi(page.lines.filter((line) => !isReferenceLine(line.text)));
    if (doi) return doi;
  }
  return null;
}

function firstDoi(lines: readonly TextLine[]): string | null {
  for (const line of lines) {
    const tight = line.fragments.map((fragment) => fragment.text).join('');
    const doi = findDois(line.text)[0] ?? findDois(tight)[0];
    if (doi) return doi;
  }
  return null;
}

const FILE_NAME = /\.(?:docx?|pdf|tex|dvi|ps|indd|qxd|rtf)\b|^microsoft\s|^untitled|^title$|^\s*pii\s*:|^\s*doi\s*:|^10\.\d{4,9}\//i;

/**
 * The info-dictionary `Title` when it is a real title: not a file name ("Microsoft Word -
 * x.doc"), not "untitled", not a PII or DOI, at least three words, and its first words appear
 * in the page-1 text (so a template's or another article's title is not taken).
 */
export function titleFromInfo(info: unknown, firstPageText: string): string | null {
  const title = stringField(info, 'Title')?.replace(/\s+/g, ' ').trim();
  if (!title || FILE_NAME.test(title)) return null;
  const words = title.split(' ').filter((word) => /\p{L}/u.test(word));
  if (words.length < 3 || title.length < 15) return null;
  const squash = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const opening = squash(words.slice(0, 3).join(' '));
  return squash(firstPageText).includes(opening) ? title : null;
}

const BANNER =
  /journal|letters|physical review|physica\b|communications|preprint|arxiv|submitted|received|accepted|published|vol\.|volume|doi|©|copyright|www\.|https?:|issn|elsevier|springer|available online|contents lists|homepage|open access|rapid communication|research article|^article|\bpage\b|\bpp\b|e-mail|email|university|institute|department|laborator/i;

/**
 * The title printed on page 1: the lines in the largest font among the upper 60 % of the page,
 * skipping journal banners, dates and affiliations; consecutive lines in that font are joined.
 * `lines` are page 1's lines in reading order (running headers may still be there).
 */
export function titleFromPageLines(lines: readonly TextLine[], pageHeight: number): string | null {
  const labelled = titleAfterLabel(lines);
  if (labelled) return labelled;
  const candidates = lines.filter(
    (line) => line.y >= pageHeight * 0.4 && !BANNER.test(line.text) && (line.text.match(/\p{L}{2,}/gu)?.length ?? 0) >= 2,
  );
  if (candidates.length === 0) return null;
  const largest = Math.max(...candidates.map(letterSize));
  const start = lines.findIndex((line) => candidates.includes(line) && letterSize(line) >= largest - 0.6);
  const titleLines: TextLine[] = [];
  for (let index = start; index < lines.length; index++) {
    const line = lines[index]!;
    if (letterSize(line) < largest - 0.6 || (titleLines.length > 0 && titleLines.at(-1)!.y - line.y > 2.5 * largest)) break;
    titleLines.push(line);
  }
  return cleanTitle(titleLines);
}

/**
 * Size of a line's largest lettered run: a title line full of formula subscripts
 * ("Pr1.855Ce0.145CuO4-y Films") has most characters small but is still in the title font.
 */
function letterSize(line: TextLine): number {
  const sizes = line.fragments.filter((fragment) => /\p{L}/u.test(fragment.text)).map((fragment) => fragment.fontSize);
  return sizes.length ? Math.max(...sizes) : line.fontSize;
}

function cleanTitle(lines: readonly TextLine[]): string | null {
  const title = joinLineTexts(lines.map((line) => line.text))
    .replace(/\s+/g, ' ')
    .replace(/[.\s]+$/, '')
    .trim();
  return title.length >= 3 ? title : null;
}

/** Repository cover pages (eScholarship) print a "Title" label above the title. */
function titleAfterLabel(lines: readonly TextLine[]): string | null {
  const label = lines.findIndex((line) => /^title:?$/i.test(line.text.trim()));
  if (label < 0) return null;
  const first = lines[label + 1];
  if (!first) return null;
  const titleLines = [first];
  for (const line of lines.slice(label + 2)) {
    if (Math.abs(line.fontSize - first.fontSize) > 0.3 || titleLines.at(-1)!.y - line.y > 2 * first.fontSize) break;
    titleLines.push(line);
  }
  return cleanTitle(titleLines);
}

/**
 * Publication year printed in page 1's top or bottom banner (journal line, copyright), as a
 * 4-digit 1900–2099 year; null when none. The file's CreationDate is not used: scans and
 * arXiv re-renderings of old papers carry the date of the file, not of the paper.
 */
export function yearFromPageLines(page: PageLines | undefined, latestYear: number): number | null {
  if (!page) return null;
  for (const line of page.lines) {
    if (line.y < page.height * (1 - BANNER_SHARE) && line.y > page.height * BANNER_SHARE) continue;
    // "(Dated: October 29, 2018)" on an arXiv re-rendering is the date the file was typeset.
    if (/\bdated\b|typeset|printed on|\bdraft\b/i.test(line.text)) continue;
    for (const match of line.text.matchAll(/(?<![\d.\/-])(19\d\d|20\d\d)(?![\d\/-])/g)) {
      const year = Number(match[1]);
      if (year <= latestYear) return year;
    }
  }
  return null;
}

/** The arXiv identifier of a side stamp ("arXiv:1903.04321v1 [cond-mat.supr-con] 11 Mar 2019"). */
export function arxivIdFromStamp(text: string): string | null {
  return /arXiv:\s*((?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?)/i.exec(text)?.[1] ?? null;
}
