/**
 * The LLM-NERRE general and MOF evaluators: strict (whole entities and links), lenient (words,
 * formulas whole) and results.py's own per-type figures, on real records of
 * ../shared/datasets/llm-nerre/general_and_mofs (read at test time; skipped when absent), with
 * predictions written here in the dataset's own completion format. Every expected figure was
 * counted by hand from the record as printed in the test comment, then checked against the code.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runEval, type EvalCommandDependencies } from '../../../src/cli/eval-command';
import type { Triplet } from '../../../src/contracts/triplet';
import {
  loadNerreEntries,
  NERRE_TASKS,
  parseCompletion,
  promptText,
  type NerreEntry,
  type NerreEntryRecord,
} from '../../../src/eval/nerre/nerre-entry-dataset';
import { evaluateNerreEntries } from '../../../src/eval/nerre/nerre-entry-evaluation';
import { loadNerreEntryPredictions, parseNerreEntryPredictions } from '../../../src/eval/nerre/nerre-entry-predictions';
import { entryItems, scoreLenient } from '../../../src/eval/nerre/nerre-entry-score';
import { entriesFromTriplets } from '../../../src/eval/nerre/nerre-entry-sources';
import { normalizeEntity, scoreItems } from '../../../src/eval/nerre/nerre-items';
import { exactMatch, protocolRun } from '../../../src/eval/nerre/nerre-protocol';
import { sharedDataSkipReason, sharedPath, sharedRoot } from '../../support/shared-data';

const general = NERRE_TASKS.general;
const mof = NERRE_TASKS.mof;

describe('completions and predictions (format only)', () => {
  it('reads a completion with or without the END marker, or as a list; drops unknown keys; refuses anything else', () => {
    const text = ' [{"formula": "Al2O3", "description": ["nanostructured"], "band_gap": "7 eV"}]\n\nEND\n\n';
    expect(parseCompletion(text, general)).toEqual([{ formula: 'Al2O3', description: ['nanostructured'] }]);
    expect(parseCompletion([{ formula: 'Al2O3' }], general)).toEqual([{ formula: 'Al2O3' }]);
    expect(parseCompletion(' [{"formula": "Al2O3"', general)).toBeNull();
    expect(parseCompletion('{"formula": "Al2O3"}', general)).toBeNull();
    expect(parseCompletion([{ formula: 3 }], general)).toBeNull();
  });

  it('reads JSONL in the dataset format, prefers llm_completion over the gold completion, counts malformed lines', () => {
    const lines = [
      JSON.stringify({ prompt: 'An abstract.\n\n###\n\n', completion: ' [{"formula": "TiO2"}]\n\nEND\n\n' }),
      'not json',
      JSON.stringify({ prompt: 'Another.', completion: ' [{"formula": "gold"}]', llm_completion: ' [{"formula": "ZnO"}' }),
      JSON.stringify({ id: 'general/5', completion: [] }),
      JSON.stringify({ completion: '[]' }),
    ].join('\n');
    const { predictions, malformed } = parseNerreEntryPredictions(lines, general);
    expect(malformed).toBe(2);
    expect(predictions).toEqual([
      { key: 'text:An abstract.', entries: [{ formula: 'TiO2' }] },
      { key: 'text:Another.', entries: null },
      { key: 'id:general/5', entries: [] },
    ]);
    expect(() =>
      parseNerreEntryPredictions('{"prompt":"a","completion":"[]"}\n{"prompt":"a\\n\\n###\\n\\n","completion":"[]"}', general),
    ).toThrow(/appears twice/);
  });

  it('maps engine triplets to entries: one per distinct material, formula or name field', () => {
    const triplet = (material: string): Triplet => ({
      material,
      property: 'band_gap',
      value: { kind: 'number', value: 3.2 },
      unit: 'eV',
      engine: 'rules',
    });
    expect(entriesFromTriplets([triplet('TiO2'), triplet(' TiO2'), triplet('graphene')], general)).toEqual([
      { formula: 'TiO2' },
      { name: 'graphene' },
    ]);
    expect(entriesFromTriplets([triplet('UiO-66')], mof)).toEqual([{ name_of_mof: 'UiO-66' }]);
  });

  it('normalizes Unicode and whitespace, not case', () => {
    expect(normalizeEntity(' TiO\u2082  films ')).toBe('TiO2 films');
    expect(normalizeEntity('CO')).not.toBe(normalizeEntity('Co'));
  });

  it('exact match fills missing predicted fields as results.py does', () => {
    const gold: NerreEntry[] = [
      { acronym: '', applications: [''], name: '', formula: 'Al2O3', structure_or_phase: [''], description: [''] },
    ];
    expect(exactMatch(gold, [{ formula: 'Al2O3' }], general)).toBe(true);
    expect(exactMatch(gold, [{ formula: 'Al2O3', description: ['porous'] }], general)).toBe(false);
  });
});

const skip = sharedDataSkipReason();

describe.skipIf(skip !== undefined)(`LLM-NERRE general and MOF on real records${skip ? ` (${skip})` : ''}`, () => {
  let generalRecord: NerreEntryRecord;
  let mofRecord: NerreEntryRecord;
  afterEach(() => vi.restoreAllMocks());
  beforeAll(async () => {
    generalRecord = (await loadNerreEntries(sharedRoot, general)).records[0]!;
    mofRecord = (await loadNerreEntries(sharedRoot, mof)).records[0]!;
  });

  // general_materials_information_annotations.jsonl line 0 ("A novel photocatalyst consisting of an
  // intercalated perovskite H1-2xPtxLaNb2O7 …"). Gold: H1-2xPtxLaNb2O7 {applications: photocatalyst,
  // structure_or_phase: perovskite, description: layered, intercalated Pt2+}; RbLaNb2O7, HLaNb2O7
  // {applications: photocatalyst}; name "Pt-deposited RbLaNb2O7" (no formula) {photocatalyst}.
  const generalPrediction =
    ' [{"formula": "H1-2xPtxLaNb2O7", "applications": ["photocatalyst"], "structure_or_phase": ["layered perovskite"], ' +
    '"description": ["intercalated Pt2+"]}, {"formula": "RbLaNb2O7", "applications": ["photocatalysts"]}]\n\nEND\n\n';

  it('general line 0: strict, lenient and results.py figures as counted by hand', () => {
    expect(generalRecord.id).toBe('general/0');
    expect(generalRecord.entries).toHaveLength(4);
    const predicted = parseCompletion(generalPrediction, general)!;
    // Strict truth: 8 entities (3 formulas, photocatalyst, perovskite, layered, intercalated Pt2+,
    // the name) + 6 links (3 formula→photocatalyst, H1…→perovskite, H1…→layered, H1…→intercalated
    // Pt2+; the name has no formula, so no link). Predicted 10: 2 formulas, photocatalyst(s),
    // "layered perovskite", "intercalated Pt2+", and 4 links. Matched 6: both formulas,
    // photocatalyst, intercalated Pt2+, H1…→photocatalyst, H1…→intercalated Pt2+.
    const strict = scoreItems([{ truth: entryItems(generalRecord.entries, general), predicted: entryItems(predicted, general) }]);
    expect(strict.overall).toMatchObject({ predictions: 10, truths: 14, matched: 6, precision: 0.6, recall: 6 / 14 });
    expect(strict.byProperty['formula|||structure_or_phase']).toMatchObject({ predictions: 1, truths: 1, matched: 0 });
    // Lenient words, truth 17: formula 3, applications 1, structure 1, description 3 (layered,
    // intercalated, Pt2+), name 2, links 3 + 1 + 3. Predicted 14: 2, 2, 2 (layered, perovskite),
    // 2, 0, links 2 + 2 + 2. Matched 10: 2 + 1 + 1 (perovskite) + 2 + links 1 + 1 + 2.
    const lenient = scoreLenient([{ truth: generalRecord.entries, predicted }], general);
    expect(lenient.overall).toMatchObject({ predictions: 14, truths: 17, matched: 10 });
    expect(lenient.byType.structure_or_phase).toMatchObject({ predictions: 2, truths: 1, matched: 1 });
    // results.py: formula tp 2 fn 1; applications tp 1 fp 1; links formula|||applications 1 correct
    // of 2 predicted and 3 gold; formula|||name has no gold or predicted link → no figure.
    const protocol = protocolRun([{ truth: generalRecord.entries, predicted }], general);
    expect(protocol.entities.formula).toEqual({ precision: 1, recall: 2 / 3, f1: 0.8 });
    expect(protocol.entities.applications!.precision).toBe(0.5);
    expect(protocol.links['formula|||applications']).toMatchObject({ precision: 0.5, recall: 1 / 3 });
    expect(protocol.links['formula|||applications']!.f1).toBeCloseTo(0.4, 12);
    expect(protocol.links['formula|||name']).toBeNull();
    expect(protocol.exactMatchAccuracy).toBe(0);
  });

  // mof_annotations.jsonl line 0 ("Tuning the porosity of lanthanide MOFs …"): three entries, no
  // name_of_mof (so no links), mof_formula "[Ln(2,5-pzdc)(ox)0.5(H2O)2]·4.5H2O (1-Ln; Ln = Nd, Sm, Eu,
  // Gd, Tb, Dy)", "[Ln(2,5-pzdc)1.5(H2O)3]·0.5H2O" and "[Ln(2,5-pzdc)0.5(2,6-pzdc)(H2O)3] (2-Ln; …)",
  // each with mof_description "lanthanide MOFs" and applications "luminescence".
  const mofPrediction = [
    { mof_formula: '[Ln(2,5-pzdc)(ox)0.5(H2O)2]·4.5H2O', mof_description: ['lanthanide MOFs'], applications: ['luminescence'] },
    { name_of_mof: '2-Ln', mof_formula: '[Ln(2,5-pzdc)0.5(2,6-pzdc)(H2O)3]', applications: ['ligand sensitized luminescence'] },
  ];

  it('MOF line 0: a formula cut short matches only in results.py, which splits formulas into words', () => {
    expect(mofRecord.id).toBe('mof/0');
    expect(mofRecord.entries).toHaveLength(3);
    const predicted = parseCompletion(mofPrediction, mof)!;
    // Strict truth 5 (3 formulas, lanthanide MOFs, luminescence). Predicted 8: 2 formulas, 2-Ln,
    // lanthanide MOFs, luminescence, ligand sensitized luminescence, 2 links from 2-Ln. Matched 2.
    const strict = scoreItems([{ truth: entryItems(mofRecord.entries, mof), predicted: entryItems(predicted, mof) }]);
    expect(strict.overall).toMatchObject({ predictions: 8, truths: 5, matched: 2 });
    // Lenient: formulas whole, so neither predicted formula matches. Truth 6 (3 formulas,
    // lanthanide, MOFs, luminescence); predicted 12 (2 formulas, 2-Ln, 2 description words, 3
    // application words, links 1 + 3); matched 3.
    const lenient = scoreLenient([{ truth: mofRecord.entries, predicted }], mof);
    expect(lenient.byType.mof_formula).toMatchObject({ predictions: 2, truths: 3, matched: 0 });
    expect(lenient.overall).toMatchObject({ predictions: 12, truths: 6, matched: 3 });
    // results.py splits the gold formulas into 17 distinct words; both predicted formulas are
    // first words of gold formulas: tp 2, fp 0, fn 15 → P 1, R 2/17, F1 4/19.
    const protocol = protocolRun([{ truth: mofRecord.entries, predicted }], mof);
    expect(protocol.entities.mof_formula!.precision).toBe(1);
    expect(protocol.entities.mof_formula!.recall).toBeCloseTo(2 / 17, 12);
    expect(protocol.entities.mof_formula!.f1).toBeCloseTo(4 / 19, 12);
    expect(protocol.links['name_of_mof|||applications']).toBeNull();
  });

  it('evaluates a predictions file keyed by prompt, with rows anyone can re-score', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'assay-nerre-entries-'));
    const file = join(folder, 'general.jsonl');
    const line = (record: NerreEntryRecord, completion: string) => JSON.stringify({ prompt: `${record.text}\n\n###\n\n`, completion });
    writeFileSync(file, line(generalRecord, generalPrediction) + '\n{"prompt": "no such abstract", "completion": "[]"}\n');
    const { predictions, malformed } = await loadNerreEntryPredictions(file, general);
    expect(malformed).toBe(0);
    const result = await evaluateNerreEntries({ task: 'general', dataRoot: sharedRoot, predictions, onlyPredicted: true });
    expect(result).toMatchObject({ dataset: 'llm-nerre-general', n: 1, missingPredictions: 0, unknownPredictions: 1, precision: 0.6 });
    expect(result.strict).toMatchObject({ precision: 0.6, recall: 6 / 14, predictions: 10, truths: 14, matched: 6 });
    expect(result.strict.f1).toBeCloseTo(0.5, 12);
    expect(result.lenient).toMatchObject({ predictions: 14, truths: 17, matched: 10 });
    expect(result.predictions).toHaveLength(10);
    expect(result.truths).toHaveLength(14);
    expect(result.predictions).toContainEqual({
      paper: 'general/0',
      material: 'H1-2xPtxLaNb2O7',
      property: 'formula|||description',
      value: 'intercalated Pt2+',
      unit: '',
      quote: null,
      status: 'recorded',
    });
    expect(result.truths).toContainEqual({
      paper: 'general/0',
      aliases: ['Pt-deposited RbLaNb2O7'],
      property: 'name',
      value: null,
      unit: '',
    });
    // The abstract is in fold 1's val.jsonl only, so the fold mean is that one run.
    expect(result.nerreProtocol.byFold.records).toBe(1);
    expect(result.nerreProtocol.byFold.entities).toEqual(result.nerreProtocol.allRecords.entities);
  });

  it('scores the recorded GPT-3 output of the manual evaluation set; its truncated completion counts as unparsable', async () => {
    const file = sharedPath('datasets', 'llm-nerre', 'general_and_mofs', 'general_manual_evaluation_set.jsonl');
    const { predictions, malformed } = await loadNerreEntryPredictions(file, general);
    // 50 lines {prompt, completion, llm_completion}; line 24's llm_completion stops mid-list.
    expect(predictions).toHaveLength(50);
    expect(malformed).toBe(0);
    expect(predictions.filter((prediction) => prediction.entries === null)).toHaveLength(1);
    const result = await evaluateNerreEntries({ task: 'general', dataRoot: sharedRoot, predictions, onlyPredicted: true });
    expect(result).toMatchObject({ n: 50, missingPredictions: 0, unknownPredictions: 0, unparsablePredictions: 1 });
    expect(result.predictions).toHaveLength(result.strict.predictions);
    expect(result.truths).toHaveLength(result.strict.truths);
    expect(result.strict.f1).toBeGreaterThan(0);
    expect(result.lenient.f1).toBeGreaterThanOrEqual(result.strict.f1);
  });

  it('the formula-mention floor finds the formulas of general line 0 and nothing else', async () => {
    const stdout: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runEval(['llm-nerre-general', '--data', sharedRoot, '--baseline', 'formula-mentions', '--limit', '1', '--json'])).toBe(0);
    const result = JSON.parse(stdout.join(''));
    expect(result).toMatchObject({ dataset: 'llm-nerre-general', split: 'dev', n: 1, source: 'formula-mentions floor' });
    for (const key of ['strict', 'lenient'])
      expect(Object.keys(result[key]).sort()).toEqual(['f1', 'matched', 'precision', 'predictions', 'recall', 'truths']);
    expect(result.precision).toBe(result.strict.precision);
    const formulas = result.predictions
      .filter((row: { property: string }) => row.property === 'formula')
      .map((row: { material: string }) => row.material);
    // The three gold formulas are written in the abstract; every prediction row is a formula.
    expect(formulas).toEqual(expect.arrayContaining(['H1-2xPtxLaNb2O7', 'RbLaNb2O7', 'HLaNb2O7']));
    expect(result.predictions).toHaveLength(formulas.length);
    expect(result.strictByType.formula.matched).toBe(3);
  });

  it("--engine maps an engine's triplets on the rebuilt abstract, and records a failing abstract", async () => {
    const seen: string[] = [];
    const dependencies: EvalCommandDependencies = {
      scorerDependencies: async () => {
        throw new Error('not used');
      },
      engines: {
        rules: async () => ({
          extractor: async (article, { properties }) => {
            seen.push(article.text.slice(0, 40));
            expect(properties).toContain('band_gap');
            if (seen.length === 2) throw new Error('engine down');
            return [
              { material: 'UiO-66', property: 'bet_surface_area', value: { kind: 'number', value: 1200 }, unit: 'm2/g', engine: 'rules' },
            ];
          },
        }),
      },
    };
    const stdout: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runEval(['llm-nerre-mof', '--data', sharedRoot, '--engine', 'rules', '--limit', '2', '--json'], dependencies)).toBe(0);
    const result = JSON.parse(stdout.join(''));
    expect(seen[0]).toBe(promptText(mofRecord.text).slice(0, 40));
    expect(result).toMatchObject({
      dataset: 'llm-nerre-mof',
      engine: 'rules',
      n: 2,
      engineFailures: [{ id: 'mof/1', error: 'engine down' }],
    });
    expect(result.predictions).toEqual([
      { paper: 'mof/0', material: 'UiO-66', property: 'name_of_mof', value: null, unit: '', quote: null, status: 'extracted' },
    ]);
  });
});
