/**
 * What a run does when a model misbehaves as weak small models (or random weights) do — runs past
 * max_tokens, loops — with the scripted engine: each failed call is retried once, the property it
 * leaves undecided says so (`notDecided`, never "not provided"), and the run finishes.
 */
import { describe, expect, it } from 'vitest';
import { RunRecordSchema } from '../../../src/contracts/run-record';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { runMatrix } from '../../../src/matrix/pipeline';
import { BROWSER_PRESET } from '../../../src/matrix/presets';
import { createSeededRandom } from '../../../src/matrix/random';
import { article, bandGap, bulkModulus, matrixScript, propertyOf, realDependencies } from './pipeline-fixtures';

const deps = (llm: ReturnType<typeof createScriptedLlm>) => ({ llm, rng: createSeededRandom(7), ...realDependencies });

/** A reply that never ends: a quote of distinct words (no loop) far past 1,024 tokens (≈ 4,096 characters). */
const RUNAWAY = `{"triplets":[{"material":"GaN","property":"band_gap","value":"3.4","unit":"eV","quote":"${Array.from(
  { length: 1500 },
  (_, index) => `w${index}`,
).join(' ')}"}]}`;
/** A reply stuck in a loop. */
const LOOP = '{"triplets":[{"material":"' + 'GaN '.repeat(400);

describe('a model that runs past max_tokens', () => {
  it('leaves only that property undecided (truncated-output) after one retry per call; the other property decides and the run finishes', async () => {
    const llm = createScriptedLlm({
      ...matrixScript({
        // Every band-gap proposer reply runs away; the aggregator then has nothing to merge and
        // says so, and the search path answers that it found nothing.
        band_gap: { proposer: () => RUNAWAY, aggregator: () => [], generator: () => [] },
      }),
      cutAtMaxTokens: true,
    });
    const { records, run } = await runMatrix(article, { properties: [bandGap, bulkModulus], preset: BROWSER_PRESET }, deps(llm));

    const [gap, modulus] = run.properties;
    expect(gap!.notProvided).toBeUndefined();
    expect(gap!.notDecided).toEqual({
      code: 'truncated-output',
      message:
        "the MoA path gave no usable answer (all 3 proposers of its last layer failed) — the proposer model's reply ran past its 1024-token limit before the JSON closed, on the first try and on its one retry; a larger max_tokens, fewer facts per call or another model may help",
      calls: llm.calls.filter((call) => propertyOf(call.request) === 'band_gap').length,
    });
    // Each of the 3 proposers: the first reply and its one retry, both cut at the preset's 1,024 tokens.
    const proposerCalls = llm.calls.filter((call) => call.request.role === 'proposer' && propertyOf(call.request) === 'band_gap');
    expect(proposerCalls).toHaveLength(6);
    expect(proposerCalls.map((call) => [call.request.maxTokens, call.reply!.finishReason, call.reply!.usage.completionTokens])).toEqual(
      Array.from({ length: 6 }, () => [1024, 'length', 1024]),
    );
    expect(proposerCalls.filter((call) => call.request.messages.at(-1)!.content.includes('Note: an earlier reply'))).toHaveLength(3);
    expect(gap!.problems.slice(0, 3)).toEqual(
      [1, 2, 3].map((proposer) =>
        expect.stringMatching(new RegExp(`^MoA layer 1 proposer ${proposer}: the proposer model's reply ran past`)),
      ),
    );

    // The other property is unaffected.
    expect(modulus!.notDecided).toBeUndefined();
    expect(records.map((record) => [record.status, record.triplet.property, record.triplet.valueText])).toEqual([
      ['verified', 'bulk_modulus', '210'],
    ]);
    expect(RunRecordSchema.parse(run)).toEqual(run);
  });
});

describe('a model stuck in a repetition loop', () => {
  it('ends every call of the property in repetitive-output, names both paths, and finishes within a bounded number of calls', async () => {
    const looping = () => LOOP;
    const llm = createScriptedLlm(
      matrixScript({ band_gap: { proposer: looping, aggregator: looping, generator: looping, discriminator: looping } }),
    );
    const { records, run } = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps(llm));
    const gap = run.properties[0]!;
    expect(records).toEqual([]);
    expect(gap.notProvided).toBeUndefined();
    expect(gap.notDecided?.code).toBe('repetitive-output');
    expect(gap.notDecided?.message).toMatch(
      /^the MoA path gave no usable answer \(all 3 proposers of its last layer and the aggregator failed\), and the search path gave no usable trajectory \(4 of 4 generator replies failed\) — the proposer model's reply fell into a repetition loop \("GaN " \d+ times over at its end\) instead of closing its JSON, on the first try and on its one retry; /,
    );
    // By hand: 3 proposers × 2 + aggregator × 2 + 4 rollouts, each one failed expansion × 2 = 16;
    // no trajectory, so no discriminator call.
    expect(gap.notDecided?.calls).toBe(16);
    expect(llm.calls).toHaveLength(16);
    expect(RunRecordSchema.parse(run)).toEqual(run);
  });
});
