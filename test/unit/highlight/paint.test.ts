// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { anchorItems, type AnchoredItem } from '../../../src/highlight/anchor-items';
import { createCustomHighlightPainter, createOverlayPainter, supportsCustomHighlights } from '../../../src/highlight/paint';
import { readPageText } from '../../../src/highlight/page-text';
import { createUiHost } from '../../../src/highlight/ui-host';
import { BANDGAP_SENTENCE, installFakeRangeRects, itemFromCapture, itemFromQuote, loadBody } from './highlight-fixtures';

function anchoredFacts(): AnchoredItem[] {
  loadBody(document);
  const items = [
    itemFromCapture(document, 'verified-1', BANDGAP_SENTENCE, { mark: '1.7 eV', status: 'verified' }),
    itemFromQuote('review-1', 'reference film shows a band gap of 1.6 eV', { status: 'needs_review', mark: '1.6 eV' }),
    itemFromQuote('rejected-1', 'valence band maximum lies 5.4 eV below the vacuum level', { status: 'rejected', mark: '5.4 eV' }),
  ];
  const { anchored, failed } = anchorItems(items, readPageText({ document, window }));
  expect(failed).toEqual([]);
  return anchored;
}

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
  document.documentElement.querySelectorAll('[data-assay-highlighter]').forEach((host) => host.remove());
});

describe('overlay painter', () => {
  let restoreRects: () => void;
  beforeEach(() => {
    restoreRects = installFakeRangeRects(window);
  });
  afterEach(() => restoreRects());

  test('draws one box per client rect inside one closed-shadow host, without touching the page', () => {
    const anchored = anchoredFacts();
    const before = document.body.innerHTML;
    const ui = createUiHost(document);
    const painter = createOverlayPainter({ document, window }, ui.boxLayer);
    painter.paint(anchored);

    expect(document.body.innerHTML).toBe(before);
    const hosts = document.querySelectorAll('[data-assay-highlighter]');
    expect(hosts.length).toBe(1);
    expect(hosts[0]!.parentElement).toBe(document.documentElement);
    // Closed: the page cannot reach the shadow root through the host.
    expect((hosts[0] as HTMLElement).shadowRoot).toBeNull();

    const boxes = [...ui.boxLayer.querySelectorAll<HTMLElement>('.box')];
    expect(boxes.map((box) => [box.dataset.itemId, box.className])).toEqual([
      ['verified-1', 'box verified'],
      ['review-1', 'box needs_review'],
      ['rejected-1', 'box rejected'],
    ]);
    // The fake layout puts a range at 10 + 8 px per start offset, 8 px per character: "1.7 eV"
    // is the whole text of <b>, so it starts at offset 0 → left 10 px, width 6 × 8 = 48 px.
    expect([boxes[0]!.style.left, boxes[0]!.style.top, boxes[0]!.style.width, boxes[0]!.style.height]).toEqual([
      '10px',
      '100px',
      '48px',
      '20px',
    ]);
    expect(painter.method).toBe('overlay');
    expect(painter.rangeOf('review-1')?.toString()).toBe('1.6 eV');
    expect(painter.rangeOf('nope')).toBeUndefined();

    painter.clear();
    expect(ui.boxLayer.children.length).toBe(0);
    expect(document.body.innerHTML).toBe(before);
  });

  test('re-measures on scroll once per frame and flashes one item for a while', () => {
    vi.useFakeTimers();
    const anchored = anchoredFacts();
    const ui = createUiHost(document);
    const painter = createOverlayPainter({ document, window }, ui.boxLayer);
    painter.paint(anchored);
    const first = ui.boxLayer.querySelector<HTMLElement>('[data-item-id="verified-1"]')!;
    first.style.left = '-999px';
    window.dispatchEvent(new window.Event('scroll'));
    window.dispatchEvent(new window.Event('scroll'));
    expect(first.style.left).toBe('-999px');
    vi.advanceTimersByTime(20);
    // Boxes are reused and measured again.
    expect(ui.boxLayer.querySelector('[data-item-id="verified-1"]')).toBe(first);
    expect(first.style.left).toBe('10px');

    expect(painter.flash('review-1', 1000)).toBe(true);
    expect(ui.boxLayer.querySelector('[data-item-id="review-1"]')!.className).toBe('box needs_review flash');
    vi.advanceTimersByTime(1000);
    expect(ui.boxLayer.querySelector('[data-item-id="review-1"]')!.className).toBe('box needs_review');
    expect(painter.flash('unknown', 1000)).toBe(false);
    painter.dispose();
  });
});

