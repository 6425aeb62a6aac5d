// @vitest-environment jsdom
/** A verdict shows the whole fact: value, conditions (method first) and provenance, a cited value as a tag; text only. */
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Condition } from '../../../../src/contracts/conditions';
import type { MatrixRunRow } from '../../../../src/contracts/matrix-run';
import type { ReviewActions } from '../../../../src/ui/side-panel/review-actions';
import { RunResults } from '../../../../src/ui/side-panel/review-results';
import { factText } from '../../../../src/ui/side-panel/keyboard-review';
import { reactRootPerTest } from '../react-root';
import { record, runRow } from '../run-fixtures';

const view = reactRootPerTest();
const label = (name: string) => (name === 'band_gap' ? 'Band gap' : name);

// Listed out of order on purpose: the line puts the method first whatever order the conditions come in.
const hse: Condition[] = [
  { kind: 'direction', value: 'indirect', text: 'indirect' },
  { kind: 'method', value: 'HSE06', text: 'HSE06 calculations' },
];

const row: MatrixRunRow = runRow({
  status: 'done',
  settings: { ...runRow().settings, properties: ['band_gap'] },
  propertiesDone: ['band_gap'],
  records: [
    record(
      'verified',
      {},
      { material: 'BPN-GaN', value: { kind: 'number', value: 2.31 }, conditions: hse, provenance: { kind: 'computed' } },
    ),
    record('verified', {}, { material: 'SmN', value: { kind: 'number', value: 0.7 }, provenance: { kind: 'cited', reference: '[19]' } }),
    record('verified', {}, { material: 'GaN', value: { kind: 'number', value: 3.4 } }),
  ],
});

function render(withReview = true) {
  const review: ReviewActions = { review: vi.fn(async () => true), saveVerified: vi.fn() };
  act(() => view.root.render(createElement(RunResults, { row, label, ...(withReview && { review }) })));
}

const head = (index: number) => view.container.querySelector(`li.record[data-index="${index}"] .record-head`)!;
const normalized = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

describe('the verdict line with conditions and provenance', () => {
  it('reads "2.31 eV · HSE06 · indirect · computed": value, method first, then the provenance', () => {
    render();
    expect(normalized(head(0).textContent)).toBe('Verified BPN-GaN 2.31 eV · HSE06 · indirect · computed');
    expect(head(0).querySelector('.conditions')!.textContent).toBe('HSE06 · indirect');
    expect(head(0).querySelector('.provenance')!.textContent).toBe('computed');
  });

  it('shows a cited value as a visible tag "cited [19]"', () => {
    render();
    const tag = head(1).querySelector('.provenance-cited');
    expect(tag?.textContent).toBe('cited [19]');
    expect(normalized(head(1).textContent)).toBe('Verified SmN 0.7 eV · cited [19]');
  });

  it('adds nothing after a value without conditions or provenance', () => {
    render();
    expect(normalized(head(2).textContent)).toBe('Verified GaN 3.4 eV');
    expect(head(2).querySelector('.fact-conditions')).toBeNull();
  });

  it('lists each condition with the words it was read from, method first', () => {
    render();
    const items = [...view.container.querySelectorAll('li.record[data-index="0"] .condition-list li')];
    expect(items.map((item) => item.getAttribute('data-kind'))).toEqual(['method', 'direction']);
    expect(items[0]!.textContent).toBe('method: HSE06 (read from “HSE06 calculations”)');
  });

  it('gives a screen reader the whole fact in the record’s name, and keeps the review keys', async () => {
    render();
    const item = view.container.querySelector<HTMLLIElement>('li.record[data-index="1"]')!;
    expect(item.getAttribute('aria-label')).toBe('SmN band gap 0.7 eV (cited [19]), verified');
    expect(view.container.querySelector('li.record[data-index="0"]')!.getAttribute('aria-label')).toBe(
      'BPN-GaN band gap 2.31 eV (HSE06, indirect, computed), verified',
    );
    act(() => item.focus());
    await act(async () => {
      item.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true, cancelable: true }));
    });
    expect(document.activeElement).toBe(view.container.querySelector('li.record[data-index="2"]'));
  });

  it('renders conditions and references as text, never as HTML', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const hostileRow = runRow({
      ...row,
      records: [
        record(
          'verified',
          {},
          { conditions: [{ kind: 'method', value: hostile }], provenance: { kind: 'cited', reference: '<b>[1]</b>' } },
        ),
      ],
    });
    act(() => view.root.render(createElement(RunResults, { row: hostileRow, label })));
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container.querySelector('.record-head b')).toBeNull();
    expect(normalized(view.container.querySelector('.record-head')!.textContent)).toContain(`· ${hostile} · cited <b>[1]</b>`);
  });
});

describe('factText', () => {
  it('says the conditions and provenance in words after the value, and nothing extra without them', () => {
    expect(factText(row.records[0]!, label)).toBe('BPN-GaN band gap 2.31 eV (HSE06, indirect, computed)');
    expect(factText(row.records[2]!, label)).toBe('GaN band gap 3.4 eV');
  });
});
