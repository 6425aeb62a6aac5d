import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../src/llm/llm-port';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { runMatrix } from '../../../src/matrix/pipeline';
import { BROWSER_PRESET, PAPER_PRESET } from '../../../src/matrix/presets';
import { createSeededRandom } from '../../../src/matrix/random';
import { MatrixCancelled, MatrixInterrupted } from '../../../src/matrix/run-record';
import {
  article,
  BAND_GAP_SENTENCE,
  bandGap,
  bulkModulus,
  density,
  GAN_GAP,
  matrixScript,
  propertyOf,
  realDependencies,
  type Fact,
} from './pipeline-fixtures';
import type { MatrixPreset } from '../../../src/contracts/matrix-preset';
import type { MatrixProgress } from '../../../src/contracts/run-record';

const deps = (
  llm: ReturnType<typeof createScriptedLlm>,
  extra: { signal?: AbortSignal; onProgress?: (event: MatrixProgress) => void } = {},
) => ({
  llm,
  rng: createSeededRandom(7),
  ...realDependencies,
  ...extra,
});
const gap = (value: number, quote = BAND_GAP_SENTENCE): Fact[] => [{ ...GAN_GAP, value, quote }];

async function interruption(promise: Promise<unknown>): Promise<MatrixInterrupted> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MatrixInterrupted) return error;
    throw error;
  }
  throw new Error('the run was expected to stop');
}

