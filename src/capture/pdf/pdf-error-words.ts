/**
 * pdf.js failures in words (issue 27, item 12): what is wrong with the file, not an exception's
 * name ("UnknownErrorException: Pages tree contains circular reference."). pdf.js messages are
 * matched by their wording in pdfjs-dist 5.6 (src/core/catalog.js, xref.js, flate_stream.js …);
 * JavaScript's own errors ("Invalid string length") are worded by `describeReadError`.
 */
import { describeReadError } from '../read-error-words';

/**
 * pdf.js puts a blank stand-in page, with no object reference, where a broken page tree has none
 * (its recovery mode, `Catalog.getAllPageDicts`): such a page is reported with this message.
 */
export const STAND_IN_PAGE = 'Assay: pdf.js found no page here and put a blank one in its place';

const PDFJS_PROBLEMS: ReadonlyArray<[RegExp, string]> = [
  [/circular reference/i, 'its page tree is broken: it leads back to itself'],
  [new RegExp(STAND_IN_PAGE), 'its page tree is broken: it leads to no page'],
  [/kids object is not an array|\/Pages tree|page dictionary|Page index \d+|pages tree|invalid page/i, 'its page tree is broken'],
  [
    /invalid PDF structure|no PDF header|xref|startxref|trailer|root reference|invalid root/i,
    'its structure (cross-reference table or trailer) is damaged',
  ],
  [
    /flate|FCHECK|compression method|block type|invalid block|LZW|ASCII85|ASCIIHex|RunLength|Brotli/i,
    'a compressed stream in it is damaged',
  ],
  [/font|glyph|cmap/i, 'a font in it is damaged'],
];

/** Why pdf.js could not read a PDF or a page of it, in words (no exception names). */
export function pdfProblemWords(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const known = PDFJS_PROBLEMS.find(([pattern]) => pattern.test(message));
  return known ? known[1] : describeReadError(error).words;
}
