/**
 * cornell-tc on the real dev set and SuperCon table. The dev rows are rows of that table, so the
 * full-table figures are near an oracle (floors below are what was measured, rounded down); the
 * leave-out figures show how few questions rows written differently can answer.
 */
import { describe, expect, it } from 'vitest';
import { evaluateCornellTc } from '../../src/eval/cornell-tc/cornell-tc-evaluation';
import { sharedDataSkipReason, sharedRoot } from '../support/shared-data';

const skipReason = sharedDataSkipReason();

describe.skipIf(skipReason !== undefined)(`cornell-tc${skipReason ? ` (${skipReason})` : ''}`, () => {
  it('answers the 100 dev materials from the SuperCon table', async () => {
    const result = await evaluateCornellTc({ dataRoot: sharedRoot });
    expect(result.n).toBe(100);
    expect(result.tableRows).toBeGreaterThanOrEqual(16600);
    // Measured: meanScore 2.00, headline-only 1.97, coverage 100%, grounded 100%.
    expect(result.meanScore).toBeGreaterThanOrEqual(2);
    expect(result.meanScoreHeadline).toBeGreaterThanOrEqual(1.97);
    expect(result.coverage).toBeGreaterThanOrEqual(1);
    expect(result.groundedShare).toBeGreaterThanOrEqual(1);
    // Measured with the exactly-written truth row removed: meanScore 0.12, coverage 10%, grounded 100%.
    expect(result.leaveOut.meanScore).toBeGreaterThanOrEqual(0.12);
    expect(result.leaveOut.coverage).toBeGreaterThanOrEqual(0.1);
    expect(result.leaveOut.groundedShare).toBeGreaterThanOrEqual(1);
    // Written differently in the table (element order): Y2I2C2 is also Y2C2I2 at 10 K.
    expect(result.perMaterial.find((item) => item.material === 'Y2I2C2')?.leaveOut).toMatchObject({ answer: 'Yes', value: 10 });
  });

  it('honours --limit', async () => {
    expect((await evaluateCornellTc({ dataRoot: sharedRoot, limit: 5 })).perMaterial).toHaveLength(5);
  });
});
