import { describeValue } from '../../../../src/text/quantities/format-quantity';
import { describe, expect, it } from 'vitest';
import { LlmErrorCodeSchema } from '../../../../src/contracts/llm';
import type { MatrixStage } from '../../../../src/contracts/run-record';
import {
  notDecidedText,
  notProvidedText,
  countsText,
  groupByMaterial,
  groupRecords,
  progressFraction,
  progressText,
  runErrorHeading,
  statusLabel,
  usageText,
  votesText,
} from '../../../../src/ui/shared/run-view-model';
import { propertyRun, record, runRow } from '../run-fixtures';

describe('progressText', () => {
  it('shows the engine status, or "Starting…", before the pipeline’s first event', () => {
    expect(progressText(runRow())).toBe('Starting…');
    expect(progressText(runRow({ engineStatus: 'Downloading Qwen2.5-1.5B: 120 MB, 17%' }))).toBe('Downloading Qwen2.5-1.5B: 120 MB, 17%');
  });

  it('names the stage, the property and the calls once the pipeline runs', () => {
    const at = (stage: MatrixStage, done: number, total: number) =>
      progressText(runRow({ progress: { stage, property: 'band_gap', done, total }, engineStatus: 'Loading model' }));
    expect(at('reading', 2, 5)).toBe('band gap: reading the paper, 2 of 5 model calls.');
    expect(at('moa', 3, 4)).toBe('band gap: the models propose values (MoA), 3 of 4 model calls.');
    expect(at('mcts', 5, 12)).toBe('band gap: searching for values (MCTS), 5 of at most 12 model calls.');
    expect(at('discriminator', 1, 2)).toBe('band gap: a judge model weighs the answers (discriminator), 1 of 2 model calls.');
    expect(at('cross-verify', 0, 1)).toBe('band gap: cross-verifying the two answers…');
    expect(at('cross-verify', 1, 3)).toBe('band gap: cross-verifying the two answers, refinement round 1 of 3.');
    expect(at('cross-verify', 3, 3)).toBe('band gap: cross-verifying the two answers…');
    expect(at('ground', 2, 5)).toBe('band gap: finding each value’s sentence in the paper (grounding), 2 of 5 records.');
    expect(at('verification-questions', 0, 1)).toBe('band gap: asking the verification questions, 0 of 1 model calls.');
  });

  it('uses the label it is given for the property', () => {
    const row = runRow({ progress: { stage: 'moa', property: 'tc', done: 0, total: 4 } });
    expect(progressText(row, (name) => (name === 'tc' ? 'Tc' : name))).toBe('Tc: the models propose values (MoA), 0 of 4 model calls.');
  });

  it('sums up a finished, stopped or interrupted run', () => {
    const records = [
      record('verified'),
      record('verified', {}, { material: 'AlN' }),
      record('needs_review', {}, { material: 'ZnO' }),
      record('rejected', {}, { property: 'tc' }),
    ];
    expect(progressText(runRow({ status: 'done', records, propertiesDone: ['band_gap', 'tc'] }))).toBe(
      'Done: 2 verified, 1 needs review, 1 rejected.',
    );
    // Facts, not records: a second verdict of GaN 3.4 eV (MoA alone) counts with the verified fact.
    expect(progressText(runRow({ status: 'done', records: [...records, record('needs_review', { votes: ['moa'] })] }))).toBe(
      'Done: 2 verified, 1 needs review, 1 rejected.',
    );
    expect(progressText(runRow({ status: 'cancelled', propertiesDone: ['band_gap'] }))).toBe('Stopped after 1 of 2 properties.');
    expect(progressText(runRow({ status: 'interrupted' }))).toBe('Interrupted after 0 of 2 properties.');
  });
});

describe('progressFraction', () => {
  it('is unknown (null) before the first event and 1 when done', () => {
    expect(progressFraction(runRow())).toBeNull();
    expect(progressFraction(runRow({ status: 'done' }))).toBe(1);
  });

  it('weighs properties equally and the seven stages of a property equally', () => {
    // band_gap is property 0 of 2; reading is stage 0 of 7, 1/2 done: (0 + (0 + 0.5) / 7) / 2 = 0.5 / 14
    expect(progressFraction(runRow({ progress: { stage: 'reading', property: 'band_gap', done: 1, total: 2 } }))).toBeCloseTo(0.5 / 14, 10);
    // MoA is stage 1 of 7, 3/4 done: (0 + (1 + 0.75) / 7) / 2 = 1.75 / 14
    expect(progressFraction(runRow({ progress: { stage: 'moa', property: 'band_gap', done: 3, total: 4 } }))).toBeCloseTo(1.75 / 14, 10);
    // tc is property 1; MCTS is stage 2, 6/12 done: (1 + (2 + 0.5) / 7) / 2 = (7 + 2.5) / 14
    expect(progressFraction(runRow({ progress: { stage: 'mcts', property: 'tc', done: 6, total: 12 } }))).toBeCloseTo(9.5 / 14, 10);
    // grounding all 5 records of band_gap: (0 + (5 + 1) / 7) / 2 = 6 / 14
    expect(progressFraction(runRow({ progress: { stage: 'ground', property: 'band_gap', done: 5, total: 5 } }))).toBeCloseTo(6 / 14, 10);
    // the verification questions answered finish the first half: (0 + (6 + 1) / 7) / 2 = 0.5
    expect(
      progressFraction(runRow({ progress: { stage: 'verification-questions', property: 'band_gap', done: 1, total: 1 } })),
    ).toBeCloseTo(0.5, 10);
    // a stage with nothing planned counts as just begun: (0 + (4 + 0) / 7) / 2 = 4 / 14
    expect(progressFraction(runRow({ progress: { stage: 'cross-verify', property: 'band_gap', done: 0, total: 0 } }))).toBeCloseTo(
      4 / 14,
      10,
    );
  });

  it('counts finished properties for a stopped or interrupted run', () => {
    expect(progressFraction(runRow({ status: 'cancelled', propertiesDone: ['band_gap'] }))).toBe(0.5);
    expect(progressFraction(runRow({ status: 'interrupted' }))).toBe(0);
  });
});

