// @vitest-environment jsdom
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { RunReview } from '../../../../src/contracts/matrix-run';
import type { VerificationAnswer } from '../../../../src/contracts/verification-question';
import { RunResults } from '../../../../src/ui/side-panel/review-results';
import type { ReviewActions } from '../../../../src/ui/side-panel/review-actions';
import { verificationAnswerText } from '../../../../src/ui/side-panel/verification-answers';
import { reactRootPerTest } from '../react-root';
import { record, runRow } from '../run-fixtures';

const view = reactRootPerTest();
const byTestId = (id: string) => view.container.querySelector<HTMLElement>(`[data-testid="${id}"]`);

const MATCH_QUESTION = 'Does the evidence give this value as the band gap of the material, rather than as a different quantity?';
const phase: VerificationAnswer = { questionId: 'phase', question: 'Which phase?', answer: 'wurtzite', quote: 'wurtzite <b>GaN</b>' };
const origin: VerificationAnswer = { questionId: 'origin', question: 'Measured or computed?', answer: 'not stated' };
const contrary: VerificationAnswer = {
  questionId: 'property_match',
  question: MATCH_QUESTION,
  answer: 'no',
  quote: 'exciton <img src=x onerror="alert(1)">',
  expected: ['yes'],
  contrary: true,
};
const reason = `verification question "${MATCH_QUESTION}" was answered "no", but this property expects "yes"`;

/** GaN verified with two answers; AlN sent to review by a contrary answer (no adjudication: the paths agreed). */
const row = runRow({
  status: 'done',
  settings: { ...runRow().settings, properties: ['band_gap'] },
  propertiesDone: ['band_gap'],
  records: [
    record('verified', { verificationAnswers: [phase, origin] }),
    record(
      'needs_review',
      { verificationAnswers: [contrary], reasons: [reason] },
      { material: 'AlN', value: { kind: 'number', value: 6.2 } },
    ),
  ],
});

describe('verificationAnswerText', () => {
  it('gives the question, the answer and its quote, and what was expected when the answer is contrary', () => {
    expect(verificationAnswerText(phase)).toBe('Which phase? — wurtzite ("wurtzite <b>GaN</b>")');
    expect(verificationAnswerText(origin)).toBe('Measured or computed? — not stated');
    expect(verificationAnswerText(contrary)).toBe(`${MATCH_QUESTION} — no ("exciton <img src=x onerror="alert(1)">"); expected "yes"`);
  });
});

describe('the review shows Chain-of-Verification answers', () => {
  it('lists each record’s answers as text, marks a contrary one, and queues its record with the reason and an Accept button', async () => {
    const review = vi.fn(async (_runId: string, _index: number, _review: RunReview) => true);
    const actions: ReviewActions = { review, saveVerified: vi.fn() };
    act(() => view.root.render(createElement(RunResults, { row, label: () => 'Band gap', review: actions })));

    const answers = byTestId('verification-answers-0')!;
    expect([...answers.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'Which phase? — wurtzite ("wurtzite <b>GaN</b>")',
      'Measured or computed? — not stated',
    ]);
    // Model text stays text: no element was made from the quotes.
    expect(view.container.querySelector('b, img')).toBeNull();

    const queued = byTestId('queue-1')!;
    expect(queued.textContent).toContain('AlN: 6.2 eV');
    expect(queued.textContent).toContain(reason);
    const marked = queued.querySelector('.verification-answers li.contrary');
    expect(marked?.textContent).toContain('expected "yes"');
    // No two answers to keep one of: Accept instead of "Keep MoA answer" / "Keep search answer".
    expect(byTestId('keep-moa-1')).toBeNull();
    await act(async () => byTestId('queue-accept-1')!.click());
    expect(review).toHaveBeenCalledWith('run-1', 1, expect.objectContaining({ decision: 'accepted' }));
  });
});
