/**
 * The GPU-memory scheduler with a fake loader (which models are "loaded") and the scripted
 * engine (which records, per call, whether its model was loaded when the call ran).
 */
import { describe, expect, it } from 'vitest';
import { LlmError, type LlmPort, type LlmRequest } from '../../../src/llm/llm-port';
import { createModelScheduler } from '../../../src/llm/model-scheduler';
import { defaultWebLlmRoster, planModelLoads, rosterModelIds, rosterToPresetModels } from '../../../src/llm/roster';
import { createScriptedLlm, type LlmScript } from '../../../src/llm/scripted-llm';
import { prebuiltModelRecords } from '../../../src/llm/webllm-engine';
import { runMatrix } from '../../../src/matrix/pipeline';
import { BROWSER_PRESET } from '../../../src/matrix/presets';
import { createSeededRandom } from '../../../src/matrix/random';
import { article, BAND_GAP_SENTENCE, bandGap, GAN_GAP, matrixScript, realDependencies, type Fact } from '../matrix/pipeline-fixtures';

// Sizes chosen so that a 1 000 MB budget holds one model at a time and 3 000 MB all three.
const RECORDS = [
  { model_id: 'A', vram_required_MB: 900 },
  { model_id: 'B', vram_required_MB: 800 },
  { model_id: 'C', vram_required_MB: 700 },
];
const together = () => planModelLoads(['A', 'B', 'C'], RECORDS, 3000);
const oneAtATime = () => planModelLoads(['A', 'B', 'C'], RECORDS, 1000);

/** A loader that loads after one macrotask; `failWith(ids, attempt)` may make a load fail. */
function fakeLoader(failWith?: (ids: readonly string[], attempt: number) => unknown) {
  let loaded: string[] = [];
  const attempts: string[][] = [];
  return {
    attempts,
    async load(ids: readonly string[]) {
      attempts.push([...ids]);
      await new Promise((resolve) => setTimeout(resolve, 0));
      const failure = failWith?.(ids, attempts.length);
      if (failure !== undefined) {
        loaded = [];
        throw failure;
      }
      loaded = [...ids];
    },
    loadedModels: () => loaded,
    loseDevice: () => {
      loaded = [];
    },
  };
}

/** `inner` that notes the model of every call made while that model was not loaded. */
function watched(loader: ReturnType<typeof fakeLoader>, inner: LlmPort) {
  const servedWhileUnloaded: string[] = [];
  const port: LlmPort = {
    complete: (request) => {
      if (!loader.loadedModels().includes(request.model!)) servedWhileUnloaded.push(request.model!);
      return inner.complete(request);
    },
  };
  return { port, servedWhileUnloaded };
}

/** The scripted engine replying "<model>#<call index>", watched. */
function engine(loader: ReturnType<typeof fakeLoader>, extra: Omit<LlmScript, 'respond'> = {}) {
  const llm = createScriptedLlm({ ...extra, respond: (request, index) => `${request.model}#${index}` });
  return { llm, ...watched(loader, llm) };
}

const ask = (model: string | undefined, extra: Partial<LlmRequest> = {}): LlmRequest => ({
  role: 'proposer',
  ...(model ? { model } : {}),
  messages: [{ role: 'user', content: 'x' }],
  ...extra,
});

