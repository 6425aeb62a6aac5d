/** Runs rows and verdicts for the side panel's "Extract" tests. */
import type { MatrixRunRow } from '../../../src/contracts/matrix-run';
import type { Triplet } from '../../../src/contracts/triplet';
import type { VerificationRecord } from '../../../src/contracts/verification';
import type { PropertyRun } from '../../../src/contracts/run-record';

/** A band-gap triplet of GaN with a quote; `change` overrides fields. */
export function triplet(change: Partial<Triplet> = {}): Triplet {
  return {
    material: 'GaN',
    property: 'band_gap',
    value: { kind: 'number', value: 3.4 },
    unit: 'eV',
    evidence: { quote: { type: 'TextQuoteSelector', exact: 'The band gap of GaN is 3.4 eV at room temperature.', prefix: '', suffix: '' } },
    engine: 'moa',
    ...change,
  };
}

export function record(
  status: VerificationRecord['status'],
  change: Partial<VerificationRecord> = {},
  tripletChange: Partial<Triplet> = {},
): VerificationRecord {
  return { status, triplet: triplet(tripletChange), votes: ['moa', 'gd'], reasons: [], ...change };
}

/** A row of a two-property run (band_gap, tc) that has just started; `change` overrides fields. */
export function runRow(change: Partial<MatrixRunRow> = {}): MatrixRunRow {
  return {
    id: 'run-1',
    paperKey: 'doi:10.1000/gan',
    status: 'running',
    settings: { paperKey: 'doi:10.1000/gan', properties: ['band_gap', 'tc'], preset: 'browser', engine: { kind: 'webllm' }, seed: 42 },
    startedAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    progress: null,
    engineStatus: null,
    propertiesDone: [],
    records: [],
    resumes: 0,
    ...change,
  };
}

/** A band-gap `PropertyRun` that read nothing and took no time (no abstention, not decided unless `change` says so). */
export function propertyRun(change: Partial<PropertyRun> = {}): PropertyRun {
  return {
    property: 'band_gap',
    skipped: false,
    blockIds: [],
    truncatedBlockIds: [],
    passageChars: 0,
    candidates: 0,
    earlyExit: false,
    refinementRounds: 0,
    converged: false,
    problems: [],
    milliseconds: 0,
    ...change,
  };
}
