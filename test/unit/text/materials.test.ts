/**
 * Materials: formula parsing, normalization, equality and mentions, table-driven from strings
 * as written in the shared ground truth (file and line cited; paths under ../shared/datasets).
 */
import { describe, expect, it } from 'vitest';
import {
  findAbbreviationDefinitions,
  findMaterialMentions,
  normalizeFormula,
  parseFormula,
  parseMaterial,
  sameMaterial,
} from '../../../src/text/materials';

describe('parseFormula on real notations', () => {
  const cases: { text: string; source: string; expected: Record<string, number> }[] = [
    { text: 'CO₂', source: 'Unicode subscripts (brief)', expected: { C: 1, O: 2 } },
    { text: 'Ca3(PO4)2', source: 'parentheses (brief)', expected: { Ca: 3, P: 2, O: 8 } },
    { text: '[Co(NH3)6]Cl3', source: 'brackets (brief)', expected: { Co: 1, N: 6, H: 18, Cl: 3 } },
    { text: 'CuSO4·5H2O', source: 'hydrate (brief)', expected: { Cu: 1, S: 1, O: 9, H: 10 } },
    { text: 'CuSO4.5H2O', source: 'hydrate with a full stop (brief)', expected: { Cu: 1, S: 1, O: 9, H: 10 } },
    { text: 'Na0.31CoO2•1.3H2O', source: 'supermat/SuperMat-2.0.csv:769', expected: { Na: 0.31, Co: 1, O: 3.3, H: 2.6 } },
    {
      text: 'Na 0.35 CoO 2 •1.3H 2 O',
      source: 'supermat/SuperMat-2.0.csv:1013 (spaced PDF text)',
      expected: { Na: 0.35, Co: 1, O: 3.3, H: 2.6 },
    },
    { text: 'Li6.25Al0.25La3Zr2O12', source: 'non-integer (brief)', expected: { Li: 6.25, Al: 0.25, La: 3, Zr: 2, O: 12 } },
    { text: 'RbOs 2 O 6 ', source: 'supermat/SuperMat-2.0.csv:185', expected: { Rb: 1, Os: 2, O: 6 } },
    {
      text: 'La 0:89 F 0:11 FeAs ',
      source: 'supermat/SuperMat-2.0.csv:444 (colon for decimal point)',
      expected: { La: 0.89, F: 0.11, Fe: 1, As: 1 },
    },
    { text: 'HoO 1Àd FeAs ', source: 'supermat/SuperMat-2.0.csv:479 (À for minus, δ → 0)', expected: { Ho: 1, O: 1, Fe: 1, As: 1 } },
    { text: 'doped Sr 0.9 La 0.1 CuO 2 ', source: 'supermat/SuperMat-2.0.csv:152', expected: { Sr: 0.9, La: 0.1, Cu: 1, O: 2 } },
    {
      text: 'single-crystal La2−xBaxCuO4 with x = 0.11 ',
      source: 'supermat/SuperMat-2.0.csv:866',
      expected: { La: 1.89, Ba: 0.11, Cu: 1, O: 4 },
    },
    { text: 'underdoped Bi 2 Sr 2 CaCu 2 O 8+δ ', source: 'supermat/SuperMat-2.0.csv:211', expected: { Bi: 2, Sr: 2, Ca: 1, Cu: 2, O: 8 } },
    { text: 'Ba(Fe 1- x Co x ) 2 As 2 (x=0.1) ', source: 'supermat/SuperMat-2.0.csv:688', expected: { Ba: 1, Fe: 1.8, Co: 0.2, As: 2 } },
    {
      text: 'Na x CoO 2 • yH 2 O (x ≈ 0.35, y ≈ 1.3)',
      source: 'supermat/SuperMat-2.0.csv:160',
      expected: { Na: 0.35, Co: 1, O: 3.3, H: 2.6 },
    },
    {
      text: 'Ce1Co1In4.875Zn0.125',
      source: 'cornell-scillm/tc-precedent-search/SuperCon_Tc_Tcn_dev-set.csv:3',
      expected: { Ce: 1, Co: 1, In: 4.875, Zn: 0.125 },
    },
    { text: 'La1.85Sr0.15Cu1O4-Y', source: 'SuperCon_Tc_Tcn_dev-set.csv:91 (SuperCon capital Y = y)', expected: {} },
    { text: 'Y2I2C2', source: 'SuperCon_Tc_Tcn_dev-set.csv:2', expected: { Y: 2, I: 2, C: 2 } },
    { text: 'YBa2Cu3O7-δ', source: 'δ taken as 0 (brief)', expected: { Y: 1, Ba: 2, Cu: 3, O: 7 } },
    { text: 'MgB2', source: 'brief', expected: { Mg: 1, B: 2 } },
    { text: 'SrTiO3', source: 'bandgap-200/manual_pub__manual.csv:13', expected: { Sr: 1, Ti: 1, O: 3 } },
    { text: 'LaOBiS2', source: 'bandgap-200/manual_pub__manual.csv:11', expected: { La: 1, O: 1, Bi: 1, S: 2 } },
    { text: 'ZnO (due to oxygen vacancy)', source: 'bandgap-200/manual_pub__manual.csv:18 (qualifier)', expected: { Zn: 1, O: 1 } },
    { text: 'wz-AlN(HSE06+G0W0)', source: 'bandgap-200/manual_pub__manual.csv:118 (phase and method)', expected: { Al: 1, N: 1 } },
    {
      text: 'Na 0.31 CoO 2 •1.25D 2 O',
      source: 'supermat/SuperMat-2.0.csv:872 (deuterate)',
      expected: { Na: 0.31, Co: 1, O: 3.25, H: 2.5 },
    },
    {
      text: 'Na 0.35 CoO 2 ．1.3H 2 O ',
      source: 'supermat/SuperMat-2.0.csv:994 (full-width dot)',
      expected: { Na: 0.35, Co: 1, O: 3.3, H: 2.6 },
    },
    {
      text: 'Y Sr 2 Cu 2.7 F e 0.3 O 7+δ ',
      source: 'supermat/SuperMat-2.0.csv:916 (split symbol)',
      expected: { Y: 1, Sr: 2, Cu: 2.7, Fe: 0.3, O: 7 },
    },
    {
      text: 'YBa 2 (Cu 1−y Co y ) 3 O 7+δ (y=0.013',
      source: 'supermat/SuperMat-2.0.csv:806 (unclosed)',
      expected: { Y: 1, Ba: 2, Cu: 2.961, Co: 0.039, O: 7 },
    },
    {
      text: 'Bi 2 Sr 2−x La x CuO 6 with x≃0.4',
      source: 'supermat/SuperMat-2.0.csv:76',
      expected: { Bi: 2, Sr: 1.6, La: 0.4, Cu: 1, O: 6 },
    },
    {
      text: 'Single crystal of B 1−x K x BiO 3 (x=0.37) ',
      source: 'supermat/SuperMat-2.0.csv:1054 (B for Ba, as written)',
      expected: { B: 0.63, K: 0.37, Bi: 1, O: 3 },
    },
    {
      text: '"over-doped" LaFeAsO 0.86 F 0.14 ',
      source: 'supermat/SuperMat-2.0.csv:527',
      expected: { La: 1, Fe: 1, As: 1, O: 0.86, F: 0.14 },
    },
    {
      text: 'FAPbI3 (Perovskite)',
      source: 'bandgap-200/manual_pub__manual.csv:8 (formamidinium)',
      expected: { C: 1, H: 5, N: 2, Pb: 1, I: 3 },
    },
  ];
  it.each(cases)('$text ($source)', ({ text, expected }) => {
    const composition = parseFormula(text);
    if (Object.keys(expected).length === 0) {
      expect(composition).toBeNull();
      expect(parseMaterial(text)?.freeVariables).toEqual(['y']);
      return;
    }
    expect(composition).not.toBeNull();
    expect(Object.keys(composition ?? {}).sort()).toEqual(Object.keys(expected).sort());
    for (const [element, amount] of Object.entries(expected)) expect(composition?.[element]).toBeCloseTo(amount, 6);
  });

  it.each([
    ['x = 0.10', 'supermat/SuperMat-2.0.csv:2'],
    ['lanthanum', 'a name, not a formula'],
    ['Pb- doped ', 'supermat/SuperMat-2.0.csv:1036 (no host)'],
    ['Pr 0.5 Ca 0.5 Ba 2 Cu 3 O 7−δ films grown on (a) STO and (b) YSZ', 'supermat/SuperMat-2.0.csv:335'],
    ['Li 0.48 (THF) y HfNCl containing cointercalated tetrahydrofuran solvent (THF) ', 'supermat/SuperMat-2.0.csv:609'],
    ['Spiro-OMeTAD', 'bandgap-200/manual_pub__manual.csv:9'],
    ['', 'empty'],
    ['Qq2', 'no such element'],
  ])('%s is not a formula (%s)', (text) => {
    expect(parseFormula(text)).toBeNull();
  });
});

