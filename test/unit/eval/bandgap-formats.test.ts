/**
 * The bandgap-200 readers on small strings shaped like the real files (rows adapted from the
 * files cited; passages shortened).
 */
import { describe, expect, it } from 'vitest';
import { parseBandgapTruth } from '../../../src/eval/bandgap/bandgap-truth';
import { isNonAnswer, recordedAnswer } from '../../../src/eval/bandgap/recorded-answer';
import { parseChatExtractCsv, recordedPaperIndex } from '../../../src/eval/bandgap/recorded-chatextract';
import { parseLangChainCsv, parseMarkdownAnswers, tableCells } from '../../../src/eval/bandgap/recorded-langchain';

// Header and rows from bandgap-200/manual_pub__manual.csv lines 1, 2, 6, 16 and 147.
const TRUTH_CSV = `index,doi,material,Error Class,,Position Class,,Value Class,,Manual,source,,
1,10.1002/adfm.202311895,,,,,,,,,,,
5,10.1016/j.mtsust.2023.100548,c-TiO2; TiO2 (c-TiO2); compact TiO2,,,4,,1,,3.05,Table I,,
12,10.1038/s41563-020-0670-3,"WS2-WSe2; WS2-WSe2 (interlayer exciton emission)",,,3,,2,,~1.45,"As shown in Fig. 1e, the PL spectra at 78 K display a new emission peak at ~1.45 eV",,
86,10.1021/acsnano.3c09001,(BA)2(MA)n-1PbnI3n+1,,,1,,1,,1.5-2.3,"a band gap from 1.5 to 2.3 eV",,
`;

describe('parseBandgapTruth', () => {
  it('keeps papers without band gaps, splits aliases on ";" and reads ~ and ranges', () => {
    const papers = parseBandgapTruth(TRUTH_CSV);
    expect(papers.map((paper) => [paper.index, paper.doi, paper.truths.length])).toEqual([
      [1, '10.1002/adfm.202311895', 0],
      [5, '10.1016/j.mtsust.2023.100548', 1],
      [12, '10.1038/s41563-020-0670-3', 1],
      [86, '10.1021/acsnano.3c09001', 1],
    ]);
    expect(papers[1]!.truths[0]).toEqual({
      aliases: ['c-TiO2', 'TiO2 (c-TiO2)', 'compact TiO2'],
      property: 'band_gap',
      value: { kind: 'number', value: 3.05 },
      unit: 'eV',
      valueText: '3.05',
      source: 'Table I',
    });
    expect(papers[2]!.truths[0]!.value).toEqual({ kind: 'number', value: 1.45, approximate: true });
    expect(papers[3]!.truths[0]!.value).toEqual({ kind: 'range', low: 1.5, high: 2.3 });
  });

  it('rejects a file without the Manual column, and a truth row whose value is not a number', () => {
    expect(() => parseBandgapTruth('index,doi,material\n1,10.1/x,\n')).toThrow(/Manual/);
    expect(() => parseBandgapTruth('index,doi,material,Manual,source\n1,10.1/x,ZnO,n/a,\n')).toThrow(/row 2/);
  });
});

// Shaped like recorded-pub/3-ChatExtract/2_extracted_qwen2.5-14b_CE_3_0921-0950.csv (cells
// start with a newline, as ChatExtract wrote them) and the llama2-13b file (lines 100-110).
const CHATEXTRACT_CSV = `passage,sentence,doi,material,value,unit,material_valid,value_valid,unit_valid
"p1","H-MoSe2 is a semiconductor with a direct band gap of about 1.13 eV",14/10.1039/C7CP03960C,"
H-MoSe2","
1.13","
eV",1,1,1
"p2","s2",14/10.1039/C7CP03960C,"
b-P","
2.05","
None",0,1,0
"p3","s3",48/10.1103/PhysRevLett.89.097202,"
None","
10^-4","
K",0,1,1
"p4","s4",59/10.1016/j.actamat.2020.09.055,"
Silicon","
None","
eV",1,1,1
"p5","s5",98/10.1039/D2CP02724K,"
VCClBr","
57","
meV",1,1,1
`;

