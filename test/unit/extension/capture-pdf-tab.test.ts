/**
 * PDF tabs: the background recognises them and asks the offscreen document to download and read
 * the PDF (`pdf-read`); the document answers with the article or the capture's failure.
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CaptureError } from '../../../src/capture/errors';
import type { PdfReadRequest, PdfReadResponse } from '../../../src/contracts/messages';
import { capturePdfTab, hasPdfPath, pdfDownloadUrl, showsPdf } from '../../../src/extension/capture-pdf-tab';
import { captureScriptFile, captureTab, type CaptureInjection, type CaptureTabDependencies } from '../../../src/extension/capture-tab';
import type { FetchLike } from '../../../src/extension/fetch-pdf';
import { createModelEngineListener } from '../../../src/extension/model-engine-host';
import { createOffscreenForwarder, type OffscreenApi } from '../../../src/extension/offscreen-engine';
import { answerPdfRead, downloadAndReadPdf } from '../../../src/extension/pdf-read-host';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { getPaper } from '../../../src/store/paper-repository';
import { minimalPdf } from '../capture/pdf/minimal-pdf';
import { makeArticle } from '../store/article-fixture';

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

const pdfAnswer = () => new Response(pdfBytes.slice(), { headers: { 'content-type': 'application/pdf' } });

/** The extension's origin in these tests, and its service worker, which sends `pdf-read`. */
const ORIGIN = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/';
const FROM_BACKGROUND = { id: 'abcdefghijklmnopabcdefghijklmnop', url: `${ORIGIN}background.js` };

describe('downloadAndReadPdf (offscreen document)', () => {
  it('downloads the URL and reads the PDF with page numbers', async () => {
    const fetch = vi.fn<FetchLike>(async () => pdfAnswer());
    const article = await downloadAndReadPdf(PDF_URL, { fetch });
    expect(fetch.mock.calls[0]?.[0]).toBe(PDF_URL);
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ credentials: 'include' });
    expect(article).toMatchObject({ source: 'pdf', adapter: 'pdfjs', pageCount: 2, doi: '10.1234/assay.test.5', url: PDF_URL });
    expect(article.blocks.every((block) => block.page === 1 || block.page === 2)).toBe(true);
    expect(article.blocks.find((block) => block.text.startsWith('Second page'))?.page).toBe(2);
  });

  it('a server that answers with HTML is unsupported-type, not parsed as a web page', async () => {
    const fetch = vi.fn<FetchLike>(async () => new Response('<!DOCTYPE html><p>Sign in</p>', { headers: { 'content-type': 'text/html' } }));
    await expect(downloadAndReadPdf(PDF_URL, { fetch })).rejects.toMatchObject({ code: 'unsupported-type' });
  });
});