describe('runErrorHeading', () => {
  it('has a specific heading for every LlmError code and the run’s own codes', () => {
    expect(runErrorHeading('no-webgpu')).toBe('WebGPU is not available in this browser');
    expect(runErrorHeading('no-shader-f16')).toBe('This GPU lacks 16-bit float shaders (shader-f16)');
    expect(runErrorHeading('out-of-gpu-memory')).toBe('The GPU ran out of memory');
    expect(runErrorHeading('download-failed')).toBe('The model download failed');
    expect(runErrorHeading('device-lost')).toBe('The GPU stopped responding (device lost)');
    expect(runErrorHeading('unreachable')).toBe('The model server could not be reached');
    expect(runErrorHeading('timeout')).toBe('The model took too long to answer');
    expect(runErrorHeading('http')).toBe('The model server answered with an error');
    expect(runErrorHeading('rate-limited')).toBe('The model server is limiting requests');
    expect(runErrorHeading('malformed-output')).toBe('A model reply could not be read');
    expect(runErrorHeading('truncated-output')).toBe('A model reply ran past its token limit');
    expect(runErrorHeading('repetitive-output')).toBe('A model reply fell into a repetition loop');
    for (const code of LlmErrorCodeSchema.options) expect(runErrorHeading(code)).not.toBe('The run failed');
    expect(runErrorHeading('unavailable')).toBe('No engine or model is configured');
    expect(runErrorHeading('aborted')).toBe('Stopped');
    expect(runErrorHeading('interrupted')).toBe('The run was interrupted');
    expect(runErrorHeading('permission-denied')).toBe('Assay may not reach the model server');
    expect(runErrorHeading('integrity-failed')).toBe('A model file failed its integrity check');
    expect(runErrorHeading('storage-failed')).toBe('The run’s results could not be stored');
  });

  it('falls back to the message protocol’s headings, then to a generic one', () => {
    expect(runErrorHeading('not-found')).toBe('Nothing found there');
    expect(runErrorHeading('internal')).toBe('Something went wrong inside Assay');
    expect(runErrorHeading('something-new')).toBe('The run failed');
  });
});

describe('groupRecords', () => {
  it('groups by property in run order and sorts verified → needs_review → rejected, keeping order within a status', () => {
    const rejected = record('rejected', { reasons: ['value not in quote'] }, { material: 'AlN' });
    const review = record('needs_review', {}, { material: 'InN' });
    const first = record('verified', {}, { material: 'GaN' });
    const second = record('verified', {}, { material: 'ZnO' });
    const tc = record('verified', {}, { property: 'tc', material: 'YBCO', value: { kind: 'number', value: 93 }, unit: 'K' });
    const groups = groupRecords([tc, rejected, review, first, second], ['band_gap', 'tc', 'bulk_modulus']);
    expect(groups.map((group) => group.property)).toEqual(['band_gap', 'tc']);
    expect(groups[0]!.records.map((item) => item.triplet.material)).toEqual(['GaN', 'ZnO', 'InN', 'AlN']);
    expect(groups[0]!.counts).toEqual({ verified: 2, needs_review: 1, rejected: 1 });
    expect(groups[1]!.counts).toEqual({ verified: 1, needs_review: 0, rejected: 0 });
  });

  it('puts properties missing from the run order after it, by first appearance', () => {
    const groups = groupRecords([
      record('verified', {}, { property: 'density' }),
      record('verified'),
      record('rejected', {}, { property: 'density' }),
    ]);
    expect(groups.map((group) => [group.property, group.records.length])).toEqual([
      ['density', 2],
      ['band_gap', 1],
    ]);
  });
});

