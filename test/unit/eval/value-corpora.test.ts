/**
 * SOFC-Exp and MSPTC on real papers read from ../shared (skipped when it is absent): the truths
 * the loaders build, the strict and lenient matching, the quantity-span figures and the JSON of
 * `assay eval sofc-exp|msptc`. Expected values were checked by hand against the corpus files,
 * as each test says.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runEval, type EvalCommandDependencies } from '../../../src/cli/eval-command';
import type { Triplet } from '../../../src/contracts/triplet';
import { msptcPaper } from '../../../src/eval/msptc/msptc-dataset';
import { loadScorerDependencies } from '../../../src/eval/scorer-dependencies';
import { loadSofcExp, slotSchemas } from '../../../src/eval/sofc-exp/sofc-exp-dataset';
import type { ValuePaper } from '../../../src/eval/value-corpus/value-corpus';
import { evaluateValueCorpus } from '../../../src/eval/value-corpus/value-corpus-evaluation';
import { tripletMatchesValue, type ValueMatchDependencies } from '../../../src/eval/value-corpus/value-matching';
import { loadPropertySchemas } from '../../../src/properties';
import { sharedDataSkipReason, sharedPath, sharedRoot } from '../../support/shared-data';

const skip = sharedDataSkipReason();
const schemas = loadPropertySchemas();

function triplet(material: string, property: string, value: number, unit: string): Triplet {
  return { material, property, value: { kind: 'number', value }, unit, engine: 'test' };
}

/** An engine that returns the same triplets for every article. */
const fixedEngine = (triplets: Triplet[]) => ({ name: 'fixed', extractor: async () => triplets });

describe('slotSchemas', () => {
  it('maps a slot only to a schema that has its whole name as a synonym', () => {
    expect(slotSchemas(['working_temperature', 'power_density', 'thickness'], schemas)).toEqual({
      working_temperature: null,
      power_density: null,
      thickness: null,
    });
    const withUserSchema = loadPropertySchemas([
      {
        name: 'operating_temperature',
        label: 'Operating temperature',
        synonyms: ['working temperature'],
        dimension: 'temperature',
        canonicalUnit: 'K',
        units: ['K', '°C'],
        plausibleRange: { min: 0, max: 3000 },
        note: 'test schema',
      },
    ]);
    expect(slotSchemas(['working_temperature', 'power_density'], withUserSchema)).toEqual({
      working_temperature: 'operating_temperature',
      power_density: null,
    });
  });
});

