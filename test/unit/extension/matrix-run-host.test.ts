/** The extension's run host: a run stored as it goes, Stop, a lost GPU device, engine failures, stale rows. */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MatrixRunSettings } from '../../../src/contracts/matrix-run';
import {
  createMatrixRunHost,
  ENGINE_CHECK_STAGE,
  RUN_WRITE_FAILED,
  STALE_RUN_MESSAGE,
  type RunEngine,
} from '../../../src/extension/matrix-run-host';
import { checkEngine, ENGINE_CHECK_QUESTION } from '../../../src/llm/engine-check';
import type { OpenAiSettings } from '../../../src/llm/engines/openai-engine-kind';
import { LlmError, type LlmPort } from '../../../src/llm/llm-port';
import { createScriptedLlm, hashMessages } from '../../../src/llm/scripted-llm';
import { createAssayDatabase, type AssayDatabase } from '../../../src/store/assay-database';
import { savePaper } from '../../../src/store/paper-repository';
import { createRun, getRun, listRunsForPaper } from '../../../src/store/run-repository';
import type { MatrixRunRow } from '../../../src/contracts/matrix-run';
import { article, bandGap, bulkModulus, matrixScript } from '../matrix/pipeline-fixtures';

let database: AssayDatabase;
let count = 0;
const paperKey = 'title:test article';

beforeEach(async () => {
  count += 1;
  database = createAssayDatabase(`matrix-run-host-${count}`);
  await savePaper(database, article, new Date('2026-11-22T10:00:00Z'));
});
afterEach(async () => {
  await database.delete();
});

const settings = (overrides: Partial<MatrixRunSettings> = {}): MatrixRunSettings => ({
  paperKey,
  properties: ['band_gap', 'bulk_modulus'],
  preset: 'browser',
  engine: {
    kind: 'openai',
    baseUrl: 'http://127.0.0.1:9/v1',
    roster: { proposers: ['a', 'b', 'c'], aggregator: 'a', generator: 'b', discriminator: 'c' },
  },
  seed: 42,
  ...overrides,
});

function hostWith(engine: (onStatus: (text: string | null) => void) => Promise<RunEngine>) {
  let ids = 0;
  return createMatrixRunHost({
    database,
    properties: [bandGap, bulkModulus],
    createEngine: (_settings, onStatus) => engine(onStatus),
    newId: () => `run-${++ids}`,
  });
}

const models = { proposers: ['a', 'b', 'c'], aggregator: 'a', generator: 'b', discriminator: 'c' };

