// @vitest-environment jsdom
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { RunReview } from '../../../../src/contracts/matrix-run';
import { RunResults } from '../../../../src/ui/side-panel/review-results';
import type { ReviewActions } from '../../../../src/ui/side-panel/review-actions';
import { reactRootPerTest } from '../react-root';
import { record, runRow, triplet } from '../run-fixtures';

const view = reactRootPerTest();

const paragraph =
  'Europium chalcogenides are ferromagnetic semiconductors that have been studied for decades. ' +
  'Thin films were grown by molecular beam epitaxy on BaF2 substrates at 300 °C and capped with aluminium. ' +
  'The optical band gap of EuS is 1.6 eV at room temperature, in line with earlier reports. ' +
  'Below the Curie temperature the absorption edge shifts to lower energies by about 0.2 eV.';
const eus = {
  material: 'EuS',
  value: { kind: 'number' as const, value: 1.6 },
  evidence: { quote: { type: 'TextQuoteSelector' as const, exact: paragraph, prefix: '', suffix: '' } },
};

/** EuS 1.6 eV verified and again MoA-only; GaN 3.4 eV MoA-only (a real disagreement). */
const row = runRow({
  status: 'done',
  settings: { ...runRow().settings, properties: ['band_gap'] },
  propertiesDone: ['band_gap'],
  records: [
    record('verified', {}, eus),
    record(
      'needs_review',
      { votes: ['moa'], adjudication: { outcome: 'moa-only', moa: triplet(eus) }, reasons: ['only the MoA path gave this triplet'] },
      eus,
    ),
    record('needs_review', {
      votes: ['moa'],
      adjudication: { outcome: 'moa-only', moa: triplet() },
      reasons: ['only the MoA path gave this triplet'],
    }),
  ],
});

describe('the review of a merged fact', () => {
  it('lists the fact once with its verdicts under it, asks only about the other fact, and folds long evidence behind a button', async () => {
    const review = vi.fn(async (_runId: string, _index: number, _review: RunReview) => true);
    const actions: ReviewActions = { review, saveVerified: vi.fn() };
    act(() => view.root.render(createElement(RunResults, { row, label: () => 'Band gap', review: actions })));

    const records = [...view.container.querySelectorAll<HTMLElement>('li.record')];
    expect(records.map((item) => [item.dataset.index, item.dataset.status])).toEqual([
      ['0', 'verified'],
      ['2', 'needs_review'],
    ]);
    expect([...records[0]!.querySelectorAll('.fact-votes li')].map((item) => item.textContent)).toEqual([
      'MoA and search agreed: verified',
      'MoA alone: needs review (only the MoA path gave this triplet)',
    ]);
    const queue = [...view.container.querySelectorAll<HTMLElement>('[data-testid="adjudication-queue"] li.queue-item')];
    expect(queue.map((item) => item.dataset.index)).toEqual(['2']);
    expect(queue[0]!.querySelector('.queue-question')?.textContent).toBe('The models disagree: 3.4 eV or no value?');

    // The EuS evidence is folded to its sentence with the value; the button unfolds it and says so.
    const quote = records[0]!.querySelector<HTMLElement>('blockquote.quote')!;
    const unfold = records[0]!.querySelector<HTMLButtonElement>('button.unfold')!;
    expect(quote.textContent).toBe('… The optical band gap of EuS is 1.6 eV at room temperature, in line with earlier reports. …');
    expect(unfold.getAttribute('aria-expanded')).toBe('false');
    expect(unfold.getAttribute('aria-controls')).toBe(quote.id);
    await act(async () => unfold.click());
    expect(quote.textContent).toBe(paragraph);
    expect(unfold.getAttribute('aria-expanded')).toBe('true');

    // Accepting the fact writes the review to its verified record.
    await act(async () => view.container.querySelector<HTMLButtonElement>('li.record[data-index="0"] .review-buttons button')!.click());
    expect(review).toHaveBeenCalledWith('run-1', 0, expect.objectContaining({ decision: 'accepted' }));
  });
});
