/**
 * `assay bench --presets`: the worst- and best-case scripts drive the control flow the presets
 * allow; call counts computed by hand from the preset settings on the small GaN article.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runBench } from '../../../src/cli/bench-command';
import {
  benchPresetOnArticle,
  candidateFact,
  createPresetBenchContext,
  presetFigures,
  type PresetBenchContext,
  type PresetPaperCost,
} from '../../../src/bench/bench-presets';
import { DEFAULT_GPU_BUDGET_MB, defaultWebLlmRoster } from '../../../src/llm/roster';
import { hashMessages } from '../../../src/llm/scripted-llm';
import type { TokenCounter } from '../../../src/llm/tokenizers';
import { prebuiltModelRecords } from '../../../src/llm/webllm-engine';
import { BROWSER_PRESET, PAPER_PRESET } from '../../../src/matrix/presets';
import { ARTICLE_TEXT, BAND_GAP_SENTENCE, article, bandGap, density } from '../matrix/pipeline-fixtures';

/**
 * Every prompt counts 100 tokens and every reply 7: the figures show how the counts are wired. A
 * prompt's stand-in ids are its messages' hash, so only the same conversation shares a prefix.
 */
const FLAT_COUNTER: TokenCounter = {
  family: 'flat',
  exact: true,
  countText: () => 7,
  countChat: () => 100,
  chatTokens: (messages) => Array.from({ length: 100 }, (_, index) => Number.parseInt(hashMessages(messages).slice(0, 8), 16) + index),
};