describe('variables, dopants, charges, isotopes', () => {
  it('keeps unresolved variables symbolic', () => {
    expect(normalizeFormula('Ba1−xKxBiO3')).toBe('Ba(1-x)BiK(x)O3');
    expect(normalizeFormula('BaFe2(As1-xPx)2')).toBe('As(2-2x)BaFe2P(2x)');
    expect(normalizeFormula('LaFeAsO1−xHx')).toBe('AsFeH(x)LaO(1-x)');
    // supermat/SuperMat-2.0.csv:257
    expect(parseMaterial('doped Pr1.855Ce0.145CuO4−y films ')?.freeVariables).toEqual(['y']);
    // supermat/SuperMat-2.0.csv:652
    expect(normalizeFormula('electron doped La(O 1-x F x )FeAs ')).toBe('AsF(x)FeLaO(1-x)');
  });
  it('substitutes a written value', () => {
    expect(normalizeFormula('La2-xSrxCuO4 (x = 0.15)')).toBe('CuLa1.85O4Sr0.15');
  });
  it('represents host and dopant', () => {
    expect(parseMaterial('ZnS:Eu2+')?.dopants).toEqual(['Eu']);
    expect(parseMaterial('Eu-doped ZnS')?.dopants).toEqual(['Eu']);
    expect(parseFormula('Al-doped Li7La3Zr2O12')).toEqual({ Li: 7, La: 3, Zr: 2, O: 12 });
    // supermat/SuperMat-2.0.csv:277
    expect(normalizeFormula('Cu-intercalated PdTe2 ')).toBe('PdTe2:Cu');
    // llm-nerre/doping/train.json line 1: "SrTiO3:Tb3+"
    expect(normalizeFormula('SrTiO3:Tb3+')).toBe('O3SrTi:Tb');
  });
  it('reads charges and isotopes', () => {
    expect(parseMaterial('Eu3+')?.charge).toBe(3);
    expect(parseMaterial('SO₄²⁻')?.charge).toBe(-2);
    expect(parseMaterial('NH4+')).toMatchObject({ charge: 1, composition: { N: 1, H: 4 } });
    expect(parseMaterial('17O')?.isotopes).toEqual({ O: 17 });
    expect(parseMaterial('¹⁷O2')?.isotopes).toEqual({ O: 17 });
  });
  it('reads phase prefixes', () => {
    // supermat/SuperMat-2.0.csv:583
    expect(parseMaterial('2H-MoS 2 ')).toMatchObject({ phase: '2H', composition: { Mo: 1, S: 2 } });
    // bandgap-200/manual_pub__manual.csv:21
    expect(parseMaterial('H-MoSe2')?.phase).toBe('H');
  });
  it('normalizes in Hill order', () => {
    expect(normalizeFormula('Li6.25Al0.25La3Zr2O12')).toBe('Al0.25La3Li6.25O12Zr2');
    expect(normalizeFormula('CH3COOH')).toBe('C2H4O2');
    expect(normalizeFormula('SeFe')).toBe('FeSe');
  });
});

