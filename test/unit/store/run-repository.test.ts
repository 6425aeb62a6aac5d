import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { MatrixRunSettings } from '../../../src/contracts/matrix-run';
import type { VerificationRecord } from '../../../src/contracts/verification';
import { BROWSER_PRESET } from '../../../src/matrix/presets';
import type { RunRecord } from '../../../src/contracts/run-record';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { toPaperRecord } from '../../../src/store/paper-record';
import { getPaper } from '../../../src/store/paper-repository';
import {
  appendPropertyRecords,
  createRun,
  finishRun,
  getRun,
  latestRunForPaper,
  listRunsForPaper,
  markStaleRunsInterrupted,
  recordEngineStatus,
  recordProgress,
  recordResume,
} from '../../../src/store/run-repository';
import { makeArticle } from './article-fixture';

const PAPER = 'doi:10.1021/acsphotonics.9b00250';
const START = new Date('2025-03-01T10:00:00Z');
const LATER = new Date('2025-03-01T10:05:00Z');
const END = new Date('2025-03-01T10:30:00Z');

let database: AssayDatabase;
let databaseCount = 0;

beforeEach(() => {
  databaseCount += 1;
  database = createAssayDatabase(`assay-run-test-${databaseCount}`);
});

afterEach(async () => {
  await database.delete();
});

function makeSettings(overrides: Partial<MatrixRunSettings> = {}): MatrixRunSettings {
  return { paperKey: PAPER, properties: ['band_gap', 'tc'], preset: 'browser', engine: { kind: 'webllm' }, seed: 7, ...overrides };
}

function makeRecord(material: string, property: string, status: VerificationRecord['status'] = 'verified'): VerificationRecord {
  return {
    status,
    triplet: { material, property, value: { kind: 'number', value: 1.42 }, unit: 'eV', engine: 'moa' },
    votes: ['moa', 'gd'],
    reasons: [],
  };
}

function makeRunRecord(): RunRecord {
  const totals = { calls: 12, failedCalls: 0, promptTokens: 3000, completionTokens: 400, callTimeMs: 9000, wallTimeMs: 5000 };
  return {
    engine: 'slm-matrix',
    preset: BROWSER_PRESET,
    models: {},
    seed: 7,
    usage: { total: totals, byStage: { moa: totals }, byModel: {} },
    calls: 12,
    promptTokens: 3000,
    completionTokens: 400,
    milliseconds: 5000,
    properties: [],
    counts: { verified: 1, needs_review: 0, rejected: 0 },
  };
}

describe('createRun', () => {
  it('adds a running row with empty progress, records and resumes', async () => {
    const created = await createRun(database, makeSettings(), { id: 'run-1', now: START });
    const expected = {
      id: 'run-1',
      paperKey: PAPER,
      status: 'running',
      settings: makeSettings(),
      startedAt: '2025-03-01T10:00:00.000Z',
      updatedAt: '2025-03-01T10:00:00.000Z',
      progress: null,
      engineStatus: null,
      propertiesDone: [],
      records: [],
      resumes: 0,
    };
    expect(created).toEqual(expected);
    expect(await getRun(database, 'run-1')).toEqual(expected);
  });

  it('throws a ZodError on invalid settings and writes nothing', async () => {
    await expect(createRun(database, makeSettings({ properties: [] }), { id: 'run-1' })).rejects.toBeInstanceOf(ZodError);
    const notAnUrl = {
      kind: 'openai',
      baseUrl: 'ftp://localhost',
      roster: { proposers: ['a'], aggregator: 'b', generator: 'c', discriminator: 'd' },
    };
    await expect(
      createRun(database, makeSettings({ engine: notAnUrl as MatrixRunSettings['engine'] }), { id: 'run-2' }),
    ).rejects.toBeInstanceOf(ZodError);
    expect(await database.runs.count()).toBe(0);
  });

  it('rejects a second row with the same id', async () => {
    await createRun(database, makeSettings(), { id: 'run-1', now: START });
    await expect(createRun(database, makeSettings({ seed: 8 }), { id: 'run-1' })).rejects.toThrow();
    expect((await getRun(database, 'run-1'))?.settings.seed).toBe(7);
  });

  it('returns undefined for a missing run', async () => {
    expect(await getRun(database, 'missing')).toBeUndefined();
  });
});