describe('matrix run host', () => {
  it('stores a whole run: every property verified, the run record, progress, and the models per role', async () => {
    const llm = createScriptedLlm(matrixScript());
    const host = hostWith(async () => ({ llm, models, modelLoads: () => 3 }));
    const started = await host.start(settings());
    expect(started).toEqual({ ok: true, runId: 'run-1' });
    const row = await host.settled('run-1');
    expect(row).toMatchObject({ status: 'done', paperKey, propertiesDone: ['band_gap', 'bulk_modulus'], resumes: 0 });
    expect(row!.records.map((record) => [record.status, record.triplet.property, record.triplet.valueText])).toEqual([
      ['verified', 'band_gap', '3.4'],
      ['verified', 'bulk_modulus', '210'],
    ]);
    expect(row!.run).toMatchObject({
      counts: { verified: 2, needs_review: 0, rejected: 0 },
      calls: llm.calls.length,
      models,
      modelLoads: 3,
    });
    // The last stage is Chain-of-Verification; its answers are stored with the records.
    expect(row!.progress).toMatchObject({ stage: 'verification-questions', property: 'bulk_modulus', done: 1, total: 1 });
    expect(row!.records[0]!.verificationAnswers?.map((answer) => [answer.questionId, answer.answer])).toEqual([
      ['property_match', 'not stated'],
      ['origin', 'not stated'],
      ['phase', 'not stated'],
      ['conditions', 'not stated'],
    ]);
    expect(await getRun(database, 'run-1')).toEqual(row);
    // An engine without a check (a server answers for its own models) records none.
    expect(row!.run).not.toHaveProperty('engineCheck');
    expect(row!.run!.usage.byStage).not.toHaveProperty(ENGINE_CHECK_STAGE);
    // The roster's models went out per role.
    expect(new Set(llm.calls.filter((call) => call.request.role === 'proposer').map((call) => call.request.model))).toEqual(
      new Set(['a', 'b', 'c']),
    );
  });

  it('asks at most the engine’s parallel slots at once', async () => {
    let parallel: number | undefined;
    let running = 0;
    let highest = 0;
    const host = hostWith(async () => {
      const inner = createScriptedLlm(matrixScript());
      const llm: LlmPort = {
        complete: async (request) => {
          highest = Math.max(highest, ++running);
          try {
            await new Promise((resolve) => setTimeout(resolve, 1));
            return await inner.complete(request);
          } finally {
            running -= 1;
          }
        },
      };
      return { llm, models, ...(parallel ? { parallel } : {}) };
    });
    const most = async (slots: number | undefined) => {
      parallel = slots;
      highest = 0;
      const started = await host.start(settings());
      if (!started.ok) throw new Error('the run did not start');
      const row = await host.settled(started.runId);
      expect(row!.records.map((record) => [record.status, record.triplet.property])).toEqual([
        ['verified', 'band_gap'],
        ['verified', 'bulk_modulus'],
      ]);
      return highest;
    };
    // The browser preset's three proposers of a layer are the widest independent calls on this
    // paper; without slots they are all handed to the engine, which orders them (WebLLM's scheduler).
    expect(await most(1)).toBe(1);
    expect(await most(2)).toBe(2);
    expect(await most(undefined)).toBe(3);
  });

  it('Stop keeps the properties already decided and stores the run as cancelled', async () => {
    // eslint-disable-next-line prefer-const -- the scripted model cancels through `host`, declared before the model it is built from
    let host: ReturnType<typeof hostWith>;
    const inner = createScriptedLlm(matrixScript());
    const llm: LlmPort = {
      complete: async (request) => {
        // The first call about bulk modulus presses Stop: band gap is decided by then.
        if (request.messages.some((message) => message.content.includes('bulk_modulus'))) host.cancel('run-1');
        return inner.complete(request);
      },
    };
    host = hostWith(async () => ({ llm, models }));
    await host.start(settings());
    const row = await host.settled('run-1');
    expect(row).toMatchObject({ status: 'cancelled', propertiesDone: ['band_gap'], error: { code: 'aborted' } });
    expect(row!.records.map((record) => record.triplet.property)).toEqual(['band_gap']);
    expect(row!.run!.counts).toEqual({ verified: 1, needs_review: 0, rejected: 0 });
    expect(host.cancel('run-1')).toEqual({ ok: true, cancelled: false });
  });

  it('reloads the engine after a lost GPU device and resumes with the properties not yet decided', async () => {
    const inner = createScriptedLlm(matrixScript());
    let lost = false;
    let recovered = 0;
    const llm: LlmPort = {
      complete: async (request) => {
        if (!lost && request.messages.some((message) => message.content.includes('bulk_modulus'))) {
          lost = true;
          throw new LlmError('device-lost', 'The GPU device was lost (driver reset).');
        }
        return inner.complete(request);
      },
    };
    const host = hostWith(async () => ({ llm, models, recover: async () => (recovered += 1) > 0 }));
    await host.start(settings());
    const row = await host.settled('run-1');
    expect(recovered).toBe(1);
    expect(row).toMatchObject({ status: 'done', resumes: 1, propertiesDone: ['band_gap', 'bulk_modulus'] });
    expect(row!.records.map((record) => [record.status, record.triplet.property])).toEqual([
      ['verified', 'band_gap'],
      ['verified', 'bulk_modulus'],
    ]);
    // Band gap was not asked again after the resume: its calls all came before the loss.
    const bandGapCalls = inner.calls.filter((call) => call.request.messages.some((message) => message.content.includes('band_gap')));
    expect(Math.max(...bandGapCalls.map((call) => call.index))).toBeLessThan(
      inner.calls.find((call) => call.request.messages.some((message) => message.content.includes('bulk_modulus')))!.index,
    );
    expect(row!.run!.properties.map((property) => property.property)).toEqual(['band_gap', 'bulk_modulus']);
    expect(row!.run!.counts).toEqual({ verified: 2, needs_review: 0, rejected: 0 });
  });

  it('stops as interrupted, with the specific message, when the device is lost and cannot be recovered', async () => {
    const llm = createScriptedLlm(matrixScript({}, { failAt: { 0: new LlmError('device-lost', 'The GPU device was lost.') } }));
    const host = hostWith(async () => ({ llm, models }));
    await host.start(settings());
    expect(await host.settled('run-1')).toMatchObject({
      status: 'interrupted',
      records: [],
      error: { code: 'device-lost', message: 'The GPU device was lost.' },
    });
  });

  it('stores an engine that cannot start (no WebGPU) as interrupted with its advice, and reports engine status lines', async () => {
    const host = hostWith(async (onStatus) => {
      onStatus('Downloading the model: 12 MB, 3%');
      throw new LlmError('no-webgpu', 'WebGPU is not available in this browser: enable it at chrome://flags/#enable-unsafe-webgpu.');
    });
    await host.start(settings({ engine: { kind: 'webllm' } }));
    const row = await host.settled('run-1');
    expect(row).toMatchObject({ status: 'interrupted', error: { code: 'no-webgpu' } });
    expect(row!.error!.message).toContain('chrome://flags');
  });

  it('never stores a model server’s API key in the run row, though the engine gets it', async () => {
    let engineSettings: unknown;
    const host = createMatrixRunHost({
      database,
      properties: [bandGap, bulkModulus],
      createEngine: async (engine) => {
        engineSettings = engine;
        return { llm: createScriptedLlm(matrixScript()), models };
      },
      newId: () => 'run-key',
    });
    const base = settings();
    const withKey = {
      ...base,
      engine: { ...(base.engine as OpenAiSettings), apiKey: 'sk-secret' },
    };
    await host.start(withKey);
    const row = await host.settled('run-key');
    expect(engineSettings).toMatchObject({ apiKey: 'sk-secret' });
    expect(JSON.stringify(row)).not.toContain('sk-secret');
    expect(JSON.stringify(await getRun(database, 'run-key'))).not.toContain('sk-secret');
  });

  it('refuses a run for a paper that is not saved, or for an unknown property, before storing anything', async () => {
    const host = hostWith(async () => ({ llm: createScriptedLlm(matrixScript()), models }));
    expect(await host.start(settings({ paperKey: 'doi:10.1/missing' }))).toMatchObject({ ok: false, failure: { code: 'bad-request' } });
    expect(await host.start(settings({ properties: ['band_gap', 'colour'] }))).toEqual({
      ok: false,
      failure: { code: 'bad-request', message: 'Unknown property: colour.' },
    });
    expect(await database.runs.count()).toBe(0);
  });

  it('marks runs left running by a closed browser as interrupted, keeping their records', async () => {
    await createRun(database, settings(), { id: 'old', now: new Date('2026-11-21T09:00:00Z') });
    const host = hostWith(async () => ({ llm: createScriptedLlm(matrixScript()), models }));
    expect(await host.sweepStaleRuns()).toBe(1);
    expect(await getRun(database, 'old')).toMatchObject({
      status: 'interrupted',
      error: { code: 'interrupted', message: STALE_RUN_MESSAGE },
    });
  });
});

