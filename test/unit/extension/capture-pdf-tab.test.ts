import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CaptureError } from '../../../src/capture/errors';
import { capturePdfTab, hasPdfPath, pdfDownloadUrl, showsPdf } from '../../../src/extension/capture-pdf-tab';
import { captureScriptFile, captureTab, type CaptureInjection, type CaptureTabDependencies } from '../../../src/extension/capture-tab';
import type { FetchLike } from '../../../src/extension/fetch-pdf';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { getPaper } from '../../../src/store/paper-repository';
import { minimalPdf } from '../capture/pdf/minimal-pdf';

const PDF_URL = 'https://iopscience.iop.org/article/10.1088/2053-1583/3/1/011003/paper.pdf';

/** Two pages; page 1 prints the title and a DOI, page 2 holds one sentence. */
const pdfBytes = minimalPdf({
  pages: [
    [
      { text: 'Superconductivity in a hand-written test document', x: 72, y: 720, size: 18 },
      { text: 'We measured the resistivity of a thin film and found a sharp transition at low tem-', x: 72, y: 660 },
      { text: 'perature. The sample was grown by pulsed laser deposition on a strontium titanate', x: 72, y: 648 },
      { text: 'substrate and characterised by x-ray diffraction (doi:10.1234/assay.test.5).', x: 72, y: 636 },
    ],
    [{ text: 'Second page of running text, with a short sentence.', x: 72, y: 700 }],
  ],
});

describe('hasPdfPath', () => {
  it('is true when the path ends in .pdf, in any case, with a query or fragment after it', () => {
    expect(hasPdfPath('https://arxiv.org/pdf/1903.04321v1.pdf')).toBe(true);
    expect(hasPdfPath('https://example.org/files/Paper.PDF?download=1&x=y')).toBe(true);
    expect(hasPdfPath('https://example.org/a.pdf#page=3')).toBe(true);
  });

  it('is false for other paths, a .pdf only in the query, and missing or broken URLs', () => {
    expect(hasPdfPath('https://pubs.acs.org/doi/pdf/10.1021/acsphotonics.9b00250')).toBe(false);
    expect(hasPdfPath('https://example.org/view?file=a.pdf')).toBe(false);
    expect(hasPdfPath('https://example.org/a.pdf/')).toBe(false);
    expect(hasPdfPath('https://example.org/a.pdfx')).toBe(false);
    expect(hasPdfPath(undefined)).toBe(false);
    expect(hasPdfPath('not a url.pdf')).toBe(false);
  });
});

describe('showsPdf', () => {
  it('the content type decides when it is known', () => {
    expect(showsPdf({ url: 'https://pubs.acs.org/doi/pdf/10.1021/x', contentType: 'application/pdf' })).toBe(true);
    expect(showsPdf({ url: 'https://example.org/a.pdf', contentType: 'Application/PDF' })).toBe(true);
    // A .pdf address that serves a sign-in page is an HTML page.
    expect(showsPdf({ url: 'https://example.org/a.pdf', contentType: 'text/html' })).toBe(false);
  });

  it('the .pdf path decides when the content type could not be read', () => {
    expect(showsPdf({ url: 'https://example.org/a.pdf', contentType: undefined })).toBe(true);
    expect(showsPdf({ url: 'https://example.org/a.html', contentType: undefined })).toBe(false);
    expect(showsPdf({ url: undefined, contentType: undefined })).toBe(false);
  });
});

describe('pdfDownloadUrl', () => {
  it('drops the viewer’s fragment and keeps the query', () => {
    expect(pdfDownloadUrl('https://example.org/a.pdf?token=1#page=3')).toBe('https://example.org/a.pdf?token=1');
  });

  it('refuses local files and other schemes with words', () => {
    expect(() => pdfDownloadUrl('file:///home/reader/a.pdf')).toThrow(/file on your computer.*npx assay capture/);
    try {
      pdfDownloadUrl('ftp://example.org/a.pdf');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CaptureError);
      expect((error as CaptureError).code).toBe('unsupported-type');
    }
  });
});

describe('capturePdfTab', () => {
  it('downloads the fragment-free URL and reads the PDF with page numbers', async () => {
    const fetch = vi.fn<FetchLike>(async () => new Response(pdfBytes.slice(), { headers: { 'content-type': 'application/pdf' } }));
    const article = await capturePdfTab(`${PDF_URL}#page=2`, { fetch });
    expect(fetch.mock.calls[0]?.[0]).toBe(PDF_URL);
    expect(article).toMatchObject({ source: 'pdf', adapter: 'pdfjs', pageCount: 2, doi: '10.1234/assay.test.5', url: PDF_URL });
    expect(article.blocks.every((block) => block.page === 1 || block.page === 2)).toBe(true);
    expect(article.blocks.find((block) => block.text.startsWith('Second page'))?.page).toBe(2);
  });

  it('a server that answers with HTML is unsupported-type, not parsed as a web page', async () => {
    const fetch = vi.fn<FetchLike>(async () => new Response('<!DOCTYPE html><p>Sign in</p>', { headers: { 'content-type': 'text/html' } }));
    await expect(capturePdfTab(PDF_URL, { fetch })).rejects.toMatchObject({ code: 'unsupported-type' });
  });
});

