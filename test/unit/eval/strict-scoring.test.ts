/**
 * Strict versus lenient scoring (issue 12) on real rows of ../shared/datasets/bandgap-200: the
 * manual ground truth of the publisher versions and the recorded ChatExtract and LangChain
 * answers. Each case names the row it reads; the expected verdicts were checked by hand against
 * the rules in src/eval/triplet-scorer.ts:
 * - descriptor vs formula: LangChain-13 answers `a-P/H-MoSe2` (paper 14); the truth has
 *   `H-MoSe2` and `α-P/H-MoSe2`: lenient reduces the heterostructure to its one formula
 *   mention, strict keeps the whole descriptor;
 * - phase prefixes: paper 73's truth `BPN-AlN` 2.30 eV; `AlN` with the same value is another
 *   material under strict scoring (phase on one side only), the same under lenient;
 * - units: Qwen2.5-14B's ChatExtract row for paper 32 (`white-P`, 1.4, unit "None") matches the
 *   truth `white phosphorus; white-P` ~1.4 eV only when the missing unit is read as eV (lenient);
 * - bounds: paper 19's truth `Graphene` `<0.002` eV matches the bound `< 2 meV`, and the plain
 *   number 0.002 eV only leniently;
 * - ranges: paper 86's truth 1.5–2.3 eV matches the range only, under both scorings.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBandgapTruth, loadReplay } from '../../../src/eval/bandgap/bandgap-dataset';
import type { BandgapPaper } from '../../../src/eval/bandgap/bandgap-truth';
import { parseValueText } from '../../../src/text/quantities/value-text';
import { loadScorerDependencies } from '../../../src/eval/scorer-dependencies';
import { definedAliasesOf, scoreTriplets } from '../../../src/eval/scored-triplets';
import { tripletsMatch } from '../../../src/eval/triplet-scorer';
import { sameMaterial, sameMaterialStrict } from '../../../src/text/materials';
import { sharedDataSkipReason, sharedRoot } from '../../support/shared-data';
import type { PredictedTriplet, ScorerDependencies, TruthTriplet } from '../../../src/eval/triplet-scorer-types';

const skip = sharedDataSkipReason();

describe.skipIf(skip !== undefined)(`strict and lenient scoring on bandgap-200 rows${skip ? ` (${skip})` : ''}`, () => {
  let papers: Map<number, BandgapPaper>;
  let scorer: ScorerDependencies;
  beforeAll(async () => {
    papers = new Map((await loadBandgapTruth(sharedRoot, 'pub')).map((paper) => [paper.index, paper]));
    scorer = await loadScorerDependencies(sharedRoot);
  });

  const truthsOf = (index: number, material: string): TruthTriplet[] =>
    (papers.get(index)?.truths ?? []).filter((truth) => truth.aliases.includes(material));
  const matchesAny = (prediction: PredictedTriplet, truths: readonly TruthTriplet[], mode: 'strict' | 'lenient') =>
    truths.some((truth) => tripletsMatch(prediction, truth, 0.001, scorer, mode));
  /** A prediction as a tool printed it: the value text is parsed the way recorded answers are. */
  const predicted = (material: string, valueText: string, unit: string): PredictedTriplet => {
    const parsed = parseValueText(valueText)!;
    return { material, property: 'band_gap', value: parsed.value, unit, valueText, ...(parsed.bound ? { bound: parsed.bound } : {}) };
  };

  it('descriptor vs formula: a heterostructure is not reduced to its one formula mention', async () => {
    const langchain = (await loadReplay(sharedRoot, 'pub', 'langchain-13')).get(14) ?? [];
    const answer = langchain.find((row) => row.material === 'a-P/H-MoSe2');
    expect(answer, 'LangChain-13 answers a-P/H-MoSe2 for paper 14').toBeDefined();
    expect(sameMaterial(answer!.material, 'H-MoSe2')).toBe(true);
    expect(sameMaterialStrict(answer!.material, 'H-MoSe2')).toBe(false);
    // `a` is not `α`: the truth's own heterostructure name is not matched by the Latin letter either.
    expect(matchesAny(answer!, truthsOf(14, 'α-P/H-MoSe2'), 'strict')).toBe(false);
    expect(matchesAny(predicted('α-P/H-MoSe2', '0.7', 'eV'), truthsOf(14, 'α-P/H-MoSe2'), 'strict')).toBe(true);
  });

  it('phase prefixes: given on one side only, strict says another material', () => {
    const truths = truthsOf(73, 'BPN-AlN');
    expect(truths.map((truth) => truth.valueText)).toEqual(['2.30']);
    expect(matchesAny(predicted('AlN', '2.30', 'eV'), truths, 'lenient')).toBe(true);
    expect(matchesAny(predicted('AlN', '2.30', 'eV'), truths, 'strict')).toBe(false);
    expect(matchesAny(predicted('BPN-AlN', '2.30', 'eV'), truths, 'strict')).toBe(true);
    // Two different phases never match, in either scoring.
    const zincBlende = truthsOf(73, 'zb-AlN (Exp)');
    expect(matchesAny(predicted('wz-AlN', '5.93', 'eV'), zincBlende, 'lenient')).toBe(false);
    expect(matchesAny(predicted('zb-AlN (Exp)', '5.93', 'eV'), zincBlende, 'strict')).toBe(true);
  });

  it('units: a missing unit is not defaulted under strict scoring', async () => {
    const qwen = (await loadReplay(sharedRoot, 'pub', 'chatextract-qwen2.5-14b')).get(32) ?? [];
    const answer = qwen.find((row) => row.material === 'white-P');
    expect(answer, 'Qwen2.5-14B answers white-P for paper 32').toMatchObject({ unit: '', assumedUnit: 'eV', valueText: '1.4' });
    const truths = truthsOf(32, 'white-P');
    expect(truths).toHaveLength(1);
    expect(matchesAny(answer!, truths, 'lenient')).toBe(true);
    expect(matchesAny(answer!, truths, 'strict')).toBe(false);
    expect(matchesAny({ ...answer!, unit: 'eV' }, truths, 'strict')).toBe(true);
  });

  it('bounds: a bound matches only the same bound under strict scoring, in any unit', () => {
    const truths = truthsOf(19, 'Graphene');
    expect(truths).toHaveLength(1);
    expect(truths[0]).toMatchObject({ bound: 'upper', valueText: '<0.002' });
    expect(matchesAny(predicted('graphene', '< 2', 'meV'), truths, 'strict')).toBe(true);
    expect(matchesAny(predicted('graphene', '0.002', 'eV'), truths, 'strict')).toBe(false);
    expect(matchesAny(predicted('graphene', '0.002', 'eV'), truths, 'lenient')).toBe(true);
    expect(matchesAny(predicted('graphene', '> 0.002', 'eV'), truths, 'strict')).toBe(false);
  });

  it('ranges: a range matches only a range, end by end', () => {
    const truths = (papers.get(86)?.truths ?? []).filter((truth) => truth.value.kind === 'range');
    expect(truths.map((truth) => truth.valueText)).toEqual(['1.5-2.3']);
    const material = truths[0]!.aliases[0]!;
    for (const mode of ['strict', 'lenient'] as const) {
      expect(matchesAny(predicted(material, '1.5–2.3', 'eV'), truths, mode)).toBe(true);
      expect(matchesAny(predicted(material, '1.5', 'eV'), truths, mode)).toBe(false);
      expect(matchesAny(predicted(material, '1.5–2.4', 'eV'), truths, mode)).toBe(false);
    }
  });

  it('scores a whole replay both ways: lenient never below strict, and the records re-score to the same figures', async () => {
    const recorded = await loadReplay(sharedRoot, 'pub', 'chatextract-llama3.1-70b');
    const cases = [...papers.values()].map((paper) => ({
      paper: String(paper.index),
      truths: paper.truths,
      predictions: recorded.get(paper.index) ?? [],
    }));
    const result = scoreTriplets(cases, scorer, 'recorded');
    // Measured 2026-11-24: 112 predictions, 86 truths; 32 strict and 50 lenient matches (the
    // issue's review counted 34 with exact alias names, before units and phases were required).
    expect(result.strict).toMatchObject({ predictions: 112, truths: 86, matched: 32 });
    expect(result.lenient).toMatchObject({ predictions: 112, truths: 86, matched: 50 });
    expect(result.predictions).toHaveLength(112);
    expect(result.truths).toHaveLength(86);
    expect(result.predictions.every((prediction) => prediction.status === 'recorded')).toBe(true);
    // Re-scoring from the printed records alone gives the same strict figures.
    const rescored = scoreTriplets(
      cases.map(({ paper }) => ({
        paper,
        truths: result.truths
          .filter((truth) => truth.paper === paper)
          .map((truth) => ({ ...truth, value: truth.value as TruthTriplet['value'] })),
        predictions: result.predictions
          .filter((prediction) => prediction.paper === paper)
          .map((prediction) => ({ ...prediction, value: prediction.value as PredictedTriplet['value'] })),
      })),
      scorer,
      'recorded',
    );
    expect(rescored.strict).toEqual(result.strict);
    // Every prediction says what it matched (issue 26): as many matched as the strict count.
    expect(result.predictions.filter((prediction) => prediction.matched).length).toBe(32);
    expect(result.predictions.every((prediction) => prediction.matched !== null || (prediction.why ?? '') !== '')).toBe(true);
  }, 30_000);
});

