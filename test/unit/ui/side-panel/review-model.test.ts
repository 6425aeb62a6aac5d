import { printedValue } from '../../../../src/text/quantities/format-quantity';
import { buildDatasetRows, decisionOf, editProblem, keptAnswer, keptRecords, runModelIds } from '../../../../src/store/dataset-rows';
import { describe, expect, it } from 'vitest';
import type { SourcePaper } from '../../../../src/contracts/dataset';
import type { MatrixRunRow } from '../../../../src/contracts/matrix-run';
import { adjudicationQueue, answerText, editReview, keepAnswerReview, saveStatusText } from '../../../../src/ui/side-panel/review-model';
import { record, runRow, triplet } from '../run-fixtures';

const AT = new Date('2025-02-01T09:00:00.000Z');
const LATER = new Date('2025-02-01T09:30:00.000Z');

const paper: SourcePaper = {
  key: 'doi:10.1000/gan',
  doi: '10.1000/gan',
  url: null,
  title: 'GaN',
  authors: ['A. Author'],
  journal: null,
  year: 2024,
};

/** A needs_review record: MoA says 3.4 eV (the stored triplet), the search says 3.3–3.5 eV. */
function disputed() {
  const moa = triplet();
  const gd = triplet({
    value: { kind: 'range', low: 3.3, high: 3.5 },
    engine: 'mcts',
    evidence: { quote: { type: 'TextQuoteSelector', exact: 'gaps of 3.3–3.5 eV', prefix: '', suffix: '' } },
  });
  return record('needs_review', { votes: ['moa'], adjudication: { outcome: 'conflict', moa, gd, reason: 'values differ' } });
}

/**
 * Six records, six facts: 0 verified (no review), 1 verified rejected by the reader, 2 needs_review
 * undecided, 3 needs_review accepted, 4 machine-rejected but edited by the reader, 5
 * machine-rejected undecided.
 */
function mixedRow(): MatrixRunRow {
  return runRow({
    status: 'done',
    records: [
      // GaN 3.2 eV: not 3.4 eV, which would be the disputed record's fact (one fact, one entry).
      record('verified', {}, { value: { kind: 'number', value: 3.2 } }),
      record('verified', {}, { material: 'AlN', value: { kind: 'number', value: 6.2 } }),
      disputed(),
      record('needs_review', {}, { material: 'ZnO', value: { kind: 'number', value: 3.37 } }),
      record('rejected', {}, { material: 'InN', value: { kind: 'number', value: 0.7 } }),
      record('rejected', {}, { material: 'SiC', value: { kind: 'number', value: 3.3 } }),
    ],
    reviews: {
      1: { decision: 'rejected', at: AT.toISOString() },
      3: { decision: 'accepted', at: AT.toISOString() },
      4: { decision: 'edited', edit: { material: 'InN', valueText: '0.65', unit: 'eV' }, at: AT.toISOString() },
    },
  });
}

describe('printedValue and answerText', () => {
  it('prefer the value as printed, else write the value back without its unit', () => {
    expect(printedValue(triplet({ valueText: '~3.4' }))).toBe('~3.4');
    expect(printedValue(triplet())).toBe('3.4');
    expect(printedValue(triplet({ value: { kind: 'range', low: 1.2, high: 1.5 } }))).toBe('1.2–1.5');
    expect(printedValue(triplet({ value: { kind: 'number', value: 1.5, uncertainty: 0.1 } }))).toBe('1.5 ± 0.1');
    expect(answerText(triplet())).toBe('GaN: 3.4 eV');
    expect(answerText({ material: 'GaN', valueText: '3.5', unit: 'eV' })).toBe('GaN: 3.5 eV');
    expect(answerText({ material: 'BaTiO3', valueText: '0.35', unit: '' })).toBe('BaTiO3: 0.35');
  });
});