describe('sameMaterial', () => {
  it.each([
    ['La2-xSrxCuO4 (x = 0.15)', 'La1.85Sr0.15CuO4', 'substituted x (brief)'],
    ['Y2I2C2', 'Y2C2I2', 'SuperCon_Tc_Tcn_dev-set.csv:2 vs SuperCon_Tc_Tcn_no_NA.csv:16258'],
    ['La1F0.5Bi1S0.8Se1.2O0.5', 'La1Bi1S0.8Se1.2F0.5O0.5', 'dev-set.csv:11 vs no_NA.csv:7836'],
    ['Ce1Co1In4.875Zn0.125', 'CeCoIn4.875Zn0.125', 'explicit 1 subscripts'],
    ['RbOs 2 O 6 ', 'RbOs₂O₆', 'supermat/SuperMat-2.0.csv:185 vs Unicode subscripts'],
    ['Ba1−xKxBiO3', 'Ba1-xKxBiO3', 'Unicode minus'],
    ['hexagonal boron nitride', 'hBN', 'bandgap-200/manual_pub__manual.csv:158'],
    ['spiro-MeOTAD', 'Spiro-OMeTAD', 'two spellings in common use (Wikipedia, "Spiro-OMeTAD")'],
    ['Graphene', 'graphene', 'bandgap-200/manual_pub__manual.csv:57'],
    ['bio-MOF-11', 'Bio-MOF-11', 'case-insensitive name'],
    ['ZnS:Eu2+', 'Eu-doped ZnS', 'dopant notations'],
    ['TiO2', 'compact TiO2', 'bandgap-200/manual_pub__manual.csv:6'],
    ['MoS2', 'monolayer MoS2', 'bandgap-200/manual_pub__manual.csv:143'],
    ['AlN', 'wz-AlN (Exp)', 'bandgap-200/manual_pub__manual.csv:119: a phase on one side only'],
  ])('%s = %s (%s)', (a, b) => {
    expect(sameMaterial(a, b)).toBe(true);
    expect(sameMaterial(b, a)).toBe(true);
  });
  it.each([
    ['CO', 'Co', 'a formula is case-sensitive'],
    ['La2CuO4', 'La4Cu2O8', 'per formula unit, as pymatgen'],
    ['ZnS', 'Eu-doped ZnS', 'dopant differs'],
    ['wz-AlN', 'zb-AlN', 'bandgap-200/manual_pub__manual.csv:118 vs :122'],
    ['La1.85Sr0.15CuO4', 'La1.7Sr0.3CuO4', 'doping beyond rtol 0.1'],
    ['graphene', 'graphite', 'different names'],
    ['WS2-WSe2', 'WS2', 'heterostructure vs layer'],
  ])('%s ≠ %s (%s)', (a, b) => {
    expect(sameMaterial(a, b)).toBe(false);
    expect(sameMaterial(b, a)).toBe(false);
  });
  it('matches any alias, split by the caller (bandgap-200/manual_pub__manual.csv:6)', () => {
    expect(sameMaterial('TiO2', 'c-TiO2', ['TiO2 (c-TiO2)', 'compact TiO2'])).toBe(true);
    expect(sameMaterial('ZnO', 'c-TiO2', ['TiO2 (c-TiO2)'])).toBe(false);
  });
  it('takes a stricter tolerance (SuperCon_Tc_Tcn_no_NA.csv:888-889)', () => {
    expect(sameMaterial('Ba1Fe2As1.72P0.28', 'Ba1Fe2As1.74P0.26')).toBe(true);
    expect(sameMaterial('Ba1Fe2As1.72P0.28', 'Ba1Fe2As1.74P0.26', [], { rtol: 1e-3 })).toBe(false);
  });
});