describe('paper-defined aliases (strict)', () => {
  const text = 'Thin films of bismuth ferrite BiFeO3 (BFO) were grown by pulsed laser deposition. The BFO films show a band gap of 2.7 eV.';
  it('accepts an abbreviation only in the paper that defines it', () => {
    const definedAliases = definedAliasesOf(text);
    expect(definedAliases.some((alias) => alias.abbreviation === 'BFO')).toBe(true);
    expect(sameMaterialStrict('BFO', 'BiFeO3', [], definedAliases)).toBe(true);
    expect(sameMaterialStrict('BFO', 'BiFeO3')).toBe(false);
    expect(sameMaterialStrict('BFO', 'BiFeO3', [], definedAliasesOf('The BFO films show a band gap of 2.7 eV.'))).toBe(false);
  });
});

describe('strict material equality', () => {
  it.each([
    ['La1.85Sr0.15CuO4', 'La2-xSrxCuO4 (x = 0.15)', true],
    ['La1.84Sr0.16CuO4', 'La1.85Sr0.15CuO4', false],
    ['MoS₂', 'MoS2', true],
    ['2H-MoS2', '2H-MoS2', true],
    ['2H-MoS2', 'MoS2', false],
    ['monolayer MoS2', 'MoS2', false],
    ['ZnO (bulk)', 'ZnO', false],
    ['ZnS:Eu2+', 'Eu-doped ZnS', true],
    ['CO', 'Co', false],
    ['hBN', 'hexagonal boron nitride', true],
    ['Graphene', 'graphene', true],
  ])('%s vs %s → %s', (a, b, expected) => {
    expect(sameMaterialStrict(a, b)).toBe(expected);
    expect(sameMaterialStrict(b, a)).toBe(expected);
  });
});
