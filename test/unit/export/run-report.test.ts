/** The run report (src/export/run-report.ts): triplets, "Not provided in this paper", not decided, or not run, per property. */
import { describe, expect, it } from 'vitest';
import type { MatrixRunRow } from '../../../src/contracts/matrix-run';
import { NOT_PROVIDED, runReportFileName, toRunReport, type RunReport } from '../../../src/export/run-report';
import { propertyRun, record, runRow } from '../ui/run-fixtures';

function finished(properties: string[], runProperties: NonNullable<MatrixRunRow['run']>['properties']): MatrixRunRow {
  const row = runRow({ status: 'done', finishedAt: '2025-01-01T10:05:00.000Z', records: [record('verified'), record('rejected')] });
  return {
    ...row,
    settings: { ...row.settings, properties },
    run: {
      engine: 'slm-matrix',
      preset: { name: 'browser' } as never,
      models: {},
      usage: {} as never,
      calls: 4,
      promptTokens: 1,
      completionTokens: 1,
      milliseconds: 1,
      properties: runProperties,
      counts: { verified: 1, needs_review: 0, rejected: 1 },
    },
  };
}

describe('toRunReport', () => {
  it('gives each property its triplets, its abstention with what was searched, or says it did not run', () => {
    const row = finished(
      ['band_gap', 'density', 'tc'],
      [
        propertyRun({ calls: 4 }),
        propertyRun({
          property: 'density',
          skipped: true,
          calls: 0,
          notProvided: { reason: 'nothing-relevant', chunksRanked: 3, chunksRead: 0, calls: 0 },
        }),
      ],
    );
    const report = JSON.parse(toRunReport(row)) as RunReport;
    expect(report).toMatchObject({ format: 'assay-run-report', version: 1, runId: 'run-1', status: 'done', preset: 'browser' });
    expect(report.properties.map((property) => [property.property, property.outcome])).toEqual([
      ['band_gap', 'triplets'],
      ['density', 'not_provided'],
      ['tc', 'not_run'],
    ]);
    const [gap, density] = report.properties;
    expect(gap).toMatchObject({ triplets: [{ material: 'GaN', status: 'verified' }, { status: 'rejected' }] });
    expect(density).toEqual({
      property: 'density',
      outcome: 'not_provided',
      statement: NOT_PROVIDED,
      reason: 'nothing-relevant',
      searched: { chunksRanked: 3, chunksRead: 0, calls: 0 },
    });
    expect(runReportFileName(row)).toBe('assay-run-run-1.json');
  });

  it('says "not decided", with the failures\' code and words, where failed model calls left a property open', () => {
    const notDecided = {
      code: 'truncated-output' as const,
      message:
        "the MoA path gave no usable answer (all 3 proposers of its last layer failed) — the proposer model's reply ran past its 1024-token limit",
      calls: 11,
    };
    const row = finished(['density'], [propertyRun({ property: 'density', calls: 11, notDecided })]);
    const report = JSON.parse(toRunReport(row)) as RunReport;
    expect(report.properties).toEqual([{ property: 'density', outcome: 'not_decided', ...notDecided }]);
  });

  it('reads a row stored before abstention was recorded: no run record means not run', () => {
    const row = runRow({ status: 'cancelled' });
    const report = JSON.parse(toRunReport(row)) as RunReport;
    expect(report.properties.map((property) => property.outcome)).toEqual(['not_run', 'not_run']);
  });
});