describe('decisions and the adjudication queue', () => {
  it('reads each record’s decision, pending when unreviewed', () => {
    const row = mixedRow();
    expect(row.records.map((_, index) => decisionOf(row, index))).toEqual([
      'pending',
      'rejected',
      'pending',
      'accepted',
      'edited',
      'pending',
    ]);
  });

  it('queues only undecided needs_review records, in run order', () => {
    expect(adjudicationQueue(mixedRow())).toEqual([2]);
    const decided = { ...mixedRow(), reviews: { ...mixedRow().reviews, 2: { decision: 'rejected' as const, at: AT.toISOString() } } };
    expect(adjudicationQueue(decided)).toEqual([]);
  });
});

describe('keptRecords', () => {
  it('keeps verified records the reader did not reject and every record the reader accepted or edited', () => {
    const kept = keptRecords(mixedRow());
    expect(kept.map((entry) => entry.index)).toEqual([0, 3, 4]);
    expect(kept.map((entry) => entry.edit)).toEqual([undefined, undefined, { material: 'InN', valueText: '0.65', unit: 'eV' }]);
  });

  it('keeps nothing from a run the reader rejected entirely', () => {
    const row = runRow({ records: [record('verified')], reviews: { 0: { decision: 'rejected', at: AT.toISOString() } } });
    expect(keptRecords(row)).toEqual([]);
  });
});

describe('keepAnswerReview', () => {
  it('keeps the MoA answer without an edit when it is the stored triplet', () => {
    expect(keepAnswerReview(disputed(), 'moa', AT)).toEqual({ decision: 'accepted', at: '2025-02-01T09:00:00.000Z' });
  });

  it('keeps the search answer as an accepted review whose edit is that answer', () => {
    expect(keepAnswerReview(disputed(), 'gd', AT)).toEqual({
      decision: 'accepted',
      edit: { material: 'GaN', valueText: '3.3–3.5', unit: 'eV' },
      at: '2025-02-01T09:00:00.000Z',
    });
  });

  it('keeps no edit when the chosen path gave no answer', () => {
    const onlyMoa = record('needs_review', { adjudication: { outcome: 'moa-only', moa: triplet() } });
    expect(keepAnswerReview(onlyMoa, 'gd', AT)).toEqual({ decision: 'accepted', at: AT.toISOString() });
  });

  it('is recognised again from the stored review, and saved as the search answer itself (its evidence too)', () => {
    const record3 = disputed();
    const review = keepAnswerReview(record3, 'gd', AT);
    expect(keptAnswer(record3, review)).toBe('gd');
    expect(keptAnswer(record3, { decision: 'accepted', at: AT.toISOString() })).toBe('moa');
    expect(keptAnswer(record3, { decision: 'edited', edit: review.edit, at: AT.toISOString() })).toBeUndefined();
    const [kept] = keptRecords(runRow({ records: [record3], reviews: { 0: review } }));
    expect(kept?.edit).toBeUndefined();
    expect(kept?.record.triplet.value).toEqual({ kind: 'range', low: 3.3, high: 3.5 });
    expect(kept?.record.triplet.evidence?.quote.exact).toBe('gaps of 3.3–3.5 eV');
  });
});

describe('editReview and editProblem', () => {
  it('trims the fields into an edited review', () => {
    expect(editReview({ material: ' GaN ', valueText: ' 3.5 ', unit: ' eV ' }, AT)).toEqual({
      ok: true,
      review: { decision: 'edited', edit: { material: 'GaN', valueText: '3.5', unit: 'eV' }, at: '2025-02-01T09:00:00.000Z' },
    });
  });

  it('refuses a blank material or value, but allows a blank (dimensionless) unit', () => {
    expect(editReview({ material: ' ', valueText: '3.5', unit: 'eV' }, AT)).toEqual({ ok: false, message: 'Give the material.' });
    expect(editReview({ material: 'GaN', valueText: '', unit: 'eV' }, AT)).toEqual({
      ok: false,
      message: 'Give the value as printed, e.g. 3.4 or 1.2–1.5.',
    });
    expect(editReview({ material: 'BaTiO3', valueText: '0.35', unit: '' }, AT).ok).toBe(true);
  });

  it('says when the dataset cannot read the value text', () => {
    expect(editProblem({ material: 'GaN', valueText: '3.5', unit: 'eV' })).toBeNull();
    expect(editProblem({ material: 'GaN', valueText: '1.2–1.5', unit: 'eV' })).toBeNull();
    expect(editProblem({ material: 'GaN', valueText: 'about three', unit: 'eV' })).toContain('"about three" is not one value');
  });
});