describe('captureTab on a PDF tab', () => {
  let database: AssayDatabase;
  let databaseCount = 0;

  beforeEach(() => {
    databaseCount += 1;
    database = createAssayDatabase(`capture-pdf-tab-test-${databaseCount}`);
  });
  afterEach(() => database.close());

  /** Fakes: the tab shows `url`; the probe answers `contentType` (or throws `probeError`). */
  function fakes(options: { url?: string; contentType?: string; probeError?: Error; fetch?: FetchLike }) {
    const executeScript = vi.fn(async (injection: CaptureInjection) => {
      if ('func' in injection) {
        if (options.probeError) throw options.probeError;
        return [{ result: options.contentType }];
      }
      return [{ result: { ok: false, failure: { code: 'not-article', message: 'ran the HTML capture script' } } }];
    });
    const fetch = vi.fn<FetchLike>(
      options.fetch ?? (async () => new Response(pdfBytes.slice(), { headers: { 'content-type': 'application/pdf' } })),
    );
    const dependencies: CaptureTabDependencies = { tabs: { get: async () => ({ url: options.url }) }, scripting: { executeScript }, fetch };
    return { dependencies, executeScript, fetch };
  }

  it('a viewer tab (application/pdf) is downloaded, saved with its DOI and page numbers, and never gets the capture script', async () => {
    const { dependencies, executeScript, fetch } = fakes({ url: 'https://pubs.acs.org/doi/pdf/10.1021/x', contentType: 'application/pdf' });
    const response = await captureTab({ type: 'capture-tab', tabId: 3 }, database, dependencies);
    expect(response).toMatchObject({
      ok: true,
      paper: { key: 'doi:10.1234/assay.test.5', source: 'pdf', adapter: 'pdfjs', url: 'https://pubs.acs.org/doi/pdf/10.1021/x' },
    });
    expect(executeScript).toHaveBeenCalledTimes(1);
    expect(executeScript.mock.calls[0]?.[0]).toMatchObject({ target: { tabId: 3 } });
    expect(fetch).toHaveBeenCalledTimes(1);
    const stored = await getPaper(database, 'doi:10.1234/assay.test.5');
    expect(stored?.article.pageCount).toBe(2);
    expect(stored?.article.blocks.map((block) => block.page)).toContain(2);
  });

  it('a .pdf address the browser will not let the probe into is still downloaded', async () => {
    const { dependencies, fetch } = fakes({ url: PDF_URL, probeError: new Error('Cannot access contents of the page.') });
    const response = await captureTab({ type: 'capture-tab', tabId: 3 }, database, dependencies);
    expect(response.ok).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a .pdf address that shows an HTML page runs the capture script, not the download', async () => {
    const { dependencies, executeScript, fetch } = fakes({ url: PDF_URL, contentType: 'text/html' });
    const response = await captureTab({ type: 'capture-tab', tabId: 3 }, database, dependencies);
    expect(response).toEqual({ ok: false, failure: { code: 'not-article', message: 'ran the HTML capture script' } });
    expect(executeScript).toHaveBeenLastCalledWith({ target: { tabId: 3 }, files: [captureScriptFile] });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('an HTML page the probe may not read fails with the injection error in words, and nothing is fetched', async () => {
    const { dependencies, executeScript, fetch } = fakes({
      url: 'https://example.org/article',
      probeError: new Error('Cannot access contents of the page.'),
    });
    const response = await captureTab({ type: 'capture-tab', tabId: 3 }, database, dependencies);
    expect(response).toMatchObject({ ok: false, failure: { code: 'no-tab', message: expect.stringMatching(/click its toolbar button/) } });
    expect(executeScript).toHaveBeenCalledTimes(1);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a failed download is passed on as the capture failure and nothing is saved', async () => {
    const { dependencies } = fakes({ url: PDF_URL, contentType: 'application/pdf', fetch: async () => new Response('', { status: 404 }) });
    const response = await captureTab({ type: 'capture-tab', tabId: 3 }, database, dependencies);
    expect(response).toMatchObject({ ok: false, failure: { code: 'not-found' } });
    expect(await database.papers.count()).toBe(0);
  });

  it('a local PDF file says to use the CLI', async () => {
    const { dependencies, fetch } = fakes({
      url: 'file:///home/reader/paper.pdf',
      probeError: new Error('Cannot access contents of url "file:///home/reader/paper.pdf".'),
    });
    const response = await captureTab({ type: 'capture-tab', tabId: 3 }, database, dependencies);
    expect(response).toMatchObject({
      ok: false,
      failure: { code: 'unsupported-type', message: expect.stringMatching(/npx assay capture/) },
    });
    expect(fetch).not.toHaveBeenCalled();
  });
});