describe.skipIf(skip !== undefined)('SOFC-Exp on the real dev papers', () => {
  let papers: ValuePaper[] = [];
  let dependencies: ValueMatchDependencies;
  beforeAll(async () => {
    papers = await loadSofcExp(sharedRoot, schemas);
    dependencies = await loadScorerDependencies(sharedRoot);
  });

  it('reads the 8 dev papers and the value slots of PMC5944822', () => {
    expect(papers.map((paper) => paper.id)).toEqual([
      'PMC4495617',
      'PMC4698742',
      'PMC4735809',
      'PMC5456866',
      'PMC5457058',
      'PMC5457196',
      'PMC5457246',
      'PMC5944822',
    ]);
    // frames/PMC5944822.csv: EXPERIMENT 5 has only `resistance 29` (no material); EXPERIMENT 6
    // has `cathode_material 31`, `resistance 33`, `working_temperature 34`; VALUE spans 5 and 30
    // fill no slot. Span 31 is sentence 144, 508–543 (sentence 144 starts at 41994).
    const paper = papers.at(-1)!;
    expect(paper.truths.map(({ valueText, property, aliases, unit, start }) => ({ valueText, property, aliases, unit, start }))).toEqual([
      { valueText: '0.388 ohm cm2', property: 'resistance', aliases: [''], unit: 'ohm cm2', start: 42457 },
      {
        valueText: '0.912 ohm cm2',
        property: 'resistance',
        aliases: ['Sm0.5Sr0.5CoO3–δ–BaZr0.1Ce0.7Y0.2O3'],
        unit: 'ohm cm2',
        start: 42593,
      },
      { valueText: '600 °C', property: 'working_temperature', aliases: ['Sm0.5Sr0.5CoO3–δ–BaZr0.1Ce0.7Y0.2O3'], unit: '°C', start: 42610 },
    ]);
    expect(paper.text.slice(42610, 42616)).toBe('600 °C');
  });

  it('reads "600 oC" as °C and a range with its frame materials (PMC4495617, the first frame)', () => {
    // frames/PMC4495617.csv: the first value slot is working_temperature "300–600 oC", in a frame
    // whose MATERIAL fillers are "CeO2" and "Sr2Fe1.5Mo0.5Ox".
    const [first] = papers[0]!.truths;
    expect(first).toMatchObject({
      property: 'working_temperature',
      valueText: '300–600 oC',
      value: { kind: 'range', low: 300, high: 600 },
      unit: '°C',
      aliases: ['CeO2', 'Sr2Fe1.5Mo0.5Ox'],
    });
  });

  it('matches strictly on formula or exact name, value in SI and dimension; leniently with sameMaterial', () => {
    const truths = papers[0]!.truths;
    const at600 = truths.find((truth) => truth.valueText === '600 oC')!; // materials CeO2, Sr2Fe1.5Mo0.5Ox
    const at800 = truths.find((truth) => truth.valueText === '800 oC')!; // material "ceria"
    const strict = (prediction: Triplet, truth = at600) => tripletMatchesValue(prediction, truth, 'strict', dependencies);
    expect(strict(triplet('CeO2', 'tc', 600, '°C'))).toBe(true);
    expect(strict(triplet('O2Ce', 'tc', 873.15, 'K'))).toBe(true); // same composition, same value in SI
    expect(strict(triplet('CeO2', 'tc', 601, '°C'))).toBe(false); // 0.1% of 873.15 K is 0.87 K
    expect(strict(triplet('CeO2', 'lattice_a', 600, 'nm'))).toBe(false); // another dimension
    expect(strict(triplet('Ceria ', 'tc', 800, '°C'), at800)).toBe(true); // a name: normalized text
    expect(strict(triplet('CeO2', 'tc', 800, '°C'), at800)).toBe(false); // "ceria" is not a formula
    // Lenient: a missing unit is read as the canonical unit of the reported property (tc: K).
    expect(tripletMatchesValue(triplet('CeO2', 'tc', 873.15, ''), at600, 'lenient', dependencies, 'K')).toBe(true);
    expect(tripletMatchesValue(triplet('CeO2', 'tc', 873.15, ''), at600, 'strict', dependencies, 'K')).toBe(false);
  });

  it('scores triplets and quantities of PMC5944822 (counts checked by hand)', async () => {
    // Triplet scope: only "600 °C" (temperature; ohm cm2 has no schema's dimension). The fixed
    // engine's first triplet matches it, the second has the wrong value: 1 of 2, 1 of 1.
    // Quantities: the parser reads 8 quantities with a unit in the annotated sentences, 3 of
    // them exactly the 3 truths (the other 600 °C at 42474 is VALUE span 30, in no slot).
    const result = await evaluateValueCorpus({
      papers: [papers.at(-1)!],
      engine: fixedEngine([
        triplet('Sm0.5Sr0.5CoO3–δ–BaZr0.1Ce0.7Y0.2O3', 'tc', 600, '°C'),
        triplet('Sm0.5Sr0.5CoO3–δ–BaZr0.1Ce0.7Y0.2O3', 'tc', 650, '°C'),
      ]),
      schemas,
      dependencies,
    });
    expect(result.strict).toMatchObject({ predictions: 2, truths: 1, matched: 1, precision: 0.5, recall: 1 });
    expect(result.precision).toBe(result.strict.precision);
    expect(result.scope).toMatchObject({ truths: 1, outOfScope: 2, outOfScopeByUnit: { 'Ω cm^2': 2 } });
    expect(result.scope.schemas).toEqual(['tc', 'curie_temperature', 'neel_temperature']);
    expect(result.quantities.strict).toMatchObject({ predictions: 8, truths: 3, matched: 3 });
    expect(result.quantities.lenient).toMatchObject({ predictions: 8, truths: 3, matched: 3 });
    expect(result.predictions[0]).toMatchObject({ paper: 'PMC5944822', property: 'tc', status: 'extracted', quote: null });
  });
});

