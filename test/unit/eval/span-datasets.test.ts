/**
 * The re-scorable figures of `assay eval measeval|mulms` (strict = exact spans, lenient =
 * overlapping spans, one-to-one; predictions and truths with offsets) on real documents read
 * from ../shared (skipped when it is absent), and `matchSpans` itself. Expected counts were
 * checked by hand against the corpus files, as each test says.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runEval, defaultEvalDependencies } from '../../../src/cli/eval-command';
import { evaluateMeasEval } from '../../../src/eval/measeval';
import { evaluateMulms } from '../../../src/eval/mulms';
import { matchSpans, spanValue } from '../../../src/eval/span-score';
import { sharedDataSkipReason, sharedPath, sharedRoot } from '../../support/shared-data';

const skip = sharedDataSkipReason();

describe('matchSpans and spanValue', () => {
  it('matches one-to-one: exact offsets strict, any shared character lenient', () => {
    const gold = [
      { start: 0, end: 10 },
      { start: 20, end: 25 },
    ];
    const predicted = [
      { start: 0, end: 4 },
      { start: 5, end: 10 },
      { start: 20, end: 25 },
    ];
    expect(matchSpans(predicted, gold, 'strict').matched).toBe(1);
    // Two predictions overlap the first truth, which counts once.
    expect(matchSpans(predicted, gold, 'lenient').matched).toBe(2);
    expect(matchSpans(predicted, gold, 'strict', () => false).matched).toBe(0);
  });

  it('reads one value, not a list or a word', () => {
    expect(spanValue('528 nm')).toEqual({ kind: 'number', value: 528 });
    expect(spanValue('5318 participants')).toEqual({ kind: 'number', value: 5318 });
    expect(spanValue('2619.60, 2614.73, and 2614.71 m')).toBeNull();
    expect(spanValue('five')).toBeNull();
  });
});

describe.skipIf(skip !== undefined)('MeasEval and MuLMS re-scorable figures on real documents', () => {
  afterEach(() => vi.restoreAllMocks());

  it('MeasEval trial, first 2 documents: 0 exact of 7, 3 overlapping (checked by hand)', async () => {
    // S0012821X12004384-1302: gold "Five", two lists "2619.60, …, and 2614.71 m", "two",
    // "2619.60 and 2614.71"; the parser reads each list member alone (8 quantities), so no span
    // is exact, and each list overlaps (one-to-one: once). S0012821X12004384-1405: gold "20",
    // "0% to 80%"; the parser reads "from 0% to 80%": overlapping, not exact. 9 predictions.
    const report = await evaluateMeasEval(sharedPath('datasets', 'measeval', 'data'), { splits: ['trial'], limit: 2 });
    expect(report.strict).toEqual({ precision: 0, recall: 0, f1: 0, predictions: 9, truths: 7, matched: 0 });
    expect(report.lenient).toMatchObject({ predictions: 9, truths: 7, matched: 3 });
    expect(report.f1).toBe(report.strict.f1);
    expect(report.truths[1]).toMatchObject({
      paper: 'S0012821X12004384-1302',
      aliases: ['samples'],
      value: null,
      unit: 'm',
      start: 588,
      end: 637,
    });
    expect(report.predictions[0]).toMatchObject({
      valueText: '2619.60',
      material: '',
      property: 'quantity',
      status: 'extracted',
      start: 588,
    });
  });

  it('MuLMS, first document: strict counts equal the exact VALUE matches it always reported', async () => {
    const report = await evaluateMulms(sharedPath('datasets', 'mulms', 'xmi'), { limit: 1 });
    expect(report.strict.matched).toBe(report.value.exact);
    expect(report.strict.truths).toBe(report.value.gold);
    expect(report.strict.predictions).toBe(report.predicted);
    expect(report.lenient.matched).toBeLessThanOrEqual(report.value.overlap);
    // electrolysis_01: the first VALUE is "between 1.15 and 1.25 eV" at 1327–1351 (UNIT "eV"
    // inside), which the parser reads as the same span, a range.
    expect(report.truths[0]).toMatchObject({
      paper: 'electrolysis_01',
      valueText: 'between 1.15 and 1.25 eV',
      unit: 'eV',
      start: 1327,
      end: 1351,
    });
    expect(report.predictions[0]).toMatchObject({ value: { kind: 'range', low: 1.15, high: 1.25 }, start: 1327, end: 1351 });
  });

  it('assay eval measeval --json carries strict, lenient, predictions and truths beside the old keys', async () => {
    const output: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (output.push(String(chunk)), true));
    expect(await runEval(['measeval', '--data', sharedRoot, '--limit', '3', '--json'], defaultEvalDependencies())).toBe(0);
    const result = JSON.parse(output.join(''));
    expect(result).toMatchObject({ dataset: 'measeval', split: 'dev', documents: 3 });
    expect(result).toHaveProperty('quantityExact');
    expect(Object.keys(result.strict).sort()).toEqual(['f1', 'matched', 'precision', 'predictions', 'recall', 'truths']);
    expect(result.lenient.matched).toBeGreaterThanOrEqual(result.strict.matched);
    expect(result.predictions).toHaveLength(result.strict.predictions);
    expect(result.truths).toHaveLength(result.strict.truths);
  });
});
