import { describe, expect, it } from 'vitest';
import type { MoaResult } from '../../../src/matrix/moa';
import { moaFailure, notDecided } from '../../../src/matrix/not-decided';

const cut = { code: 'truncated-output' as const, message: "the proposer model's reply ran past its 1024-token limit" };
const loop = { code: 'repetitive-output' as const, message: "the aggregator model's reply fell into a repetition loop" };
const moa = (errors: Array<typeof cut | null>, aggregatorError?: typeof loop): MoaResult => ({
  triplets: [],
  layers: [
    errors.map((error, proposer) => ({ proposer, triplets: [], ...(error ? { error: error.message, errorCode: error.code } : {}) })),
  ],
  scores: [],
  aggregatorFallback: aggregatorError !== undefined,
  ...(aggregatorError ? { aggregatorError } : {}),
  usage: { promptTokens: 0, completionTokens: 0 },
  calls: 0,
});

describe('moaFailure', () => {
  it('is null while any proposer of the last layer answered', () => {
    expect(moaFailure(moa([cut, null, cut], loop))).toBeNull();
  });

  it('lists every proposer failure, and the aggregator’s when it failed too', () => {
    expect(moaFailure(moa([cut, cut]))).toEqual({
      what: 'the MoA path gave no usable answer (all 2 proposers of its last layer failed)',
      failures: [cut, cut],
    });
    expect(moaFailure(moa([cut], loop))).toEqual({
      what: 'the MoA path gave no usable answer (the one proposer of its last layer and the aggregator failed)',
      failures: [cut, loop],
    });
  });
});

describe('notDecided', () => {
  it('takes the most frequent code, counts the codes when they differ, and quotes one failure of that code', () => {
    expect(notDecided([{ what: 'the MoA path gave no usable answer', failures: [loop, cut, cut] }], 9)).toEqual({
      code: 'truncated-output',
      message:
        "the MoA path gave no usable answer (failed calls: 1 repetitive-output, 2 truncated-output) — the proposer model's reply ran past its 1024-token limit",
      calls: 9,
    });
  });

  it('joins several parts and refuses none', () => {
    expect(
      notDecided(
        [
          { what: 'part one', failures: [cut] },
          { what: 'part two', failures: [cut] },
        ],
        4,
      ).message,
    ).toBe("part one, and part two — the proposer model's reply ran past its 1024-token limit");
    expect(() => notDecided([], 0)).toThrow(RangeError);
  });
});
