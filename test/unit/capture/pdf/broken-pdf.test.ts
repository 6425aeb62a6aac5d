/**
 * Issue 27, item 12: a broken PDF is called broken, in words. A `/Pages` tree that points back to
 * itself was reported as a scanned PDF needing OCR (when pdf.js rebuilt the file's cross-reference
 * table and put a blank page in its place), and pdf.js's and JavaScript's messages were passed on
 * raw ("UnknownErrorException: …", "Invalid string length").
 */
import { describe, expect, it } from 'vitest';
import { capturePdf } from '../../../../src/capture/pdf/capture-pdf';
import { toPdfCaptureError } from '../../../../src/capture/pdf/read-pdf';
import { writePdf, type PdfObject } from '../../../support/pdf-writer';

const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>';
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const TEXT = { dictionary: '', stream: 'BT /F1 10 Tf 72 700 Td (The band gap of GaN is 3.4 eV.) Tj ET' };

/** Objects 1 catalog and 2 page tree as given, then 3 the page, 4 the font, 5 its text. */
function pdf(catalog: string, pages: string, options: { brokenXref?: boolean } = {}): Uint8Array {
  const objects: PdfObject[] = [catalog, pages, PAGE, FONT, TEXT];
  const bytes = writePdf({ objects, trailer: '/Root 1 0 R' });
  if (!options.brokenXref) return bytes;
  // A wrong startxref: pdf.js rebuilds the table by scanning the objects (its recovery mode).
  const text = Buffer.from(bytes)
    .toString('latin1')
    .replace(/startxref\n\d+/, 'startxref\n999999');
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

async function failure(data: Uint8Array): Promise<{ code: string; message: string }> {
  return capturePdf(data, {}).then(
    () => ({ code: 'captured', message: '' }),
    (error: { code: string; message: string }) => ({ code: error.code, message: error.message }),
  );
}

describe('broken PDFs are called broken', () => {
  it.each([
    ['a /Pages tree whose kid is itself', pdf('<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R] /Count 1 >>')],
    [
      'the same without /Count, when the cross-reference table is rebuilt',
      pdf('<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R] >>', { brokenXref: true }),
    ],
    [
      'a catalog whose /Pages is the catalog itself, rebuilt',
      pdf('<< /Type /Catalog /Pages 1 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', { brokenXref: true }),
    ],
  ])('%s', async (_name, data) => {
    const { code, message } = await failure(data);
    expect(code).toBe('unreadable');
    expect(message).toMatch(/The PDF is broken: .*page tree is broken/);
    expect(message).not.toMatch(/scanned|OCR|Exception/);
  });

  it('names a damaged compressed stream in words', async () => {
    const data = writePdf({
      objects: [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        PAGE,
        FONT,
        { dictionary: '/Filter /FlateDecode', stream: 'x\x9cthis is not deflate data at all' },
      ],
      trailer: '/Root 1 0 R',
    });
    const { code, message } = await failure(data);
    expect(code).toBe('unreadable');
    expect(message).toMatch(/a compressed stream in it is damaged/);
    expect(message).not.toMatch(/Exception|flate stream/);
  });

  it('words JavaScript size limits instead of passing "Invalid string length"', () => {
    const data = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
    // As pdf.js hands a worker's RangeError over: its message under another name.
    const fromWorker = Object.assign(new Error('Invalid string length'), { name: 'UnknownErrorException' });
    for (const error of [new RangeError('Invalid string length'), fromWorker]) {
      const captureError = toPdfCaptureError(error, data);
      expect(captureError.code).toBe('too-large');
      expect(captureError.message).toMatch(/too large to read as text/);
      expect(captureError.message).not.toMatch(/Invalid string length|RangeError|Exception/);
    }
  });

  it('words an unknown pdf.js failure without its exception name', () => {
    const error = Object.assign(new Error('Pages tree contains circular reference.'), { name: 'UnknownErrorException' });
    const captureError = toPdfCaptureError(error, new TextEncoder().encode('%PDF-1.7\n%%EOF\n'));
    expect(captureError.message).toBe('The PDF could not be parsed: its page tree is broken: it leads back to itself.');
  });
});
