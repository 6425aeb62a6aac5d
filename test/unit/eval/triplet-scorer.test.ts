import { describe, expect, it } from 'vitest';
import type { ReportedValue } from '../../../src/contracts/triplet';
import { countsToScores, scoreCorpus, scorePaper } from '../../../src/eval/triplet-scorer';
import { testDependencies } from './scorer-doubles';
import type { PaperCase, PredictedTriplet, TruthTriplet } from '../../../src/eval/triplet-scorer-types';

const number = (value: number, approximate?: boolean): ReportedValue => ({
  kind: 'number',
  value,
  ...(approximate ? { approximate } : {}),
});
const truth = (aliases: string[], value: ReportedValue, unit = 'eV'): TruthTriplet => ({ aliases, property: 'band_gap', value, unit });
const predicted = (material: string, value: ReportedValue, unit = 'eV'): PredictedTriplet => ({
  material,
  property: 'band_gap',
  value,
  unit,
});
const paper = (truths: TruthTriplet[], predictions: PredictedTriplet[]): PaperCase => ({ paper: 'p', truths, predictions });

describe('scorePaper: values', () => {
  it.each([
    // [predicted, truth, tolerance, matches]
    [1.4514, 1.45, 0.001, true], // 0.097% off
    [1.4516, 1.45, 0.001, false], // 0.11% off
    [1.4516, 1.45, 0.01, true],
    [1.6, 1.45, 0.01, false],
    [1.6, 1.45, 0.1, false], // 10.3% off
    [1.59, 1.45, 0.1, true],
    [0, 0, 0.001, true], // truth 0: exact only
    [0.0001, 0, 0.1, false],
  ])('%f eV vs truth %f eV at %f → %s', (value, truthValue, tolerance, expected) => {
    const score = scorePaper(paper([truth(['ZnO'], number(truthValue))], [predicted('ZnO', number(value))]), tolerance, testDependencies);
    expect(score.matched).toBe(expected ? 1 : 0);
  });

  it('compares in SI: 1450 meV matches 1.45 eV, 1.45 K does not', () => {
    const truths = [truth(['WS2'], number(1.45))];
    expect(scorePaper(paper(truths, [predicted('WS2', number(1450), 'meV')]), 0.001, testDependencies).matched).toBe(1);
    expect(scorePaper(paper(truths, [predicted('WS2', number(1.45), 'K')]), 0.1, testDependencies).matched).toBe(0);
  });

  it('an approximate "~1.45" truth matches a plain 1.45 and the other way round', () => {
    // manual_pub__manual.csv line 16: WS2-WSe2 with Manual "~1.45".
    expect(
      scorePaper(paper([truth(['WS2-WSe2'], number(1.45, true))], [predicted('WS2-WSe2', number(1.45))]), 0.001, testDependencies).matched,
    ).toBe(1);
    expect(
      scorePaper(paper([truth(['WS2-WSe2'], number(1.45))], [predicted('WS2-WSe2', number(1.45, true))]), 0.001, testDependencies).matched,
    ).toBe(1);
  });

  it('a range matches only a range, end by end', () => {
    // manual_pub__manual.csv line 147: (BA)2(MA)n-1PbnI3n+1 with Manual "1.5-2.3".
    const range: ReportedValue = { kind: 'range', low: 1.5, high: 2.3 };
    const truths = [truth(['(BA)2(MA)n-1PbnI3n+1'], range)];
    expect(
      scorePaper(paper(truths, [predicted('(BA)2(MA)n-1PbnI3n+1', { kind: 'range', low: 1.5, high: 2.3 })]), 0.001, testDependencies)
        .matched,
    ).toBe(1);
    expect(
      scorePaper(paper(truths, [predicted('(BA)2(MA)n-1PbnI3n+1', { kind: 'range', low: 1.5, high: 2.4 })]), 0.001, testDependencies)
        .matched,
    ).toBe(0);
    expect(scorePaper(paper(truths, [predicted('(BA)2(MA)n-1PbnI3n+1', number(1.5))]), 0.1, testDependencies).matched).toBe(0);
    expect(scorePaper(paper([truth(['X'], number(1.9))], [predicted('X', range)]), 0.1, testDependencies).matched).toBe(0);
  });
});