describe.skipIf(skip !== undefined)('MSPTC on a real paper', () => {
  const id = '101039c6dt02166b';
  const read = (extension: string) => readFileSync(sharedPath('datasets', 'msptc', 'data', `${id}.${extension}`), 'utf8');

  it('builds material–number–unit truths from Number_Of with Amount_Of / Condition_Of', () => {
    // By hand from the .ann: 22 Number_Of relations; 4 end in an Apparatus-Unit (ml, balls, mm)
    // or a Property-Unit (Mesh) and are ignored; 6 units are Amount_Of (3 %, 3 g), 12
    // Condition_Of. "99+%" keeps the number alone (a "+" lies between).
    const paper = msptcPaper(id, read('txt'), read('ann'));
    expect(paper.truths).toHaveLength(18);
    expect(paper.truths.filter((truth) => truth.property === 'amount')).toHaveLength(6);
    expect(paper.ignored.map(({ start, end }) => paper.text.slice(start, end))).toEqual(['325 Mesh', '20 ml', '7 balls', '15 mm']);
    expect(paper.truths[0]).toMatchObject({ valueText: '99', unit: '%', aliases: ['Ba'], property: 'amount' });
    // E16 "heated" has no Material argument: the operation word stands for the target.
    expect(paper.truths.find((truth) => truth.valueText === '873 K')).toMatchObject({ aliases: ['heated'], property: 'condition' });
    expect(paper.truths.filter((truth) => truth.valueText === '10 hours').map((truth) => truth.aliases)).toEqual([['heated'], ['mixture']]);
  });

  it('scores the parser: 14 exact spans of 18, 16 overlapping (checked by hand)', async () => {
    // Parsed with a unit: 18 minus "99" (of "99+%"), plus "About 5 g" for "5 g" and one range
    // "from 28 MPa to 50 MPa" for the two pressures; "20 ml" and "15 mm" are ignored → 16.
    // Exact: all but "99", "5 g" (1403), "28 MPa" and "50 MPa" → 14. Overlap: + "About 5 g" and
    // the range once (one-to-one) → 16. Triplet scope: 873 K, 973 K, 28 MPa, 50 MPa.
    const paper = msptcPaper(id, read('txt'), read('ann'));
    const result = await evaluateValueCorpus({
      papers: [paper],
      engine: fixedEngine([triplet('heated', 'tc', 873, 'K'), triplet('BaSe', 'tc', 873, 'K')]),
      schemas,
      dependencies: await loadScorerDependencies(sharedRoot),
    });
    expect(result.quantities.strict).toMatchObject({ predictions: 16, truths: 18, matched: 14 });
    expect(result.quantities.lenient).toMatchObject({ predictions: 16, truths: 18, matched: 16 });
    expect(result.quantities.ignoredPredictions).toBe(2);
    expect(result.strict).toMatchObject({ predictions: 2, truths: 4, matched: 1 });
    expect(result.scope.schemas).toEqual(['tc', 'bulk_modulus', 'curie_temperature', 'neel_temperature']);
  });
});

describe.skipIf(skip !== undefined)('assay eval sofc-exp | msptc --json', () => {
  const output: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    output.length = 0;
  });
  const dependencies: EvalCommandDependencies = {
    scorerDependencies: (dataRoot) => loadScorerDependencies(dataRoot),
    engines: { fixed: async () => fixedEngine([triplet('CeO2', 'tc', 600, '°C')]) },
  };

  it.each(['sofc-exp', 'msptc'])('%s prints strict, lenient, predictions, truths and the parser figures', async (dataset) => {
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (output.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runEval([dataset, '--data', sharedRoot, '--engine', 'fixed', '--limit', '1', '--json'], dependencies)).toBe(0);
    const result = JSON.parse(output.join(''));
    expect(result).toMatchObject({ dataset, split: 'dev', engine: 'fixed', n: 1 });
    for (const figures of [result.strict, result.lenient, result.quantities.strict, result.quantities.lenient])
      expect(Object.keys(figures).sort()).toEqual(['f1', 'matched', 'precision', 'predictions', 'recall', 'truths']);
    expect(result.f1).toBe(result.strict.f1);
    expect(result.predictions[0]).toMatchObject({ material: 'CeO2', property: 'tc', unit: '°C', status: 'extracted' });
    expect(Object.keys(result.truths[0]).sort()).toEqual(expect.arrayContaining(['aliases', 'paper', 'property', 'unit', 'value']));
    expect(typeof result.scoring).toBe('string');
  });

  it('refuses --replay', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (output.push(String(chunk)), true));
    expect(await runEval(['msptc', '--data', sharedRoot, '--replay', 'x', '--json'], dependencies)).toBe(2);
    expect(output.join('')).toMatch(/msptc has no recorded tools to replay/);
  });
});