describe('answerPdfRead (offscreen document)', () => {
  const request: PdfReadRequest = { type: 'pdf-read', url: PDF_URL };

  it('answers with the article', async () => {
    const answer = await answerPdfRead(request, { fetch: async () => pdfAnswer() });
    expect(answer).toMatchObject({ ok: true, article: { source: 'pdf', pageCount: 2, url: PDF_URL } });
  });

  it('answers with the CaptureError’s code and words as they are', async () => {
    const gone = await answerPdfRead(request, { fetch: async () => new Response('', { status: 404, statusText: 'Not Found' }) });
    expect(gone).toEqual({
      ok: false,
      failure: {
        code: 'not-found',
        message: 'The PDF is no longer at this address (HTTP 404 Not Found). Reload the tab and capture again.',
      },
    });
    const scanned = minimalPdf({ pages: [[], []] });
    const images = await answerPdfRead(request, { fetch: async () => new Response(scanned.slice()) });
    expect(images).toMatchObject({ ok: false, failure: { code: 'no-text-layer' } });
    const refused = await answerPdfRead(request, { fetch: async () => new Response('', { status: 403, statusText: 'Forbidden' }) });
    expect(refused).toMatchObject({
      ok: false,
      failure: { code: 'unreadable', message: expect.stringMatching(/HTTP 403 Forbidden.*Sign in/) },
    });
  });

  it('the offscreen listener answers a pdf-read envelope from the background', async () => {
    const fetch = vi.fn<FetchLike>(async () => pdfAnswer());
    const listener = offscreenListener(fetch);
    const answer = new Promise((resolve) => expect(listener({ target: 'assay-offscreen', request }, FROM_BACKGROUND, resolve)).toBe(true));
    expect(await answer).toMatchObject({ ok: true, article: { doi: '10.1234/assay.test.5', pageCount: 2 } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('the offscreen listener refuses a pdf-read from a content script, and downloads nothing', async () => {
    const fetch = vi.fn<FetchLike>(async () => pdfAnswer());
    const answers: unknown[] = [];
    offscreenListener(fetch)({ target: 'assay-offscreen', request }, { url: 'https://evil.example/' }, (answer) => answers.push(answer));
    expect(answers).toMatchObject([{ ok: false, failure: { code: 'bad-request' } }]);
    expect(fetch).not.toHaveBeenCalled();
  });
});

/** The offscreen document's runs table (each listener marks stale runs in it when created). */
const offscreenDatabase = createAssayDatabase('capture-pdf-tab-offscreen');
afterAll(() => offscreenDatabase.close());

/** The offscreen document's listener with no model (these tests read PDFs only) and `fetch` for downloads. */
function offscreenListener(fetch: FetchLike) {
  return createModelEngineListener({
    extensionOrigin: ORIGIN,
    navigator: undefined,
    createLlm: async () => {
      throw new Error('no model in these tests');
    },
    modelRecords: async () => [],
    database: offscreenDatabase,
    properties: [],
    cache: { has: async () => false, remove: async () => undefined },
    fetch: fetch as typeof globalThis.fetch,
  });
}

/**
 * The background's `readPdf` wired to a real offscreen listener, as `runtime.sendMessage` does:
 * the message and the answer cross as JSON, and a listener that does not claim the message
 * leaves the sender with `undefined`.
 */
function backgroundToOffscreen(fetch: FetchLike): CaptureTabDependencies['readPdf'] {
  const listener = offscreenListener(fetch);
  const api: OffscreenApi = {
    runtime: {
      getURL: (path) => `${ORIGIN}${path.replace(/^\//, '')}`,
      sendMessage: (message) =>
        new Promise((resolve) => {
          const claimed = listener(JSON.parse(JSON.stringify(message)), FROM_BACKGROUND, (answer) =>
            resolve(JSON.parse(JSON.stringify(answer))),
          );
          if (!claimed) resolve(undefined);
        }),
      getContexts: async () => [{ documentUrl: `${ORIGIN}offscreen.html` }],
    },
    offscreen: { createDocument: async () => undefined },
  };
  return createOffscreenForwarder(api).readPdf;
}

describe('capturePdfTab (background)', () => {
  it('asks the offscreen document for the fragment-free URL and passes its answer on', async () => {
    const article = makeArticle({ source: 'pdf', adapter: 'pdfjs', url: PDF_URL });
    const readPdf = vi.fn(async (): Promise<PdfReadResponse> => ({ ok: true, article }));
    expect(await capturePdfTab(`${PDF_URL}#page=2`, readPdf)).toEqual({ ok: true, article });
    expect(readPdf).toHaveBeenCalledWith({ type: 'pdf-read', url: PDF_URL });
  });

  it('a local file is refused in the background; nothing is asked of the offscreen document', async () => {
    const readPdf = vi.fn(async (): Promise<PdfReadResponse> => ({ ok: true, article: makeArticle() }));
    expect(await capturePdfTab('file:///home/reader/a.pdf', readPdf)).toMatchObject({
      ok: false,
      failure: { code: 'unsupported-type', message: expect.stringMatching(/npx assay capture/) },
    });
    expect(readPdf).not.toHaveBeenCalled();
  });
});

describe('the background’s readPdf (offscreen forwarder)', () => {
  const request: PdfReadRequest = { type: 'pdf-read', url: PDF_URL };

  function api(
    sendMessage: OffscreenApi['runtime']['sendMessage'],
    createDocument: OffscreenApi['offscreen']['createDocument'] = async () => undefined,
  ) {
    return {
      runtime: {
        getURL: (path: string) => `${ORIGIN}${path.replace(/^\//, '')}`,
        sendMessage: vi.fn(sendMessage),
        getContexts: vi.fn(async () => []),
      },
      offscreen: { createDocument: vi.fn(createDocument) },
    };
  }

  it('creates the document, sends pdf-read in the envelope, and returns the article it answers', async () => {
    const article = makeArticle({ source: 'pdf', adapter: 'pdfjs', url: PDF_URL, pageCount: 2 });
    const fake = api(async () => ({ ok: true, article }));
    expect(await createOffscreenForwarder(fake).readPdf(request)).toEqual({ ok: true, article });
    expect(fake.offscreen.createDocument).toHaveBeenCalledWith(expect.objectContaining({ url: '/offscreen.html', reasons: ['WORKERS'] }));
    expect(fake.runtime.sendMessage).toHaveBeenCalledWith({ target: 'assay-offscreen', request });
  });

  it('passes the document’s capture failure on unchanged', async () => {
    for (const failure of [
      { code: 'no-text-layer', message: 'This PDF has no text layer (scanned pages): run OCR on it first.' },
      { code: 'unreadable', message: 'The PDF is too large to capture in the browser (120.0 MB; the limit is 100.0 MB).' },
      { code: 'not-found', message: 'The PDF is no longer at this address (HTTP 404). Reload the tab and capture again.' },
    ] as const) {
      expect(await createOffscreenForwarder(api(async () => ({ ok: false, failure }))).readPdf(request)).toEqual({ ok: false, failure });
    }
  });

  it('a document that does not answer, closes, or cannot be created is an internal failure that says so', async () => {
    const noReceiver = api(async () => {
      throw new Error('Could not establish connection. Receiving end does not exist.');
    });
    expect(await createOffscreenForwarder(noReceiver).readPdf(request)).toEqual({
      ok: false,
      failure: {
        code: 'internal',
        message:
          'The PDF was not read: the extension’s offscreen document, which reads PDFs, did not answer: Could not establish connection. Receiving end does not exist.',
      },
    });
    expect(await createOffscreenForwarder(api(async () => undefined)).readPdf(request)).toMatchObject({
      ok: false,
      failure: { code: 'internal', message: expect.stringMatching(/offscreen document, which reads PDFs, closed without answering/) },
    });
    const notCreated = api(
      async () => ({ ok: true, article: makeArticle() }),
      async () => {
        throw new Error('Only a single offscreen document may be created.');
      },
    );
    expect(await createOffscreenForwarder(notCreated).readPdf(request)).toMatchObject({
      ok: false,
      failure: { code: 'internal', message: expect.stringMatching(/did not answer: Only a single offscreen document may be created/) },
    });
    expect(notCreated.runtime.sendMessage).not.toHaveBeenCalled();
  });

  it('an answer that breaks the Article contract is an internal failure, not saved', async () => {
    const broken = { ok: true, article: { ...makeArticle(), blocks: [{ id: 'b0', kind: 'paragraph', text: 'x', start: 5, end: 1 }] } };
    expect(await createOffscreenForwarder(api(async () => broken)).readPdf(request)).toMatchObject({
      ok: false,
      failure: {
        code: 'internal',
        message: expect.stringMatching(/^The PDF was not read: the offscreen document answered in an unexpected shape/),
      },
    });
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

  /** Fakes: the tab shows `url`; the probe answers `contentType` (or throws `probeError`); the offscreen document downloads with `fetch`. */
  function fakes(options: { url?: string; contentType?: string; probeError?: Error; fetch?: FetchLike }) {
    const executeScript = vi.fn(async (injection: CaptureInjection) => {
      if ('func' in injection) {
        if (options.probeError) throw options.probeError;
        return [{ result: options.contentType }];
      }
      return [{ result: { ok: false, failure: { code: 'not-article', message: 'ran the HTML capture script' } } }];
    });
    const fetch = vi.fn<FetchLike>(options.fetch ?? (async () => pdfAnswer()));
    const dependencies: CaptureTabDependencies = {
      tabs: { get: async () => ({ url: options.url }), sendMessage: async () => undefined },
      scripting: { executeScript },
      readPdf: backgroundToOffscreen(fetch),
      extensionBase: 'chrome-extension://assayid/',
    };
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
    expect(response).toEqual({
      ok: false,
      failure: { code: 'not-found', message: 'The PDF is no longer at this address (HTTP 404). Reload the tab and capture again.' },
    });
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
