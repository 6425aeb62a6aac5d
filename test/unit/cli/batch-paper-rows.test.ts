import { describe, expect, it } from 'vitest';
import type { VerificationRecord } from '../../../src/contracts/verification';
import { paperRows } from '../../../src/cli/batch/batch-run';
import { TIO2_PAPER } from '../export/dataset-fixtures';

const NOW = new Date('2026-11-25T12:00:00.000Z');

function bandGapRecord(
  material: string,
  value: number,
  status: VerificationRecord['status'],
  votes: string[],
  exact = `the band gap of ${material} is ${value} eV`,
): VerificationRecord {
  return {
    status,
    triplet: {
      material,
      property: 'band_gap',
      value: { kind: 'number', value },
      valueText: String(value),
      unit: 'eV',
      engine: 'moa',
      evidence: { quote: { type: 'TextQuoteSelector', exact, prefix: '', suffix: '' } },
    },
    votes,
    reasons: [],
  };
}

describe('paperRows', () => {
  it('writes one row per fact: verdicts stating the same fact merge into the first, as a save in the extension does', () => {
    const rows = paperRows(
      {
        records: [
          bandGapRecord('TiO2', 3.2, 'verified', ['moa', 'gd']),
          bandGapRecord('ZnO', 3.4, 'rejected', ['moa']),
          // The same fact again (TiO₂ is the same formula), left for review.
          bandGapRecord('TiO₂', 3.2, 'needs_review', ['p2']),
          bandGapRecord('ZnO', 3.3, 'needs_review', ['moa']),
        ],
        models: ['test-model'],
      },
      { paper: TIO2_PAPER, runId: 'batch-1', now: NOW },
    );
    expect(rows.map((row) => [row.id, row.material, row.value, row.status, row.votes])).toEqual([
      ['batch-1:0', 'TiO2', { kind: 'number', value: 3.2 }, 'verified', ['moa', 'gd', 'p2']],
      ['batch-1:3', 'ZnO', { kind: 'number', value: 3.3 }, 'needs_review', ['moa']],
    ]);
    expect(new Set(rows.map((row) => row.mergeKey)).size).toBe(rows.length);
  });
});