describe('updates while running', () => {
  beforeEach(async () => {
    await createRun(database, makeSettings(), { id: 'run-1', now: START });
  });

  it('records the latest progress event and engine status, moving updatedAt', async () => {
    expect(await recordProgress(database, 'run-1', { stage: 'moa', property: 'band_gap', done: 1, total: 4 }, START)).toBe(true);
    expect(await recordProgress(database, 'run-1', { stage: 'moa', property: 'band_gap', done: 2, total: 4 }, LATER)).toBe(true);
    expect(await recordEngineStatus(database, 'run-1', 'Downloading Qwen2.5-1.5B: 120 MB, 17%', LATER)).toBe(true);
    const row = await getRun(database, 'run-1');
    expect(row?.progress).toEqual({ stage: 'moa', property: 'band_gap', done: 2, total: 4 });
    expect(row?.engineStatus).toBe('Downloading Qwen2.5-1.5B: 120 MB, 17%');
    expect(row?.updatedAt).toBe('2025-03-01T10:05:00.000Z');
    expect(row?.startedAt).toBe('2025-03-01T10:00:00.000Z');

    expect(await recordEngineStatus(database, 'run-1', null, LATER)).toBe(true);
    expect((await getRun(database, 'run-1'))?.engineStatus).toBeNull();
  });

  it('appends records and property names in call order across two properties', async () => {
    const bandGaps = [makeRecord('GaAs', 'band_gap'), makeRecord('Si', 'band_gap', 'needs_review')];
    const tcs = [makeRecord('YBCO', 'tc', 'rejected')];
    expect(await appendPropertyRecords(database, 'run-1', 'band_gap', bandGaps, START)).toBe(true);
    expect(await appendPropertyRecords(database, 'run-1', 'tc', tcs, LATER)).toBe(true);
    const row = await getRun(database, 'run-1');
    expect(row?.propertiesDone).toEqual(['band_gap', 'tc']);
    expect(row?.records.map((record) => record.triplet.material)).toEqual(['GaAs', 'Si', 'YBCO']);
    expect(row?.records.map((record) => record.status)).toEqual(['verified', 'needs_review', 'rejected']);
    expect(row?.updatedAt).toBe('2025-03-01T10:05:00.000Z');
  });

  it('keeps both appends fired without awaiting in between (read-modify-write is atomic)', async () => {
    const first = appendPropertyRecords(database, 'run-1', 'band_gap', [makeRecord('GaAs', 'band_gap')], START);
    const second = appendPropertyRecords(database, 'run-1', 'tc', [makeRecord('YBCO', 'tc'), makeRecord('MgB2', 'tc')], LATER);
    expect(await Promise.all([first, second])).toEqual([true, true]);
    const row = await getRun(database, 'run-1');
    // A non-atomic get-then-put would lose one of them: 1 + 2 = 3 records are expected.
    expect(row?.records).toHaveLength(3);
    expect(row?.propertiesDone).toEqual(['band_gap', 'tc']);
    expect(row?.records.map((record) => record.triplet.material)).toEqual(['GaAs', 'YBCO', 'MgB2']);
  });

  it('counts resumes', async () => {
    expect(await recordResume(database, 'run-1', LATER)).toBe(true);
    expect(await recordResume(database, 'run-1', LATER)).toBe(true);
    const row = await getRun(database, 'run-1');
    expect(row?.resumes).toBe(2);
    expect(row?.updatedAt).toBe('2025-03-01T10:05:00.000Z');
  });

  it('returns false for a missing run and creates nothing', async () => {
    expect(await recordProgress(database, 'missing', { stage: 'mcts', property: 'tc', done: 1, total: 12 })).toBe(false);
    expect(await recordEngineStatus(database, 'missing', 'Loading')).toBe(false);
    expect(await appendPropertyRecords(database, 'missing', 'tc', [makeRecord('YBCO', 'tc')])).toBe(false);
    expect(await recordResume(database, 'missing')).toBe(false);
    expect(await finishRun(database, 'missing', { status: 'done' })).toBeUndefined();
    expect(await database.runs.count()).toBe(1);
  });
});

