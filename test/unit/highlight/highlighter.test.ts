// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createHighlighter, type Highlighter } from '../../../src/highlight/highlighter';
import { BANDGAP_SENTENCE, installFakeRangeRects, itemFromCapture, itemFromQuote, loadBody } from './highlight-fixtures';

const LATE_SENTENCE = 'The lazily loaded supplementary section reports a work function of 4.6 eV for the ITO substrate';

let highlighter: Highlighter | undefined;
let restoreRects: () => void;
let shadowRoots: ShadowRoot[];

beforeEach(() => {
  restoreRects = installFakeRangeRects(window);
  // The host's shadow root is closed; keep a reference to it as it is created, to look inside.
  shadowRoots = [];
  const attach = window.Element.prototype.attachShadow;
  vi.spyOn(window.Element.prototype, 'attachShadow').mockImplementation(function (this: Element, init: ShadowRootInit) {
    const root = attach.call(this, init);
    shadowRoots.push(root);
    return root;
  });
});
afterEach(() => {
  highlighter?.dispose();
  highlighter = undefined;
  restoreRects();
  vi.restoreAllMocks();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

function cardOf(): HTMLElement {
  return shadowRoots[0]!.querySelector<HTMLElement>('[role="tooltip"]')!;
}

describe('createHighlighter', () => {
  test('show places what it can, reports the rest with reasons, and leaves the page’s nodes alone', () => {
    loadBody(document);
    const before = document.body.innerHTML;
    highlighter = createHighlighter({ document, window });
    const report = highlighter.show([
      itemFromCapture(document, 'f1', BANDGAP_SENTENCE, { mark: '1.7 eV' }),
      itemFromQuote('late', LATE_SENTENCE),
      itemFromQuote('f2', 'reference film shows a band gap of 1.6 eV', { status: 'needs_review' }),
    ]);
    expect(report).toEqual({
      anchored: ['f1', 'f2'],
      failed: [{ id: 'late', reason: 'the quote was not found in the page' }],
      method: 'overlay',
    });
    expect(highlighter.lastReport()).toEqual(report);
    expect(document.body.innerHTML).toBe(before);
    const host = document.documentElement.querySelector<HTMLElement>(':scope > [data-assay-highlighter]')!;
    expect(host.getAttribute('data-assay-highlighter')).toBe('overlay');
    expect([host.getAttribute('data-assay-anchored'), host.getAttribute('data-assay-failed')]).toEqual(['2', '1']);
    expect(shadowRoots[0]!.querySelectorAll('.box').length).toBe(2);

    expect(highlighter.show([])).toEqual({ anchored: [], failed: [], method: 'overlay' });
    expect(shadowRoots[0]!.querySelectorAll('.box').length).toBe(0);
  });

  test('a quote in a section loaded later anchors after the page settles (debounced re-anchoring)', async () => {
    vi.useFakeTimers();
    loadBody(document);
    highlighter = createHighlighter({ document, window });
    highlighter.show([itemFromCapture(document, 'f1', BANDGAP_SENTENCE), itemFromQuote('late', LATE_SENTENCE, { mark: '4.6 eV' })]);
    expect(highlighter.lastReport()!.failed.map((failure) => failure.id)).toEqual(['late']);

    const section = document.createElement('section');
    const paragraph = document.createElement('p');
    paragraph.textContent = `${LATE_SENTENCE}, measured by Kelvin probe.`;
    section.append(paragraph);
    document.querySelector('article')!.append(section);
    await Promise.resolve(); // MutationObserver callbacks run as microtasks
    vi.advanceTimersByTime(299);
    expect(highlighter.lastReport()!.failed.map((failure) => failure.id)).toEqual(['late']);
    vi.advanceTimersByTime(1);
    expect(highlighter.lastReport()).toEqual({ anchored: ['f1', 'late'], failed: [], method: 'overlay' });
    expect(highlighter.scrollTo('late')).toBe(true);
    expect(shadowRoots[0]!.querySelector('[data-item-id="late"]')).not.toBeNull();
  });

  test('a page that never stops changing is still re-anchored, at most 2 s after the first change', async () => {
    vi.useFakeTimers();
    loadBody(document);
    const ticker = document.createElement('span');
    document.body.prepend(ticker);
    highlighter = createHighlighter({ document, window });
    highlighter.show([itemFromQuote('late', LATE_SENTENCE)]);
    const paragraph = document.createElement('p');
    paragraph.textContent = LATE_SENTENCE;
    document.body.append(paragraph);
    // A clock ticking every 200 ms: each change alone would push a 300 ms debounce forever.
    for (let elapsed = 0; elapsed < 1800; elapsed += 200) {
      await Promise.resolve();
      vi.advanceTimersByTime(200);
      ticker.textContent = `t=${elapsed}`;
    }
    await Promise.resolve();
    expect(highlighter.lastReport()!.anchored).toEqual([]);
    vi.advanceTimersByTime(200); // 2000 ms after the first change
    expect(highlighter.lastReport()!.anchored).toEqual(['late']);
  });

  test('a quote whose paragraph is rewritten fails after the change, with the reason', async () => {
    vi.useFakeTimers();
    loadBody(document);
    highlighter = createHighlighter({ document, window });
    highlighter.show([itemFromQuote('f2', 'reference film shows a band gap of 1.6 eV', { mark: '1.6 eV' })]);
    expect(highlighter.lastReport()!.anchored).toEqual(['f2']);

    const paragraph = [...document.querySelectorAll('p')].find((element) => element.textContent?.includes('1.6 eV'))!;
    paragraph.textContent = 'This paragraph was withdrawn by the authors.';
    await Promise.resolve();
    vi.advanceTimersByTime(300);
    expect(highlighter.lastReport()).toEqual({
      anchored: [],
      failed: [{ id: 'f2', reason: 'the quote was not found in the page' }],
      method: 'overlay',
    });
  });

  test('a placed quote follows its paragraph when the page moves it', async () => {
    vi.useFakeTimers();
    loadBody(document);
    highlighter = createHighlighter({ document, window });
    highlighter.show([itemFromQuote('f2', 'reference film shows a band gap of 1.6 eV', { mark: '1.6 eV' })]);
    const paragraph = [...document.querySelectorAll('p')].find((element) => element.textContent?.includes('1.6 eV'))!;
    // Moving the node collapses the old live range; the re-anchoring finds it at its new place.
    document.querySelector('article')!.prepend(paragraph);
    await Promise.resolve();
    vi.advanceTimersByTime(300);
    expect(highlighter.lastReport()!.anchored).toEqual(['f2']);
    expect(shadowRoots[0]!.querySelectorAll('[data-item-id="f2"]').length).toBe(1);
  });

  test('scrollTo scrolls smoothly to the range, flashes it and shows its card; false for an unknown id', () => {
    loadBody(document);
    const scrollIntoView = vi.fn();
    window.Element.prototype.scrollIntoView = scrollIntoView;
    highlighter = createHighlighter({ document, window });
    highlighter.show([
      itemFromCapture(document, 'f1', BANDGAP_SENTENCE, {
        mark: '1.7 eV',
        card: { material: 'perovskite', property: 'band gap', value: '1.7', unit: 'eV', agreed: 'rules and 3 of 3 proposers' },
      }),
    ]);

    expect(highlighter.scrollTo('missing')).toBe(false);
    expect(scrollIntoView).not.toHaveBeenCalled();
    expect(highlighter.scrollTo('f1')).toBe(true);
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'center', inline: 'nearest' });
    expect(scrollIntoView.mock.contexts[0]).toBe(document.querySelector('b'));
    expect(shadowRoots[0]!.querySelector('[data-item-id="f1"]')!.className).toBe('box verified flash');
    expect(cardOf().hidden).toBe(false);
    expect(cardOf().textContent).toContain('rules and 3 of 3 proposers');
    Reflect.deleteProperty(window.Element.prototype, 'scrollIntoView');
  });

  test('scrollTo jumps without animation when the reader prefers reduced motion', () => {
    loadBody(document);
    const scrollIntoView = vi.fn();
    window.Element.prototype.scrollIntoView = scrollIntoView;
    window.matchMedia = ((query: string) => ({
      matches: query === '(prefers-reduced-motion: reduce)',
    })) as unknown as typeof window.matchMedia;
    highlighter = createHighlighter({ document, window });
    highlighter.show([itemFromCapture(document, 'f1', BANDGAP_SENTENCE)]);
    highlighter.scrollTo('f1');
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'auto', block: 'center', inline: 'nearest' });
    Reflect.deleteProperty(window.Element.prototype, 'scrollIntoView');
    Reflect.deleteProperty(window, 'matchMedia');
  });

  test('dispose removes the host and stops re-anchoring', async () => {
    vi.useFakeTimers();
    loadBody(document);
    highlighter = createHighlighter({ document, window });
    highlighter.show([itemFromQuote('late', LATE_SENTENCE)]);
    highlighter.dispose();
    expect(document.querySelector('[data-assay-highlighter]')).toBeNull();
    const paragraph = document.createElement('p');
    paragraph.textContent = LATE_SENTENCE;
    document.body.append(paragraph);
    await Promise.resolve();
    vi.advanceTimersByTime(1000);
    expect(highlighter.lastReport()!.anchored).toEqual([]);
    highlighter = undefined;
  });
});
