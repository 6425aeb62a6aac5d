/**
 * The reading plan (src/matrix/reading.ts): what a property's models read once retrieval chooses
 * the text — packing over several calls, the cap, the focused passage, and the reading stage in
 * `runMatrix` with the scripted engine.
 */
import { describe, expect, it } from 'vitest';
import { RunRecordSchema } from '../../../src/contracts/run-record';
import { createScriptedLlm } from '../../../src/llm/scripted-llm';
import { runMatrix } from '../../../src/matrix/pipeline';
import { BROWSER_PRESET, PAPER_PRESET } from '../../../src/matrix/presets';
import { createSeededRandom } from '../../../src/matrix/random';
import { focusedPassage, mayStateValue, planReading, quoteChunks, readingPriority } from '../../../src/matrix/reading';
import { chunkArticle, shownSpan } from '../../../src/text/retrieval';
import { scanFor } from '../../support/scan-for';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';
import { bandGap, density, matrixScript, realDependencies } from './pipeline-fixtures';
import type { MatrixPreset, RetrievalBudget } from '../../../src/contracts/matrix-preset';

/** Counts words: a budget in words is easy to reason about by hand. */
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The sentence the scan misses: "opens" is no band-gap word and "gap" alone names no property for it. */
const MISSED = 'Under 2% strain the gap of ZnSe opens to 2.9 eV.';
const FOUND = 'The band gap of ZnSe is 2.7 eV at room temperature.';
const FILLER = (index: number) => `Sample ${index} of ZnSe was annealed at 400 °C in nitrogen for two hours.`;

const article = articleFromBlocks([
  paragraph(`${FOUND} ${FILLER(1)}`),
  ...Array.from({ length: 6 }, (_, index) => paragraph(`The band structure of ZnSe film ${index + 2} was studied by ellipsometry.`)),
  paragraph(`${FILLER(9)} ${MISSED}`),
]);
const chunks = chunkArticle(article);
const candidates = scanFor(article, [bandGap]).candidates.filter((candidate) => candidate.property === 'band_gap');
const budget = (extra: Partial<RetrievalBudget> = {}): RetrievalBudget => ({
  chunkTokensPerCall: 30,
  maxReadingCalls: 8,
  mmrK: 9,
  mmrLambda: 0.5,
  ...extra,
});
const read = (plan: ReturnType<typeof planReading>) => plan.groups.flatMap((group) => group.chunks.map((entry) => entry.chunk.quote));

