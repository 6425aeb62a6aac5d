/**
 * Independent calls at once (issue 29, item 5): with `parallel` slots the reading groups, a MoA
 * layer's proposers, the discriminator's reconstructions and the Chain-of-Verification batches
 * are asked together, never more than the slots, and the run decides exactly what the one-slot
 * run decides. The engine is scripted; a wrapper records the calls in flight and sends the replies
 * back out of order.
 */
import { describe, expect, it } from 'vitest';
import { worstCaseScript } from '../../../src/bench/bench-presets';
import type { LlmPort } from '../../../src/llm/llm-port';
import { createScriptedLlm, type LlmScript } from '../../../src/llm/scripted-llm';
import { runMatrix, type MatrixOptions } from '../../../src/matrix/pipeline';
import { BROWSER_PRESET, PAPER_PRESET } from '../../../src/matrix/presets';
import { createSeededRandom } from '../../../src/matrix/random';
import { MatrixCancelled, type MatrixResult } from '../../../src/matrix/run-record';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';
import { article as ganArticle, bandGap, bulkModulus, matrixScript, realDependencies } from './pipeline-fixtures';
import type { MatrixProgress } from '../../../src/contracts/run-record';

/** A long paper: more relevant sentences than 7 reading calls of 1,200 tokens hold (as browser-worst-case.test.ts). */
const sentences = Array.from(
  { length: 200 },
  (_, index) =>
    `Sample ${index + 1} of the Ga${index + 1}N alloy series was grown by molecular beam epitaxy on sapphire at 800 °C, ` +
    `and its optical band gap, measured by spectroscopic ellipsometry at room temperature, is ${(2 + index / 100).toFixed(2)} eV.`,
);
const longArticle = articleFromBlocks(sentences.map(paragraph));
const fact = { material: 'Ga1N', property: 'band_gap', value: 2, unit: 'eV', quote: sentences[0]! };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `inner` with the calls in flight counted: `most` at once, and calls begun after `signal` fired.
 * Call i's reply comes back after (7·i mod 5) ms, so later calls often finish first.
 */
function inFlight(inner: LlmPort, onReply?: (answered: number) => void) {
  const state = { running: 0, most: 0, calls: 0, answered: 0, startedAborted: 0 };
  const llm: LlmPort = {
    complete: async (request) => {
      const index = state.calls++;
      if (request.signal?.aborted) state.startedAborted += 1;
      state.running += 1;
      state.most = Math.max(state.most, state.running);
      try {
        const reply = await inner.complete(request);
        await pause((index * 7) % 5);
        onReply?.(++state.answered);
        return reply;
      } finally {
        state.running -= 1;
      }
    },
  };
  return { llm, state };
}

/** What a run decided and counted, without its timings (milliseconds differ from run to run). */
function decided(result: MatrixResult) {
  const withoutTimes = (value: unknown): unknown =>
    JSON.parse(
      JSON.stringify(value, (key, entry: unknown) => (/milliseconds|TimeMs|firstStart|lastEnd|wallMs/.test(key) ? undefined : entry)),
    );
  return { records: result.records, properties: withoutTimes(result.run.properties), usage: withoutTimes(result.run.usage) };
}

async function run(
  script: () => LlmScript,
  article: typeof ganArticle,
  options: Omit<MatrixOptions, 'parallel'>,
  parallel: number | undefined,
) {
  const { llm, state } = inFlight(createScriptedLlm(script()));
  const progress: MatrixProgress[] = [];
  const result = await runMatrix(
    article,
    { ...options, ...(parallel === undefined ? {} : { parallel }) },
    { llm, rng: createSeededRandom(7), ...realDependencies, onProgress: (event) => progress.push(event) },
  );
  return { result, progress, state };
}

describe('independent calls at once', () => {
  it('asks up to the slots together on the browser preset’s worst case, and decides as the one-slot run', async () => {
    const options = { properties: [bandGap], preset: BROWSER_PRESET };
    const script = () => worstCaseScript(fact, BROWSER_PRESET.K);
    const one = await run(script, longArticle, options, 1);
    // Every stage ran: 7 reading calls, MoA, MCTS, 2 reconstructions, a refinement round, the questions.
    expect(one.result.run.calls).toBe(30);
    expect(one.state.most).toBe(1);
    for (const slots of [2, 3, 4]) {
      const many = await run(script, longArticle, options, slots);
      expect(many.state.most).toBe(slots);
      expect(decided(many.result)).toEqual(decided(one.result));
      // Progress counts answered calls stage by stage, as before.
      expect(many.progress).toEqual(one.progress);
    }
    // Without a setting: one call at a time, a MoA layer's proposers together (the engine orders them).
    const unset = await run(script, longArticle, options, undefined);
    expect(unset.state.most).toBe(BROWSER_PRESET.proposers);
    expect(decided(unset.result)).toEqual(decided(one.result));
  }, 60_000); // five runs of 30 calls; under load they pass vitest's 5 s default (a time limit is not what it tests)

  it('keeps the order of records of two properties on the paper preset (three layers, three paths, a question call per triplet)', async () => {
    const options = { properties: [bandGap, bulkModulus], preset: PAPER_PRESET };
    const one = await run(() => matrixScript(), ganArticle, options, 1);
    expect(one.result.records.map((record) => [record.status, record.triplet.property, record.triplet.valueText])).toEqual([
      ['verified', 'band_gap', '3.4'],
      ['verified', 'bulk_modulus', '210'],
    ]);
    const two = await run(() => matrixScript(), ganArticle, options, 2);
    expect(two.state.most).toBe(2);
    expect(decided(two.result)).toEqual(decided(one.result));
    expect(two.progress).toEqual(one.progress);
  }, 60_000);

  it('on Stop starts no further call and ends cancelled with what was decided', async () => {
    const controller = new AbortController();
    const { llm, state } = inFlight(createScriptedLlm(worstCaseScript(fact, BROWSER_PRESET.K)), (answered) => {
      if (answered === 1) controller.abort();
    });
    const stopped = runMatrix(
      longArticle,
      { properties: [bandGap], preset: BROWSER_PRESET, parallel: 3 },
      { llm, rng: createSeededRandom(7), ...realDependencies, signal: controller.signal },
    );
    await expect(stopped).rejects.toBeInstanceOf(MatrixCancelled);
    // Three reading calls were in flight when the first answer came and Stop was pressed; none began after it.
    expect(state.calls).toBe(3);
    expect(state.startedAborted).toBe(0);
    const error = (await stopped.catch((reason: unknown) => reason)) as MatrixCancelled;
    expect(error.partial.records).toEqual([]);
  });

  it('refuses slots that are not a whole number ≥ 1', async () => {
    const llm = createScriptedLlm(matrixScript());
    await expect(
      runMatrix(
        ganArticle,
        { properties: [bandGap], preset: BROWSER_PRESET, parallel: 0 },
        { llm, rng: createSeededRandom(1), ...realDependencies },
      ),
    ).rejects.toThrow(RangeError);
    expect(llm.calls).toEqual([]);
  });
});