describe('finishRun', () => {
  beforeEach(async () => {
    await createRun(database, makeSettings(), { id: 'run-1', now: START });
    await appendPropertyRecords(database, 'run-1', 'band_gap', [makeRecord('GaAs', 'band_gap')], START);
  });

  it('ends a run done with its run record, keeping the appended records when none are given', async () => {
    const finished = await finishRun(database, 'run-1', { status: 'done', run: makeRunRecord() }, END);
    expect(finished).toMatchObject({
      status: 'done',
      finishedAt: '2025-03-01T10:30:00.000Z',
      updatedAt: '2025-03-01T10:30:00.000Z',
      run: makeRunRecord(),
      propertiesDone: ['band_gap'],
    });
    expect(finished?.error).toBeUndefined();
    expect(finished?.records.map((record) => record.triplet.material)).toEqual(['GaAs']);
    expect(await getRun(database, 'run-1')).toEqual(finished);
  });

  it('replaces the records with the final list when given', async () => {
    const final = [makeRecord('GaAs', 'band_gap'), makeRecord('YBCO', 'tc'), makeRecord('MgB2', 'tc')];
    const finished = await finishRun(database, 'run-1', { status: 'done', run: makeRunRecord(), records: final }, END);
    expect(finished?.records.map((record) => record.triplet.material)).toEqual(['GaAs', 'YBCO', 'MgB2']);
    expect((await getRun(database, 'run-1'))?.records).toHaveLength(3);
  });

  it('stores the error of a cancelled run', async () => {
    const finished = await finishRun(
      database,
      'run-1',
      { status: 'cancelled', error: { code: 'aborted', message: 'Stopped by the user' } },
      END,
    );
    expect(finished).toMatchObject({ status: 'cancelled', error: { code: 'aborted', message: 'Stopped by the user' } });
  });

  it('leaves a finished row as it was: late events and a second finish change nothing', async () => {
    const cancelled = await finishRun(database, 'run-1', { status: 'cancelled', error: { code: 'aborted', message: 'Stopped' } }, END);
    const late = new Date('2025-03-01T11:00:00Z');
    expect(await recordProgress(database, 'run-1', { stage: 'moa', property: 'tc', done: 3, total: 4 }, late)).toBe(false);
    expect(await recordEngineStatus(database, 'run-1', 'Unloading', late)).toBe(false);
    expect(await appendPropertyRecords(database, 'run-1', 'tc', [makeRecord('YBCO', 'tc')], late)).toBe(false);
    expect(await recordResume(database, 'run-1', late)).toBe(false);
    const again = await finishRun(database, 'run-1', { status: 'done', run: makeRunRecord(), records: [] }, late);
    expect(again).toEqual(cancelled);
    const stored = await getRun(database, 'run-1');
    expect(stored).toEqual(cancelled);
    expect(stored).toMatchObject({
      status: 'cancelled',
      progress: null,
      engineStatus: null,
      resumes: 0,
      propertiesDone: ['band_gap'],
      updatedAt: '2025-03-01T10:30:00.000Z',
    });
    expect(stored?.run).toBeUndefined();
  });
});

describe('runs of a paper', () => {
  it('picks the newest by startedAt, not by id or insertion order, and keeps papers apart', async () => {
    const other = 'doi:10.1021/acsphotonics.9b00250x'; // the same key plus one character
    await createRun(database, makeSettings(), { id: 'a', now: new Date('2025-03-03T00:00:00Z') });
    await createRun(database, makeSettings(), { id: 'z', now: new Date('2025-03-01T00:00:00Z') });
    await createRun(database, makeSettings({ paperKey: other }), { id: 'other-newest', now: new Date('2025-03-09T00:00:00Z') });
    await createRun(database, makeSettings(), { id: 'm', now: new Date('2025-03-02T00:00:00Z') });
    await createRun(database, makeSettings({ paperKey: 'url:https://example.org/paper' }), {
      id: 'url-run',
      now: new Date('2025-03-05T00:00:00Z'),
    });

    expect((await latestRunForPaper(database, PAPER))?.id).toBe('a');
    expect((await listRunsForPaper(database, PAPER)).map((row) => row.id)).toEqual(['a', 'm', 'z']);
    expect((await latestRunForPaper(database, other))?.id).toBe('other-newest');
    expect((await listRunsForPaper(database, 'url:https://example.org/paper')).map((row) => row.id)).toEqual(['url-run']);
  });

  it('finds nothing for a paper without runs', async () => {
    await createRun(database, makeSettings(), { id: 'run-1', now: START });
    expect(await latestRunForPaper(database, 'doi:10.1000/none')).toBeUndefined();
    expect(await listRunsForPaper(database, 'doi:10.1000/none')).toEqual([]);
  });
});