describe('parseChatExtractCsv', () => {
  it('with requireVerified, keeps only rows whose three *_valid flags are 1', () => {
    const byPaper = parseChatExtractCsv(CHATEXTRACT_CSV, { engine: 'chatextract-qwen2.5-14b', requireVerified: true });
    expect([...byPaper.keys()]).toEqual([14, 98]);
    expect(byPaper.get(14)).toEqual([
      {
        material: 'H-MoSe2',
        property: 'band_gap',
        value: { kind: 'number', value: 1.13 },
        unit: 'eV',
        assumedUnit: 'eV',
        engine: 'chatextract-qwen2.5-14b',
        valueText: '1.13',
        sentence: 'H-MoSe2 is a semiconductor with a direct band gap of about 1.13 eV',
      },
    ]);
    expect(byPaper.get(98)![0]).toMatchObject({ material: 'VCClBr', value: { kind: 'number', value: 57 }, unit: 'meV' });
  });

  it('by default keeps every row with a material and a value; unit "None" stays missing, eV only assumed for lenient scoring', () => {
    const byPaper = parseChatExtractCsv(CHATEXTRACT_CSV, { engine: 'x' });
    expect(byPaper.get(14)!.map((answer) => [answer.material, answer.unit, answer.assumedUnit])).toEqual([
      ['H-MoSe2', 'eV', 'eV'],
      ['b-P', '', 'eV'],
    ]);
    expect(byPaper.has(48)).toBe(false); // material None: a non-answer
    expect(byPaper.has(59)).toBe(false); // value None: a non-answer
  });

  it('rejects a CSV without the expected columns', () => {
    expect(() => parseChatExtractCsv('a,b\n1,2\n', { engine: 'x' })).toThrow(/columns/);
  });

  it('reads the paper index from "<index>/<doi>"', () => {
    expect(recordedPaperIndex('100/10.1063/1.1566097')).toBe(100);
    expect(recordedPaperIndex('10.1063/1.1566097')).toBeNull();
  });
});

// Shaped like recorded-pub/4-LangChain/output_LC_11_0620-1606.csv rows for papers 10, 12, 15.
const LANGCHAIN_CSV = `doi,output,status
10/10.1038/nmat3329,"| Material | Value | Unit |
|----------|-------|------|
| LiZn2Mo3O8 | None | None |
| La2CuO4 | 2.01 Å | eV |
| Ba2YMoO6",1
12/10.1038/s41563-020-0670-3,"| Material | Value | Unit |
|----------|-------|------|
| WS2 | 1.45 eV | eV |
| none | None | None |",1
15/10.1063/1.4769041,"| Material | Value | Unit |
|----------|-------|------|
| Silicon (Si) | 1.1 eV | |

Note: the values are approximate.",1
`;

describe('parseLangChainCsv', () => {
  it('reads complete table rows, skipping header, rule, truncated and None rows', () => {
    const byPaper = parseLangChainCsv(LANGCHAIN_CSV, 'langchain-11');
    expect(byPaper.get(10)!.map((answer) => [answer.material, answer.value, answer.unit])).toEqual([
      ['La2CuO4', { kind: 'number', value: 2.01 }, 'Å'],
    ]);
    expect(byPaper.get(12)!.map((answer) => [answer.material, answer.unit])).toEqual([['WS2', 'eV']]);
    expect(byPaper.get(15)!.map((answer) => [answer.material, answer.unit])).toEqual([['Silicon (Si)', 'eV']]);
  });

  it('tableCells needs a closed row', () => {
    expect(tableCells('| a | b | c |')).toEqual(['a', 'b', 'c']);
    expect(tableCells('| Ba2YMoO6')).toBeNull();
    expect(parseMarkdownAnswers('no table here', 'x')).toEqual([]);
  });
});

describe('recordedAnswer', () => {
  it.each(['None', '*None*', 'None (Note: The text mentions "gap")', '---', '', 'N/A'])('"%s" is a non-answer', (cell) => {
    expect(isNonAnswer(cell)).toBe(true);
  });

  it('strips markdown and trailing periods ("Graphene." from llama2-13b line 361)', () => {
    expect(recordedAnswer('Graphene.', '0.5 eV.', 'eV.[Inst]', 'x')).toMatchObject({
      material: 'Graphene',
      value: { kind: 'number', value: 0.5 },
      unit: 'eV',
    });
  });
});