describe('planReading', () => {
  it('reads a value the scan misses, splitting the relevant chunks over several calls instead of dropping them', () => {
    expect(candidates.some((candidate) => MISSED.includes(candidate.quantity.text))).toBe(false);
    const plan = planReading(chunks, bandGap, candidates, budget(), countWords);
    expect(plan.ranked.map((entry) => entry.chunk.quote)).toContain(MISSED);
    expect(plan.groups.length).toBeGreaterThan(1);
    expect(plan.reading).toBe(true);
    expect(read(plan)).toContain(MISSED);
    expect(read(plan)).toContain(FOUND);
    expect(plan.leftOut).toEqual([]);
    for (const group of plan.groups) {
      expect(group.tokens).toBeLessThanOrEqual(30);
      // Each call reads its chunks in reading order.
      const starts = group.chunks.map((entry) => entry.chunk.start);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    }
  });

  it('reads everything in one call, with no reading stage, when it fits', () => {
    const plan = planReading(chunks, bandGap, candidates, budget({ chunkTokensPerCall: 10_000 }), countWords);
    expect(plan.groups).toHaveLength(1);
    expect(plan.reading).toBe(false);
    expect(plan.groups[0]!.chunks).toHaveLength(plan.ranked.length);
  });

  it('keeps at most maxReadingCalls calls, leaving out chunks that print no value first, and names them', () => {
    const plan = planReading(chunks, bandGap, candidates, budget({ maxReadingCalls: 2 }), countWords);
    expect(plan.groups).toHaveLength(2);
    expect(plan.leftOut.length).toBeGreaterThan(0);
    expect(plan.groups.length + plan.leftOut.length).toBeLessThanOrEqual(plan.ranked.length);
    // Both values are still read; what the cap dropped are sentences that state no value.
    expect(read(plan)).toEqual(expect.arrayContaining([FOUND, MISSED]));
    for (const entry of plan.leftOut) expect(mayStateValue(entry, bandGap)).toBe(false);
    expect(new Set([...read(plan), ...plan.leftOut.map((entry) => entry.chunk.quote)]).size).toBe(plan.ranked.length);
  });

  it('when the cap would leave out values, shows sentences that name material and value without their context first', () => {
    // A review-like text: many values, each after a sentence that says nothing about it.
    const compounds = ['GaN', 'AlN', 'InN', 'GaAs', 'InP', 'ZnS', 'CdTe', 'SiC'];
    const review = articleFromBlocks([
      ...compounds.map((compound, index) =>
        paragraph(`Films of the ${index + 1}th kind were sputtered on sapphire wafers. The band gap of ${compound} is ${index + 1}.5 eV.`),
      ),
      paragraph('Thin films of zinc oxide were grown by pulsed laser deposition. Its band gap is 3.3 eV.'),
    ]);
    const found = scanFor(review, [bandGap]).candidates.filter((candidate) => candidate.property === 'band_gap');
    const plan = planReading(chunkArticle(review), bandGap, found, budget({ chunkTokensPerCall: 50, maxReadingCalls: 2 }), countWords);
    const text = plan.groups.map((group) => group.text).join('\n');
    for (const [index, compound] of compounds.entries()) expect(text).toContain(`The band gap of ${compound} is ${index + 1}.5 eV.`);
    expect(text).not.toContain('[context] Films of the');
    // The sentence that names no material keeps the sentence that does.
    expect(text).toContain('[context] Thin films of zinc oxide were grown by pulsed laser deposition.\nIts band gap is 3.3 eV.');
    expect(plan.leftOut.filter((entry) => mayStateValue(entry, bandGap))).toEqual([]);
    expect(plan.groups.length).toBeLessThanOrEqual(2);
  });

  it('orders the cap by what can state a value: candidates and values in the units, then other numbers, then none', () => {
    const plan = planReading(chunks, bandGap, candidates, budget({ chunkTokensPerCall: 10_000 }), countWords);
    const tiers = readingPriority(plan.ranked, bandGap).map((entry) =>
      entry.candidate || entry.unit ? 0 : mayStateValue(entry, bandGap) ? 1 : /\d/.test(entry.chunk.quote) ? 2 : 3,
    );
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
    expect(tiers[0]).toBe(0);
  });

  it('counts a table flattened into prose as able to state a value', () => {
    // A text capture of a table: the unit only as a row label, each value followed by its reference.
    const flattened = articleFromBlocks([paragraph('Input parameters c-TiO2 mp-TiO2 Eg [eV] 3.05 [38] 3.05 [38] 1.66 [39].')]);
    const plan = planReading(chunkArticle(flattened), bandGap, [], budget(), countWords);
    expect(plan.ranked.map((entry) => [entry.unit, mayStateValue(entry, bandGap)])).toEqual([[false, true]]);
    expect(plan.groups).toHaveLength(1);
  });

  it('plans nothing to read when no relevant chunk can state a value of the property', () => {
    // "bulk" is a density word ("bulk density"), but "a bulk modulus of 210 GPa" states no density.
    const other = articleFromBlocks([paragraph('Nanoindentation gives a bulk modulus of 210 GPa for GaN.')]);
    const plan = planReading(chunkArticle(other), density, [], budget(), countWords);
    expect(plan.ranked).toHaveLength(1);
    expect(plan.groups).toEqual([]);
  });
});