/**
 * Make writes of `runs` rows that `fails` picks reject as a full disk does (IndexedDB's
 * `QuotaExceededError`), below Dexie (a DBCore middleware), so the repository and the host meet
 * the error as they would in a browser.
 */
async function failRunWrites(target: AssayDatabase, fails: (row: MatrixRunRow) => boolean): Promise<void> {
  // Dexie builds its middleware stack when it opens the database.
  target.close();
  target.use({
    stack: 'dbcore',
    name: 'failing-run-writes',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        if (name !== 'runs') return table;
        return {
          ...table,
          mutate: (request) =>
            request.type === 'put' && (request.values as MatrixRunRow[]).some(fails)
              ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
              : table.mutate(request),
        };
      },
    }),
  });
  await target.open();
}

describe('matrix run host: writes that fail', () => {
  it('stops the run and stores it interrupted, saying what was saved, when a property’s verdicts cannot be stored', async () => {
    await failRunWrites(database, (row) => row.status === 'running' && row.propertiesDone.includes('bulk_modulus'));
    const llm = createScriptedLlm(matrixScript());
    const host = hostWith(async () => ({ llm, models }));
    await host.start(settings());
    const row = await host.settled('run-1');
    expect(row).toMatchObject({ status: 'interrupted', propertiesDone: ['band_gap'], error: { code: RUN_WRITE_FAILED } });
    expect(row!.records.map((record) => record.triplet.property)).toEqual(['band_gap']);
    expect(row!.error!.message).toMatch(
      /^Assay could not store the verdicts of bulk_modulus \(.*QuotaExceededError.*\), so the run was stopped\. Saved before that: the verdicts of 1 of 2 properties \(band_gap\), which you can review\. The browser’s storage for Assay is full: free space/,
    );
    // What the panel reads: the stored row, not running.
    expect(await listRunsForPaper(database, paperKey)).toEqual([row]);
  });

  it('stores the run interrupted, with every property’s verdicts kept, when the final write of the run fails', async () => {
    await failRunWrites(database, (row) => row.status === 'done');
    const host = hostWith(async () => ({ llm: createScriptedLlm(matrixScript()), models }));
    await host.start(settings());
    const row = await host.settled('run-1');
    expect(row).toMatchObject({ status: 'interrupted', propertiesDone: ['band_gap', 'bulk_modulus'], error: { code: RUN_WRITE_FAILED } });
    expect(row!.records).toHaveLength(2);
    expect(row!.error!.message).toContain('Assay could not store the end of the run (');
    expect(row!.error!.message).toContain('the verdicts of 2 of 2 properties (band_gap, bulk_modulus)');
  });

  it('stores a failed write as such even when the run was ending on a model failure', async () => {
    await failRunWrites(database, (row) => row.status === 'interrupted' && row.error?.code === 'unreachable');
    const llm: LlmPort = { complete: async () => Promise.reject(new LlmError('unreachable', 'Connection refused.')) };
    const host = hostWith(async () => ({ llm, models }));
    await host.start(settings());
    expect(await host.settled('run-1')).toMatchObject({
      status: 'interrupted',
      error: {
        code: RUN_WRITE_FAILED,
        message: expect.stringMatching(/^Assay could not store the end of the run .*No verdict was saved before that\./),
      },
    });
  });

  it('leaves the row to the next start’s sweep, and says so on the console, when no write can be made at all', async () => {
    await failRunWrites(database, (row) => row.status !== 'running' || row.propertiesDone.length > 0);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const host = hostWith(async () => ({ llm: createScriptedLlm(matrixScript()), models }));
    await host.start(settings());
    expect(await host.settled('run-1')).toBeUndefined();
    expect(error).toHaveBeenCalledWith('Assay run run-1 could not be stored, nor marked as stopped:', expect.anything(), expect.anything());
    error.mockRestore();
    expect(await getRun(database, 'run-1')).toMatchObject({ status: 'running' });
  });
});

