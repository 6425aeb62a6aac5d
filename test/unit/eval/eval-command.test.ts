/**
 * `assay eval` on a tiny self-made data root (files shaped like bandgap-200's), with the test
 * doubles for unit conversion and material equality injected.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runEval, type EvalCommandDependencies } from '../../../src/cli/eval-command';
import type { Article } from '../../../src/contracts/article';
import { defineEvaluator } from '../../../src/eval/evaluator';
import { EVALUATORS } from '../../../src/eval/evaluators';
import type { Triplet } from '../../../src/contracts/triplet';
import { testDependencies } from './scorer-doubles';
import { capturedOutput } from '../../support/captured-output';

let dataRoot = '';

beforeAll(() => {
  dataRoot = mkdtempSync(join(tmpdir(), 'assay-eval-'));
  const folder = join(dataRoot, 'datasets', 'bandgap-200');
  mkdirSync(join(folder, 'recorded-pub', '3-ChatExtract'), { recursive: true });
  mkdirSync(join(folder, 'recorded-pub', '4-LangChain'), { recursive: true });
  mkdirSync(join(folder, 'text-pub'));
  writeFileSync(
    join(folder, 'manual_pub__manual.csv'),
    `index,doi,material,Error Class,,Position Class,,Value Class,,Manual,source,,
1,10.1/a,,,,,,,,,,,
2,10.1/b,ZnO,,,1,,1,,3.4,"the ZnO band gap (3.4 eV)",,
3,10.1/c,SrTiO3,,,1,,1,,3,"the non-doped 3 eV bandgap insulator",,
`,
  );
  writeFileSync(
    join(folder, 'recorded-pub', '3-ChatExtract', '2_extracted_qwen2.5-14b_CE_3_0921-0950.csv'),
    `passage,sentence,doi,material,value,unit,material_valid,value_valid,unit_valid
p,s,2/10.1/b,ZnO,3.4,eV,1,1,1
p,s,3/10.1/c,SrTiO3,3.2,eV,1,1,1
`,
  );
  // Capture refuses very short texts, so each paper gets a title and a filler paragraph.
  const paperText = (sentence: string) =>
    `A test paper\n\n${sentence}\n\n${'The samples were prepared and measured as described in the methods section. '.repeat(8)}\n`;
  writeFileSync(join(folder, 'text-pub', '1_10.1_a.txt'), paperText('A paper about nothing in particular.'));
  writeFileSync(join(folder, 'text-pub', '2_10.1_b.txt'), paperText('This is not driven by excitations across the ZnO band gap (3.4 eV).'));
  writeFileSync(join(folder, 'text-pub', '3_10.1_c.txt'), paperText('SrTiO3 is the non-doped 3 eV bandgap insulator.'));
  writeFileSync(
    join(folder, 'recorded-pub', '4-LangChain', 'output_LC_12_0620-1606.csv'),
    'doi,output,status\n2/10.1/b,"| Material | Value | Unit |\n|---|---|---|\n| ZnO | 3.4 | eV |",1\n',
  );
});

const dependencies: EvalCommandDependencies = { scorerDependencies: async () => testDependencies, engines: {} };

const capture = capturedOutput;

afterEach(() => vi.restoreAllMocks());

describe('runEval bandgap-200', () => {
  it('prints one JSON document with the scores of a replay', async () => {
    const output = capture();
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--replay', 'chatextract-qwen2.5-14b', '--json'], dependencies)).toBe(0);
    const result = JSON.parse(output.stdout.join(''));
    expect(result).toMatchObject({
      dataset: 'bandgap-200',
      split: 'dev',
      version: 'pub',
      replay: 'chatextract-qwen2.5-14b',
      n: 3,
      matched: 1,
      precision: 0.5,
      recall: 0.5,
      strict: { predictions: 2, truths: 2, matched: 1, precision: 0.5, recall: 0.5, f1: 0.5 },
      lenient: { predictions: 2, truths: 2, matched: 1 },
    });
    expect(result.f1At).toEqual({ '0.1%': 0.5, '1%': 0.5, '10%': 1 });
    // Re-scorable: every prediction and truth with its paper, beside the scores.
    expect(result.predictions).toEqual([
      {
        paper: '2/10.1/b',
        material: 'ZnO',
        property: 'band_gap',
        value: { kind: 'number', value: 3.4 },
        valueText: '3.4',
        unit: 'eV',
        quote: 's',
        status: 'recorded',
        // What it matched under strict scoring (issue 26): the truth, with its index in `truths`.
        matched: {
          paper: '2/10.1/b',
          aliases: ['ZnO'],
          property: 'band_gap',
          value: { kind: 'number', value: 3.4 },
          valueText: '3.4',
          unit: 'eV',
          index: 0,
        },
      },
      {
        paper: '3/10.1/c',
        material: 'SrTiO3',
        property: 'band_gap',
        value: { kind: 'number', value: 3.2 },
        valueText: '3.2',
        unit: 'eV',
        quote: 's',
        status: 'recorded',
        matched: null,
        nearest: {
          paper: '3/10.1/c',
          aliases: ['SrTiO3'],
          property: 'band_gap',
          value: { kind: 'number', value: 3 },
          valueText: '3',
          unit: 'eV',
          index: 1,
        },
        why: 'value 3.2 eV vs 3 eV',
      },
    ]);
    expect(result.truths).toEqual([
      { paper: '2/10.1/b', aliases: ['ZnO'], property: 'band_gap', value: { kind: 'number', value: 3.4 }, valueText: '3.4', unit: 'eV' },
      { paper: '3/10.1/c', aliases: ['SrTiO3'], property: 'band_gap', value: { kind: 'number', value: 3 }, valueText: '3', unit: 'eV' },
    ]);
    expect(result.papers.map((paper: { paper: string }) => paper.paper)).toEqual(['1/10.1/a', '2/10.1/b', '3/10.1/c']);
  });

  it('--limit N scores the first N papers only', async () => {
    const output = capture();
    expect(
      await runEval(['bandgap-200', '--data', dataRoot, '--replay', 'chatextract-qwen2.5-14b', '--limit', '2', '--json'], dependencies),
    ).toBe(0);
    expect(JSON.parse(output.stdout.join(''))).toMatchObject({ n: 2, strict: { predictions: 1, truths: 1, matched: 1 }, f1: 1 });
  });

  it('prints a Markdown table without --json', async () => {
    const output = capture();
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--replay', 'langchain-12'], dependencies)).toBe(0);
    expect(output.stdout.join('')).toMatch(
      /^\| tool \| version .*\n\|---.*\n\| langchain-12 \| pub \| 3 \| 1 \| 2 \| 1 \| 100\.0 \| 50\.0 \| 66\.7 \|/,
    );
  });

  it('runs an injected engine on the captured texts and reports its grounding rate', async () => {
    const output = capture();
    const engine = {
      // A double that reads "<material> ... (<value> eV)" crudely: enough to exercise the path.
      extractor: async (article: Article): Promise<Triplet[]> => {
        const match = /(ZnO|SrTiO3)\D*?(\d+(?:\.\d+)?) eV/.exec(article.text);
        return match
          ? [
              {
                material: match[1]!,
                property: 'band_gap',
                value: { kind: 'number', value: Number(match[2]) },
                unit: 'eV',
                engine: 'double',
              },
            ]
          : [];
      },
      isGrounded: (triplet: Triplet) => triplet.material === 'ZnO',
    };
    const withEngine = { ...dependencies, engines: { double: async () => engine } };
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--engine', 'double', '--json'], withEngine)).toBe(0);
    expect(JSON.parse(output.stdout.join(''))).toMatchObject({
      engine: 'double',
      n: 3,
      strict: { predictions: 2, truths: 2, matched: 2 },
      matched: 2,
      f1: 1,
      groundingRate: 0.5,
    });
    expect(output.stderr.join('')).toMatch(/\[3\/3\] 3\/10\.1\/c/);
  });

  it('--engine scripted runs SLM-MATRIX per paper: verified triplets are the predictions, calls are totalled', async () => {
    // Every role of every call states ZnO's 3.4 eV with the sentence of paper 2.
    const fact = { material: 'ZnO', property: 'band_gap', unit: 'eV', quote: 'the ZnO band gap (3.4 eV)' };
    const script = join(dataRoot, 'zno-script.json');
    writeFileSync(
      script,
      JSON.stringify({
        fallback: {
          proposer: { triplets: [{ ...fact, value: '3.4' }] },
          aggregator: { triplets: [{ ...fact, value: '3.4' }] },
          generator: { text: 'ZnO has a band gap of 3.4 eV.', materials: ['ZnO'], triplets: [{ ...fact, value: 3.4 }], final: true },
          discriminator: { triplets: [{ ...fact, value: 3.4 }] },
        },
      }),
    );
    const output = capture();
    expect(
      await runEval(
        ['bandgap-200', '--data', dataRoot, '--engine', 'scripted', '--script', script, '--preset', 'browser', '--json'],
        dependencies,
      ),
    ).toBe(0);
    const result = JSON.parse(output.stdout.join(''));
    // Paper 2: verified (grounds). Paper 3: the paths agree but the quote is not in it → rejected.
    expect(result).toMatchObject({
      engine: 'scripted',
      n: 3,
      strict: { predictions: 1, truths: 2, matched: 1 },
      matched: 1,
      precision: 1,
      recall: 0.5,
      groundingRate: 1,
    });
    // Browser preset (L = 1, P = 3, rollouts 4, paths 2, K = 1). Paper 1: no candidate, no call.
    // Paper 2: unanimous and grounded → early exit after the MoA's 3 + 1 calls = 4; then
    // Chain-of-Verification asks the discriminator once about the verified band gap, and as this
    // script's discriminator answers with triplets rather than answers, the call is repaired once
    // and its answers are dropped: 4 + 2 = 6.
    // Paper 3: unanimous but not grounded → MoA 4 + MCTS 4 (each rollout expands one root child,
    // final at once) + discriminator 2 = 10; the paths agree, so no refinement; rejected, so no
    // questions. 6 + 10 = 16.
    expect(result.llm).toEqual({
      engine: 'scripted',
      preset: 'browser',
      papers: 3,
      calls: 16,
      promptTokens: expect.any(Number),
      completionTokens: expect.any(Number),
    });
    expect(result.llm.promptTokens).toBeGreaterThan(0);
  });

  it('--engine openai without --base-url fails with one usage line', async () => {
    const output = capture();
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--engine', 'openai', '--json'], dependencies)).toBe(2);
    expect(output.stdout.join('')).toBe('');
    expect(output.stderr.join('')).toMatch(/^assay eval: --engine openai needs --base-url URL/);
  });

  it('hands other datasets to their injected evaluator, with --limit', async () => {
    const output = capture();
    const seen: unknown[] = [];
    const toy = defineEvaluator({
      name: 'toy',
      summary: 'a test double',
      flags: {},
      needs: { texts: 'none' },
      run: async ({ dataset, dataRoot: root, limit }) => {
        seen.push([root, { limit }]);
        return { json: { dataset, split: 'dev', f1: 1 }, markdown: '' };
      },
    });
    const withDataset = { ...dependencies, evaluators: EVALUATORS.with(toy) };
    expect(await runEval(['toy', '--data', dataRoot, '--limit', '3', '--json'], withDataset)).toBe(0);
    expect(JSON.parse(output.stdout.join(''))).toEqual({ dataset: 'toy', split: 'dev', f1: 1 });
    expect(seen).toEqual([[dataRoot, { limit: 3 }]]);
  });

  it('cornell-tc answers from the table given by --reference, leave-one-out unless --oracle-full-table', async () => {
    // Rows from cornell-scillm/tc-precedent-search/SuperCon_Tc_Tcn_dev-set.csv lines 2 and 4.
    const header =
      'refno,material,property_name,property_value,property_unit,Has material been reported to be superconducting?,What is the highest measured Tc?,What is the lowest temp for measurement at which material was not superconducting?,file';
    const folder = join(dataRoot, 'datasets', 'cornell-scillm', 'tc-precedent-search');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'SuperCon_Tc_Tcn_dev-set.csv'),
      `${header}\nAAC6220123,Y2I2C2,tc,9.85,K,Yes,9.85,,\nPHC2570086,Ga1Sr2Y1Cu2O7,tcn,5.0,K,No,,5.0,\n`,
    );
    // The only row answering Y2I2C2 is written differently but has its reference code: the oracle
    // finds it (score 2); leave-one-out leaves every row of AAC6220123 out (score 0, Unknown).
    const reference = join(dataRoot, 'other-table.csv');
    writeFileSync(reference, `${header}\nAAC6220123,C2Y2I2,tc,9.85,K,Yes,9.85,,\n`);
    const output = capture();
    expect(await runEval(['cornell-tc', '--data', dataRoot, '--reference', reference, '--oracle-full-table'], dependencies)).toBe(0);
    expect(output.stdout.join('')).toMatch(/\| oracle-full-table \| 2 \| 1\.00 \|.*\| 50\.0% \| 100\.0% \|/);
    const oracle = capture();
    const args = ['cornell-tc', '--data', dataRoot, '--reference', reference, '--limit', '1', '--json'];
    expect(await runEval([...args, '--oracle-full-table'], dependencies)).toBe(0);
    expect(JSON.parse(oracle.stdout.join(''))).toMatchObject({
      dataset: 'cornell-tc',
      split: 'dev',
      setup: 'oracle-full-table',
      n: 1,
      meanScore: 2,
      scoreCounts: { 0: 0, 1: 0, 2: 1 },
      coverage: 1,
      groundedShare: 1,
      precision: 1,
      strict: { precision: 1, recall: 1, predictions: 1, truths: 1, matched: 1 },
      lenient: { matched: 1 },
      predictions: [
        {
          paper: 'AAC6220123/Y2I2C2',
          material: 'Y2I2C2',
          property: 'tc',
          value: { kind: 'number', value: 9.85 },
          unit: 'K',
          status: 'Yes',
        },
      ],
      truths: [{ paper: 'AAC6220123/Y2I2C2', aliases: ['Y2I2C2'], property: 'tc', unit: 'K', answer: 'Yes' }],
    });
    const held = capture();
    expect(await runEval(args, dependencies)).toBe(0);
    expect(JSON.parse(held.stdout.join(''))).toMatchObject({
      setup: 'leave-one-out',
      n: 1,
      excludedRows: { total: 1, max: 1 },
      meanScore: 0,
      scoreCounts: { 0: 1, 1: 0, 2: 0 },
      coverage: 0,
      strict: { precision: 0, recall: 0, predictions: 0, truths: 1, matched: 0 },
      predictions: [{ value: 'Unknown', quote: null, status: 'Unknown' }],
    });
  });

  it('--all-replays prints one table with every replay', async () => {
    const output = capture();
    const only = { ...dependencies, engines: {} };
    // The tiny root has only two recorded files: the others fail, so check the error is clear.
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--all-replays'], only)).toBe(1);
    expect(output.stderr.at(-1)).toMatch(/expected one 2_extracted_llama2-13b_\*\.csv/);
  });

  it.each([
    [['bandgap-200', '--data', 'DATA', '--replay', 'nope'], /unknown replay "nope"/, 2],
    [['bandgap-200', '--data', 'DATA', '--engine', 'rules'], /engine "rules" is not available/, 2],
    [['bandgap-200', '--data', 'DATA', '--replay', 'langchain-12', '--limit', '0'], /--limit must be a positive integer/, 2],
    [['bandgap-200', '--data', 'DATA', '--replay', 'langchain-12', '--version', 'draft'], /--version must be pub or arxiv/, 2],
    [
      ['llm-nerre-doping', '--data', 'DATA'],
      /^assay eval: llm-nerre-doping is scored on model output: give --predictions FILE or --baseline formula-hosts \(no engine of this build extracts hosts and dopants\)\n$/,
      2,
    ],
    [['llm-nerre-doping', '--data', 'DATA', '--engine', 'openai'], /scored on model output/, 2],
    [['llm-nerre-doping', '--data', 'DATA', '--baseline', 'random'], /unknown baseline "random"/, 2],
    [
      ['bandgap-200', '--data', 'DATA', '--predictions', 'x.jsonl'],
      /apply to llm-nerre-doping, llm-nerre-general and llm-nerre-mof only/,
      2,
    ],
    [['cornell-tc', '--data', 'DATA', '--engine', 'rules'], /answers from the reference table/, 2],
    [['bandgap-200', '--data', 'DATA', '--reference', 'x.csv'], /--reference applies to cornell-tc only/, 2],
    [['bandgap-200', '--data', 'DATA', '--oracle-full-table'], /--oracle-full-table applies to cornell-tc only/, 2],
    [['cornell-tc', '--data', join(tmpdir(), 'assay-no-such-root')], /ENOENT|no such file/i, 1],
    [['supermat', '--data', 'DATA', '--replay', 'langchain-12'], /no recorded tools/, 2],
    [['no-such-set'], /unknown dataset/, 2],
    [['bandgap-200', '--data', 'DATA', '--replay-vote', 'langchain-12'], /--replay-vote takes two or more replay names/, 2],
    [['bandgap-200', '--data', 'DATA', '--replay-vote', 'langchain-12,nope'], /--replay-vote takes two or more replay names/, 2],
    [['supermat', '--data', 'DATA', '--replay-vote', 'langchain-12,langchain-22'], /applies to bandgap-200 only/, 2],
    [['bandgap-200', '--data', 'DATA', '--replay', 'langchain-12', '--version', 'arxiv'], /ENOENT|no such file/i, 1],
  ])('%j fails with one clear line', async (argv, message, code) => {
    const output = capture();
    expect(
      await runEval(
        argv.map((item) => (item === 'DATA' ? dataRoot : item)),
        dependencies,
      ),
    ).toBe(code);
    expect(output.stdout.join('')).toBe('');
    expect(output.stderr).toHaveLength(1);
    expect(output.stderr[0]).toMatch(message);
  });
});

describe('runEval --attribution', () => {
  it('prints the attribution figures with the keys of the command contract', async () => {
    const output = capture();
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--attribution', '--json'], dependencies)).toBe(0);
    const result = JSON.parse(output.stdout.join(''));
    expect(result).toMatchObject({ dataset: 'bandgap-200', split: 'dev', version: 'pub', truths: 2 });
    for (const key of ['truthAccepted', 'swapsRejected', 'truths', 'swaps']) expect(result).toHaveProperty(key);
    expect(result.byKind).toEqual({ material: expect.any(Object), property: expect.any(Object), condition: expect.any(Object) });
    expect(result.factCheck).toMatchObject({
      truths: 2,
      ok: expect.any(Number),
      needsReview: expect.any(Number),
      rejected: expect.any(Number),
    });
    expect(result.byKind.material).toEqual({ swaps: expect.any(Number), rejected: expect.any(Number) });
    expect(result.truthAccepted).toBe(1);
  });

  it('refuses a dataset it does not measure, and polyie with a replay (it has no recorded tools)', async () => {
    const output = capture();
    expect(await runEval(['cornell-tc', '--data', dataRoot, '--attribution', '--json'], dependencies)).toBe(2);
    expect(await runEval(['polyie', '--data', dataRoot, '--replay', 'langchain-12', '--json'], dependencies)).toBe(2);
    expect(output.stderr.join('')).toMatch(/polyie has no recorded tools/);
  });
});

describe('runEval --context', () => {
  it('prints context recall with the keys of the command contract: the pipeline on top, the passages of before beside it', async () => {
    const output = capture();
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--context', '--json'], dependencies)).toBe(0);
    const result = JSON.parse(output.stdout.join(''));
    expect(result).toMatchObject({ dataset: 'bandgap-200', split: 'dev', version: 'pub', preset: 'browser', calls: 'pipeline', truths: 2 });
    expect(result.passages).toMatchObject({ maxPassageChars: 4000, truths: 2, locatable: 2, inContext: 2, callsPerPaper: { median: 1 } });
    expect(result.maxCallsPerPaper).toBeGreaterThanOrEqual(result.callsPerPaper.median);
    for (const key of ['contextRecall', 'locatable', 'inContext', 'truths']) expect(result).toHaveProperty(key);
    expect(result.promptTokensPerCall).toEqual({ median: expect.any(Number), p90: expect.any(Number) });
    expect(result.callsPerPaper).toEqual({ median: expect.any(Number) });
    // Both band gaps are stated in a sentence that names the material, and both reach a call.
    expect(result).toMatchObject({ locatable: 2, inContext: 2, contextRecall: 1 });
    expect(result.retrieval).toMatchObject({ k: 9, maxTokensPerCall: 1200, locatable: 2, inContext: 2 });
    expect(result.curve.map((point: { k: number | null }) => point.k)).toEqual([3, 6, 9, 12, 18, null, 9, 9, 9]);
    expect(result.promptTokensPerCall.median).toBeGreaterThan(100);
    expect(result.maxReadingCalls).toBe(7);
  });

  it('reads with the cap --reading-calls gives, and says which', async () => {
    const output = capture();
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--context', '--reading-calls', '2', '--json'], dependencies)).toBe(0);
    expect(JSON.parse(output.stdout.join(''))).toMatchObject({ maxReadingCalls: 2, locatable: 2 });
  });

  it('refuses a dataset it does not measure, a bad --k and a bad --reading-calls', async () => {
    capture();
    expect(await runEval(['cornell-tc', '--data', dataRoot, '--context', '--json'], dependencies)).toBe(2);
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--context', '--k', '0', '--json'], dependencies)).toBe(2);
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--context', '--reading-calls', '0', '--json'], dependencies)).toBe(2);
  });
});
