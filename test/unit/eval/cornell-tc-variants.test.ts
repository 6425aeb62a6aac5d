/**
 * cornell-tc measurements: dev materials rewritten as papers write them, and the grounded shares
 * split into DOI and reference-code citations. Table rows are real SuperCon rows
 * (`SuperCon_Tc_Tcn_no_NA.csv`).
 */
import { describe, expect, it } from 'vitest';
import { answerFromReferenceTable } from '../../../src/precedent/answer-from-reference-table';
import type { PrecedentAnswer } from '../../../src/precedent/precedent-answer';
import { parseReferenceTable, tableLines } from '../../../src/precedent/reference-table';
import type { CornellTcQuestion } from '../../../src/eval/cornell-tc/cornell-tc-dataset';
import {
  cornellTcFigures,
  cornellTcTable,
  variantFigures,
  type CornellTcEvaluation,
} from '../../../src/eval/cornell-tc/cornell-tc-evaluation';
import { answerGrounded } from '../../../src/eval/cornell-tc/cornell-tc-score';
import { materialVariants } from '../../../src/eval/cornell-tc/material-variants';

const HEADER = 'refno,material,property_name,property_value,property_unit';
const ROWS = [
  'PHC4690064,Mg1B2,tc,39.0,K',
  'PRB081184519,Ba1Fe2As1.72P0.28,tc,0.0,K',
  'JPC021382203,Ba1Fe2As1.74P0.26,tcn,4.0,K',
  'XXX0000001,Y1Ba2Cu2.55Au0.45OZ,tc,80.0,K',
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

describe('materialVariants', () => {
  it('permutes, writes subscripts, toggles the 1s and writes the dopant variable', () => {
    expect(materialVariants('Mg1B2')).toEqual([
      { kind: 'permuted', material: 'B2Mg1' },
      { kind: 'subscripts', material: 'Mg₁B₂' },
      { kind: 'ones', material: 'MgB2' },
    ]);
    expect(materialVariants('MgB2').find((variant) => variant.kind === 'ones')).toEqual({ kind: 'ones', material: 'Mg1B2' });
    // 1.72 + 0.28 = 2: As2-x Px with x = 0.28.
    expect(materialVariants('Ba1Fe2As1.72P0.28')).toContainEqual({ kind: 'dopant-variable', material: 'Ba1Fe2As2-xPx (x=0.28)' });
    expect(materialVariants('La1.85Sr0.15Cu1O4')).toContainEqual({ kind: 'dopant-variable', material: 'La2-xSrxCu1O4 (x=0.15)' });
  });

  it('keeps a SuperCon oxygen suffix in place and does not permute it; rewrites nothing that is not a flat formula', () => {
    expect(materialVariants('Y0.42Pr0.58Ba2Cu3O7-z')).toEqual([
      { kind: 'subscripts', material: 'Y₀.₄₂Pr₀.₅₈Ba₂Cu₃O₇-z' },
      { kind: 'dopant-variable', material: 'Y1-xPrxBa2Cu3O7-z (x=0.58)' },
    ]);
    expect(materialVariants('Ca0.35M0.33Mo1S2')).toEqual([]); // M is no element
    expect(materialVariants('Au1')).toEqual([
      { kind: 'subscripts', material: 'Au₁' },
      { kind: 'ones', material: 'Au' },
    ]);
  });
});

describe('variantFigures', () => {
  const questions = [question('Mg1B2', 'Yes', 39), question('Ba1Fe2As1.72P0.28', 'Yes', 0), question('Y1Ba2Cu2.55Au0.45OZ', 'Yes', 80)];
  const answer = (material: string) => answerFromReferenceTable(material, table);
  const grounded = (item: PrecedentAnswer) => item.answer !== 'Unknown' && answerGrounded(item, lines, header);
  const figures = variantFigures(
    questions,
    questions.map((item) => answer(item.material)),
    answer,
    grounded,
  );
  const byKind = Object.fromEntries(figures.map((item) => [item.kind, item]));

  it('finds every rewriting the matcher supports and scores it against the truth', () => {
    // permuted: Mg1B2 and Ba1Fe2As1.72P0.28 (the OZ formula has a suffix) — both found, both 2.
    expect(byKind.permuted).toMatchObject({
      applicable: 2,
      found: 2,
      plainFound: 2,
      meanScore: 2,
      plainMeanScore: 2,
      coverage: 1,
      groundedShare: 1,
      missed: [],
    });
    expect(byKind.subscripts).toMatchObject({ applicable: 3, found: 3, meanScore: 2 });
    expect(byKind.ones).toMatchObject({ applicable: 3, found: 3, meanScore: 2 });
  });

  it('reports the dopant-variable rewriting the matcher does not support as missed', () => {
    // Ba1Fe2As2-xPx (x=0.28) is found (score 2); Y1Ba2Cu3-xAuxOZ (x=0.45) is not (score 0):
    // mean (2 + 0) / 2 = 1, coverage 1/2.
    expect(byKind['dopant-variable']).toMatchObject({
      applicable: 2,
      found: 1,
      plainFound: 2,
      meanScore: 1,
      coverage: 0.5,
      missed: ['Y1Ba2Cu3-xAuxOZ (x=0.45)'],
    });
    // Pooled: 2 + 3 + 3 + 2 = 10 rewritings, 9 found.
    expect(byKind.all).toMatchObject({ applicable: 10, found: 9, plainFound: 10 });
  });

  it('prints the rewritings in the markdown table', () => {
    const figuresAll = cornellTcFigures(
      questions,
      questions.map((item) => answer(item.material)),
      questions.map((item) => grounded(answer(item.material))),
    );
    const result = {
      n: 3,
      setup: 'oracle-full-table',
      ...figuresAll,
      ownRowsOnly: figuresAll,
      variants: figures,
    } as unknown as CornellTcEvaluation;
    const text = cornellTcTable(result);
    expect(text).toContain('| dopant-variable | 2 | 1 (2) | 1.00 (2.00) | 1 / 0 / 1 | 50.0% | 100.0% | Y1Ba2Cu3-xAuxOZ (x=0.45) |');
    // As written, all 3 questions are answered from their own rows at score 2: strict and lenient
    // P / R are 3/3 and 3/3. The setup names the first row.
    expect(text).toContain('| 100.0% | 0.0% / 100.0% | 100.0% / 100.0% | 100.0% / 100.0% |');
    expect(text).toContain('| oracle-full-table | 3 | 2.00 |');
    expect(text).toContain('Materials rewritten as papers write them, oracle-full-table');
  });
});

describe('grounded shares by DOI and by reference code', () => {
  it('counts SuperCon answers as grounded by code, none by DOI', () => {
    const questions = [question('Mg1B2', 'Yes', 39), question('Ba1Fe2As1.74P0.26', 'No', 4), question('CaB6', 'No', 2)];
    const answers = questions.map((item) => answerFromReferenceTable(item.material, table));
    const figures = cornellTcFigures(
      questions,
      answers,
      answers.map((item) => item.answer !== 'Unknown' && answerGrounded(item, lines, header)),
    );
    // 2 answered of 3 (CaB6 Unknown); both quote their rows with codes.
    expect(figures.coverage).toBeCloseTo(2 / 3, 10);
    expect(figures).toMatchObject({ groundedShare: 1, groundedCodeShare: 1, groundedDoiShare: 0 });
  });

  it('counts an answer as DOI-grounded only when every value is grounded and has a DOI', () => {
    const questions = [question('Mg1B2', 'Yes', 39)];
    const withDoi: PrecedentAnswer = {
      answer: 'Yes',
      values: [{ kind: 'Tc', value: 39, unit: 'K', reference: { doi: '10.1038/35065039' }, quote: 'MgB2 becomes superconducting at 39 K' }],
      sources: [],
    };
    expect(cornellTcFigures(questions, [withDoi], [true])).toMatchObject({ groundedShare: 1, groundedDoiShare: 1, groundedCodeShare: 0 });
    expect(cornellTcFigures(questions, [withDoi], [false])).toMatchObject({ groundedShare: 0, groundedDoiShare: 0 });
  });
});