function mentionTexts(text: string, kind?: string): string[] {
  return findMaterialMentions(text)
    .filter((mention) => kind === undefined || mention.kind === kind)
    .map((mention) => mention.text);
}

describe('findMaterialMentions', () => {
  it('finds formulas in real sentences', () => {
    // bandgap-200/text-pub/10_10.1038_nmat3329.txt:93
    expect(mentionTexts('sistivity data (Supplementary Fig. S6) show that LiZn2Mo3O8 is')).toEqual(['LiZn2Mo3O8']);
    // bandgap-200/text-pub/47_10.1103_PhysRevLett.118.157601.txt:32
    expect(mentionTexts('tetragonal PbðZr; TiÞO3 [20,21], rhombohedral BiFeO3')).toEqual(['BiFeO3']);
    // bandgap-200/text-pub/20_10.1103_PhysRevApplied.14.064079.txt:850
    expect(mentionTexts('Pt/BiFeO3/SrRuO3 thin ﬁlm capacitors, Appl')).toEqual(['BiFeO3', 'SrRuO3']);
    // bandgap-200/text-pub/14_10.1039_C7CP03960C.txt:187
    expect(mentionTexts('band gap. In a-P/H-MoSe2, the valance band maximum (VBM)')).toEqual(['H-MoSe2']);
  });
  it('reads a variable value written after the formula', () => {
    const [mention] = findMaterialMentions('the Tc of La2-xSrxCuO4 (x = 0.15) is 38 K');
    expect(mention).toMatchObject({ text: 'La2-xSrxCuO4 (x = 0.15)', kind: 'formula', normalized: 'CuLa1.85O4Sr0.15' });
  });
  it('keeps offsets into the text', () => {
    const text = 'Films of Eu-doped ZnS and CuSO4·5H2O were grown.';
    for (const mention of findMaterialMentions(text)) expect(text.slice(mention.start, mention.end)).toBe(mention.text);
    expect(mentionTexts(text)).toEqual(['Eu-doped ZnS', 'CuSO4·5H2O']);
  });
  it.each([
    'In the present work, we construct novel commensurable', // 14_10.1039_C7CP03960C.txt:94
    'T ≈96 K transition (Supplementary Fig. S1)', // 10_10.1038_nmat3329.txt:151
    'As shown, He and No are noble; Can we say so? I think CO and SOC differ.',
    'Tc rises to 38 K at 2 GPa under UV light.',
    'H2 Results and discussion',
    'the Tc(Al) of the aluminium film', // fixtures/pdf/supercon/supermat__APL0774202-CC.pdf
    'via the following grants: SFB1277 (project No. 314695032),', // 86_10.1021_acsnano.3c09001.txt:753
    'Evidently, for further efﬁciency improvements of PSCs, the', // 5_10.1016_j.mtsust.2023.100548.txt:56
  ])('no formula in %s', (text) => {
    expect(mentionTexts(text, 'formula')).toEqual([]);
  });
  it('finds lexicon and framework names', () => {
    expect(mentionTexts('graphene and bio-MOF-11 and ZIF-8 on perovskite')).toEqual(['graphene', 'bio-MOF-11', 'ZIF-8', 'perovskite']);
  });
});

