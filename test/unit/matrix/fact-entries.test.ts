import { describe, expect, it } from 'vitest';
import { factEntries, sameFact } from '../../../src/matrix/fact-entries';
import { buildDatasetRows, keptRecords } from '../../../src/store/dataset-rows';
import { adjudicationQueue, disagreementText, factVoteLines } from '../../../src/ui/side-panel/review-model';
import type { SourcePaper } from '../../../src/contracts/dataset';
import { record, runRow, triplet } from '../ui/run-fixtures';

const paper: SourcePaper = { key: 'doi:10.1000/eus', doi: '10.1000/eus', url: null, title: 'EuS', authors: [], journal: null, year: 2024 };
const eus = { material: 'EuS', value: { kind: 'number' as const, value: 1.6 } };
const AT = '2025-02-01T09:00:00.000Z';

/** The tester's run: EuS 1.6 eV agreed by both paths and verified, and the MoA answer's second copy of it, MoA-only. */
function twoPathsAgree() {
  const agreed = record('verified', {}, { ...eus, conditions: [{ kind: 'method', value: 'optical' }] });
  const moa = triplet(eus);
  const moaOnly = record(
    'needs_review',
    { votes: ['moa'], adjudication: { outcome: 'moa-only', moa }, reasons: ['only the MoA path gave this triplet'] },
    eus,
  );
  return runRow({ status: 'done', records: [agreed, moaOnly] });
}

describe('one fact, one entry', () => {
  it('merges two paths that state the same fact into one verified entry with both votes under it', () => {
    const row = twoPathsAgree();
    const entries = factEntries(row.records);
    expect(entries).toEqual([{ primary: 0, members: [0, 1], status: 'verified' }]);
    expect(factVoteLines(row.records, entries[0]!).map((line) => line.text)).toEqual([
      'MoA and search agreed: verified',
      'MoA alone: needs review (only the MoA path gave this triplet)',
    ]);
    // Already verified, so never also in "Needs your decision".
    expect(adjudicationQueue(row)).toEqual([]);
  });

  it('takes the stronger record whatever the run order, and a value in another unit within tolerance is the same fact', () => {
    const row = twoPathsAgree();
    const reversed = [
      row.records[1]!,
      { ...row.records[0]!, triplet: { ...row.records[0]!.triplet, value: { kind: 'number' as const, value: 1600 }, unit: 'meV' } },
    ];
    expect(factEntries(reversed)).toEqual([{ primary: 1, members: [0, 1], status: 'verified' }]);
  });

  it('keeps a disagreement on the value as one decision, asked in plain words', () => {
    const moa = triplet(eus);
    const gd = triplet({ ...eus, value: { kind: 'number', value: 1.65 } });
    const conflict = record(
      'needs_review',
      { votes: ['moa'], adjudication: { outcome: 'conflict', moa, gd, reason: 'values differ' } },
      eus,
    );
    const row = runRow({ status: 'done', records: [conflict] });
    expect(factEntries(row.records)).toEqual([{ primary: 0, members: [0], status: 'needs_review' }]);
    expect(adjudicationQueue(row)).toEqual([0]);
    expect(disagreementText(conflict)).toBe('The models disagree: 1.6 eV or 1.65 eV?');
    expect(disagreementText(twoPathsAgree().records[1]!)).toBe('The models disagree: 1.6 eV or no value?');
    expect(disagreementText(record('needs_review'))).toBeNull();
  });

  it('keeps a different material with the same value, and another method for the same value, as separate facts', () => {
    const row = twoPathsAgree();
    const other = record('verified', {}, { material: 'EuO', value: { kind: 'number', value: 1.6 } });
    expect(factEntries([...row.records, other]).map((entry) => entry.members)).toEqual([[0, 1], [2]]);
    const hse = triplet({ ...eus, conditions: [{ kind: 'method', value: 'HSE06' }] });
    const pbe = triplet({ ...eus, conditions: [{ kind: 'method', value: 'GGA-PBE' }] });
    expect(sameFact(hse, pbe)).toBe(false);
    expect(sameFact(hse, triplet(eus))).toBe(true);
    expect(sameFact(triplet(eus), triplet({ ...eus, property: 'tc' }))).toBe(false);
  });

  it('saves a merged fact as one row, with the review the reader gave the fact', () => {
    const row = twoPathsAgree();
    expect(keptRecords(row).map((kept) => kept.index)).toEqual([0]);
    // Keeping the MoA answer on the absorbed copy (an old run's review) does not add a second row.
    const reviewed = { ...row, reviews: { 0: { decision: 'accepted' as const, at: AT }, 1: { decision: 'accepted' as const, at: AT } } };
    const { rows } = buildDatasetRows(reviewed, paper, { now: new Date(AT) });
    expect(rows.map((saved) => [saved.id, saved.material, saved.status, saved.review.decision])).toEqual([
      ['run-1:0', 'EuS', 'verified', 'accepted'],
    ]);
    // Rejecting the fact leaves nothing to save.
    expect(keptRecords({ ...row, reviews: { 0: { decision: 'rejected', at: AT } } })).toEqual([]);
  });
});