describe('bench presets on a tiny article', () => {
  let context: PresetBenchContext;
  beforeAll(async () => {
    // gemma-2-2b (1 895.3 MB) is the roster's largest model: the second budget holds one model at a time.
    context = {
      counterFor: () => FLAT_COUNTER,
      webLlmRecords: await prebuiltModelRecords(),
      roster: defaultWebLlmRoster(true),
      budgetsMB: [DEFAULT_GPU_BUDGET_MB, 1895.3],
    };
  });

  it('takes the first numeric band-gap candidate as the best-case fact', () => {
    expect(candidateFact(article, bandGap)).toEqual({
      material: 'GaN',
      property: 'band_gap',
      value: 3.4,
      unit: 'eV',
      quote: BAND_GAP_SENTENCE,
    });
    expect(candidateFact(article, density)).toBeNull();
  });

  it('browser preset, worst case: 23 calls; loads measured: 1 at the default budget, 8 one model at a time', async () => {
    // MoA: L·P + 1 = 1·3 + 1 = 4. MCTS (rollouts 4, depth 3, never final): the root has 5 actions,
    // so each of the 4 rollouts expands a new root child (1 call) and simulates depths 2 and 3
    // (2 calls) = 3 calls × 4 = 12. Discriminator: 2 paths = 2. Paths disagree → K = 1 MoA re-run = 4,
    // which agrees at last: the verified triplet's questions, 1 call (discriminator G, loaded).
    // Loads, roster Q (Qwen2.5-1.5B), L (Llama-3.2-1B), G (gemma-2-2b); aggregator and
    // discriminator G, generator Q. 6 144 MB holds all three (4 404.09 MB) → 1 load. 1 895.3 MB →
    // one at a time: MoA Q, L, G (3; the aggregator finds G loaded); MCTS Q (4); discriminator G
    // (5); re-run: G's proposer first (loaded), Q (6), L (7), aggregator G (8).
    const cost = await benchPresetOnArticle(article, BROWSER_PRESET, bandGap, 'worst', context);
    expect(cost).toMatchObject({
      skipped: false,
      calls: 4 + 12 + 2 + 4 + 1,
      modelLoads: 1,
      earlyExit: false,
      refinementRounds: 1,
      questionCalls: 1,
      exactTokens: true,
    });
    expect(cost.measuredLoads).toEqual([
      { budgetMB: 6144, loads: 1 },
      { budgetMB: 1895.3, loads: 8 },
    ]);
    // Each call's usage is recounted with its model's counter: 23 × 100 and 23 × 7.
    expect(cost.promptTokens).toBe(2300);
    expect(cost.completionTokens).toBe(161);
  });

  it('browser preset, best case: the early exit leaves only the MoA calls and 3 one-at-a-time loads', async () => {
    // Unanimous and grounded → MCTS and discriminator skipped; the paths agree → no refinement.
    // Calls: 1·3 + 1 = 4, and 1 for the verified triplet's questions. Loads one at a time: Q, L,
    // G; the aggregator's and the questions' G is loaded.
    const cost = await benchPresetOnArticle(article, BROWSER_PRESET, bandGap, 'best', context);
    expect(cost).toMatchObject({
      skipped: false,
      calls: 5,
      modelLoads: 1,
      earlyExit: true,
      refinementRounds: 0,
      questionCalls: 1,
      promptTokens: 500,
      completionTokens: 35,
    });
    expect(cost.measuredLoads?.map((measured) => measured.loads)).toEqual([1, 3]);
  });

  it('paper preset, worst case: 113 calls, 5 models, K = 3 refinement rounds', async () => {
    // MoA: 3·3 + 1 = 10. MCTS (rollouts 16, depth 5, never final, equal rewards): rollouts 1–5
    // expand the root's 5 children (1 call) and simulate depths 2–5 (4 calls) = 25; rollouts 6–16
    // go to the depth-1 children round-robin (UCT: same mean, the least visited wins), each
    // expanding a depth-2 node (1 call) and simulating depths 3–5 (3 calls) = 11 × 4 = 44.
    // Discriminator: 3 paths = 3. Refinement: K = 3 re-runs × 10 = 30, the last agreeing; then the
    // verified triplet's questions, 1 call. 10 + 69 + 3 + 30 + 1 = 113.
    // Models: Qwen, Mistral, Gemma, Llama-3.2-11B (aggregator and discriminator), Llama-3.1-8B = 5.
    const cost = await benchPresetOnArticle(article, PAPER_PRESET, bandGap, 'worst', context);
    expect(cost).toMatchObject({
      skipped: false,
      calls: 113,
      modelLoads: 5,
      earlyExit: false,
      refinementRounds: 3,
      questionCalls: 1,
      promptTokens: 11300,
    });
    expect(cost.measuredLoads).toBeUndefined();
  });

  it('paper preset, best case: no early exit, each rollout after the fifth ends at a final child', async () => {
    // MoA 10 + MCTS 5 (one expansion per root child; the children are final, so rollouts 6–16
    // select a terminal node and call nothing) + discriminator 3 = 18; the paths agree, and the
    // verified triplet's questions take 1 more call = 19.
    expect(await benchPresetOnArticle(article, PAPER_PRESET, bandGap, 'best', context)).toMatchObject({
      skipped: false,
      calls: 19,
      modelLoads: 5,
      earlyExit: false,
      refinementRounds: 0,
    });
  });

  it('a property the scan does not find makes no call', async () => {
    expect(await benchPresetOnArticle(article, PAPER_PRESET, density, 'worst', context)).toMatchObject({
      skipped: true,
      calls: 0,
      promptTokens: 0,
      modelLoads: 0,
    });
    expect(await benchPresetOnArticle(article, BROWSER_PRESET, density, 'worst', context)).toMatchObject({
      skipped: true,
      calls: 0,
      modelLoads: 0,
      measuredLoads: [
        { budgetMB: 6144, loads: 0 },
        { budgetMB: 1895.3, loads: 0 },
      ],
    });
  });

  it('the real context: exact tokenizers for every model of both presets, budgets 6 144 and 1 895.3 MB', async () => {
    const real = await createPresetBenchContext();
    expect(real.budgetsMB).toEqual([6144, 1895.3]);
    for (const id of [
      'Qwen/Qwen2.5-7B-Instruct',
      'mistralai/Mistral-7B-Instruct-v0.3',
      'google/gemma-2-9b-it',
      'meta-llama/Llama-3.2-11B-Vision-Instruct',
      'meta-llama/Llama-3.1-8B-Instruct',
      ...real.roster.proposers,
    ]) {
      expect(real.counterFor(id).exact, id).toBe(true);
    }
    expect(real.counterFor('unknown-model')).toMatchObject({ exact: false });
    const cost = await benchPresetOnArticle(article, BROWSER_PRESET, bandGap, 'best', real);
    expect(cost.exactTokens).toBe(true);
    // Real prompts are hundreds of tokens each; the template adds a few per call.
    expect(cost.promptTokens).toBeGreaterThan(4 * 200);
    // The calls over one passage to one model share it: a prefix cache serves part of their prompts.
    expect(cost.uncachedPromptTokens).toBeGreaterThan(0);
    expect(cost.uncachedPromptTokens).toBeLessThan(cost.promptTokens);
  }, 60_000);
});