describe('describeValue', () => {
  it('writes numbers, ranges, approximations and uncertainties with the unit', () => {
    expect(describeValue({ value: { kind: 'number', value: 1.12 }, unit: 'eV' })).toBe('1.12 eV');
    expect(describeValue({ value: { kind: 'range', low: 1.2, high: 1.5 }, unit: 'eV' })).toBe('1.2–1.5 eV');
    expect(describeValue({ value: { kind: 'number', value: 3.4, approximate: true }, unit: 'eV' })).toBe('~3.4 eV');
    expect(describeValue({ value: { kind: 'number', value: 1.5, uncertainty: 0.1 }, unit: 'eV' })).toBe('1.5 ± 0.1 eV');
    expect(describeValue({ value: { kind: 'range', low: 90, high: 93, approximate: true }, unit: 'K' })).toBe('~90–93 K');
    expect(describeValue({ value: { kind: 'number', value: 0.35 }, unit: '' })).toBe('0.35');
    expect(describeValue({ value: { kind: 'number', value: -2 }, unit: 'meV' })).toBe('-2 meV');
  });
});

describe('short texts', () => {
  it('joins votes with " + "', () => {
    expect(votesText(['moa', 'gd'])).toBe('moa + gd');
    expect(votesText(['proposers'])).toBe('proposers');
    expect(votesText([])).toBe('none');
  });

  it('names statuses and counts them in reading order', () => {
    expect(statusLabel('needs_review')).toBe('Needs review');
    expect(countsText({ rejected: 3, verified: 1, needs_review: 0 })).toBe('1 verified · 0 needs review · 3 rejected');
  });

  it('writes the run record’s cost line', () => {
    // 12 345 ms / 1000 = 12.345 s → "12.3 s"
    expect(usageText({ calls: 14, promptTokens: 5230, completionTokens: 812, milliseconds: 12_345 })).toBe(
      'Calls: 14 · tokens: 5230 prompt / 812 completion · 12.3 s',
    );
    expect(usageText({ calls: 0, promptTokens: 0, completionTokens: 0, milliseconds: 0 })).toBe(
      'Calls: 0 · tokens: 0 prompt / 0 completion · 0.0 s',
    );
    expect(usageText({ calls: 4, promptTokens: 10, completionTokens: 2, milliseconds: 1_000, modelLoads: 1 })).toBe(
      'Calls: 4 · tokens: 10 prompt / 2 completion · 1 model load · 1.0 s',
    );
  });
});

describe('notProvidedText', () => {
  const property = (notProvided?: {
    reason: 'nothing-relevant' | 'nothing-found';
    chunksRanked: number;
    chunksRead: number;
    calls: number;
  }) => propertyRun({ skipped: notProvided?.calls === 0, ...(notProvided ? { notProvided } : {}) });

  it('says nothing for a property that did not abstain', () => {
    expect(notProvidedText(property())).toBeNull();
  });

  it('says what was searched, in words', () => {
    expect(notProvidedText(property({ reason: 'nothing-relevant', chunksRanked: 0, chunksRead: 0, calls: 0 }))).toBe(
      'Band gap: not provided in this paper. No passage mentions it; no model call.',
    );
    expect(notProvidedText(property({ reason: 'nothing-relevant', chunksRanked: 1, chunksRead: 0, calls: 0 }))).toBe(
      'Band gap: not provided in this paper. No passage could state a value of it (1 passage mention it); no model call.',
    );
    expect(notProvidedText(property({ reason: 'nothing-found', chunksRanked: 12, chunksRead: 12, calls: 1 }), () => 'optical gap')).toBe(
      'Optical gap: not provided in this paper. 1 model call read 12 of 12 relevant passages and found no value.',
    );
  });
});

describe('notDecidedText', () => {
  const base = propertyRun();

  it('says nothing for a decided property', () => {
    expect(notDecidedText(base)).toBeNull();
  });

  it("gives the run record's message and calls", () => {
    const notDecided = { code: 'repetitive-output' as const, message: 'the MoA path gave no usable answer', calls: 1 };
    expect(notDecidedText({ ...base, notDecided })).toBe('Band gap — Not decided: the MoA path gave no usable answer (1 model call).');
    expect(notDecidedText({ ...base, notDecided: { ...notDecided, calls: 16 } }, () => 'optical gap')).toBe(
      'Optical gap — Not decided: the MoA path gave no usable answer (16 model calls).',
    );
  });
});

describe('groupByMaterial', () => {
  const withMaterial = (material: string, value: number) =>
    ({ triplet: { material, property: 'band_gap', value, unit: 'eV' } }) as unknown as Parameters<typeof groupByMaterial>[0][number];

  it('groups by the material as written, in the order of each first record, keeping case apart', () => {
    const records = [
      withMaterial('ZnS', 3.7),
      withMaterial('Cu2S', 1.2),
      withMaterial(' ZnS ', 3.6),
      withMaterial('CO', 1),
      withMaterial('Co', 2),
    ];
    expect(groupByMaterial(records).map((group) => [group.material, group.records.map((record) => record.triplet.value)])).toEqual([
      ['ZnS', [3.7, 3.6]],
      ['Cu2S', [1.2]],
      ['CO', [1]],
      ['Co', [2]],
    ]);
  });
});
