/**
 * The SuperMat chain: rules extraction from real SuperMat PDFs into a dataset, then precedent
 * answers from that dataset alone (PDFs and truth read from ../shared; skipped when absent).
 *
 * Hand-checked on the first two papers by stem (SuperMat-2.0.csv lines 270–279, and `npx assay
 * extract <pdf> --schema tc --json`):
 * - 1609.04957-CC annotates "x = 0.14" (up to 40 K), "K y Fe 2−x Se 2" (30 K) and "x = 0.20"
 *   (48 K); its two LaFeAsO1−xHx records ("exceeds 45K") and two records without a material are
 *   not questions. The rules engine extracts KyFe2-xSe2 at 30 K ("Another example is KyFe2-xSe2
 *   with Tc = 30 K") and LaFeAsO1-xHx at 48 K. So KyFe2−xSe2 → Yes 30, score 2, citing this
 *   paper; the two "x = …" questions → Unknown (no row is written that way).
 * - 1903.04321-CC annotates "PdTe 2" (below 1.7 K, read as 1.7) and "Cu-intercalated PdTe 2 with
 *   4% Cu" (2.6 K); "from 1.7 K to 2.4 K" of Cu-intercalated PdTe2 holds no single number. The
 *   engine extracts PdTe2 "from 1.7 K to 2.4 K", cited by its lower end: PdTe2 → Yes 1.7, score 2;
 *   the 4% Cu question → Unknown.
 * Five questions, two answered, both at 2: mean 0.8, coverage 40%, strict P 2/2, R 2/5.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { captureFile } from '../../../src/cli/capture-command';
import { runEval } from '../../../src/cli/eval-command';
import type { Triplet } from '../../../src/contracts/triplet';
import { rulesEngine } from '../../../src/eval/rules-engine';
import { chainQuestions } from '../../../src/eval/supermat-chain/supermat-chain-dataset';
import { evaluateSupermatChain } from '../../../src/eval/supermat-chain/supermat-chain-evaluation';
import { sharedDataSkipReason, sharedRoot } from '../../support/shared-data';

const skip = sharedDataSkipReason();

describe('chainQuestions', () => {
  it('makes one Yes question per material across papers, values in K, a range by its lower end', () => {
    const questions = chainQuestions([
      {
        stem: 'A',
        unreadable: 0,
        truths: [
          { aliases: ['MgB 2', 'MgB2'], property: 'tc', value: { kind: 'number', value: 39 }, unit: 'K' },
          { aliases: ['UPt 3', 'UPt3'], property: 'tc', value: { kind: 'number', value: 530 }, unit: 'mK' },
        ],
      },
      { stem: 'B', unreadable: 0, truths: [{ aliases: ['B2Mg'], property: 'tc', value: { kind: 'range', low: 38, high: 40 }, unit: 'K' }] },
    ]);
    expect(questions).toEqual([
      { material: 'MgB2', aliases: ['MgB 2', 'MgB2', 'B2Mg'], values: [39, 38], unconverted: 0, papers: ['A', 'B'] },
      // The unit table does not read "mK" (K takes no prefix there): counted, not guessed.
      { material: 'UPt3', aliases: ['UPt 3', 'UPt3'], values: [], unconverted: 1, papers: ['A'] },
    ]);
  });
});

describe.skipIf(skip !== undefined)(`supermat-chain on real SuperMat PDFs${skip ? ` (${skip})` : ''}`, () => {
  it('answers the first two papers’ materials from the rules dataset, citing the paper they came from', async () => {
    const result = await evaluateSupermatChain({
      dataRoot: sharedRoot,
      engine: { name: 'rules', ...rulesEngine() },
      capture: (path) => captureFile(path),
      limit: 2,
    });
    expect(result.extracted).toEqual({ papers: 2, papersWithDoi: 0, triplets: 3, verifiedRows: 3 });
    expect(result.perQuestion.map((item) => [item.material, item.answer, item.value, item.score, item.cited])).toEqual([
      ['x = 0.14', 'Unknown', undefined, 0, []],
      ['KyFe2−xSe2', 'Yes', 30, 2, ['1609.04957-CC']],
      ['x = 0.20', 'Unknown', undefined, 0, []],
      ['PdTe2', 'Yes', 1.7, 2, ['1903.04321-CC']],
      ['Cu-intercalated PdTe2 with 4% Cu', 'Unknown', undefined, 0, []],
    ]);
    expect(result).toMatchObject({
      n: 5,
      meanScore: 0.8,
      scoreCounts: { 0: 3, 1: 0, 2: 2 },
      coverage: 0.4,
      rightPaperShare: 1,
      groundedShare: 1,
      doiShare: 0,
      strict: { predictions: 2, truths: 5, matched: 2, precision: 1, recall: 0.4 },
      precision: 1,
      recall: 0.4,
    });
    expect(result.predictions[1]).toMatchObject({
      paper: 'KyFe2−xSe2',
      value: { kind: 'number', value: 30 },
      quote: expect.stringContaining('KyFe2-xSe2 with Tc = 30 K'),
      status: 'Yes',
    });
    expect(result.truths[3]).toMatchObject({ paper: 'PdTe2', aliases: ['PdTe 2', 'PdTe2'], answer: 'Yes', values: [1.7] });
  }, 20_000);

  it('answers nothing from rows the grounding gate did not verify', async () => {
    const result = await evaluateSupermatChain({
      dataRoot: sharedRoot,
      engine: { name: 'rules', ...rulesEngine(), isGrounded: () => false },
      capture: (path) => captureFile(path),
      limit: 1,
    });
    expect(result.extracted).toMatchObject({ triplets: 2, verifiedRows: 0 });
    expect(result).toMatchObject({ n: 3, coverage: 0, meanScore: 0 });
  }, 20_000);
});

describe('assay eval supermat-chain', () => {
  it('prints one JSON document with the figures, predictions and truths', async () => {
    // A self-made root: one SuperMat record and one "PDF" that is plain text (capture reads the
    // content, not the extension); the engine double reports the record's Tc with its sentence.
    const root = mkdtempSync(join(tmpdir(), 'assay-chain-'));
    mkdirSync(join(root, 'datasets', 'supermat'), { recursive: true });
    mkdirSync(join(root, 'fixtures', 'pdf', 'supercon'), { recursive: true });
    writeFileSync(
      join(root, 'datasets', 'supermat', 'SuperMat-2.0.csv'),
      'id,material,tcValue,pressure,me_method,filename\n,MgB 2 ,39 K,,,P1.superconductors.tei.xml\n,NbN,16 K,,,P1.superconductors.tei.xml\n',
    );
    const sentence = 'MgB2 becomes superconducting at 39 K.';
    const filler = 'The samples were prepared and measured as described in the methods section. '.repeat(8);
    writeFileSync(join(root, 'fixtures', 'pdf', 'supercon', 'supermat__P1.pdf'), `A test paper\n\n${sentence}\n\n${filler}\n`);
    const triplet: Triplet = {
      material: 'MgB2',
      property: 'tc',
      value: { kind: 'number', value: 39 },
      unit: 'K',
      evidence: { quote: { type: 'TextQuoteSelector', exact: sentence, prefix: '', suffix: '' } },
      engine: 'double',
    };
    const engine = async () => ({ extractor: async () => [triplet], isGrounded: () => true });
    const stdout: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const noScorer = async () => Promise.reject(new Error('supermat-chain does not use the triplet scorer'));
    const code = await runEval(['supermat-chain', '--data', root, '--engine', 'double', '--json'], {
      scorerDependencies: noScorer,
      engines: { double: engine },
    });
    vi.restoreAllMocks();
    expect(code).toBe(0);
    const result = JSON.parse(stdout.join(''));
    // MgB2 → Yes 39 (score 2, citing P1 by title); NbN → Unknown (0): mean 1, coverage 1/2.
    expect(result).toMatchObject({
      dataset: 'supermat-chain',
      split: 'dev',
      engine: 'double',
      n: 2,
      meanScore: 1,
      coverage: 0.5,
      rightPaperShare: 1,
      groundedShare: 1,
      strict: { precision: 1, recall: 0.5, f1: 2 / 3 },
      lenient: { precision: 1, recall: 0.5 },
      precision: 1,
      recall: 0.5,
    });
    expect(result.predictions).toEqual([
      expect.objectContaining({
        paper: 'MgB2',
        material: 'MgB2',
        property: 'tc',
        value: { kind: 'number', value: 39 },
        unit: 'K',
        quote: sentence,
        status: 'Yes',
      }),
      expect.objectContaining({ paper: 'NbN', value: 'Unknown', quote: null, status: 'Unknown' }),
    ]);
    expect(result.truths.map((truth: { paper: string; values: number[] }) => [truth.paper, truth.values])).toEqual([
      ['MgB2', [39]],
      ['NbN', [16]],
    ]);
  });
});
