// @vitest-environment jsdom
/** One-key review in the rendered verdict list (RunResults): roving focus, a/r/e, Escape back, the live region. */
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { MatrixRunRow, RunReview } from '../../../../src/contracts/matrix-run';
import type { ReviewActions } from '../../../../src/ui/side-panel/review-actions';
import { RunResults } from '../../../../src/ui/side-panel/review-results';
import { reactRootPerTest } from '../react-root';
import { record, runRow } from '../run-fixtures';

const view = reactRootPerTest();

// jsdom has no ResizeObserver; Headless UI's Menu watches its button's size with one while open.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

/** Three band-gap verdicts in list order: 1 AlN verified, 0 GaN needs review, 2 InN rejected (the list sorts by status). */
const row: MatrixRunRow = runRow({
  status: 'done',
  settings: { ...runRow().settings, properties: ['band_gap'] },
  propertiesDone: ['band_gap'],
  records: [
    record('needs_review', { reasons: ['a check disagreed'] }),
    record('verified', {}, { material: 'AlN', value: { kind: 'number', value: 6.2 } }),
    record('rejected', {}, { material: 'InN', value: { kind: 'number', value: 0.7 } }),
  ],
});

function renderList(written = true) {
  const review: ReviewActions = {
    review: vi.fn(async (_runId: string, _index: number, _review: RunReview) => written),
    saveVerified: vi.fn(),
  };
  act(() =>
    view.root.render(createElement(RunResults, { row, label: (name: string) => (name === 'band_gap' ? 'Band gap' : name), review })),
  );
  return review;
}

const item = (index: number) => view.container.querySelector<HTMLLIElement>(`li.record[data-index="${index}"]`)!;
const announcement = () => view.container.querySelector('[data-testid="review-announcement"]')!;

/** Press `key` on the element that has focus (keydown bubbles to the list), as a keyboard does. */
async function press(key: string, init: KeyboardEventInit = {}) {
  const target = (document.activeElement ?? document.body) as HTMLElement;
  await act(async () => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
  });
}

describe('one-key review in the verdict list', () => {
  it('has one tab stop, moves it with j/k, and stops at the ends', async () => {
    renderList();
    expect([0, 1, 2].map((index) => item(index).tabIndex)).toEqual([-1, 0, -1]);
    act(() => item(1).focus());
    await press('j');
    expect(document.activeElement).toBe(item(0));
    expect([0, 1, 2].map((index) => item(index).tabIndex)).toEqual([0, -1, -1]);
    await press('j');
    await press('j');
    expect(document.activeElement).toBe(item(2));
    await press('k');
    expect(document.activeElement).toBe(item(0));
    expect(view.container.querySelector('[data-testid="key-hint"]')?.textContent).toContain('a accept');
  });

  it('accepts with a and rejects with r the focused record, and announces each with the count', async () => {
    const review = renderList();
    act(() => item(1).focus());
    await press('a');
    expect(review.review).toHaveBeenLastCalledWith('run-1', 1, expect.objectContaining({ decision: 'accepted' }));
    expect(announcement().textContent).toBe('Accepted: AlN band gap 6.2 eV. 1 of 3 reviewed.');
    expect(announcement().getAttribute('aria-live')).toBe('polite');
    await press('j');
    await press('r');
    expect(review.review).toHaveBeenLastCalledWith('run-1', 0, expect.objectContaining({ decision: 'rejected' }));
    expect(announcement().textContent).toBe('Rejected: GaN band gap 3.4 eV. 1 of 3 reviewed.');
  });

  it('also takes keys from a button inside the record, but none with a modifier or while typing', async () => {
    const review = renderList();
    act(() => view.container.querySelector<HTMLButtonElement>('[data-testid="edit-2"]')!.focus());
    await press('a', { ctrlKey: true });
    await press('r', { metaKey: true });
    expect(review.review).not.toHaveBeenCalled();
    await press('a');
    expect(review.review).toHaveBeenLastCalledWith('run-1', 2, expect.objectContaining({ decision: 'accepted' }));
  });

  it('opens Edit with e and puts focus in it; keys there are text; Escape closes it and focus comes back', async () => {
    const review = renderList();
    act(() => item(0).focus());
    await press('e');
    const material = view.container.querySelector<HTMLInputElement>('[data-testid="edit-material-0"]');
    expect(material).not.toBeNull();
    expect(document.activeElement).toBe(material);
    await press('a');
    await press('r');
    expect(review.review).not.toHaveBeenCalled();
    await press('Escape');
    expect(view.container.querySelector('[data-testid="edit-material-0"]')).toBeNull();
    expect(document.activeElement).toBe(item(0));
  });

  it('says when a decision could not be stored, and announces nothing', async () => {
    renderList(false);
    act(() => item(1).focus());
    await press('a');
    expect(view.container.querySelector('[data-testid="review-problem"]')?.textContent).toMatch(/could not be saved/);
    expect(announcement().textContent).toBe('');
  });

  it('is one tab stop in all: no button, summary or menu inside a record is in the tab order', () => {
    renderList();
    const list = view.container.querySelector('[data-testid="verdict-list"]')!;
    const tabbable = [...list.querySelectorAll<HTMLElement>('button, summary, a[href], input, [tabindex]')].filter(
      (element) => element.tabIndex >= 0,
    );
    expect(tabbable).toEqual([item(1)]);
    // The buttons are still there for a pointer: the list did not lose its actions.
    expect(list.querySelectorAll('[data-testid^="accept-"], [data-testid^="actions-"]')).toHaveLength(6);
  });

  it('opens the record’s menu with m; its items act on that record', async () => {
    const review = renderList();
    act(() => item(1).focus());
    await press('m');
    const menu = view.container.querySelector('[data-testid="actions-menu-1"]');
    expect(menu).not.toBeNull();
    const items = [...menu!.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    expect(items.map((element) => element.textContent)).toEqual(['Accept', 'Edit', 'Reject', 'Votes and checks']);
    // A letter in the open menu is the menu's (type-ahead), not a decision.
    await press('r');
    expect(review.review).not.toHaveBeenCalled();
    await act(async () => items[2]!.click());
    expect(review.review).toHaveBeenLastCalledWith('run-1', 1, expect.objectContaining({ decision: 'rejected' }));
  });

  it('opens Edit from the menu with focus in the form, and Escape brings focus back to the record', async () => {
    renderList();
    act(() => item(0).focus());
    await press('m');
    const edit = [...view.container.querySelectorAll<HTMLElement>('[data-testid="actions-menu-0"] [role="menuitem"]')].find(
      (element) => element.textContent === 'Edit',
    );
    await act(async () => edit!.click());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(document.activeElement).toBe(view.container.querySelector('[data-testid="edit-material-0"]'));
    await press('Escape');
    expect(document.activeElement).toBe(item(0));
  });
});