describe('buildDatasetRows', () => {
  it('builds one row per kept record with the reader’s decision, applying edits', () => {
    let next = 0;
    const row = {
      ...mixedRow(),
      settings: {
        ...mixedRow().settings,
        engine: {
          kind: 'openai' as const,
          baseUrl: 'http://127.0.0.1:11434/v1',
          roster: { proposers: ['qwen', 'llama'], aggregator: 'qwen', generator: 'qwen', discriminator: 'gemma' },
        },
      },
    };
    const { rows, problems } = buildDatasetRows(row, paper, { now: LATER, newId: () => `row-${(next += 1)}` });
    expect(problems).toEqual([]);
    expect(rows.map((saved) => [saved.id, saved.material, saved.status, saved.review.decision])).toEqual([
      ['row-1', 'GaN', 'verified', 'pending'],
      ['row-2', 'ZnO', 'needs_review', 'accepted'],
      ['row-3', 'InN', 'rejected', 'edited'],
    ]);
    expect(rows[1]!.review.at).toBe(AT.toISOString());
    // The edit replaces the value (0.7 → 0.65 eV) and keeps the model's answer beside it.
    expect(rows[2]!.value).toEqual({ kind: 'number', value: 0.65 });
    expect(rows[2]!.valueText).toBe('0.65');
    expect(rows[2]!.review.original).toEqual({ material: 'InN', value: { kind: 'number', value: 0.7 }, unit: 'eV' });
    expect(rows.every((saved) => saved.runId === 'run-1' && saved.paper === paper && saved.savedAt === LATER.toISOString())).toBe(true);
    expect(rows[0]!.models).toEqual(['qwen', 'llama', 'gemma']);
  });

  it('saves a kept search answer as that answer, and lists an unreadable edit as a problem', () => {
    const row = runRow({
      records: [disputed(), record('verified', {}, { material: 'AlN' })],
      reviews: {
        0: keepAnswerReview(disputed(), 'gd', AT),
        1: { decision: 'edited', edit: { valueText: 'n/a' }, at: AT.toISOString() },
      },
    });
    const { rows, problems } = buildDatasetRows(row, paper, { now: LATER, newId: () => 'id' });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.value).toEqual({ kind: 'range', low: 3.3, high: 3.5 });
    expect(rows[0]!.review).toEqual({ decision: 'accepted', at: AT.toISOString() });
    expect(rows[0]!.evidence?.quote.exact).toBe('gaps of 3.3–3.5 eV');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.index).toBe(1);
    expect(problems[0]!.message).toContain('"n/a" is not one value');
  });
});

describe('runModelIds', () => {
  it('takes the run record’s models, else an explicit roster, else none', () => {
    const roster = { proposers: ['a', 'b', 'a'], aggregator: 'c', generator: 'a', discriminator: 'c' };
    expect(runModelIds(runRow({ settings: { ...runRow().settings, engine: { kind: 'webllm', roster } } }))).toEqual(['a', 'b', 'c']);
    expect(runModelIds(runRow())).toEqual([]);
    const run = { models: { proposers: ['x'], aggregator: 'y' } } as unknown as MatrixRunRow['run'];
    expect(runModelIds(runRow({ run }))).toEqual(['x', 'y']);
  });
});

describe('saveStatusText', () => {
  it('counts saved rows as added + merged', () => {
    expect(saveStatusText({ added: 2, merged: 1 })).toBe('Saved 3 triplets (1 merged with ones already in your dataset)');
    expect(saveStatusText({ added: 1, merged: 0 })).toBe('Saved 1 triplet (0 merged with ones already in your dataset)');
    expect(saveStatusText({ added: 0, merged: 0 })).toBe('Saved 0 triplets (0 merged with ones already in your dataset)');
  });
});