describe('runMatrix with the paper preset', () => {
  it('verifies a unanimous answer, skips a property with no candidate, and counts calls per stage', async () => {
    const llm = createScriptedLlm(matrixScript());
    const events: MatrixProgress[] = [];
    const { records, run } = await runMatrix(
      article,
      { properties: [bandGap, density, bulkModulus], preset: PAPER_PRESET },
      deps(llm, { onProgress: (event) => events.push(event) }),
    );

    expect(
      records.map((record) => [record.status, record.triplet.material, record.triplet.property, record.triplet.valueText, record.votes]),
    ).toEqual([
      ['verified', 'GaN', 'band_gap', '3.4', ['moa', 'gd']],
      ['verified', 'GaN', 'bulk_modulus', '210', ['moa', 'gd']],
    ]);
    expect(run.counts).toEqual({ verified: 2, needs_review: 0, rejected: 0 });
    // The models quoted bare sentences; the stored evidence carries full selectors into the article.
    const evidence = records[0]!.triplet.evidence!;
    expect(evidence.blockId).toBe('b1');
    expect(article.text.slice(evidence.position!.start, evidence.position!.end)).toBe(BAND_GAP_SENTENCE);
    // Retrieval reads the band-gap sentence, the title "Optical and elastic properties …" and b3's
    // "optical … measurements" ("optical" is a band-gap query term) in one call; density ranks
    // only "bulk modulus … 210 GPa", which states no density, so it abstains with no call.
    expect(run.properties.map((property) => [property.property, property.skipped, property.blockIds])).toEqual([
      ['band_gap', false, ['b0', 'b1', 'b3']],
      ['density', true, []],
      ['bulk_modulus', false, ['b2']],
    ]);
    expect(run.properties[0]!.retrieval).toMatchObject({ readingCalls: 0, groups: 1, leftOut: [] });
    expect(run.properties[1]!.notProvided).toEqual({ reason: 'nothing-relevant', chunksRanked: 1, chunksRead: 0, calls: 0 });
    // Per property, by hand: MoA 3 layers × 3 proposers + 1 aggregator = 10. MCTS: every step is
    // final, so the 16 rollouts expand the root's 5 actions once each (5 calls) and then only
    // revisit terminal children (0 calls). 5 distinct trajectories → top 3 → 3 discriminator calls.
    expect(run.usage.byStage.moa!.calls).toBe(20);
    expect(run.usage.byStage.mcts!.calls).toBe(10);
    expect(run.usage.byStage.discriminator!.calls).toBe(6);
    expect(run.usage.byStage.refinement).toBeUndefined();
    // Chain-of-Verification: the paper preset asks each verified triplet's questions on its own.
    expect(run.usage.byStage['verification-questions']!.calls).toBe(2);
    expect(run.calls).toBe(38);
    expect(llm.calls).toHaveLength(38);
    expect(llm.calls.some((call) => propertyOf(call.request) === '?')).toBe(false);
    // The paper's models go out per role.
    expect(new Set(llm.calls.filter((call) => call.request.role === 'proposer').map((call) => call.request.model))).toEqual(
      new Set(PAPER_PRESET.models.proposers),
    );
    expect(llm.calls.find((call) => call.request.role === 'generator')!.request.model).toBe('meta-llama/Llama-3.1-8B-Instruct');
    expect(run.promptTokens).toBe(run.usage.total.promptTokens);
    expect(run.promptTokens).toBeGreaterThan(0);
    // Progress: every stage of both properties, ending with done === total.
    const last = (stage: MatrixProgress['stage'], property: string) =>
      events.filter((event) => event.stage === stage && event.property === property).at(-1);
    expect(last('moa', 'band_gap')).toEqual({ stage: 'moa', property: 'band_gap', done: 10, total: 10 });
    expect(last('discriminator', 'bulk_modulus')).toEqual({ stage: 'discriminator', property: 'bulk_modulus', done: 3, total: 3 });
    expect(last('mcts', 'band_gap')).toEqual({ stage: 'mcts', property: 'band_gap', done: 5, total: 80 });
    expect(last('cross-verify', 'band_gap')).toEqual({ stage: 'cross-verify', property: 'band_gap', done: 3, total: 3 });
    expect(last('ground', 'bulk_modulus')).toEqual({ stage: 'ground', property: 'bulk_modulus', done: 1, total: 1 });
    expect(last('verification-questions', 'band_gap')).toEqual({
      stage: 'verification-questions',
      property: 'band_gap',
      done: 1,
      total: 1,
    });
    expect(events.some((event) => event.property === 'density')).toBe(false);
  });

  it('re-runs the MoA path when the paths disagree and verifies once they converge in round 2', async () => {
    const llm = createScriptedLlm(matrixScript({ band_gap: { aggregator: (k) => gap([3.2, 3.3, 3.4][k] ?? 3.4) } }));
    const { records, run } = await runMatrix(article, { properties: [bandGap], preset: PAPER_PRESET }, deps(llm));
    expect(run.properties[0]).toMatchObject({ refinementRounds: 2, converged: true });
    expect(records.map((record) => [record.status, record.triplet.valueText])).toEqual([['verified', '3.4']]);
    expect(run.usage.byStage.refinement!.calls).toBe(20); // two MoA re-runs of 10 calls
    expect(run.calls).toBe(39); // 18 + 20 + 1 verification-question call
  });

  it('shows the refinement re-run what the two paths disagreed on, and only the re-run', async () => {
    const llm = createScriptedLlm(matrixScript({ band_gap: { aggregator: (k) => gap([3.2, 3.4][k] ?? 3.4) } }));
    const { run } = await runMatrix(article, { properties: [bandGap], preset: PAPER_PRESET }, deps(llm));
    expect(run.properties[0]).toMatchObject({ refinementRounds: 1, converged: true });
    const moaUser = (call: (typeof llm.calls)[number]) => call.request.messages.find((message) => message.role === 'user')!.content;
    const moaCalls = llm.calls.filter((call) => call.request.role === 'proposer' || call.request.role === 'aggregator');
    // 10 calls in the first MoA run, 10 in the re-run; the hint is in every re-run call and in none before.
    expect(moaCalls).toHaveLength(20);
    const hinted = moaCalls.map((call) => moaUser(call).includes('A previous round disagreed with an independent search path'));
    expect(hinted).toEqual([...Array(10).fill(false), ...Array(10).fill(true)]);
    expect(moaUser(moaCalls[10]!)).toContain('Your answer "GaN: 3.2 eV" and the search path\'s "GaN: 3.4 eV" differ');
  });

  it('sends the triplet to review with both answers when the paths never converge in K = 3 rounds', async () => {
    const llm = createScriptedLlm(matrixScript({ band_gap: { aggregator: () => gap(3.2) } }));
    const { records, run } = await runMatrix(article, { properties: [bandGap], preset: PAPER_PRESET }, deps(llm));
    expect(run.properties[0]).toMatchObject({ refinementRounds: 3, converged: false });
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record!.status).toBe('needs_review');
    expect(record!.adjudication).toMatchObject({ outcome: 'conflict', moa: { valueText: '3.2' }, gd: { valueText: '3.4' } });
    expect(record!.reasons).toContain('not grounded: value 3.2 not in the quote');
    expect(run.counts).toEqual({ verified: 0, needs_review: 1, rejected: 0 });
    expect(run.usage.byStage.refinement!.calls).toBe(30);
  });

  it.each([
    ['a quote that is not in the article', gap(3.9, 'The band gap of GaN is 3.9 eV.'), 'value 3.9 not in the quote'],
    ['a real quote with another value', gap(3.9), 'value 3.9 not in the quote'],
  ])('never verifies a value the text does not state (%s), even when every model agrees on it', async (_, invented, reason) => {
    const everyone = () => invented;
    const llm = createScriptedLlm(
      matrixScript({ band_gap: { proposer: everyone, aggregator: everyone, generator: everyone, discriminator: everyone } }),
    );
    const { records } = await runMatrix(article, { properties: [bandGap], preset: PAPER_PRESET }, deps(llm));
    expect(records.map((record) => [record.status, record.triplet.valueText])).toEqual([['rejected', '3.9']]);
    expect(records[0]!.reasons).toContain(reason);
  });
});