describe('presetFigures', () => {
  const cost = (calls: number, extra: Partial<PresetPaperCost> = {}): PresetPaperCost => ({
    skipped: false,
    readingCalls: 0,
    calls,
    promptTokens: calls * 100,
    uncachedPromptTokens: calls * 40,
    completionTokens: calls * 10,
    exactTokens: true,
    modelLoads: 4,
    earlyExit: false,
    refinementRounds: 1,
    questionCalls: 1,
    ...extra,
  });

  it('reports max, median and total over the papers that made calls, and counts the others', () => {
    const figures = presetFigures(
      'browser',
      'worst',
      [cost(22), cost(0, { skipped: true, modelLoads: 0, refinementRounds: 0 }), cost(4, { earlyExit: true }), cost(10)],
      'before',
    );
    const value = (name: string) =>
      figures.find((figure) => figure.name === `browser preset, worst case, before (scan passage): ${name}`)?.value;
    expect(value('papers with no band-gap candidate (no call)')).toBe(1);
    expect(value('LLM calls per paper (max)')).toBe(22);
    expect(value('LLM calls per paper (median)')).toBe(10);
    expect(value('LLM calls, all papers')).toBe(36);
    expect(value('prompt tokens per paper (median)')).toBe(1000);
    expect(value('papers that exited early (MCTS skipped)')).toBe(1);
    expect(value('Chain-of-Verification calls per paper (max)')).toBe(1);
    expect(figures.find((figure) => figure.name.includes('prompt tokens per paper (max)'))?.unit).toBe(
      "tokens (exact: each model's tokenizer and chat template)",
    );
    expect(figures.some((figure) => figure.name.includes('reading-stage calls'))).toBe(false);
    expect(figures.find((figure) => figure.name.includes('model loads per paper (max)'))).toEqual({
      name: 'browser preset, worst case, before (scan passage): model loads per paper (max)',
      value: 4,
      unit: 'loads (distinct models called; the server loads each once)',
    });
  });

  it('says "estimated" when any paper was counted at chars/4, and gives one load row per measured budget', () => {
    const measured = (first: number, second: number) => ({
      measuredLoads: [
        { budgetMB: 6144, loads: first },
        { budgetMB: 1895.3, loads: second },
      ],
      modelLoads: first,
    });
    const figures = presetFigures('browser', 'worst', [
      cost(22, { ...measured(1, 8), exactTokens: false }),
      cost(4, measured(1, 3)),
      cost(0, { skipped: true, ...measured(0, 0) }),
    ]);
    const figure = (name: string) =>
      figures.find((candidate) => candidate.name === `browser preset, worst case, after (retrieval): ${name}`);
    expect(figure('prompt tokens per paper (max)')?.unit).toBe('tokens (estimated, chars/4 where no tokenizer)');
    expect(figure('model loads per paper (max)')).toMatchObject({
      value: 1,
      unit: 'loads (measured through the scheduler, GPU budget 6144 MB)',
    });
    expect(figure('model loads per paper at a 6144 MB GPU budget (max)')?.value).toBe(1);
    expect(figure('model loads per paper at a 1895.3 MB GPU budget (max)')).toEqual({
      name: 'browser preset, worst case, after (retrieval): model loads per paper at a 1895.3 MB GPU budget (max)',
      value: 8,
      unit: 'loads (measured through the scheduler)',
    });
  });
});

