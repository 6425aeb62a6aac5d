// @vitest-environment jsdom
import { afterEach, describe, expect, test, vi } from 'vitest';
import { answerHighlighterMessage, HIGHLIGHTER_TARGET, isPdfViewer } from '../../../src/highlight/highlighter-messages';
import { installHighlighter, type MessageListener } from '../../../src/highlight/install-highlighter';
import type { Highlighter } from '../../../src/highlight/highlighter';
import { BANDGAP_SENTENCE, itemFromCapture, loadBody } from './highlight-fixtures';

/** A stand-in for `browser.runtime.onMessage` that delivers a message to its listeners. */
function fakeOnMessage() {
  const listeners = new Set<MessageListener>();
  return {
    listeners,
    addListener: (listener: MessageListener) => listeners.add(listener),
    removeListener: (listener: MessageListener) => listeners.delete(listener),
    deliver(message: unknown): unknown[] {
      const answers: unknown[] = [];
      for (const listener of listeners) listener(message, { id: 'assay' }, (answer) => answers.push(answer));
      return answers;
    },
  };
}

const INSTANCE = Symbol.for('assay.highlighter');

afterEach(() => {
  const scope = window as unknown as Record<symbol, { highlighter: Highlighter } | undefined>;
  scope[INSTANCE]?.highlighter.dispose();
  Reflect.deleteProperty(window, INSTANCE);
  document.body.innerHTML = '';
});

describe('installHighlighter', () => {
  test('a second injection reuses the page’s highlighter and leaves one listener', () => {
    loadBody(document);
    const onMessage = fakeOnMessage();
    const first = installHighlighter({ document, window }, onMessage);
    const item = itemFromCapture(document, 'f1', BANDGAP_SENTENCE, { mark: '1.7 eV' });
    const [shown] = onMessage.deliver({ target: HIGHLIGHTER_TARGET, request: { type: 'highlight-show', tabId: 3, items: [item] } });
    expect(shown).toEqual({ ok: true, report: { anchored: ['f1'], failed: [], method: 'overlay' } });

    const second = installHighlighter({ document, window }, onMessage);
    expect(second).toBe(first);
    expect(onMessage.listeners.size).toBe(1);
    expect(document.querySelectorAll('[data-assay-highlighter]').length).toBe(1);
    // The highlights placed before the re-injection are still there to scroll to.
    expect(onMessage.deliver({ target: HIGHLIGHTER_TARGET, request: { type: 'highlight-scroll', tabId: 3, id: 'f1' } })).toEqual([
      { ok: true, found: true },
    ]);
    expect(onMessage.deliver({ target: HIGHLIGHTER_TARGET, request: { type: 'highlight-scroll', tabId: 3, id: 'f9' } })).toEqual([
      { ok: true, found: false },
    ]);
  });

  test('does not answer messages addressed to others', () => {
    loadBody(document);
    const onMessage = fakeOnMessage();
    installHighlighter({ document, window }, onMessage);
    expect(onMessage.deliver({ target: 'assay-offscreen', request: { type: 'webgpu-check' } })).toEqual([]);
    expect(onMessage.deliver('hello')).toEqual([]);
  });
});

describe('answerHighlighterMessage', () => {
  const highlighter = { show: vi.fn(), scrollTo: vi.fn(), lastReport: vi.fn(), dispose: vi.fn() } satisfies Highlighter;

  test('refuses a malformed envelope with bad-request', () => {
    loadBody(document);
    const answer = answerHighlighterMessage(highlighter, document, {
      target: HIGHLIGHTER_TARGET,
      request: { type: 'highlight-scroll', tabId: 1, id: '' },
    });
    expect(answer).toMatchObject({ ok: false, failure: { code: 'bad-request' } });
    expect(highlighter.scrollTo).not.toHaveBeenCalled();
  });

  test('answers unsupported-type in the PDF viewer', () => {
    loadBody(document, '<embed type="application/pdf" src="about:blank">', '');
    expect(isPdfViewer(document)).toBe(true);
    const answer = answerHighlighterMessage(highlighter, document, {
      target: HIGHLIGHTER_TARGET,
      request: { type: 'highlight-scroll', tabId: 1, id: 'f1' },
    });
    expect(answer).toMatchObject({
      ok: false,
      failure: { code: 'unsupported-type', message: expect.stringMatching(/PDF in the browser’s viewer/) },
    });
  });

  test('turns an error inside the highlighter into an internal failure', () => {
    loadBody(document);
    highlighter.show.mockImplementationOnce(() => {
      throw new Error('Range boom');
    });
    const answer = answerHighlighterMessage(highlighter, document, {
      target: HIGHLIGHTER_TARGET,
      request: { type: 'highlight-show', tabId: 1, items: [] },
    });
    expect(answer).toEqual({ ok: false, failure: { code: 'internal', message: 'The highlighter failed in the page: Range boom' } });
  });
});