describe('runMatrix with malformed replies', () => {
  it('repairs a malformed reply, drops a proposer that stays malformed, falls back from a broken aggregator, and still verifies', async () => {
    // Browser preset: 1 layer × 3 proposers. Proposer calls in order: p1, p2, p3, then p1's repair (k = 3).
    const llm = createScriptedLlm(
      matrixScript({
        band_gap: {
          proposer: (k) => (k === 0 || k === 3 ? 'not json' : [GAN_GAP]),
          aggregator: (k) => (k === 0 ? '{"triplets": [' : k === 1 ? 'Sorry, here it is: {"triplets": "3.4 eV"}' : [GAN_GAP]),
          discriminator: (k) => (k === 0 ? '{oops' : [GAN_GAP]),
        },
      }),
    );
    const { records, run } = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps(llm));
    expect(records.map((record) => [record.status, record.triplet.valueText])).toEqual([['verified', '3.4']]);
    const [problemOne, problemTwo] = run.properties[0]!.problems;
    expect(problemOne).toMatch(
      /^MoA layer 1 proposer 1: the proposer model's reply did not match the expected JSON after one repair attempt/,
    );
    expect(problemTwo).toBe(
      "MoA: the aggregator's reply was unusable (the aggregator model's reply did not match the expected JSON after one repair attempt: triplets: Invalid input: expected array, received string); the best proposer answer by Eq. 2 was taken",
    );
    // A failed proposer rules out the early exit. By hand: 3 proposers + 1 repair, aggregator + 1
    // repair, 4 rollouts expand 4 root actions (4 generator calls), top 2 → 2 discriminator calls
    // + 1 repair (the first reconstruction was malformed, its repair parsed).
    expect(run.properties[0]!.earlyExit).toBe(false);
    expect(run.usage.byStage.moa!.calls).toBe(6);
    expect(run.usage.byStage.mcts!.calls).toBe(4);
    expect(run.usage.byStage.discriminator!.calls).toBe(3);
  });
});