describe('createModelScheduler', () => {
  it('together: one load covers a whole run of concurrent and sequential calls', async () => {
    const loader = fakeLoader();
    const { llm, port, servedWhileUnloaded } = engine(loader);
    const scheduler = createModelScheduler(port, loader, together());
    await Promise.all([scheduler.complete(ask('A')), scheduler.complete(ask('B')), scheduler.complete(ask('C'))]);
    for (const model of ['C', 'A', 'B', 'A']) await scheduler.complete(ask(model));
    expect(scheduler.loads()).toBe(1);
    expect(scheduler.loadLog()).toEqual([['A', 'B', 'C']]);
    expect(llm.calls).toHaveLength(7);
    expect(servedWhileUnloaded).toEqual([]);
  });

  it('grouped: three concurrent proposer calls with room for one model load three times, each after its model', async () => {
    const plan = oneAtATime();
    expect(plan).toEqual({ together: false, groups: [['A'], ['B'], ['C']], totalMB: 2400, budgetMB: 1000 });
    const loader = fakeLoader();
    const { port, servedWhileUnloaded } = engine(loader);
    const scheduler = createModelScheduler(port, loader, plan);
    const replies = await Promise.all([scheduler.complete(ask('A')), scheduler.complete(ask('B')), scheduler.complete(ask('C'))]);
    // Each group covers one waiting call: ties go to the oldest call, so A, then B, then C.
    expect(replies.map((reply) => reply.text)).toEqual(['A#0', 'B#1', 'C#2']);
    expect(scheduler.loads()).toBe(3);
    expect(scheduler.loadLog()).toEqual([['A'], ['B'], ['C']]);
    expect(servedWhileUnloaded).toEqual([]);
  });

  it('loads the group that covers the most waiting calls first', async () => {
    const loader = fakeLoader();
    const { port } = engine(loader);
    const scheduler = createModelScheduler(port, loader, oneAtATime());
    // Waiting: A, B, B → B's group covers 2 calls, A's 1: B first although A is older.
    const replies = await Promise.all([scheduler.complete(ask('A')), scheduler.complete(ask('B')), scheduler.complete(ask('B'))]);
    expect(scheduler.loadLog()).toEqual([['B'], ['A']]);
    expect(replies.map((reply) => reply.text)).toEqual(['A#2', 'B#0', 'B#1']);
  });

  it('does not interrupt sequential calls on one model for a waiting call to another (settle)', async () => {
    const loader = fakeLoader();
    const { port } = engine(loader);
    const scheduler = createModelScheduler(port, loader, oneAtATime());
    const order: string[] = [];
    const sequential = async () => {
      for (let step = 0; step < 3; step += 1) {
        order.push((await scheduler.complete(ask('A'))).text);
        // Parsing and bookkeeping between two calls, as in the pipeline: a chain of microtasks
        // (a settle of one microtask would load B here; the default macrotask waits for them).
        for (let tick = 0; tick < 10; tick += 1) await Promise.resolve();
      }
    };
    const other = async () => {
      order.push((await scheduler.complete(ask('B'))).text);
    };
    await Promise.all([sequential(), other()]);
    // A's three calls run back to back (the caller queues the next one during settle); B waits.
    expect(order).toEqual(['A#0', 'A#1', 'A#2', 'B#3']);
    expect(scheduler.loadLog()).toEqual([['A'], ['B']]);
  });

  it('a waiting call whose signal fires leaves the queue and rejects with aborted; an aborted signal rejects at once', async () => {
    const loader = fakeLoader();
    const { llm, port } = engine(loader);
    const scheduler = createModelScheduler(port, loader, oneAtATime());
    const controller = new AbortController();
    const first = scheduler.complete(ask('A'));
    const waiting = scheduler.complete(ask('B', { signal: controller.signal }));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'LlmError', code: 'aborted' });
    expect((await first).text).toBe('A#0');
    // B's call left before any model was chosen: only A loaded, and the engine saw one call.
    expect(scheduler.loadLog()).toEqual([['A']]);
    expect(llm.calls).toHaveLength(1);

    await expect(scheduler.complete(ask('C', { signal: controller.signal }))).rejects.toMatchObject({ code: 'aborted' });
    expect(loader.attempts).toEqual([['A']]);
  });

  it('a failed load rejects the waiting calls of that group with the error; other groups go on; a later call retries', async () => {
    const oom = new LlmError('out-of-gpu-memory', 'not enough GPU memory for B');
    const loader = fakeLoader((_ids, attempt) => (attempt === 1 ? oom : attempt === 3 ? new Error('shader compile failed') : undefined));
    const { port } = engine(loader);
    const scheduler = createModelScheduler(port, loader, oneAtATime());
    const results = await Promise.allSettled([
      scheduler.complete(ask('A')),
      scheduler.complete(ask('B')),
      scheduler.complete(ask('B')),
      scheduler.complete(ask('C')),
    ]);
    // Waiting A, B, B, C. Attempt 1: B (covers 2 calls) fails → both B calls reject with its
    // LlmError as is. Attempt 2: A (ties with C; A is older) loads. Attempt 3: C fails with a
    // plain Error → 'unavailable' naming the cause.
    expect((results[1] as PromiseRejectedResult).reason).toBe(oom);
    expect((results[2] as PromiseRejectedResult).reason).toBe(oom);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { text: 'A#0' } });
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({
      name: 'LlmError',
      code: 'unavailable',
      message: expect.stringContaining('shader compile failed'),
    });
    expect(loader.attempts).toEqual([['B'], ['A'], ['C']]);
    expect(scheduler.loads()).toBe(1);
    // A later call to C tries the load again (attempt 4), which succeeds.
    expect((await scheduler.complete(ask('C'))).text).toBe('C#1');
    expect(scheduler.loadLog()).toEqual([['A'], ['C']]);
  });

  it('reloads after the engine lost its device', async () => {
    const loader = fakeLoader();
    const { llm } = engine(loader, { failAt: { 1: new LlmError('device-lost', 'the GPU device was lost') } });
    // WebLLM forgets its models when the device is lost; the fake loader is told the same.
    const inner: LlmPort = {
      complete: (request) =>
        llm.complete(request).catch((error: LlmError) => {
          if (error.code === 'device-lost') loader.loseDevice();
          throw error;
        }),
    };
    const scheduler = createModelScheduler(inner, loader, together());
    expect((await scheduler.complete(ask('A'))).text).toBe('A#0');
    await expect(scheduler.complete(ask('B'))).rejects.toMatchObject({ code: 'device-lost' });
    expect((await scheduler.complete(ask('C'))).text).toBe('C#2');
    expect(scheduler.loadLog()).toEqual([
      ['A', 'B', 'C'],
      ['A', 'B', 'C'],
    ]);
  });

  it('rejects a call that names no model or a model outside the plan', async () => {
    const loader = fakeLoader();
    const scheduler = createModelScheduler(engine(loader).port, loader, together());
    await expect(scheduler.complete(ask(undefined))).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('names no model'),
    });
    await expect(scheduler.complete(ask('Z'))).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('Z is not in'),
    });
    expect(loader.attempts).toEqual([]);
  });
});

