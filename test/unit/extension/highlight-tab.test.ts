import { describe, expect, test, vi } from 'vitest';
import type { HighlightReport, RequestOf } from '../../../src/contracts/messages';
import { createHighlightHandlers, highlightScriptFile, type HighlightApi } from '../../../src/extension/highlight-tab';

const REPORT: HighlightReport = {
  anchored: ['f1'],
  failed: [{ id: 'f2', reason: 'the quote was not found in the page' }],
  method: 'custom-highlight',
};

function fakeApi(
  overrides: { url?: string; get?: () => Promise<{ url?: string }>; inject?: () => Promise<unknown>; answer?: () => Promise<unknown> } = {},
) {
  const api = {
    tabs: {
      get: vi.fn(overrides.get ?? (async () => ({ url: overrides.url ?? 'https://pubs.acs.org/doi/10.1021/acsenergylett.7b00001' }))),
      sendMessage: vi.fn(overrides.answer ?? (async () => ({ ok: true, report: REPORT }))),
    },
    scripting: { executeScript: vi.fn(overrides.inject ?? (async () => [{ result: undefined }])) },
    runtime: { getURL: (path: string) => `chrome-extension://assayid${path}` },
  } satisfies HighlightApi;
  return api;
}

const showRequest: RequestOf<'highlight-show'> = { type: 'highlight-show', tabId: 7, items: [] };
const scrollRequest: RequestOf<'highlight-scroll'> = { type: 'highlight-scroll', tabId: 7, id: 'f1' };

describe('createHighlightHandlers', () => {
  test('injects the highlighter, forwards the request in an envelope and returns its report', async () => {
    const api = fakeApi();
    const answer = await createHighlightHandlers(api)['highlight-show'](showRequest);
    expect(answer).toEqual({ ok: true, report: REPORT });
    expect(api.scripting.executeScript).toHaveBeenCalledWith({ target: { tabId: 7 }, files: [highlightScriptFile] });
    expect(highlightScriptFile).toBe('/content-scripts/highlight.js');
    expect(api.tabs.sendMessage).toHaveBeenCalledWith(7, { target: 'assay-highlighter', request: showRequest });
  });

  test('scroll: passes on found', async () => {
    const api = fakeApi({ answer: async () => ({ ok: true, found: false }) });
    expect(await createHighlightHandlers(api)['highlight-scroll'](scrollRequest)).toEqual({ ok: true, found: false });
  });

  test('a closed tab is no-tab, and nothing is injected', async () => {
    const api = fakeApi({ get: async () => Promise.reject(new Error('No tab with id: 7.')) });
    expect(await createHighlightHandlers(api)['highlight-show'](showRequest)).toEqual({
      ok: false,
      failure: { code: 'no-tab', message: 'Cannot highlight in this tab: the tab was closed.' },
    });
    expect(api.scripting.executeScript).not.toHaveBeenCalled();
  });

  test('a chrome:// page is refused before injecting', async () => {
    const api = fakeApi({ url: 'chrome://settings/' });
    const answer = await createHighlightHandlers(api)['highlight-show'](showRequest);
    expect(answer).toMatchObject({
      ok: false,
      failure: { code: 'no-tab', message: expect.stringMatching(/^Cannot highlight in this tab: chrome:\/\/ pages cannot be read/) },
    });
    expect(api.scripting.executeScript).not.toHaveBeenCalled();
  });

  test('the bundled example article (an extension page) is not injected into: its own highlighter is asked', async () => {
    const api = fakeApi({ url: 'chrome-extension://assayid/example.html#results' });
    const answer = await createHighlightHandlers(api)['highlight-show'](showRequest);
    expect(answer).toEqual({ ok: true, report: REPORT });
    expect(api.scripting.executeScript).not.toHaveBeenCalled();
    expect(api.tabs.sendMessage).toHaveBeenCalledWith(7, { target: 'assay-highlighter', request: showRequest });
  });

  test('another extension page, or another extension’s example page, is still refused', async () => {
    for (const url of ['chrome-extension://assayid/dataset.html', 'chrome-extension://otherid/example.html']) {
      const api = fakeApi({ url });
      const answer = await createHighlightHandlers(api)['highlight-show'](showRequest);
      expect(answer).toMatchObject({ ok: false, failure: { code: 'no-tab' } });
      expect(api.tabs.sendMessage).not.toHaveBeenCalled();
    }
  });

  test('an injection refused by the browser is no-tab with the reason in words', async () => {
    const api = fakeApi({
      inject: async () =>
        Promise.reject(
          new Error(
            'Cannot access contents of url "https://example.org/". Extension manifest must request permission to access this host.',
          ),
        ),
    });
    const answer = await createHighlightHandlers(api)['highlight-show'](showRequest);
    expect(answer).toEqual({
      ok: false,
      failure: {
        code: 'no-tab',
        message:
          'Assay may mark a page only after you click its toolbar button on that page. Click the Assay button, then show the highlights again.',
      },
    });
    expect(api.tabs.sendMessage).not.toHaveBeenCalled();
  });

  test('no listener in the page is an internal failure that says the page did not answer', async () => {
    const api = fakeApi({ answer: async () => Promise.reject(new Error('Could not establish connection. Receiving end does not exist.')) });
    const answer = await createHighlightHandlers(api)['highlight-scroll'](scrollRequest);
    expect(answer).toMatchObject({
      ok: false,
      failure: { code: 'internal', message: expect.stringMatching(/^The page did not answer: the highlighter did not start in it/) },
    });
  });

  test('no reply at all is an internal failure', async () => {
    const api = fakeApi({ answer: async () => undefined });
    const answer = await createHighlightHandlers(api)['highlight-show'](showRequest);
    expect(answer).toMatchObject({
      ok: false,
      failure: { code: 'internal', message: expect.stringMatching(/^The page did not answer the highlight request/) },
    });
  });

  test('a reply of the wrong shape is an internal failure naming the problem', async () => {
    // A page script answering in Assay's place, or a stale content script of another version.
    const api = fakeApi({ answer: async () => ({ ok: true, report: { anchored: 'f1', method: 'paint' } }) });
    const answer = await createHighlightHandlers(api)['highlight-show'](showRequest);
    expect(answer).toMatchObject({
      ok: false,
      failure: { code: 'internal', message: expect.stringMatching(/^The page answered the highlight request in an unexpected shape: /) },
    });
  });

  test('the page’s own failure (the PDF viewer) is passed on', async () => {
    const failure = { ok: false, failure: { code: 'unsupported-type', message: 'This tab shows a PDF in the browser’s viewer…' } };
    const api = fakeApi({ answer: async () => failure });
    expect(await createHighlightHandlers(api)['highlight-show'](showRequest)).toEqual(failure);
  });
});
