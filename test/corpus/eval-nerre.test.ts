/**
 * llm-nerre-doping on the real train.json: the truth scored against itself is 1 everywhere (the
 * scorer and loader agree), and the formula-mention floor — every formula mention in the title
 * and abstract called a host, no dopant, no link — gives a reference figure made without a model.
 */
import { describe, expect, it } from 'vitest';
import { loadNerreDoping } from '../../src/eval/nerre/nerre-doping-dataset';
import { evaluateNerreDoping, formulaHostFloor, truthAsPredictions } from '../../src/eval/nerre/nerre-evaluation';
import { sharedDataSkipReason, sharedRoot } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

describe.skipIf(skipReason !== undefined)(`llm-nerre-doping${skipReason ? ` (${skipReason})` : ''}`, () => {
  it('loads the 162 training abstracts with none malformed', async () => {
    const { records, malformed } = await loadNerreDoping(sharedRoot);
    expect(records).toHaveLength(162);
    expect(malformed).toBe(0);
    expect(records.filter((record) => record.truth.relations.length > 0).length).toBeGreaterThan(100);
  });

  it('scores the truth against itself as P = R = F1 = 1', async () => {
    const { records } = await loadNerreDoping(sharedRoot);
    const result = await evaluateNerreDoping({ dataRoot: sharedRoot, predictions: truthAsPredictions(records), source: 'truth' });
    expect(result).toMatchObject({ n: 162, missingPredictions: 0, unknownPredictions: 0 });
    for (const score of [result.hosts, result.dopants, result.relations]) {
      expect(score).toMatchObject({ precision: 1, recall: 1, f1: 1, fp: 0, fn: 0 });
      expect(score.tp).toBeGreaterThan(0);
    }
  });

  it('measures the formula-mention floor for hosts', async () => {
    const { records } = await loadNerreDoping(sharedRoot);
    const result = await evaluateNerreDoping({
      dataRoot: sharedRoot,
      predictions: formulaHostFloor(records),
      source: 'formula-hosts floor',
    });
    // A floor-style reference, not a method. Measured: hosts tp 75, fp 195, fn 295 →
    // P 27.8%, R 20.3%, F1 23.4% (floors below rounded down).
    expect(result.hosts.precision).toBeGreaterThanOrEqual(0.27);
    expect(result.hosts.recall).toBeGreaterThanOrEqual(0.2);
    expect(result.hosts.f1).toBeGreaterThanOrEqual(0.23);
    expect(result.hosts.recall).toBeLessThan(1);
    expect(result.dopants).toMatchObject({ tp: 0, fp: 0, recall: 0 });
    expect(result.relations.f1).toBe(0);
  });
});