/** A minimal CSS Custom Highlight API: `Highlight` holds its ranges, `CSS.highlights` is a Map. */
class FakeHighlight {
  readonly ranges: Range[];
  priority = 0;
  constructor(...ranges: Range[]) {
    this.ranges = ranges;
  }
}
class FakeStyleSheet {
  text = '';
  replaceSync(text: string): void {
    this.text = text;
  }
}

describe('custom highlight painter', () => {
  let registry: Map<string, FakeHighlight>;
  const scope = window as unknown as Record<string, unknown>;
  const saved = { CSS: scope.CSS, Highlight: scope.Highlight, CSSStyleSheet: scope.CSSStyleSheet };
  beforeEach(() => {
    registry = new Map();
    // The page's own highlight: Assay must leave it alone.
    registry.set('page-search', new FakeHighlight());
    scope.CSS = { highlights: registry };
    scope.Highlight = FakeHighlight;
    scope.CSSStyleSheet = FakeStyleSheet;
    Object.defineProperty(document, 'adoptedStyleSheets', { value: [], writable: true, configurable: true });
  });
  afterEach(() => {
    Object.assign(scope, saved);
    Reflect.deleteProperty(document, 'adoptedStyleSheets');
  });

  test('is unavailable without CSS.highlights', () => {
    scope.CSS = {};
    expect(supportsCustomHighlights(window)).toBe(false);
    expect(createCustomHighlightPainter({ document, window })).toBeNull();
  });

  test('registers one Highlight per status with the ranges, and styles them with an adopted sheet', () => {
    const anchored = anchoredFacts();
    const before = document.body.innerHTML;
    const painter = createCustomHighlightPainter({ document, window })!;
    expect(painter.method).toBe('custom-highlight');
    painter.paint(anchored);

    expect([...registry.keys()].sort()).toEqual(['assay-needs_review', 'assay-rejected', 'assay-verified', 'page-search']);
    expect(registry.get('assay-verified')!.ranges.map((range) => range.toString())).toEqual(['1.7 eV']);
    expect(registry.get('assay-needs_review')!.ranges.map((range) => range.toString())).toEqual(['1.6 eV']);
    expect(registry.get('assay-rejected')!.ranges.map((range) => range.toString())).toEqual(['5.4 eV']);
    const sheets = document.adoptedStyleSheets as unknown as FakeStyleSheet[];
    expect(sheets.length).toBe(1);
    for (const name of ['assay-verified', 'assay-needs_review', 'assay-rejected', 'assay-candidate', 'assay-flash']) {
      expect(sheets[0]!.text).toContain(`::highlight(${name}) {`);
    }
    // Highlight pseudos may not change layout: no size, margin, padding or font in the sheet.
    expect(sheets[0]!.text).not.toMatch(/margin|padding|font|width|height|display/);
    expect(document.body.innerHTML).toBe(before);

    painter.paint(anchored.slice(0, 1));
    expect([...registry.keys()].sort()).toEqual(['assay-verified', 'page-search']);
  });

  test('flashes with a higher-priority highlight that goes away, and dispose removes only Assay’s', () => {
    vi.useFakeTimers();
    const painter = createCustomHighlightPainter({ document, window })!;
    painter.paint(anchoredFacts());
    expect(painter.flash('rejected-1', 1600)).toBe(true);
    const flash = registry.get('assay-flash')!;
    expect(flash.priority).toBe(1);
    expect(flash.ranges.map((range) => range.toString())).toEqual(['5.4 eV']);
    vi.advanceTimersByTime(1599);
    expect(registry.has('assay-flash')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(registry.has('assay-flash')).toBe(false);

    painter.dispose();
    expect([...registry.keys()]).toEqual(['page-search']);
    expect(document.adoptedStyleSheets.length).toBe(0);
  });
});
