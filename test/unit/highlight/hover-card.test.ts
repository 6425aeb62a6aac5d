// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { HighlightItemSchema } from '../../../src/contracts/messages';
import { anchorItems } from '../../../src/highlight/anchor-items';
import { createHoverCard, renderCard, valueWithUnit } from '../../../src/highlight/hover-card';
import { readPageText } from '../../../src/highlight/page-text';
import { displayTextBeside } from '../../../src/properties/display-unit';
import { BANDGAP_SENTENCE, installFakeRangeRects, itemFromCapture, loadBody } from './highlight-fixtures';

const bandGap = { canonicalUnit: 'eV', displayUnit: 'eV' };

let restoreRects: () => void;
beforeEach(() => {
  restoreRects = installFakeRangeRects(window);
});
afterEach(() => {
  restoreRects();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('renderCard', () => {
  test('shows material, property, value with unit, conditions, status in words and who agreed', () => {
    const element = document.createElement('div');
    renderCard(document, element, {
      id: 'f1',
      status: 'needs_review',
      quote: { type: 'TextQuoteSelector', exact: BANDGAP_SENTENCE, prefix: '', suffix: '' },
      card: {
        material: 'FA0.83Cs0.17Pb(I0.6Br0.4)3',
        property: 'band gap',
        value: '1.7',
        unit: 'eV',
        conditions: 'UPS/IPES, room temperature',
        agreed: '2 of 3 proposers',
      },
    });
    expect(element.querySelector('.title')!.textContent).toBe('FA0.83Cs0.17Pb(I0.6Br0.4)3 — band gap');
    const terms = [...element.querySelectorAll('dt')].map((dt) => dt.textContent);
    const values = [...element.querySelectorAll('dd')].map((dd) => dd.textContent);
    expect(terms).toEqual(['Value', 'Conditions', 'Status', 'Agreed']);
    expect(values).toEqual(['1.7 eV', 'UPS/IPES, room temperature', 'Needs review', '2 of 3 proposers']);
  });

  test('shows the conditions, method first, and the provenance; a cited value is a tag', () => {
    const element = document.createElement('div');
    const item = HighlightItemSchema.parse({
      id: 'f2',
      status: 'verified',
      quote: { type: 'TextQuoteSelector', exact: BANDGAP_SENTENCE, prefix: '', suffix: '' },
      card: { material: 'SmN', property: 'band gap', value: '0.7', unit: 'eV', conditions: 'HSE06 · indirect', provenance: 'cited [19]' },
    });
    renderCard(document, element, item);
    const terms = [...element.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(terms).toEqual(['Value', 'Conditions', 'Provenance', 'Status']);
    expect(element.querySelector('dd.conditions')!.textContent).toBe('HSE06 · indirect');
    const tag = element.querySelector('dd.provenance-cited');
    expect(tag?.textContent).toBe('cited [19]');

    renderCard(document, element, { ...item, card: { ...item.card, provenance: 'computed' } });
    expect(element.querySelector('dd.provenance')!.textContent).toBe('computed');
    expect(element.querySelector('.provenance-cited')).toBeNull();
  });

  test("shows a quick-scan candidate's doubts as one row of text", () => {
    const element = document.createElement('div');
    const hostile = '<img src=x onerror=alert(1)>';
    const item = HighlightItemSchema.parse({
      id: 'candidate-0',
      status: 'candidate',
      quote: { type: 'TextQuoteSelector', exact: BANDGAP_SENTENCE, prefix: '', suffix: '' },
      card: {
        material: 'ZnO',
        property: 'band gap',
        value: '2.9',
        unit: 'eV',
        provenance: 'computed',
        doubts: ['the sentence gives two methods (PBE, HSE06) and does not say which one 2.9 eV belongs to', hostile],
      },
    });
    renderCard(document, element, item);
    expect([...element.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Value', 'Provenance', 'Doubts', 'Status']);
    expect(element.querySelector('dd.doubts')!.textContent).toBe(
      `the sentence gives two methods (PBE, HSE06) and does not say which one 2.9 eV belongs to; ${hostile}`,
    );
    expect(element.querySelector('img')).toBeNull();
    // No doubts, no row.
    renderCard(document, element, { ...item, card: { ...item.card, doubts: [] } });
    expect(element.querySelector('dd.doubts')).toBeNull();
  });

  test('renders page and model text as text, never as HTML', () => {
    const element = document.createElement('div');
    const hostile = '<img src=x onerror=alert(1)>';
    renderCard(document, element, {
      id: 'f1',
      status: 'candidate',
      quote: { type: 'TextQuoteSelector', exact: 'quote', prefix: '', suffix: '' },
      card: { material: hostile, property: '<b>gap</b>', value: '1', unit: '', conditions: hostile, provenance: `cited ${hostile}` },
    });
    expect(element.querySelector('img')).toBeNull();
    expect(element.querySelector('dd.provenance-cited')!.textContent).toBe(`cited ${hostile}`);
    expect(element.querySelector('b')).toBeNull();
    expect(element.querySelector('.title')!.textContent).toBe('<img src=x onerror=alert(1)> — <b>gap</b>');
    expect(element.textContent).toContain('Candidate (not yet verified)');
  });

  test('prints a unitless value bare', () => {
    expect(valueWithUnit({ material: 'x', property: 'ZT', value: '1.2', unit: '' })).toBe('1.2');
    expect(valueWithUnit({ material: 'x', property: 'Tc', value: '92', unit: 'K' })).toBe('92 K');
  });

  test('follows the value as printed with its display-unit value, as text', () => {
    const element = document.createElement('div');
    const display = displayTextBeside({ value: { kind: 'number', value: 40 }, valueText: '40', unit: 'meV' }, bandGap);
    renderCard(document, element, {
      id: 'f2',
      status: 'verified',
      quote: { type: 'TextQuoteSelector', exact: 'a gap of 40 meV', prefix: '', suffix: '' },
      card: { material: 'Bi2Se3', property: 'Band gap', value: '40', unit: 'meV', ...(display !== undefined && { display }) },
    });
    expect(element.querySelector('dd')!.textContent).toBe('40 meV = 0.040 eV');
    expect(valueWithUnit({ material: 'x', property: 'Tc', value: '92', unit: 'K', display: '<b>1</b> K' })).toBe('92 K = <b>1</b> K');
    expect(
      HighlightItemSchema.safeParse({
        id: 'x',
        status: 'candidate',
        quote: { type: 'TextQuoteSelector', exact: 'q', prefix: '', suffix: '' },
        card: { material: 'm', property: 'p', value: '1', unit: 'K', display: 'x'.repeat(201) },
      }).success,
    ).toBe(false);
  });
});

describe('createHoverCard', () => {
  test('appears when the pointer is over a highlight’s rect, hides elsewhere and on Escape', () => {
    vi.useFakeTimers();
    loadBody(document);
    const item = itemFromCapture(document, 'f1', BANDGAP_SENTENCE, { mark: '1.7 eV' });
    const { anchored } = anchorItems([item], readPageText({ document, window }));
    const layer = document.createElement('div');
    document.documentElement.append(layer);
    const card = createHoverCard({ document, window }, layer);
    card.setEntries(anchored);
    expect(card.element.getAttribute('role')).toBe('tooltip');
    expect(card.element.hidden).toBe(true);

    // The fake rect of "1.7 eV" is x ∈ [10, 58], y ∈ [100, 120].
    document.dispatchEvent(new window.MouseEvent('mousemove', { clientX: 30, clientY: 110 }));
    expect(card.element.hidden).toBe(true); // not before the next frame
    vi.advanceTimersByTime(20);
    expect(card.element.hidden).toBe(false);
    expect(card.shownId()).toBe('f1');
    expect(card.element.textContent).toContain('perovskite — band gap');
    // Placed 6 px below the line (bottom 120) and 8 px from the viewport's left edge at least.
    expect([card.element.style.left, card.element.style.top]).toEqual(['10px', '126px']);

    document.dispatchEvent(new window.MouseEvent('mousemove', { clientX: 300, clientY: 400 }));
    vi.advanceTimersByTime(20);
    expect(card.element.hidden).toBe(true);

    card.showFor(anchored[0]!);
    expect(card.element.hidden).toBe(false);
    document.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Escape' }));
    expect(card.element.hidden).toBe(true);

    card.dispose();
    expect(layer.children.length).toBe(0);
    layer.remove();
  });
});