describe('matrix run host: the engine check', () => {
  /** The check's question answered `answer` (as recorded); every other call goes to the matrix script. */
  const checkAnswering = (answer: string) => ({ [hashMessages([{ role: 'user', content: ENGINE_CHECK_QUESTION }])]: answer });
  const isCheck = (call: { request: { messages: Array<{ content: string }> } }) =>
    call.request.messages[0]!.content === ENGINE_CHECK_QUESTION;
  const FAILURE_WORDING =
    "The model failed the engine check (one short question with a two-word JSON answer), so it would fail the run's calls too: ";

  it('runs the check before the pipeline and stores its figures in the run record, its tokens under engine-check', async () => {
    const llm = createScriptedLlm(matrixScript({}, { recorded: checkAnswering('{"answer":"yes"}') }));
    let signalSeen: AbortSignal | undefined;
    const host = hostWith(async () => ({
      llm,
      models,
      check: async (metered, signal) => {
        signalSeen = signal;
        const clock = [0, 1500];
        const checked = await checkEngine(metered, { model: 'a', signal, clock: () => clock.shift()! });
        return { ...checked, loadSeconds: 12.5, gpuMemoryMB: { peak: 812, allocated: 640 } };
      },
    }));
    await host.start(settings());
    const row = await host.settled('run-1');
    expect(row).toMatchObject({ status: 'done', propertiesDone: ['band_gap', 'bulk_modulus'] });
    expect(llm.calls.findIndex(isCheck)).toBe(0);
    expect(llm.calls.filter(isCheck)).toHaveLength(1);
    const checkCall = llm.calls[0]!.reply!;
    expect(row!.run!.engineCheck).toEqual({
      model: 'a',
      loadSeconds: 12.5,
      promptTokens: checkCall.usage.promptTokens,
      completionTokens: checkCall.usage.completionTokens,
      seconds: 1.5,
      gpuMemoryMB: { peak: 812, allocated: 640 },
      answer: 'yes',
      repaired: false,
    });
    expect(row!.run!.usage.byStage[ENGINE_CHECK_STAGE]).toMatchObject({
      calls: 1,
      failedCalls: 0,
      promptTokens: checkCall.usage.promptTokens,
      completionTokens: checkCall.usage.completionTokens,
    });
    // The check's call is part of the run's totals.
    expect(row!.run!.calls).toBe(llm.calls.length);
    expect(signalSeen?.aborted).toBe(false);
  });

  it('keeps the check in the record of a run interrupted later (a lost device that cannot be recovered)', async () => {
    const llm = createScriptedLlm(
      matrixScript(
        {},
        { recorded: checkAnswering('{"answer":"no"}'), failAt: { 1: new LlmError('device-lost', 'The GPU device was lost.') } },
      ),
    );
    const host = hostWith(async () => ({ llm, models, check: (metered, signal) => checkEngine(metered, { model: 'a', signal }) }));
    await host.start(settings());
    const row = await host.settled('run-1');
    expect(row).toMatchObject({ status: 'interrupted', error: { code: 'device-lost' } });
    expect(row!.run!.engineCheck).toMatchObject({ model: 'a', answer: 'no', repaired: false });
  });

  it('interrupts the run in the check’s words when the model cannot answer the JSON, making no pipeline call', async () => {
    const llm = createScriptedLlm(matrixScript({}, { recorded: checkAnswering('Copper is a metal.') }));
    const dispose = vi.fn();
    const host = hostWith(async () => ({
      llm: {
        // The retry's messages differ from the recorded ones: it gets prose too.
        complete: (request) =>
          request.messages[0]!.content === ENGINE_CHECK_QUESTION && request.messages.length > 1
            ? Promise.resolve({ text: 'Yes.', model: 'a', usage: { promptTokens: 40, completionTokens: 2 } })
            : llm.complete(request),
      },
      models,
      dispose,
      check: (metered, signal) => checkEngine(metered, { model: 'a', signal }),
    }));
    await host.start(settings());
    const row = await host.settled('run-1');
    expect(row).toMatchObject({ status: 'interrupted', records: [], propertiesDone: [], error: { code: 'malformed-output' } });
    expect(row!.error!.message.startsWith(FAILURE_WORDING)).toBe(true);
    expect(row!.error!.message.slice(FAILURE_WORDING.length)).toMatch(/^the proposer model's reply did not match the expected JSON/);
    expect(row!.run).toBeUndefined();
    // Only the check's first call reached the script; nothing of the pipeline followed.
    expect(llm.calls.map((call) => call.request.messages[0]!.content)).toEqual([ENGINE_CHECK_QUESTION]);
    expect(dispose).toHaveBeenCalledTimes(1);
  });

  it('keeps the words of any other failure of the check as they are', async () => {
    const llm = createScriptedLlm(matrixScript());
    const message =
      'Not enough GPU memory for a (Out of memory): close other GPU-heavy tabs, or choose a smaller model or a shorter context.';
    const host = hostWith(async () => ({
      llm,
      models,
      check: async () => {
        throw new LlmError('out-of-gpu-memory', message);
      },
    }));
    await host.start(settings());
    expect(await host.settled('run-1')).toMatchObject({
      status: 'interrupted',
      records: [],
      error: { code: 'out-of-gpu-memory', message },
    });
    expect(llm.calls).toHaveLength(0);
  });

  it('stores a Stop during the check as cancelled, saying when it came', async () => {
    const llm = createScriptedLlm({ ...matrixScript(), delayMs: 60_000 });
    let checking!: () => void;
    const started = new Promise<void>((resolve) => (checking = resolve));
    const host = hostWith(async () => ({
      llm,
      models,
      check: (metered, signal) => {
        const checked = checkEngine(metered, { model: 'a', signal });
        checking();
        return checked;
      },
    }));
    await host.start(settings());
    await started;
    expect(host.cancel('run-1')).toEqual({ ok: true, cancelled: true });
    expect(await host.settled('run-1')).toMatchObject({
      status: 'cancelled',
      records: [],
      error: { code: 'aborted', message: 'Stopped during the engine check, before any fact was decided.' },
    });
    expect(llm.calls).toHaveLength(1);
  });

  it('counts a Stop as a Stop even when the check then fails with another code', async () => {
    let checking!: () => void;
    const started = new Promise<void>((resolve) => (checking = resolve));
    const host = hostWith(async () => ({
      llm: createScriptedLlm(matrixScript()),
      models,
      check: (_metered, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new LlmError('device-lost', 'The GPU device was lost.')), { once: true });
          checking();
        }),
    }));
    await host.start(settings());
    await started;
    host.cancel('run-1');
    expect(await host.settled('run-1')).toMatchObject({
      status: 'cancelled',
      error: { message: 'Stopped during the engine check, before any fact was decided.' },
    });
  });
});