describe('scorePaper: materials and matching', () => {
  it('accepts any alias of the truth', () => {
    // manual_pub__manual.csv line 6: "c-TiO2; TiO2 (c-TiO2); compact TiO2", 3.05 eV.
    const truths = [truth(['c-TiO2', 'TiO2 (c-TiO2)', 'compact TiO2'], number(3.05))];
    expect(scorePaper(paper(truths, [predicted('compact TiO2', number(3.05))]), 0.001, testDependencies).matched).toBe(1);
    expect(scorePaper(paper(truths, [predicted('mp-TiO2', number(3.05))]), 0.001, testDependencies).matched).toBe(0);
  });

  it('requires the same property', () => {
    const score = scorePaper(
      paper([truth(['ZnO'], number(3.4))], [{ ...predicted('ZnO', number(3.4)), property: 'tc' }]),
      0.1,
      testDependencies,
    );
    expect(score.matched).toBe(0);
  });

  it('is one-to-one: two identical predictions match one truth once', () => {
    const score = scorePaper(
      paper([truth(['ZnO'], number(3.4))], [predicted('ZnO', number(3.4)), predicted('ZnO', number(3.4))]),
      0.001,
      testDependencies,
    );
    expect(score).toMatchObject({ predictions: 2, truths: 1, matched: 1 });
  });

  it('finds the maximum matching where a greedy pass fails', () => {
    // At 10%, P0 (3.42) fits T0 (3.4) and T1 (3.43); P1 (3.08) fits only T0 (9.4% off; 10.2%
    // from T1). Greedy in prediction order gives T0 to P0 and leaves P1 unmatched; the maximum is 2.
    const truths = [truth(['ZnO'], number(3.4)), truth(['ZnO'], number(3.43))];
    const predictions = [predicted('ZnO', number(3.42)), predicted('ZnO', number(3.08))];
    const score = scorePaper(paper(truths, predictions), 0.1, testDependencies);
    expect(score.matched).toBe(2);
    expect(score.pairs).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('handles empty truth and empty predictions', () => {
    expect(scorePaper(paper([], [predicted('ZnO', number(3.4))]), 0.001, testDependencies)).toMatchObject({
      predictions: 1,
      truths: 0,
      matched: 0,
    });
    expect(scorePaper(paper([truth(['ZnO'], number(3.4))], []), 0.001, testDependencies)).toMatchObject({
      predictions: 0,
      truths: 1,
      matched: 0,
    });
    expect(countsToScores(0, 0, 0)).toEqual({ predictions: 0, truths: 0, matched: 0, precision: 0, recall: 0, f1: 0 });
  });
});

describe('scoreCorpus', () => {
  it('micro-averages: counts are summed over papers before the ratios', () => {
    const first = paper([truth(['A'], number(1)), truth(['B'], number(2))], [predicted('A', number(1))]); // 1/1 matched, 1/2 truths
    const second = {
      ...paper([truth(['C'], number(3))], [predicted('C', number(9)), predicted('D', number(3)), predicted('C', number(3))]),
      paper: 'q',
    }; // 1/3, 1/1
    const score = scoreCorpus([first, second], testDependencies);
    expect(score).toMatchObject({ n: 2, predictions: 4, truths: 3, matched: 2 });
    expect(score.precision).toBeCloseTo(2 / 4);
    expect(score.recall).toBeCloseTo(2 / 3);
    expect(score.f1).toBeCloseTo((2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3));
    // Macro would give P = (1 + 1/3) / 2 = 0.667: the micro figure must differ.
    expect(score.precision).not.toBeCloseTo(2 / 3);
    expect(score.papers.map((item) => [item.paper, item.matched])).toEqual([
      ['p', 1],
      ['q', 1],
    ]);
  });

  it('reports F1 at 0.1%, 1% and 10% side by side', () => {
    const score = scoreCorpus(
      [paper([truth(['A'], number(1)), truth(['B'], number(2))], [predicted('A', number(1.005)), predicted('B', number(2.1))])],
      testDependencies,
    );
    expect(score.at['0.1%'].matched).toBe(0);
    expect(score.at['1%'].matched).toBe(1);
    expect(score.at['10%'].matched).toBe(2);
    expect(score.f1At).toEqual({ '0.1%': 0, '1%': 0.5, '10%': 1 });
    expect(score.f1).toBe(score.f1At['0.1%']);
  });
});