describe('focusedPassage', () => {
  it('puts the chunks holding the reader quotes first, then the best-ranked chunks, within one call', () => {
    const plan = planReading(chunks, bandGap, candidates, budget(), countWords);
    const [missed] = chunks.filter((chunk) => chunk.quote === MISSED);
    const focused = focusedPassage(plan, [missed!], budget(), countWords);
    expect(focused.group.chunks.map((entry) => entry.chunk.quote)).toContain(MISSED);
    expect(focused.group.tokens).toBeLessThanOrEqual(30);
    expect(focused.quotesLeftOut).toEqual([]);
    expect(focused.group.text).toContain(MISSED);
  });

  it('finds the chunks of a quote, and the span a chunk shows includes its context sentence', () => {
    const triplet = {
      material: 'ZnSe',
      property: 'band_gap',
      value: { kind: 'number' as const, value: 2.9 },
      unit: 'eV',
      evidence: { quote: { type: 'TextQuoteSelector' as const, exact: MISSED, prefix: '', suffix: '' } },
      engine: 'reading-1',
    };
    const [chunk] = quoteChunks(article, chunks, [triplet]);
    expect(chunk?.quote).toBe(MISSED);
    const span = shownSpan(chunk!);
    expect(article.text.slice(span.start, span.end)).toBe(`${FILLER(9)} ${MISSED}`);
  });
});

/** A preset whose budget forces a reading stage on the small article above. */
const small: MatrixPreset = { ...BROWSER_PRESET, retrieval: budget() };
const deps = (llm: ReturnType<typeof createScriptedLlm>) => ({
  llm,
  rng: createSeededRandom(3),
  ...realDependencies,
  countTokens: countWords,
});
const answer = (value: string, quote: string) =>
  JSON.stringify({ triplets: [{ material: 'ZnSe', property: 'band_gap', value, unit: 'eV', quote }] });

describe('runMatrix with a reading stage', () => {
  it('reads every group with one proposer call, then gives MoA a focused passage holding what the reader found', async () => {
    const llm = createScriptedLlm({
      respond: (request) => {
        const user = request.messages.at(-1)!.content;
        // The reader finds the value only where it is stated; MoA answers with it.
        if (request.role === 'proposer' || request.role === 'aggregator')
          return user.includes(MISSED) ? answer('2.9', MISSED) : JSON.stringify({ triplets: [] });
        return JSON.stringify({ triplets: [] });
      },
    });
    const { run, records } = await runMatrix(article, { properties: [bandGap], preset: small }, deps(llm));
    const property = run.properties[0]!;
    const plan = planReading(chunks, bandGap, candidates, budget(), countWords);
    expect(property.retrieval).toMatchObject({
      chunks: chunks.length,
      ranked: plan.ranked.length,
      read: plan.ranked.length,
      groups: plan.groups.length,
      readingCalls: plan.groups.length,
      readingTriplets: 1,
      leftOut: [],
      quotesLeftOut: [],
    });
    expect(run.usage.byStage.reading!.calls).toBe(plan.groups.length);
    // MoA's calls all see the sentence the reader quoted.
    const moaCalls = llm.calls.slice(plan.groups.length, plan.groups.length + 4);
    for (const call of moaCalls) expect(call.request.messages.at(-1)!.content).toContain(MISSED);
    expect(property.calls).toBe(run.calls);
    expect(property.notProvided).toBeUndefined();
    expect(records.map((record) => record.triplet.valueText)).toContain('2.9');
  });

  it('says which chunks a cap left out, in the run record', async () => {
    const llm = createScriptedLlm({ respond: () => answer('2.7', FOUND) });
    const preset = { ...small, retrieval: budget({ maxReadingCalls: 2 }) };
    const { run } = await runMatrix(article, { properties: [bandGap], preset }, deps(llm));
    const retrieval = run.properties[0]!.retrieval!;
    expect(retrieval.readingCalls).toBe(2);
    expect(retrieval.leftOut.length).toBeGreaterThan(0);
    expect(retrieval.read + retrieval.leftOut.length).toBe(retrieval.ranked);
    expect(run.properties[0]!.truncatedBlockIds).toEqual([...new Set(retrieval.leftOut.map((id) => id.split('#')[0]))]);
  });
});