describe('matrix run host with a reader-defined property', () => {
  it('runs a property the reader defined (name, synonyms, unit) as it runs a built-in one', async () => {
    const own = { ...bandGap, name: 'optical_gap', label: 'Optical gap', synonyms: ['band gap'] };
    const llm = createScriptedLlm({
      respond: (request) =>
        request.role === 'proposer' || request.role === 'aggregator'
          ? JSON.stringify({
              triplets: [
                {
                  material: 'GaN',
                  property: 'optical_gap',
                  value: '3.4',
                  unit: 'eV',
                  quote: 'The band gap of GaN is 3.4 eV at room temperature.',
                },
              ],
            })
          : JSON.stringify({
              text: 'done',
              materials: ['GaN'],
              triplets: [
                {
                  material: 'GaN',
                  property: 'optical_gap',
                  value: 3.4,
                  unit: 'eV',
                  quote: 'The band gap of GaN is 3.4 eV at room temperature.',
                },
              ],
              final: true,
            }),
    });
    const host = hostWith(async () => ({ llm, models }));
    expect(await host.start(settings({ properties: ['optical_gap'], extraProperties: [own] }))).toEqual({ ok: true, runId: 'run-1' });
    const row = await host.settled('run-1');
    expect(row!.records.map((record) => [record.status, record.triplet.property, record.triplet.valueText])).toEqual([
      ['verified', 'optical_gap', '3.4'],
    ]);
  });
});