describe('runMatrix through the scheduler, browser preset, default shader-f16 roster', () => {
  const roster = defaultWebLlmRoster(true);
  const gap = (value: number): Fact[] => [{ ...GAN_GAP, value, quote: BAND_GAP_SENTENCE }];
  // Proposers disagree (3.4, 1, 2) → no early exit; the aggregator says 1 and the G–D path 3.4
  // → the paths never agree → K = 1 refinement round.
  const disagreeing = () => matrixScript({ band_gap: { proposer: (k) => gap([3.4, 1, 2][k % 3]!), aggregator: () => gap(1) } });

  async function run(budgetMB: number, script: LlmScript) {
    const plan = planModelLoads(rosterModelIds(roster), await prebuiltModelRecords(), budgetMB);
    const loader = fakeLoader();
    const { port, servedWhileUnloaded } = watched(loader, createScriptedLlm(script));
    const scheduler = createModelScheduler(port, loader, plan);
    const { run: record } = await runMatrix(
      article,
      { properties: [bandGap], preset: BROWSER_PRESET, models: rosterToPresetModels(roster) },
      { llm: scheduler, rng: createSeededRandom(1), ...realDependencies },
    );
    return { plan, scheduler, record, servedWhileUnloaded };
  }

  it('a budget that holds the roster loads once', async () => {
    const { plan, scheduler, record, servedWhileUnloaded } = await run(6144, disagreeing());
    expect(plan.together).toBe(true);
    expect(record.properties[0]).toMatchObject({ earlyExit: false, refinementRounds: 1 });
    expect(scheduler.loads()).toBe(1);
    expect(servedWhileUnloaded).toEqual([]);
  });

  it('one model at a time: 8 loads when the paths disagree, 3 on the early exit', async () => {
    // Budget 1 896 MB holds gemma-2-2b (1 895.3 MB) alone and no pair, so each model is its own
    // group. Roster: proposers Q (Qwen2.5-1.5B), L (Llama-3.2-1B), G (gemma-2-2b); aggregator G,
    // generator Q, discriminator G. By hand, from the control flow:
    //   MoA: Q, L, G wait together; one call each → oldest first: load Q (1), L (2), G (3);
    //        the aggregator's G is loaded → no load.
    //   MCTS: every generator call is Q → load Q (4), then its calls run back to back.
    //   Discriminator: G → load G (5).
    //   Refinement (K = 1): Q, L, G wait; G is loaded → G's call first; then Q (6), L (7);
    //        the aggregator's G → load G (8).
    const worst = await run(1896, disagreeing());
    expect(worst.plan.groups).toEqual([
      ['gemma-2-2b-it-q4f16_1-MLC'],
      ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC'],
      ['Llama-3.2-1B-Instruct-q4f16_1-MLC'],
    ]);
    expect(worst.record.properties[0]).toMatchObject({ earlyExit: false, refinementRounds: 1 });
    expect(worst.scheduler.loads()).toBe(8);
    const [Q, L, G] = roster.proposers as [string, string, string];
    expect(worst.scheduler.loadLog()).toEqual([[Q], [L], [G], [Q], [G], [Q], [L], [G]]);
    expect(worst.servedWhileUnloaded).toEqual([]);

    // Unanimous and grounded → early exit after the MoA path: Q (1), L (2), G (3), aggregator on G.
    const best = await run(1896, matrixScript());
    expect(best.record.properties[0]).toMatchObject({ earlyExit: true, refinementRounds: 0 });
    expect(best.scheduler.loads()).toBe(3);
  });
});