describe('runMatrix interrupted', () => {
  it('stops on cancel mid-run, keeps the finished property, and makes no call after the signal', async () => {
    const controller = new AbortController();
    let abortedAt = -1;
    const base = matrixScript();
    const llm = createScriptedLlm({
      respond: (request, index) => {
        if (abortedAt === -1 && request.role === 'generator' && propertyOf(request) === 'bulk_modulus') {
          abortedAt = index;
          controller.abort();
        }
        return base.respond!(request, index);
      },
    });
    const error = await interruption(
      runMatrix(article, { properties: [bandGap, bulkModulus], preset: PAPER_PRESET }, deps(llm, { signal: controller.signal })),
    );
    expect(error).toBeInstanceOf(MatrixCancelled);
    expect(error.cancelled).toBe(true);
    expect(error.partial.records.map((record) => [record.status, record.triplet.property])).toEqual([['verified', 'band_gap']]);
    expect(error.partial.run.properties.map((property) => property.property)).toEqual(['band_gap']);
    expect(error.partial.run.interrupted?.code).toBe('aborted');
    // band_gap took 19 calls (0–18, the last its verification questions), bulk_modulus's MoA 10
    // more (19–28): the abort came on call 29 and nothing was asked after it.
    expect(abortedAt).toBe(29);
    expect(llm.calls).toHaveLength(30);
  });

  it('surfaces a lost device with the partial result', async () => {
    const llm = createScriptedLlm({ ...matrixScript(), failAt: { 19: new LlmError('device-lost', 'the GPU device was lost') } });
    const error = await interruption(runMatrix(article, { properties: [bandGap, bulkModulus], preset: PAPER_PRESET }, deps(llm)));
    expect(error).not.toBeInstanceOf(MatrixCancelled);
    expect(error.reason.code).toBe('device-lost');
    expect(error.message).toContain('[device-lost]');
    expect(error.partial.records.map((record) => [record.status, record.triplet.property])).toEqual([['verified', 'band_gap']]);
    expect(error.partial.run.interrupted).toEqual({ code: 'device-lost', message: 'the GPU device was lost' });
    expect(llm.calls.some((call) => call.request.role === 'generator' && propertyOf(call.request) === 'bulk_modulus')).toBe(false);
  });
});

describe('the browser preset', () => {
  it('skips the MCTS path when all proposers agree and ground, with fewer calls than without the early exit', async () => {
    const run = async (preset: MatrixPreset) => {
      const llm = createScriptedLlm(matrixScript());
      return runMatrix(article, { properties: [bandGap, bulkModulus], preset }, deps(llm));
    };
    const withExit = await run(BROWSER_PRESET);
    const withoutExit = await run({ ...BROWSER_PRESET, earlyExit: false });
    // By hand, per property: 3 proposers + 1 aggregator + 1 verification-question call = 5; without
    // the exit also 4 generator calls (4 rollouts, final steps) and 2 discriminator calls (top 2 paths) = 11.
    expect(withExit.run.calls).toBe(10);
    expect(withoutExit.run.calls).toBe(22);
    expect(withExit.run.usage.byStage.mcts).toBeUndefined();
    expect(withExit.run.promptTokens).toBeLessThan(withoutExit.run.promptTokens);
    expect(withExit.run.properties.map((property) => property.earlyExit)).toEqual([true, true]);
    expect(withExit.records.map((record) => [record.status, record.votes])).toEqual([
      ['verified', ['moa', 'proposers']],
      ['verified', ['moa', 'proposers']],
    ]);
    expect(withoutExit.records.map((record) => record.status)).toEqual(['verified', 'verified']);
  });

  it('does not take the early exit when the proposers disagree', async () => {
    const llm = createScriptedLlm(matrixScript({ band_gap: { proposer: (k) => gap(k === 1 ? 3.5 : 3.4) } }));
    const { run } = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps(llm));
    expect(run.properties[0]!.earlyExit).toBe(false);
    expect(run.usage.byStage.mcts!.calls).toBe(4);
  });
});