describe('abstention: "Not provided in this paper"', () => {
  it('abstains with no call when nothing relevant can be read', async () => {
    const llm = createScriptedLlm({ respond: () => JSON.stringify({ triplets: [] }) });
    const { run, records } = await runMatrix(article, { properties: [density], preset: PAPER_PRESET }, deps(llm));
    expect(llm.calls).toHaveLength(0);
    expect(records).toEqual([]);
    expect(run.properties[0]).toMatchObject({
      skipped: true,
      calls: 0,
      notProvided: { reason: 'nothing-relevant', chunksRead: 0, calls: 0 },
    });
  });

  it('abstains after the reading stage when the reader finds nothing and the scan no candidate', async () => {
    const quiet = articleFromBlocks([
      ...Array.from({ length: 4 }, (_, index) =>
        paragraph(`The band structure of ZnSe film ${index} was measured at 3.1 eV photon energy.`),
      ),
    ]);
    expect(scanFor(quiet, [bandGap]).candidates).toEqual([]);
    const llm = createScriptedLlm({ respond: () => JSON.stringify({ triplets: [] }) });
    const { run, records } = await runMatrix(quiet, { properties: [bandGap], preset: small }, deps(llm));
    const property = run.properties[0]!;
    expect(records).toEqual([]);
    expect(property.retrieval!.readingCalls).toBeGreaterThan(1);
    expect(llm.calls.every((call) => call.request.role === 'proposer')).toBe(true);
    expect(property).toMatchObject({
      skipped: false,
      calls: property.retrieval!.readingCalls,
      notProvided: { reason: 'nothing-found', chunksRanked: property.retrieval!.ranked, chunksRead: property.retrieval!.read },
    });
  });

  it('does not claim "not provided" when a reading call failed: its passages were not read', async () => {
    const quiet = articleFromBlocks([
      ...Array.from({ length: 4 }, (_, index) =>
        paragraph(`The band structure of ZnSe film ${index} was measured at 3.1 eV photon energy.`),
      ),
    ]);
    // The first reading call and its one retry run past max_tokens; the other calls find nothing.
    const cut = {
      text: '{"triplets":[{"material":"ZnSe film 0","property":"band_gap","value":"3.1","unit":"eV","quote":"The band',
      finishReason: 'length',
    };
    const llm = createScriptedLlm({ respond: (_request, index) => (index < 2 ? cut : JSON.stringify({ triplets: [] })) });
    const { run, records } = await runMatrix(quiet, { properties: [bandGap], preset: small }, deps(llm));
    const property = run.properties[0]!;
    const readingCalls = property.retrieval!.readingCalls;
    expect(records).toEqual([]);
    expect(property.notProvided).toBeUndefined();
    expect(property.notDecided).toEqual({
      code: 'truncated-output',
      message: `1 of ${readingCalls} reading calls failed (their passages were not read) — the proposer model's reply ran past its 1024-token limit before the JSON closed, on the first try and on its one retry; a larger max_tokens, fewer facts per call or another model may help`,
      calls: readingCalls + 1,
    });
    expect(llm.calls).toHaveLength(readingCalls + 1);
    expect(RunRecordSchema.parse(run)).toEqual(run);
  });

  it('marks a property whose full run found no triplet as not provided, with its calls', async () => {
    // Every role answers, with nothing: an empty answer from both paths is "nothing found". (A
    // generator reply without its step text would be unusable, and the search path would have
    // given no answer: not decided.)
    const nothing = () => [];
    const llm = createScriptedLlm(
      matrixScript({ band_gap: { proposer: nothing, aggregator: nothing, generator: nothing, discriminator: nothing } }),
    );
    const { run } = await runMatrix(article, { properties: [bandGap], preset: { ...BROWSER_PRESET } }, deps(llm));
    const property = run.properties[0]!;
    expect(property.notProvided).toEqual({
      reason: 'nothing-found',
      chunksRanked: property.retrieval!.ranked,
      chunksRead: property.retrieval!.read,
      calls: llm.calls.length,
    });
    expect(RunRecordSchema.parse(run)).toEqual(run);
  });

  it('still reads run records stored before retrieval and abstention', async () => {
    const llm = createScriptedLlm({ respond: () => JSON.stringify({ triplets: [] }) });
    const { run } = await runMatrix(article, { properties: [bandGap], preset: BROWSER_PRESET }, deps(llm));
    const { retrieval: _preset, ...oldPreset } = run.preset;
    const old = {
      ...run,
      preset: oldPreset,
      properties: run.properties.map(({ retrieval: _r, calls: _c, notProvided: _n, ...rest }) => rest),
    };
    expect(RunRecordSchema.safeParse(old).success).toBe(true);
  });
});
