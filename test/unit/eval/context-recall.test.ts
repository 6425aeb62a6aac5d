import { describe, expect, it } from 'vitest';
import { quantile, scoreContextRecall, type ContextCase } from '../../../src/eval/context/context-recall';
import type { TruthTriplet } from '../../../src/eval/triplet-scorer-types';

const truth = (material: string, value: number): TruthTriplet => ({
  aliases: [material],
  property: 'band_gap',
  value: { kind: 'number', value },
  unit: 'eV',
});

describe('scoreContextRecall', () => {
  it('counts a truth in context when any span stating it is inside a call, and leaves unlocatable truths out of the ratio', () => {
    const cases: ContextCase[] = [
      {
        paper: 'p1',
        truths: [
          // Stated twice; only the second place is shown.
          {
            truth: truth('GaN', 3.4),
            located: [
              { start: 0, end: 40 },
              { start: 500, end: 560 },
            ],
          },
          // Stated once, outside every call.
          { truth: truth('AlN', 6.2), located: [{ start: 900, end: 950 }] },
          // In a figure only: not locatable.
          { truth: truth('InN', 0.7), located: [] },
        ],
        calls: [
          { ranges: [{ start: 480, end: 700 }], promptTokens: 900 },
          { ranges: [{ start: 930, end: 1000 }], promptTokens: 1100 },
        ],
      },
      { paper: 'p2', truths: [{ truth: truth('ZnO', 3.37), located: [{ start: 10, end: 60 }] }], calls: [] },
    ];
    expect(scoreContextRecall(cases)).toEqual({
      truths: 4,
      locatable: 3,
      inContext: 1,
      contextRecall: 1 / 3,
      promptTokensPerCall: { median: 900, p90: 1100 },
      callsPerPaper: { median: 0 },
    });
  });

  it('a span only partly inside a call is not in context', () => {
    const cases: ContextCase[] = [
      {
        paper: 'p',
        truths: [{ truth: truth('GaN', 3.4), located: [{ start: 100, end: 200 }] }],
        calls: [{ ranges: [{ start: 150, end: 400 }], promptTokens: 1 }],
      },
    ];
    expect(scoreContextRecall(cases).inContext).toBe(0);
  });

  it('a span covered by the overlapping ranges of one call is in context, and split over two calls is not', () => {
    // A 3,000-character sentence cut into three chunks, each shown with the piece before it.
    const pieces = [
      { start: 0, end: 2400 },
      { start: 1200, end: 3000 },
    ];
    const sentence = { truth: truth('GaN', 3.4), located: [{ start: 0, end: 3000 }] };
    const oneCall: ContextCase = { paper: 'p', truths: [sentence], calls: [{ ranges: pieces, promptTokens: 1 }] };
    const twoCalls: ContextCase = {
      paper: 'p',
      truths: [sentence],
      calls: pieces.map((range) => ({ ranges: [range], promptTokens: 1 })),
    };
    const withGap: ContextCase = {
      paper: 'p',
      truths: [sentence],
      calls: [
        {
          ranges: [
            { start: 0, end: 1000 },
            { start: 1200, end: 3000 },
          ],
          promptTokens: 1,
        },
      ],
    };
    expect(scoreContextRecall([oneCall]).inContext).toBe(1);
    expect(scoreContextRecall([twoCalls]).inContext).toBe(0);
    expect(scoreContextRecall([withGap]).inContext).toBe(0);
  });
});

describe('quantile', () => {
  it('is nearest-rank, and 0 for no values', () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(quantile([], 0.5)).toBe(0);
  });
});
