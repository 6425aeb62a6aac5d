/**
 * `assay eval bandgap-200 --halves`: the odd/even split of the dev papers is fixed, disjoint and
 * covers the split; each half is scored like a whole run and the halves add up to it. On a tiny
 * self-made data root through `runEval` (the JSON keys), and on the real bandgap-200 pub truth
 * with an oracle engine (skipped when the shared data is absent).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runEval, type EvalCommandDependencies } from '../../../src/cli/eval-command';
import type { Article } from '../../../src/contracts/article';
import type { Triplet } from '../../../src/contracts/triplet';
import { HALVES, HALVING, evaluateBandgapHalves } from '../../../src/eval/bandgap/bandgap-halves';
import { loadBandgapTruth } from '../../../src/eval/bandgap/bandgap-dataset';
import { loadScorerDependencies } from '../../../src/eval/scorer-dependencies';
import { sharedDataSkipReason, sharedRoot } from '../../support/shared-data';
import { articleFromBlocks, paragraph } from '../text/article-from-blocks';
import { testDependencies } from './scorer-doubles';

const bandGap = (material: string, value: number, valueText = String(value)): Triplet => ({
  material,
  property: 'band_gap',
  value: { kind: 'number', value },
  unit: 'eV',
  valueText,
  engine: 'double',
});

describe('HALVES', () => {
  it('puts every paper index in exactly one half, by parity', () => {
    for (let index = 1; index <= 200; index += 1) {
      const names = HALVES.filter((half) => half.includes(index)).map((half) => half.name);
      expect(names).toEqual([index % 2 === 1 ? 'odd' : 'even']);
    }
    expect(HALVING).toMatch(/parity/);
  });
});

describe('runEval bandgap-200 --halves', () => {
  let dataRoot = '';
  beforeAll(() => {
    dataRoot = mkdtempSync(join(tmpdir(), 'assay-halves-'));
    const folder = join(dataRoot, 'datasets', 'bandgap-200');
    mkdirSync(join(folder, 'text-pub'), { recursive: true });
    writeFileSync(
      join(folder, 'manual_pub__manual.csv'),
      `index,doi,material,Error Class,,Position Class,,Value Class,,Manual,source,,
1,10.1/a,,,,,,,,,,,
2,10.1/b,ZnO,,,1,,1,,3.4,"the ZnO band gap (3.4 eV)",,
3,10.1/c,SrTiO3,,,1,,1,,3,"the non-doped 3 eV bandgap insulator",,
`,
    );
    // Capture refuses very short texts, so each paper gets a title and a filler paragraph.
    const paperText = (sentence: string) =>
      `A test paper\n\n${sentence}\n\n${'The samples were prepared and measured as described in the methods section. '.repeat(8)}\n`;
    writeFileSync(join(folder, 'text-pub', '1_10.1_a.txt'), paperText('A paper about nothing in particular.'));
    writeFileSync(join(folder, 'text-pub', '2_10.1_b.txt'), paperText('The ZnO band gap is 3.4 eV.'));
    writeFileSync(join(folder, 'text-pub', '3_10.1_c.txt'), paperText('SrTiO3 is a 3.2 eV bandgap insulator.'));
  });
  afterEach(() => vi.restoreAllMocks());

  it('prints the whole run and the odd and even halves, each scored like a run', async () => {
    // The double reads the paper: ZnO 3.4 eV (right, paper 2) and SrTiO3 3.2 eV (wrong: truth 3 eV, paper 3).
    const extractor = async (article: Article) => [
      ...(article.text.includes('ZnO band gap') ? [bandGap('ZnO', 3.4)] : []),
      ...(article.text.includes('SrTiO3 is') ? [bandGap('SrTiO3', 3.2)] : []),
    ];
    const dependencies: EvalCommandDependencies = {
      scorerDependencies: async () => testDependencies,
      engines: { double: async () => ({ extractor, isGrounded: () => true }) },
    };
    const stdout: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--engine', 'double', '--halves', '--json'], dependencies)).toBe(0);
    const result = JSON.parse(stdout.join(''));
    expect(result).toMatchObject({ dataset: 'bandgap-200', split: 'dev', version: 'pub', engine: 'double', halving: HALVING });
    expect(result.all.strict).toMatchObject({ predictions: 2, truths: 2, matched: 1 });
    // Odd: papers 1 and 3 — one wrong prediction, one truth. Even: paper 2 — one right prediction.
    const [odd, even] = result.halves;
    expect(odd).toMatchObject({ name: 'odd', n: 2, strict: { predictions: 1, truths: 1, matched: 0 }, lenient: { matched: 0 } });
    expect(even).toMatchObject({ name: 'even', n: 1, strict: { predictions: 1, truths: 1, matched: 1, precision: 1, recall: 1, f1: 1 } });
    expect(even.groundingRate).toBe(1);
    expect(odd.papers.map((paper: { paper: string }) => paper.paper)).toEqual(['1/10.1/a', '3/10.1/c']);
    expect(even.predictions).toEqual([expect.objectContaining({ paper: '2/10.1/b', material: 'ZnO', status: 'extracted' })]);
    expect(even.truths).toEqual([expect.objectContaining({ paper: '2/10.1/b', aliases: ['ZnO'] })]);
  });

  it('refuses --halves with a replay and on another dataset', async () => {
    const dependencies: EvalCommandDependencies = { scorerDependencies: async () => testDependencies, engines: {} };
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runEval(['bandgap-200', '--data', dataRoot, '--replay', 'langchain-12', '--halves', '--json'], dependencies)).toBe(2);
    expect(await runEval(['cornell-tc', '--data', dataRoot, '--halves', '--json'], dependencies)).toBe(2);
  });
});

const skip = sharedDataSkipReason();
describe.skipIf(skip !== undefined)(`bandgap-200 pub halves on the real truth${skip ? ` (${skip})` : ''}`, () => {
  it('splits the 100 papers into two disjoint halves of 50 that cover the split and add up to the whole run', async () => {
    const papers = await loadBandgapTruth(sharedRoot, 'pub');
    const truthsOf = new Map(papers.map((paper) => [paper.index, paper.truths]));
    const indexOf = new WeakMap<Article, number>();
    // An oracle engine: each paper's first truth as written (material = its first alias), plus a
    // decoy that matches nothing (Si at 99 eV) in every paper. The text is read only to capture.
    const capture = async (path: string) => {
      const article = articleFromBlocks([paragraph(await readFile(path, 'utf8'))]);
      indexOf.set(article, Number(/^(\d+)_/.exec(basename(path))![1]));
      return article;
    };
    const extractor = async (article: Article) => {
      const [first] = truthsOf.get(indexOf.get(article)!) ?? [];
      const value = first?.value.kind === 'number' ? first.value.value : undefined;
      return [
        ...(first && value !== undefined ? [{ ...bandGap(first.aliases[0]!, value, first.valueText), value: first.value }] : []),
        bandGap('Si', 99),
      ];
    };
    const result = await evaluateBandgapHalves({
      dataRoot: sharedRoot,
      version: 'pub',
      source: { kind: 'engine', name: 'oracle', extractor, capture },
      dependencies: await loadScorerDependencies(sharedRoot),
    });

    const [odd, even] = result.halves;
    const ids = (half: typeof odd) => half.papers.map((paper) => Number(paper.paper.split('/')[0]));
    expect(ids(odd).every((index) => index % 2 === 1)).toBe(true);
    expect(ids(even).every((index) => index % 2 === 0)).toBe(true);
    expect(ids(odd).filter((index) => ids(even).includes(index))).toEqual([]);
    expect([...ids(odd), ...ids(even)].sort((a, b) => a - b)).toEqual(papers.map((paper) => paper.index));
    expect([odd.n, even.n]).toEqual([50, 50]);
    // Hand-checked with a short Python count over manual_pub__manual.csv (rows with a material,
    // by index parity): 33 truths on odd papers, 53 on even; papers with at least one truth: 8
    // odd, 9 even, whose first truths are all single numbers (three written "~1.4"-style), so the
    // oracle matches each once.
    // Predictions: 50 decoys per half plus one oracle triplet per paper with a truth.
    expect(odd.strict).toMatchObject({ predictions: 58, truths: 33, matched: 8 });
    expect(even.strict).toMatchObject({ predictions: 59, truths: 53, matched: 9 });
    expect(odd.lenient.matched).toBe(8);
    expect(even.lenient.matched).toBe(9);
    expect(result.all.strict).toMatchObject({ predictions: 117, truths: 86, matched: 17 });
    expect(odd.predictions.every((prediction) => Number(prediction.paper.split('/')[0]) % 2 === 1)).toBe(true);
    expect(even.truths.every((truth) => Number(truth.paper.split('/')[0]) % 2 === 0)).toBe(true);
  }, 20_000);
});
