/**
 * The bundled example article (entrypoints/example/index.html) captures itself when the
 * background asks, and the capture routes that one page through a message instead of injection.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import 'fake-indexeddb/auto';
import { captureTab, type CaptureTabDependencies } from '../../../src/extension/capture-tab';
import { EXAMPLE_CAPTURE_TARGET, isExampleArticle } from '../../../src/extension/example-article';
import { answerExampleCapture } from '../../../src/extension/example-article-capture';
import { findPropertyMentions, loadPropertySchemas } from '../../../src/properties';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { projectRoot } from '../../support/shared-data';

const BASE = 'chrome-extension://assayid/';
const EXAMPLE_URL = `${BASE}example.html`;

/** The example article's markup as built, parsed at its extension URL. */
function exampleDom(): JSDOM {
  return new JSDOM(readFileSync(join(projectRoot, 'entrypoints', 'example', 'index.html'), 'utf8'), { url: EXAMPLE_URL });
}

describe('isExampleArticle', () => {
  it('is this extension’s example.html only, whatever its query or fragment', () => {
    expect(isExampleArticle(EXAMPLE_URL, BASE)).toBe(true);
    expect(isExampleArticle(`${EXAMPLE_URL}?from=welcome#results`, BASE)).toBe(true);
    expect(isExampleArticle('chrome-extension://otherid/example.html', BASE)).toBe(false);
    expect(isExampleArticle(`${BASE}dataset.html`, BASE)).toBe(false);
    expect(isExampleArticle('https://example.org/example.html', BASE)).toBe(false);
    expect(isExampleArticle(undefined, BASE)).toBe(false);
    expect(isExampleArticle('not a url', BASE)).toBe(false);
  });
});

describe('the example article’s own capture', () => {
  it('answers only its own target', () => {
    const { window } = exampleDom();
    expect(answerExampleCapture({ type: 'capture-tab', tabId: 1 }, window.document, window as unknown as Window)).toBeUndefined();
    expect(answerExampleCapture('ping', window.document, window as unknown as Window)).toBeUndefined();
    expect(answerExampleCapture(null, window.document, window as unknown as Window)).toBeUndefined();
  });

  it('is read like a publisher’s page: title, example DOI, body text with the facts the quick scan finds', () => {
    const { window } = exampleDom();
    const answer = answerExampleCapture({ target: EXAMPLE_CAPTURE_TARGET }, window.document, window as unknown as Window);
    if (!answer?.ok) throw new Error(`capture failed: ${JSON.stringify(answer)}`);
    const { article } = answer;
    expect(article.doi).toBe('10.5555/assay.example.2026.001');
    expect(article.title).toMatch(/^Textbook band gaps/);
    expect(article.text).toContain('direct band gap of 3.37 eV');
    // The quick scan finds band gaps, a lattice constant, Tc and a bulk modulus to try the extraction on.
    const properties = new Set(findPropertyMentions(article.text, loadPropertySchemas()).map((mention) => mention.property));
    expect([...properties]).toEqual(expect.arrayContaining(['band_gap', 'tc', 'bulk_modulus']));
  });
});

describe('captureTab on the example article', () => {
  let database: AssayDatabase;
  beforeEach(() => {
    database = createAssayDatabase(`example-${Math.random()}`);
  });
  afterEach(async () => {
    database.close();
  });

  function dependencies(sendMessage: CaptureTabDependencies['tabs']['sendMessage']) {
    const executeScript = vi.fn(async () => [{ result: 'text/html' }]);
    const deps: CaptureTabDependencies = {
      tabs: { get: async () => ({ url: EXAMPLE_URL }), sendMessage: vi.fn(sendMessage) },
      scripting: { executeScript },
      readPdf: async () => ({ ok: false, failure: { code: 'internal', message: 'never a PDF' } }),
      extensionBase: BASE,
    };
    return { deps, executeScript };
  }

  it('asks the page by message, never injects, and saves the paper', async () => {
    const { window } = exampleDom();
    const { deps, executeScript } = dependencies(async (_tabId, message) =>
      answerExampleCapture(message, window.document, window as unknown as Window),
    );
    const response = await captureTab({ type: 'capture-tab', tabId: 4 }, database, deps);
    expect(response).toMatchObject({ ok: true, paper: { doi: '10.5555/assay.example.2026.001' } });
    expect(executeScript).not.toHaveBeenCalled();
    expect(deps.tabs.sendMessage).toHaveBeenCalledWith(4, { target: EXAMPLE_CAPTURE_TARGET });
    expect(await database.table('papers').count()).toBe(1);
  });

  it('a page that does not answer, or answers nonsense, is a failure in words and nothing is saved', async () => {
    const silent = await captureTab(
      { type: 'capture-tab', tabId: 4 },
      database,
      dependencies(async () => {
        throw new Error('Could not establish connection. Receiving end does not exist.');
      }).deps,
    );
    expect(silent).toMatchObject({
      ok: false,
      failure: { code: 'no-tab', message: expect.stringMatching(/example article did not answer/) },
    });
    const nonsense = await captureTab(
      { type: 'capture-tab', tabId: 4 },
      database,
      dependencies(async () => ({ ok: true, article: 7 })).deps,
    );
    expect(nonsense).toMatchObject({ ok: false, failure: { code: 'unreadable' } });
    expect(await database.table('papers').count()).toBe(0);
  });
});
