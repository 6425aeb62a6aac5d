import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DatasetTripletSchema } from '../../../src/contracts/dataset';
import { TEXT_LIMITS } from '../../../src/contracts/text-limits';
import { TripletSchema } from '../../../src/contracts/triplet';
import { bandGapRow } from '../export/dataset-fixtures';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('stored string limits', () => {
  it('refuse an over-long quote, material, title and DOI with the limit and the length in words', () => {
    const quote = 'x'.repeat(TEXT_LIMITS.quote.max + 1);
    const row = {
      ...bandGapRow,
      material: 'M'.repeat(501),
      paper: { ...bandGapRow.paper, title: 'T'.repeat(2_001), doi: `10.1000/${'d'.repeat(600)}` },
      evidence: { ...bandGapRow.evidence!, quote: { ...bandGapRow.evidence!.quote, exact: quote } },
    };
    expect(messages(DatasetTripletSchema.safeParse(row))).toEqual([
      'paper.doi: a DOI is at most 500 characters (the longest real one measured is 37 characters); this one has 608',
      'paper.title: a title is at most 2,000 characters (the longest real one measured is 189 characters); this one has 2,001',
      'material: a material is at most 500 characters (the longest real one measured is 104 characters); this one has 501',
      'evidence.quote.exact: a quote is at most 10,000 characters (one passage of the paper); this one has 10,001',
    ]);
  });

  it('refuse too many votes and models, and a savedAt that is not a date and time', () => {
    const row = { ...bandGapRow, votes: Array.from({ length: 101 }, (_, index) => `v${index}`), savedAt: '=NOW()' };
    expect(messages(DatasetTripletSchema.safeParse(row))).toEqual([
      'votes: a list of votes holds at most 100 entries (one per path or proposer); this one has 101',
      'savedAt: must be an ISO 8601 date and time, such as 2025-03-02T09:00:00.000Z',
    ]);
  });

  it('accept every string up to its limit and refuse one character more (a model triplet too)', () => {
    fc.assert(
      fc.property(fc.constantFrom('material', 'unit', 'conditions', 'engine', 'valueText'), fc.boolean(), (field, over) => {
        const limit = TEXT_LIMITS[field].max;
        const triplet = { material: 'TiO2', property: 'band_gap', value: { kind: 'number', value: 3.2 }, unit: 'eV', engine: 'moa' };
        const result = TripletSchema.safeParse({ ...triplet, [field]: 'a'.repeat(over ? limit + 1 : limit) });
        return result.success === !over;
      }),
      { numRuns: 40 },
    );
  });
});
