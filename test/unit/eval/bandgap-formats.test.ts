/**
 * The bandgap-200 readers on small strings shaped like the real files (rows adapted from the
 * files cited; passages shortened).
 */
import { describe, expect, it } from 'vitest';
import { parseBandgapTruth } from '../../../src/eval/bandgap/bandgap-truth';
import { isNonAnswer, recordedAnswer } from '../../../src/eval/bandgap/recorded-answer';
import { parsePaperReference } from '../../../src/eval/bandgap/paper-join';
import { parseBertPsieCsv, psieValueText } from '../../../src/eval/bandgap/recorded-bert-psie';
import { parseChatExtractCsv } from '../../../src/eval/bandgap/recorded-chatextract';
import { parseChemDataExtractorCsv } from '../../../src/eval/bandgap/recorded-chemdataextractor';
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
    expect([...byPaper.keys()]).toEqual(['14/10.1039/C7CP03960C', '98/10.1039/D2CP02724K']);
    expect(byPaper.get('14/10.1039/C7CP03960C')).toEqual([
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
    expect(byPaper.get('98/10.1039/D2CP02724K')![0]).toMatchObject({
      material: 'VCClBr',
      value: { kind: 'number', value: 57 },
      unit: 'meV',
    });
  });

  it('by default keeps every row with a material and a value; unit "None" stays missing, eV only assumed for lenient scoring', () => {
    const byPaper = parseChatExtractCsv(CHATEXTRACT_CSV, { engine: 'x' });
    expect(byPaper.get('14/10.1039/C7CP03960C')!.map((answer) => [answer.material, answer.unit, answer.assumedUnit])).toEqual([
      ['H-MoSe2', 'eV', 'eV'],
      ['b-P', '', 'eV'],
    ]);
    expect(byPaper.has('48/10.1103/PhysRevLett.89.097202')).toBe(false); // material None: a non-answer
    expect(byPaper.has('59/10.1016/j.actamat.2020.09.055')).toBe(false); // value None: a non-answer
  });

  it('rejects a CSV without the expected columns', () => {
    expect(() => parseChatExtractCsv('a,b\n1,2\n', { engine: 'x' })).toThrow(/columns/);
  });

  it('reads the paper index and DOI from "<index>/<doi>", "<index>_<doi with / as _>", a bare DOI or index', () => {
    expect(parsePaperReference('100/10.1063/1.1566097')).toEqual({ index: 100, doi: '10.1063/1.1566097' });
    expect(parsePaperReference(' 18_10.1088_0953-8984_27_11_115503')).toEqual({ index: 18, doi: '10.1088_0953-8984_27_11_115503' });
    expect(parsePaperReference('10.1063/1.1566097')).toEqual({ index: null, doi: '10.1063/1.1566097' });
    expect(parsePaperReference('7')).toEqual({ index: 7, doi: null });
    expect(parsePaperReference('7/')).toEqual({ index: 7, doi: null });
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
    expect(byPaper.get('10/10.1038/nmat3329')!.map((answer) => [answer.material, answer.value, answer.unit])).toEqual([
      ['La2CuO4', { kind: 'number', value: 2.01 }, 'Å'],
    ]);
    expect(byPaper.get('12/10.1038/s41563-020-0670-3')!.map((answer) => [answer.material, answer.unit])).toEqual([['WS2', 'eV']]);
    expect(byPaper.get('15/10.1063/1.4769041')!.map((answer) => [answer.material, answer.unit])).toEqual([['Silicon (Si)', 'eV']]);
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

// Rows of recorded-pub/1-ChemDataExtractor/cde_1-raw.csv (papers 14, 18, 19), plus three
// rows of our own for what the reader must survive: no paper reference, no value, no material.
const CDE_CSV = `doi,material,value,unit
14/10.1039/C7CP03960C,MoSe2,1.13,eV
19/10.1088/1367-2630/16/6/065001,graphene,2,meV
18/10.1088/0953-8984/27/11/115503,SmN,−0.15,eV
,ZnO,3.4,eV
18/10.1088/0953-8984/27/11/115503,GdN,,eV
18/10.1088/0953-8984/27/11/115503,,6.4,eV
14/10.1039/C7CP03960C,MoS2,1.2-1.9,
`;

describe('parseChemDataExtractorCsv', () => {
  it('reads each row as one answer per "<index>/<doi>", unit from the unit cell, a minus sign and a range as printed', () => {
    const { byPaper, skipped } = parseChemDataExtractorCsv(CDE_CSV, 'chemdataextractor');
    expect(skipped).toBe(3);
    expect(byPaper.get('14/10.1039/C7CP03960C')!.map((answer) => [answer.material, answer.value, answer.unit])).toEqual([
      ['MoSe2', { kind: 'number', value: 1.13 }, 'eV'],
      ['MoS2', { kind: 'range', low: 1.2, high: 1.9 }, ''],
    ]);
    expect(byPaper.get('19/10.1088/1367-2630/16/6/065001')![0]).toMatchObject({ material: 'graphene', unit: 'meV', assumedUnit: 'eV' });
    expect(byPaper.get('18/10.1088/0953-8984/27/11/115503')![0]).toMatchObject({
      value: { kind: 'number', value: -0.15 },
      engine: 'chemdataextractor',
    });
  });

  it('rejects a CSV without its columns', () => {
    expect(() => parseChemDataExtractorCsv('doi,material,value\n1/10.1000/a,ZnO,3.4\n', 'x')).toThrow(/columns/);
  });
});

// Rows of recorded-pub/2-BERT-PSIE/psie_1-raw.csv and recorded-arxiv/… (papers 98, 18, 24, 12, 76).
const PSIE_CSV = `sentence,doi,material,value
"When including SOC, the VCClBr is still a direct gap semiconductor, and the gap increases to 76 meV.",98_10.1039_D2CP02724K,VCClBr,76 meV  
"In the absence of SOC, the band gap increases monotonously from 0 meV with increasing electric field for VCCl2.",98_10.1039_D2CP02724K,VCCl2,meV
"Later on, SmN was shown to be a semiconductor with a band gap of 0.7 eV [19].",18_10.1088_0953-8984_27_11_115503, SmN,0 . 7 eV
"s",18_10.1088_0953-8984_27_11_115503,SmN,−0 . 15 eV
"s",24_10.1103_PhysRevB.94.125202,CO,
"s",24_10.1103_PhysRevB.94.125202,OVH3,1 . 95
"s",12_10.1038_s41563-020-0670-3,WS2,(2.00eV)
"s",76_10.1016_j.physb.2011.04.004,Mg,to
`;

describe('parseBertPsieCsv', () => {
  it('undoes word-piece spacing and brackets, takes the unit from the value cell, and skips rows with no number', () => {
    const { byPaper, skipped } = parseBertPsieCsv(PSIE_CSV, 'bert-psie');
    expect(skipped).toBe(3); // "meV", "" and "to"
    const answers = [...byPaper.values()].flat().map((answer) => [answer.material, answer.value, answer.unit]);
    expect(answers).toEqual([
      ['VCClBr', { kind: 'number', value: 76 }, 'meV'],
      ['SmN', { kind: 'number', value: 0.7 }, 'eV'],
      ['SmN', { kind: 'number', value: -0.15 }, 'eV'],
      ['OVH3', { kind: 'number', value: 1.95 }, ''],
      ['WS2', { kind: 'number', value: 2 }, 'eV'],
    ]);
    expect(byPaper.get('18_10.1088_0953-8984_27_11_115503')![0]).toMatchObject({
      sentence: 'Later on, SmN was shown to be a semiconductor with a band gap of 0.7 eV [19].',
      assumedUnit: 'eV',
      engine: 'bert-psie',
    });
  });

  it('psieValueText joins "1 . 4" but not two numbers', () => {
    expect(psieValueText(' 1 . 4 eV ')).toBe('1.4 eV');
    expect(psieValueText('(2.00eV)')).toBe('2.00eV');
    expect(psieValueText('1.2 - 1.5 eV')).toBe('1.2 - 1.5 eV');
  });

  it('rejects a CSV without its columns', () => {
    expect(() => parseBertPsieCsv('doi,material,value\n1_10.1000_a,ZnO,3.4\n', 'x')).toThrow(/columns/);
  });
});
