import { describe, expect, it } from 'vitest';
import { ArticleSchema } from '../../../../src/contracts/article';
import { CaptureError } from '../../../../src/capture/errors';
import { capturePdf } from '../../../../src/capture/pdf/capture-pdf';
import { minimalPdf, type MinimalPdfLine } from './minimal-pdf';

const body: MinimalPdfLine[] = [
  { text: 'Superconductivity in a hand-written test document', x: 72, y: 720, size: 18 },
  { text: 'We measured the resistivity of a thin film and found a sharp transition at low tem-', x: 72, y: 660 },
  { text: 'perature. The sample was grown by pulsed laser deposition on a strontium titanate', x: 72, y: 648 },
  { text: 'substrate and characterised by x-ray diffraction (doi:10.1234/assay.test.5).', x: 72, y: 636 },
];

async function captureError(promise: Promise<unknown>): Promise<CaptureError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CaptureError);
  return error as CaptureError;
}

describe('capturePdf on hand-written PDFs', () => {
  it('captures text, page numbers, title and a DOI printed on page 1', async () => {
    const data = minimalPdf({ pages: [body, [{ text: 'Second page of running text, with a short sentence.', x: 72, y: 700 }]] });
    const copy = data.slice();
    const article = await capturePdf(data, { url: 'https://example.org/paper.pdf' });
    expect(ArticleSchema.safeParse(article).success).toBe(true);
    expect(article).toMatchObject({ source: 'pdf', adapter: 'pdfjs', pageCount: 2, doi: '10.1234/assay.test.5', doiOrigin: 'pdf-text' });
    expect(article.title).toBe('Superconductivity in a hand-written test document');
    expect(article.text).toContain('transition at low temperature. The sample');
    expect(article.blocks.map((block) => block.page)).toContain(2);
    expect(data).toEqual(copy); // the caller's buffer is neither detached nor changed
  });

  it('prefers a real info Title and ignores a file-name Title', async () => {
    const good = await capturePdf(minimalPdf({ pages: [body], title: 'Superconductivity in a hand-written test document' }), {});
    expect(good.title).toBe('Superconductivity in a hand-written test document');
    const fileName = await capturePdf(minimalPdf({ pages: [body], title: 'Microsoft Word - draft7.doc' }), {});
    expect(fileName.title).toBe('Superconductivity in a hand-written test document');
  });

  it('rejects a PDF without a text layer as no-text-layer', async () => {
    const error = await captureError(capturePdf(minimalPdf({ pages: [[], []] }), {}));
    expect(error.code).toBe('no-text-layer');
    expect(error.message).toMatch(/scanned.*OCR/);
  });

  it('rejects the first half of a PDF as truncated', async () => {
    const data = minimalPdf({ pages: [body, body] });
    const error = await captureError(capturePdf(data.slice(0, Math.floor(data.length / 2)), {}));
    expect(error.code).toBe('truncated');
  });

  it('rejects a password-protected PDF as unreadable and says it is encrypted', async () => {
    const error = await captureError(capturePdf(minimalPdf({ pages: [body], encrypted: true }), {}));
    expect(error.code).toBe('unreadable');
    expect(error.message).toMatch(/encrypted/);
  });

  it('rejects a damaged file that ends properly as unreadable, naming the cause', async () => {
    const error = await captureError(capturePdf(new TextEncoder().encode('%PDF-1.4\nthis is not a PDF body\n%%EOF\n'), {}));
    expect(error.code).toBe('unreadable');
    expect(error.message).toMatch(/could not be parsed/);
  });

  it('honours an aborted signal with an AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(capturePdf(minimalPdf({ pages: [body] }), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('a sentence printed on every page (issue 27, item 12)', () => {
  it('is captured once, not dropped as a running footer', async () => {
    const footer = { text: 'The band gap of GaN is 3.4 eV at 300 K.', x: 72, y: 40 };
    const pages = [body, body, body].map((lines) => [...lines, footer]);
    const article = await capturePdf(minimalPdf({ pages }), {});
    expect(article.text.split('The band gap of GaN is 3.4 eV at 300 K.')).toHaveLength(2);
  });
});