describe('markStaleRunsInterrupted', () => {
  it('marks every running row interrupted, keeping records, and leaves finished rows alone', async () => {
    await createRun(database, makeSettings(), { id: 'stale-1', now: START });
    await appendPropertyRecords(database, 'stale-1', 'band_gap', [makeRecord('GaAs', 'band_gap')], LATER);
    await createRun(database, makeSettings(), { id: 'stale-2', now: START });
    await createRun(database, makeSettings(), { id: 'finished', now: START });
    const done = await finishRun(database, 'finished', { status: 'done', run: makeRunRecord() }, LATER);

    const message = 'The browser closed during the run';
    expect(await markStaleRunsInterrupted(database, message, END)).toBe(2);

    const first = await getRun(database, 'stale-1');
    expect(first).toMatchObject({
      status: 'interrupted',
      error: { code: 'interrupted', message },
      finishedAt: '2025-03-01T10:30:00.000Z',
      updatedAt: '2025-03-01T10:30:00.000Z',
      propertiesDone: ['band_gap'],
    });
    expect(first?.records.map((record) => record.triplet.material)).toEqual(['GaAs']);
    expect((await getRun(database, 'stale-2'))?.status).toBe('interrupted');
    expect(await getRun(database, 'finished')).toEqual(done);

    expect(await markStaleRunsInterrupted(database, message, END)).toBe(0);
    expect(await database.runs.where('status').equals('running').count()).toBe(0);
  });
});

describe('schema version 2', () => {
  it('keeps the papers of a version-1 database and adds a working runs table', async () => {
    const name = `assay-run-migration-${databaseCount}`;
    const version1 = new Dexie(name);
    version1.version(1).stores({ papers: 'key, capturedAt, doi' });
    const paper = toPaperRecord(makeArticle(), '2025-01-02T03:04:05.000Z');
    await version1.table('papers').put(paper);
    version1.close();

    const upgraded = createAssayDatabase(name);
    try {
      expect(await getPaper(upgraded, PAPER)).toEqual(paper);
      expect(upgraded.verno).toBeGreaterThanOrEqual(2);
      await createRun(upgraded, makeSettings(), { id: 'run-1', now: START });
      expect((await latestRunForPaper(upgraded, PAPER))?.id).toBe('run-1');
      expect(await upgraded.papers.where('doi').equals('10.1021/acsphotonics.9b00250').count()).toBe(1);
    } finally {
      await upgraded.delete();
    }
  });
});

describe('rows that do not match the run schema', () => {
  it('are reported and passed over by every read, not crashed on or handed on half-read', async () => {
    const good = await createRun(database, makeSettings(), { id: 'run-good', now: START });
    // A row written by an older version: no `records`, and a progress event of an unknown stage.
    await database.runs.put({
      ...good,
      id: 'run-old',
      startedAt: LATER.toISOString(),
      records: undefined,
      progress: { stage: 'warp', property: 'band_gap', done: 0, total: 1 },
    } as never);
    const reported: { id: string; problem: string }[] = [];
    const report = (unreadable: { id: string; problem: string }) => reported.push(unreadable);

    expect(await getRun(database, 'run-old', report)).toBeUndefined();
    expect((await latestRunForPaper(database, PAPER, report))?.id).toBe('run-good');
    expect((await listRunsForPaper(database, PAPER, report)).map((row) => row.id)).toEqual(['run-good']);
    expect(reported.map((entry) => entry.id)).toEqual(['run-old', 'run-old', 'run-old', 'run-old']);
    expect(reported[0]!.problem).toMatch(/records/);
    expect(reported[0]!.problem).toMatch(/progress\.stage/);
  });

  it('are not written to: an update of an unreadable row changes nothing', async () => {
    const good = await createRun(database, makeSettings(), { id: 'run-1', now: START });
    await database.runs.put({ ...good, resumes: -1 });
    expect(await recordResume(database, 'run-1', LATER)).toBe(false);
    expect((await database.runs.get('run-1'))?.resumes).toBe(-1);
  });

  it('a write that would store a malformed row throws and stores nothing', async () => {
    await createRun(database, makeSettings(), { id: 'run-1', now: START });
    const malformed = { stage: 'moa' as const, property: 'band_gap', done: -1, total: 3 };
    await expect(recordProgress(database, 'run-1', malformed, LATER)).rejects.toBeInstanceOf(ZodError);
    expect((await database.runs.get('run-1'))?.progress).toBeNull();
  });
});