describe('assay bench --presets', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs both presets and both cases on the bandgap-200 papers of --data, with --limit', async () => {
    const root = mkdtempSync(join(tmpdir(), 'assay-bench-presets-'));
    const folder = join(root, 'datasets', 'bandgap-200', 'text-pub');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '1_10.1_a.txt'), ARTICLE_TEXT);
    writeFileSync(
      join(folder, '2_10.1_b.txt'),
      `A paper on nothing\n\n${'The samples were prepared and measured as described in the methods section. '.repeat(8)}\n`,
    );
    writeFileSync(join(folder, '10_10.1_c.txt'), ARTICLE_TEXT);
    const output: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (output.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runBench(['--presets', '--data', root, '--limit', '2', '--json'])).toBe(0);
    const figures = (JSON.parse(output.join('')) as { figures: Array<{ name: string; value: number; unit: string }> }).figures;
    const value = (name: string) => figures.find((figure) => figure.name === name)?.value;
    // The GaN article fits one call, so before and after make the same calls; the other paper has nothing to read.
    // Chain-of-Verification adds one call where a triplet is verified (the worst case agrees in its last round).
    for (const reading of ['before (scan passage)', 'after (retrieval)']) {
      const label = (preset: string, scenario: string) => `${preset} preset, ${scenario} case, ${reading}`;
      expect(value(`${label('paper', 'worst')}: LLM calls per paper (max)`)).toBe(113);
      expect(value(`${label('paper', 'best')}: LLM calls per paper (max)`)).toBe(19);
      expect(value(`${label('browser', 'worst')}: LLM calls per paper (median)`)).toBe(23);
      expect(value(`${label('browser', 'best')}: LLM calls, all papers`)).toBe(5);
      expect(value(`${label('browser', 'best')}: papers that exited early (MCTS skipped)`)).toBe(1);
      expect(value(`${label('browser', 'worst')}: model loads per paper at a 1895.3 MB GPU budget (max)`)).toBe(8);
      expect(value(`${label('browser', 'best')}: model loads per paper at a 1895.3 MB GPU budget (max)`)).toBe(3);
      expect(value(`${label('browser', 'worst')}: model loads per paper (max)`)).toBe(1);
      expect(value(`${label('paper', 'worst')}: model loads per paper (max)`)).toBe(5);
      expect(value(`${label('paper', 'worst')}: Chain-of-Verification calls per paper (max)`)).toBe(1);
      expect(figures.find((figure) => figure.name === `${label('paper', 'worst')}: prompt tokens per paper (max)`)?.unit).toBe(
        "tokens (exact: each model's tokenizer and chat template)",
      );
    }
    const noCall = (reading: string, what: string) =>
      figures.find((figure) => figure.name === `paper preset, worst case, ${reading}: papers with ${what} (no call)`);
    expect(noCall('before (scan passage)', 'no band-gap candidate')).toMatchObject({ value: 1, unit: 'papers of 2' });
    expect(noCall('after (retrieval)', 'nothing relevant to read')).toMatchObject({ value: 1, unit: 'papers of 2' });
    expect(value('browser preset, worst case, after (retrieval): reading-stage calls per paper (max)')).toBe(0);
  }, 120_000);

  it('rejects a bad --limit with exit code 2', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runBench(['--presets', '--limit', '0'])).toBe(2);
  });
});
