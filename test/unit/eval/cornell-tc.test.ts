/**
 * Precedent answers from a reference table, and their 0/1/2 scoring. The table rows are real
 * rows of `cornell-scillm/tc-precedent-search/SuperCon_Tc_Tcn_no_NA.csv` (line numbers in the
 * comments); the dev-set rows come from `SuperCon_Tc_Tcn_dev-set.csv`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerFromReferenceTable } from '../../../src/precedent/answer-from-reference-table';
import { parseReferenceTable, tableLines } from '../../../src/precedent/reference-table';
import { parseCornellTcDevSet, type CornellTcQuestion } from '../../../src/eval/cornell-tc/cornell-tc-dataset';
import { answerGrounded, scorePrecedent } from '../../../src/eval/cornell-tc/cornell-tc-score';
import { cornellTcFigures, leftOutRows } from '../../../src/eval/cornell-tc/cornell-tc-evaluation';
import { precedentPrediction, precedentStrictAndLenient } from '../../../src/eval/cornell-tc/precedent-rescorable';

const HEADER =
  'refno,material,property_name,property_value,property_unit,Has material been reported to be superconducting?,What is the highest measured Tc?,What is the lowest temp for measurement at which material was not superconducting?,file';
const ROWS = [
  'PRB081184519,Ba1Fe2As1.72P0.28,tc,0.0,K,Yes,0,,', // line 888
  'JPC021382203,Ba1Fe2As1.74P0.26,tcn,4.0,K,No,,4,JPC021382203', // line 889
  'PHC2570086,Ga1Sr2Y1Cu2O7,tcn,5.0,K,No,,5,', // line 4966
  'PRB087020504,Sr1Bi1S2F1,tcn,0.4,K,No,,0.4,PRB087020504', // line 12682
  'PRB087020504,Sr1F1Bi1S2,tcn,2.0,K,No,,2,PRB087020504', // line 12689
  'CEM1710367,Y2C2I2,tc,10.0,K,Yes,10,,', // line 16258
  'AAC6220123,Y2I2C2,tc,9.85,K,Yes,9.85,,', // line 16279
];
const TEXT = [HEADER, ...ROWS].join('\n') + '\n';
const table = parseReferenceTable(TEXT);
const lines = tableLines(TEXT);
const header = HEADER.split(',');

const question = (material: string, truth: 'Yes' | 'No', value: number): CornellTcQuestion => ({
  material,
  refno: '',
  truth,
  kind: truth === 'Yes' ? 'Tc' : 'Tcn',
  value,
});

describe('parseReferenceTable', () => {
  it('reads every row, kind and value in K', () => {
    expect(table.rows).toHaveLength(7);
    expect(table.skippedRows).toBe(0);
    expect(table.rows[2]).toMatchObject({ material: 'Ga1Sr2Y1Cu2O7', kind: 'Tcn', value: 5, code: 'PHC2570086', quote: ROWS[2] });
  });

  it('skips rows it cannot read and rejects a table without the columns', () => {
    expect(parseReferenceTable(`${HEADER}\nX1,Nb1,hc2,3,T,,,,\nX2,Nb1,tc,n/a,K,,,,\n`).skippedRows).toBe(2);
    expect(() => parseReferenceTable('material,value\nNb,9.2\n')).toThrow(/refno, property_name/);
  });
});

describe('answerFromReferenceTable', () => {
  it('answers Yes with the highest Tc of every way the material is written', () => {
    const answer = answerFromReferenceTable('Y2I2C2', table);
    expect(answer.answer).toBe('Yes');
    expect(answer.values.map((value) => [value.value, value.reference.code])).toEqual([
      [10, 'CEM1710367'],
      [9.85, 'AAC6220123'],
    ]);
    expect(answer.values[1]!.quote).toBe(ROWS[6]);
    expect(answer.sources).toEqual(['reference table: CEM1710367', 'reference table: AAC6220123']);
  });

  it('answers No with the lowest Tcn when rows only report Tcn', () => {
    const answer = answerFromReferenceTable('Sr1Bi1S2F1', table);
    expect(answer.answer).toBe('No');
    expect(answer.values.map((value) => value.value)).toEqual([0.4, 2]);
  });

  it('finds a material written differently (order, implicit 1, Unicode subscripts, spaces)', () => {
    for (const written of ['YSr2GaCu2O7', 'Sr₂YGaCu₂O₇', 'Ga Sr2 Y Cu2 O7']) {
      expect(answerFromReferenceTable(written, table), written).toMatchObject({ answer: 'No', values: [{ value: 5, quote: ROWS[2] }] });
    }
  });

  it('does not let a neighbouring doping answer (strict tolerance)', () => {
    // At pymatgen's rtol 0.1, As1.72P0.28 would equal As1.74P0.26 (a Tcn row): a wrong precedent.
    expect(answerFromReferenceTable('BaFe2As1.72P0.28', table).values.map((value) => value.reference.code)).toEqual(['PRB081184519']);
    // The table's class column says Yes for a tc row at 0 K, and so does the answer.
    expect(answerFromReferenceTable('BaFe2As1.72P0.28', table).answer).toBe('Yes');
  });

  it('answers Unknown when no row matches, and when the only rows are skipped', () => {
    expect(answerFromReferenceTable('MgB2', table)).toEqual({ answer: 'Unknown', values: [], sources: [] });
    expect(answerFromReferenceTable('Ga1Sr2Y1Cu2O7', table, { skipRow: (row) => row.material === 'Ga1Sr2Y1Cu2O7' }).answer).toBe('Unknown');
  });

  it('never throws on arbitrary material text', () => {
    fc.assert(fc.property(fc.string(), (text) => ['Yes', 'No', 'Unknown'].includes(answerFromReferenceTable(text, table).answer)));
  });
});

describe('scorePrecedent', () => {
  const yes = question('Y2I2C2', 'Yes', 9.85); // dev set line 2
  const no = question('Ga1Sr2Y1Cu2O7', 'No', 5.0); // dev set line 4
  const answer = (kind: 'Yes' | 'No' | 'Unknown', value?: number) => ({
    answer: kind,
    values: value === undefined ? [] : [{ kind: kind === 'No' ? 'Tcn' : 'Tc', value, unit: 'K', reference: { code: 'X' }, quote: 'row' }],
    sources: [],
  });

  it('gives 2 for the right class and value, 1 for the class only, 0 otherwise', () => {
    expect(scorePrecedent(answer('Yes', 9.85), yes)).toBe(2);
    expect(scorePrecedent(answer('Yes', 9.855), yes)).toBe(2); // 0.05% off: within 0.1%
    expect(scorePrecedent(answer('Yes', 9.86), yes)).toBe(1); // 0.102% off
    expect(scorePrecedent(answer('Yes', 9.9), yes)).toBe(1);
    expect(scorePrecedent(answer('Yes', 9.9), yes, 0.01)).toBe(2);
    expect(scorePrecedent(answer('Yes'), yes)).toBe(1);
    expect(scorePrecedent(answer('No', 9.85), yes)).toBe(0);
    expect(scorePrecedent(answer('Unknown'), yes)).toBe(0);
    expect(scorePrecedent(answer('No', 5), no)).toBe(2);
    expect(scorePrecedent(answerFromReferenceTable('Ga1Sr2Y1Cu2O7', table), no)).toBe(2);
  });

  it('counts any reported value, or only the headline one', () => {
    const both = answerFromReferenceTable('Y2I2C2', table); // 10 (headline), then 9.85
    expect(scorePrecedent(both, yes)).toBe(2);
    expect(scorePrecedent(both, yes, 0.001, true)).toBe(1);
  });

  it('gives 0 to malformed answers', () => {
    for (const malformed of [
      null,
      'Yes',
      {},
      { answer: 'Maybe', values: [], sources: [] },
      { answer: 'Yes', values: [{ kind: 'Tc', value: '9.85', unit: 'K', reference: {}, quote: 'x' }], sources: [] },
    ]) {
      expect(scorePrecedent(malformed, yes)).toBe(0);
    }
  });
});

describe('grounding and figures', () => {
  it('grounds a value only when its quote is a table row holding that value and reference', () => {
    const answer = answerFromReferenceTable('Y2I2C2', table);
    expect(answerGrounded(answer, lines, header)).toBe(true);
    const wrongValue = { ...answer, values: [{ ...answer.values[0]!, value: 11 }] };
    const invented = { ...answer, values: [{ ...answer.values[0]!, quote: 'CEM1710367,Y2C2I2,tc,11.0,K,Yes,11,,' }] };
    const wrongCode = { ...answer, values: [{ ...answer.values[0]!, reference: { code: 'AAC6220123' } }] };
    for (const bad of [wrongValue, invented, wrongCode]) expect(answerGrounded(bad, lines, header)).toBe(false);
  });

  it('computes mean score, coverage and grounded share', () => {
    const questions = [question('Y2I2C2', 'Yes', 9.85), question('Ga1Sr2Y1Cu2O7', 'No', 5), question('MgB2', 'Yes', 39)];
    const answers = questions.map((item) => answerFromReferenceTable(item.material, table));
    const figures = cornellTcFigures(
      questions,
      answers,
      answers.map((item) => item.answer !== 'Unknown' && answerGrounded(item, lines, header)),
    );
    expect(figures).toMatchObject({
      meanScore: 4 / 3,
      scoreCounts: { 0: 1, 1: 0, 2: 2 },
      meanScoreHeadline: 1,
      coverage: 2 / 3,
      groundedShare: 1,
    });
  });
});

describe('parseCornellTcDevSet', () => {
  it('reads the class and the answer column, and rejects a row without a class', () => {
    const dev = `${HEADER}\nAAC6220123,Y2I2C2,tc,9.85,K,Yes,9.85,,\nPHC2570086,Ga1Sr2Y1Cu2O7,tcn,5.0,K,No,,5.0,\n`;
    expect(parseCornellTcDevSet(dev)).toEqual([
      { material: 'Y2I2C2', refno: 'AAC6220123', truth: 'Yes', kind: 'Tc', value: 9.85 },
      { material: 'Ga1Sr2Y1Cu2O7', refno: 'PHC2570086', truth: 'No', kind: 'Tcn', value: 5 },
    ]);
    expect(() => parseCornellTcDevSet(`${HEADER}\nX,Nb1,tc,9,K,,9,,\n`)).toThrow(/row 2: class/);
  });
});

describe('leave-one-out', () => {
  // Dev-set line 3 of SuperCon_Tc_Tcn_dev-set.csv: Sr1Bi1S2F1 from PRB087020504, Tcn 0.4 K.
  const sr: CornellTcQuestion = { material: 'Sr1Bi1S2F1', refno: 'PRB087020504', truth: 'No', kind: 'Tcn', value: 0.4 };

  it('leaves out the own row and every row of the reference code, nothing under the oracle', () => {
    expect(leftOutRows(sr, 'oracle-full-table')).toBeUndefined();
    const skip = leftOutRows(sr, 'leave-one-out')!;
    expect(table.rows.filter(skip).map((row) => row.quote)).toEqual([ROWS[3], ROWS[4]]);
    // The oracle answers from both rows; leave-one-out has none left.
    expect(answerFromReferenceTable(sr.material, table).values.map((value) => value.value)).toEqual([0.4, 2]);
    expect(answerFromReferenceTable(sr.material, table, { skipRow: skip }).answer).toBe('Unknown');
    // Without a reference code only the rows written as the material go.
    const noCode = leftOutRows({ ...sr, refno: '' }, 'leave-one-out')!;
    expect(table.rows.filter(noCode).map((row) => row.quote)).toEqual([ROWS[3]]);
  });

  it('counts score 2 (strict) or score >= 1 (lenient) as matched, over answers and questions', () => {
    const yes = answerFromReferenceTable('Y2I2C2', table); // Yes, 10 then 9.85
    const unknown = answerFromReferenceTable('MgB2', table);
    // Scores 2, 1, 0 for three questions, two answered: strict 1/2 and 1/3, lenient 2/2 and 2/3.
    const figures = precedentStrictAndLenient([yes, yes, unknown], [2, 1, 0]);
    expect(figures.strict).toMatchObject({ predictions: 2, truths: 3, matched: 1, precision: 0.5, recall: 1 / 3 });
    expect(figures.lenient).toMatchObject({ predictions: 2, truths: 3, matched: 2, precision: 1, recall: 2 / 3 });
    expect(precedentPrediction('q', 'Y2I2C2', yes)).toMatchObject({
      value: { kind: 'number', value: 10 },
      quote: ROWS[5],
      status: 'Yes',
      values: [10, 9.85],
    });
    expect(precedentPrediction('q', 'MgB2', unknown)).toMatchObject({
      value: 'Unknown',
      quote: null,
      status: 'Unknown',
      kind: null,
      values: [],
    });
  });
});