describe('abbreviations defined in the paper', () => {
  it('finds a Schwartz–Hearst definition (bandgap-200/text-pub/86_10.1021_acsnano.3c09001.txt:115)', () => {
    const [definition] = findAbbreviationDefinitions('bottom in thin hexagonal boron nitride (hBN) layers, which');
    expect(definition).toMatchObject({ abbreviation: 'hBN', longForm: 'hexagonal boron nitride' });
  });
  it('finds formula-letter abbreviations and their later uses', () => {
    const text = 'Thin films of bismuth ferrite (BFO) were grown. The BFO films and YBa2Cu3O7−δ (YBCO) layers; YBCO is superconducting.';
    expect(findAbbreviationDefinitions(text).map((definition) => [definition.abbreviation, definition.longForm])).toEqual([
      ['BFO', 'bismuth ferrite'],
      ['YBCO', 'YBa2Cu3O7−δ'],
    ]);
    const uses = findMaterialMentions(text).filter((mention) => mention.kind === 'abbreviation');
    expect(uses.map((mention) => [mention.text, mention.normalized])).toEqual([
      ['BFO', 'bismuth ferrite'],
      ['BFO', 'bismuth ferrite'],
      ['YBCO', 'Ba2Cu3O7Y'],
      ['YBCO', 'Ba2Cu3O7Y'],
    ]);
  });
  it('ignores non-material definitions (14_10.1039_C7CP03960C.txt:187)', () => {
    expect(findAbbreviationDefinitions('the valance band maximum (VBM) and density functional theory (DFT)')).toEqual([]);
  });
  it('finds sample labels', () => {
    expect(mentionTexts('compound 1 and sample A were annealed', 'abbreviation')).toEqual(['compound 1', 'sample A']);
  });
});

describe('cuprate family shorthands', () => {
  // supermat/SuperMat-2.0.csv:790 "Bi2212 single crystal", :940 "pure Y123"
  it.each(['Bi2212', 'Y123', 'overdoped Bi2212 single crystal', 'pure Y123'])('%s is not a formula', (text) => {
    expect(parseFormula(text)).toBeNull();
  });
});

describe('abbreviations across blocks', () => {
  it('uses definitions from the whole article in a later block', () => {
    const article = 'Thin films of bismuth ferrite (BFO) were grown.\n\nThe BFO gap is 2.7 eV.';
    const definitions = findAbbreviationDefinitions(article);
    const block = 'The BFO gap is 2.7 eV.';
    expect(findMaterialMentions(block).filter((mention) => mention.kind === 'abbreviation')).toEqual([]);
    expect(findMaterialMentions(block, { definitions })).toEqual([
      { start: 4, end: 7, text: 'BFO', kind: 'abbreviation', normalized: 'bismuth ferrite' },
    ]);
  });
});

describe('single elements in context', () => {
  it.each([
    ['grown on a Si wafer with an oxide of th', 'bandgap-200/text-pub/12_10.1038_s41563-020-0670-3.txt:57', ['Si']],
    ['grown on Au or rough Pd surfaces, respectively47,48.', 'bandgap-200/text-pub/93_10.1038_s41929-019-0400-x.txt:325', ['Pd']],
    ['elemental In and bulk Pb', 'preceding adjective', ['In', 'Pb']],
    ['silicon thin films', 'element name', ['silicon']],
    ['In films, the gap', 'an English word is not indium', []],
  ])('%s (%s)', (text, _source, expected) => {
    expect(findMaterialMentions(text).map((mention) => mention.text)).toEqual(expected);
  });
});
