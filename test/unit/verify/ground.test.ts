import { describe, expect, it } from 'vitest';
import type { Article } from '../../../src/contracts/article';
import type { ReportedValue, Triplet } from '../../../src/contracts/triplet';
import { ground, groundAll } from '../../../src/verify/ground';
import type { GroundingDependencies } from '../../../src/verify/grounding-dependencies';

// Real passages from ../shared/datasets/bandgap-200/text-pub/ (line breaks, line-end hyphens and
// ligatures as printed there). Each is captured into a one-block article.
const PASSAGES = {
  // 11_10.1038_s41467-021-21203-6.txt, lines 156–157 and 413–417
  zno: [
    'those reported in ref. 32, identify the VB maximum at −3.2 eV',
    'with respect to EF. This indicates an n-doped sample with the',
    'shows that downward BB is still induced by photoexcitation with',
    'hνpump = 3.2 eV (full width half maximum: 0.1 eV). This unam-',
    'biguously conﬁrms that, downward BB, and hence the PIPT, is not',
    'driven by excitations across the ZnO band gap (3.4 eV). Com-',
    'plementarily, Fig. 3e demonstrates that photoexcitation with',
  ].join('\n'),
  // 7_10.1021_ic4018135.txt, lines 205–208
  srfbis2: [
    'Electronic Structure. First principle calculations (Figure 4)',
    'conﬁrm that SrFBiS2 is a semiconductor with a direct band gap',
    'of 0.8 eV located at X point. This is similar to LaOBiS2 where',
    'the energy gap was found to be 0.82 eV.36 The calculation',
  ].join('\n'),
  // 12_10.1038_s41563-020-0670-3.txt, lines 107–110
  ws2: [
    'ers, respectively (Fig. 1d). As shown in Fig. 1e, the PL spectra at ',
    '78 K display a new emission peak at ~1.45 eV in the WS2–WSe2 het-',
    'erobilayers with twist angles of 0 and 60°, which is attributed to the  ',
    'emission from the interlayer excitons16. The PL microscopy image ',
  ].join('\n'),
  // 14_10.1039_C7CP03960C.txt, lines 174–178 and 171
  mose2: [
    'mental gap due to the approximate nature of the exchange–',
    'correlation functional. The band gap calculated with quasiparticle',
    'GW calculations in other reports31–33 is E1.0 eV higher than that',
    'of the Kohn–Sham value for monolayer black phosphorene and',
    'MoSe2. Therefore, it should be noted that the results presented',
    'ductor with a direct band gap of about 1.13 eV while T-MoSe2,',
  ].join('\n'),
  // 22_10.1103_PhysRevB.88.115309.txt, lines 676–678
  sige: [
    '(0.11 eV for an extraction voltage of 15 kV),58 we obtain',
    'substrate = 4.66 ± 0.02 eV at the Si substrate surface and',
    'stripe = 4.85 ± 0.03 eV inside the SiGe stripe surface. The',
  ].join('\n'),
  // 24_10.1103_PhysRevB.94.125202.txt, line 463
  siv: 'SiV, SiV(0), is in the region of EF = 0.27–1.41 eV that',
  // 91_10.1038_s41524-020-00458-5.txt, lines 418–419
  curie: 'Tc by Monte Carlo\n1,522 K',
  // 19_10.1088_1367-2630_16_6_065001.txt, lines 193–194
  silicene: [
    'Switching on the vdW interaction enhances the band gap to 11 meV without and 10 meV',
    'with SOC. This is much larger than in graphene, but for many potential device applications still',
  ].join('\n'),
  // 83_10.1021_acs.jpcc.6b06828.txt, lines 619–629
  mos2: [
    'to 710 nm further inwards. This peak in PL, also known as A-exciton peak (A-peak), has been ',
    'attributed to the recombination of photoexcited excitons across the direct band gap at the K-',
    'point.2, 4 The spatial mapping of the wavelength values of the A-peak for that same large ',
    'triangular flake and another polycrystalline sample are shown in Figure 3a and Figure 3c-d, ',
    'respectively. Figure 3b shows the PL spectra of two locations in the sample shown in Figure 3a, ',
    'one at the periphery, the other just inside. Here the peak positions were obtained by fitting the ',
    'PL data for every pixel using a Gaussian profile. For the pixels for which Gaussian fitting was ',
    'not possible, i.e., for the pixel outside the flake, the color was set to white. A very strong blue ',
    'shifted A-peak is observed at the flake edges relative to interior. The maximum energy of the ',
    'edge A-peak is ~1.89 eV (~656 nm) and the minimum energy of the interior A-peak is 1.77 eV ',
    '(~703 nm). This is a total upshift of ~120 meV, approximately ~3 times larger than previously ',
  ].join('\n'),
};

function articleOf(text: string): Article {
  return {
    doi: null,
    doiOrigin: null,
    title: 'passage',
    authors: [],
    journal: null,
    year: null,
    url: null,
    source: 'text',
    adapter: 'generic',
    blocks: [{ id: 'b0', kind: 'paragraph', text, start: 0, end: text.length }],
    text,
    abstractOnly: false,
    warnings: [],
  };
}

const number = (value: number, approximate?: boolean): ReportedValue => ({
  kind: 'number',
  value,
  ...(approximate ? { approximate } : {}),
});

function triplet(material: string, value: ReportedValue, unit: string, quote: string, property = 'band_gap'): Triplet {
  return {
    material,
    property,
    value,
    unit,
    engine: 'test',
    evidence: { quote: { type: 'TextQuoteSelector', exact: quote, prefix: '', suffix: '' } },
  };
}

// Evidence sentences from ../shared/datasets/bandgap-200/manual_pub__manual.csv (`source` column), by line.
const CURATED = {
  line12:
    'First principle calculations (Figure 4) confirm that SrFBiS2 is a semiconductor with a direct band gap of 0.8 eV located at X point.',
  line11: 'This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.',
  line13:
    'Our discoveries demonstrate that a highly mobile 2DEG can be readily obtained without any elaborate interface preparation at the surface of SrTiO3, even in the case of the non-doped 3 eV bandgap insulator.',
  line17:
    'This unambiguously confirms that, downward BB, and hence the PIPT, is not driven  by excitations across the ZnO band gap (3.4 eV).',
  line19:
    'As shown in Fig. 1e, the PL spectra at 78 K display a new emission peak at ~1.45 eV in the WS2–WSe2 heterobilayers with twist angles of 0 and 60°, which is attributed to the emission from the interlayer excitons16.',
  line22:
    'H-MoSe2 is a semiconductor with a direct band gap of about 1.13 eV while T-MoSe2, ZT-MoSe2 and SO-MoSe2 are zero band gap materials.',
  line53: 'Switching on the vdW interaction enhances the band gap to 11 meV without and 10 meV with SOC.',
  line143:
    'This peak in PL, also known as A-exciton peak (A-peak), has been attributed to the recombination of photoexcited excitons across the direct bandgap at the K-point.  ...  The maximum energy of the edge A-peak is ~1.89 eV (~656 nm) and the minimum energy of the interior A-peak is 1.77 eV (~703 nm).',
  line24:
    'The band gap calculated with quasiparticle GW calculations in other reports [31-33] is ≈ 1.0 eV higher than that of the Kohn-Sham value for monolayer black phosphorene and MoSe2.',
};

describe('ground: true triplets from bandgap-200 ground', () => {
  const cases: Array<[string, keyof typeof PASSAGES, Triplet]> = [
    ['SrFBiS2 0.8 eV (csv line 12)', 'srfbis2', triplet('SrFBiS2', number(0.8), 'eV', CURATED.line12)],
    ['LaOBiS2 0.82 eV (csv line 11)', 'srfbis2', triplet('LaOBiS2', number(0.82), 'eV', CURATED.line11)],
    ['ZnO 3.4 eV across a hyphenated line break (csv line 17)', 'zno', triplet('ZnO', number(3.4), 'eV', CURATED.line17)],
    ['ZnO written 3.40 still shows 3.4', 'zno', triplet('ZnO', number(3.4), 'eV', 'ZnO band gap (3.4 eV)')],
    ['WS2–WSe2 ~1.45 eV (csv line 19)', 'ws2', triplet('WS2-WSe2', number(1.45, true), 'eV', CURATED.line19)],
    [
      'float residue 1.1299999999999999 vs printed 1.13 (csv line 22)',
      'mose2',
      triplet('H-MoSe2', number(1.1299999999999999), 'eV', 'direct band gap of about 1.13 eV'),
    ],
    [
      'Unicode minus −3.2 eV (text-pub/11 line 156)',
      'zno',
      triplet('ZnO', number(-3.2), 'eV', 'identify the VB maximum at −3.2 eV', 'vbm'),
    ],
    [
      'value ± uncertainty (text-pub/22 line 677)',
      'sige',
      triplet('Si', number(4.66), 'eV', 'substrate = 4.66 ± 0.02 eV', 'work_function'),
    ],
    [
      'a range needs the range (text-pub/24 line 463)',
      'siv',
      triplet('SiV', { kind: 'range', low: 0.27, high: 1.41 }, 'eV', 'EF = 0.27–1.41 eV', 'fermi_level'),
    ],
    [
      'thousands separator 1,522 K (text-pub/91 line 419)',
      'curie',
      triplet('CrI3', number(1522), 'K', 'Tc by Monte Carlo 1,522 K', 'curie_temperature'),
    ],
  ];
  it.each(cases)('%s', (_name, passage, fact) => {
    const result = ground(fact, articleOf(PASSAGES[passage]));
    expect(result.reasons).toEqual([]);
    expect(result).toMatchObject({ anchored: true, valueInQuote: true, unitInQuote: true, grounded: true });
  });

  it('grounds a quote shortened with an ellipsis (csv line 143)', () => {
    const result = ground(triplet('monolayer MoS2', number(1.77), 'eV', CURATED.line143), articleOf(PASSAGES.mos2));
    expect(result).toMatchObject({ anchored: true, grounded: true });
    expect(PASSAGES.mos2.slice(result.anchor!.start, result.anchor!.end)).toMatch(/^This peak in PL[\s\S]*\(~703 nm\)\.$/);
  });

  it('grounds a value printed in another unit and says so (csv line 53: 0.011 eV as 11 meV)', () => {
    const result = ground(triplet('Silicene', number(0.011), 'eV', CURATED.line53), articleOf(PASSAGES.silicene));
    expect(result).toMatchObject({ grounded: true, valueWrittenAs: '11 meV' });
    expect(result.reasons).toEqual(['value 0.011 eV is written as 11 meV']);
    expect(ground(triplet('Silicene', number(0.012), 'eV', CURATED.line53), articleOf(PASSAGES.silicene)).grounded).toBe(false);
  });
});

describe('ground: what must not ground', () => {
  const cases: Array<[string, keyof typeof PASSAGES, Triplet, string]> = [
    // csv line 24: the curated value ~2.13 is derived ("1.0 eV higher"), not written there; the quote
    // itself is found (fuzzily: the PDF text prints "E1.0" for "≈ 1.0").
    [
      'a derived value not in the quote (csv line 24)',
      'mose2',
      triplet('H-MoSe2 GW', number(2.13, true), 'eV', CURATED.line24),
      'value 2.13 not in the quote',
    ],
    ['the right quote with a wrong unit', 'zno', triplet('ZnO', number(3.4), 'K', CURATED.line17), 'unit K not in the quote'],
    [
      'a neighbouring number that is not the value',
      'srfbis2',
      triplet('SrFBiS2', number(0.82), 'eV', CURATED.line12),
      'value 0.82 not in the quote',
    ],
    [
      'a range given as one end of another range',
      'siv',
      triplet('SiV', { kind: 'range', low: 0.27, high: 1.4 }, 'eV', 'EF = 0.27–1.41 eV', 'fermi_level'),
      'value 0.27–1.4 not in the quote',
    ],
    [
      'the value given in another unit in the same quote (text-pub/7 line 207–208)',
      'srfbis2',
      triplet(
        'SrFBiS2',
        number(0.8),
        'K',
        'of 0.8 eV located at X point. This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.',
      ),
      'unit K not in the quote (0.8 is given in eV there)',
    ],
    [
      'a quote from another paper (csv line 13)',
      'zno',
      triplet('SrTiO3', number(3), 'eV', CURATED.line13),
      'quote not found in the article',
    ],
    [
      'a hallucinated quote',
      'zno',
      triplet('ZnO', number(3.37), 'eV', 'The band gap of ZnO is 3.37 eV at room temperature.'),
      'quote not found in the article',
    ],
    [
      'a real quote with the number changed',
      'srfbis2',
      triplet('SrFBiS2', number(0.9), 'eV', CURATED.line12.replace('0.8', '0.9')),
      'value 0.9 not in the quote',
    ],
  ];
  it.each(cases)('%s', (_name, passage, fact, reason) => {
    const result = ground(fact, articleOf(PASSAGES[passage]));
    expect(result.grounded).toBe(false);
    expect(
      result.reasons.some((written) => written.startsWith(reason)),
      JSON.stringify(result.reasons),
    ).toBe(true);
  });

  it('says so when there is no evidence at all', () => {
    const { evidence: _evidence, ...bare } = triplet('ZnO', number(3.4), 'eV', 'x');
    expect(ground(bare, articleOf(PASSAGES.zno))).toMatchObject({ anchored: false, grounded: false, reasons: ['no evidence quote given'] });
  });

  it('flags a unit that does not fit the property without ungrounding the value', () => {
    const result = ground(triplet('ZnO', number(3.4), 'eV', CURATED.line17, 'tc'), articleOf(PASSAGES.zno));
    expect(result).toMatchObject({ grounded: true, unitFitsProperty: false });
    expect(result.reasons).toContain('unit eV is not a unit of tc');
  });
});

describe('ground with injected dependencies', () => {
  // A finder that sees only "<number> <unit>" pairs: ground() must rely on what it is given.
  const dependencies: GroundingDependencies = {
    findQuantities: (text) =>
      [...text.matchAll(/(\d+(?:\.\d+)?)\s*([A-Za-z]*)/g)].map((match) => ({ value: number(Number(match[1])), unit: match[2] ?? '' })),
    normalizeUnit: (text) => (text.trim() === 'electronvolt' ? 'eV' : text.trim()),
  };

  it('uses the injected quantity finder and unit normalizer', () => {
    const fact = triplet('ZnO', number(3.4), 'electronvolt', 'ZnO band gap (3.4 eV)');
    expect(ground(fact, articleOf(PASSAGES.zno), dependencies)).toMatchObject({ grounded: true });
    expect(ground({ ...fact, value: number(3.5) }, articleOf(PASSAGES.zno), dependencies).reasons).toEqual(['value 3.5 not in the quote']);
  });

  it('counts a dimensionless triplet as having its unit', () => {
    const fact = triplet('ZnO', number(60), '', 'twist angles of 0 and 60°');
    expect(ground(fact, articleOf(PASSAGES.ws2), dependencies)).toMatchObject({ unitInQuote: true, grounded: true });
  });

  it('gives the grounding rate of a set of triplets', () => {
    const good = triplet('ZnO', number(3.4), 'eV', 'ZnO band gap (3.4 eV)');
    const bad = triplet('ZnO', number(3.37), 'eV', 'ZnO band gap (3.37 eV)');
    const summary = groundAll([good, bad, good, good], articleOf(PASSAGES.zno), dependencies);
    expect(summary).toMatchObject({ grounded: 3, total: 4, groundingRate: 0.75 });
    expect(groundAll([], articleOf(PASSAGES.zno), dependencies).groundingRate).toBeNull();
  });
});

describe('ground: evidence from a table row (unit printed only in the column header)', () => {
  // Modeled on Table III of ../shared/fixtures/aps/xml/limesoup__10.1103_PhysRevB.90.214101.xml as
  // `assay capture` gives it (block b47: rows "\n", cells "\t", an empty corner cell), with a
  // caption before it and a sentence after it.
  const caption = 'TABLE III. Equation of state parameters of cubic SrMnO3 from a third-order Birch-Murnaghan fit.';
  const table = [
    '\tV0 (Å3)\tK0 (GPa)\tK0′\tPressure medium',
    'Present study\t\t\t\t',
    '3C-SrMnO3 BM3\t55.58(2)\t146(5)\t6.4(5)\tNeon',
    '3C DFT BM3\t55.765(7)\t172.5(4)\t4.413(18)\t',
    'Earlier calculation\t166',
  ].join('\n');
  const prose = 'The bulk modulus K0 (GPa) of 3C-SrMnO3 is 146(5) from this fit.';
  const text = `${caption}\n\n${table}\n\n${prose}`;
  const tableStart = caption.length + 2;
  const proseStart = tableStart + table.length + 2;
  const article: Article = {
    ...articleOf(text),
    blocks: [
      { id: 'b0', kind: 'caption', text: caption, start: 0, end: caption.length },
      { id: 'b1', kind: 'table', text: table, start: tableStart, end: tableStart + table.length },
      { id: 'b2', kind: 'paragraph', text: prose, start: proseStart, end: proseStart + prose.length },
    ],
  };
  const rows = table.split('\n');
  // What the rules extractor quotes: from the header row to the data row.
  const headerToRow = rows.slice(0, 3).join('\n');
  const withUncertainty = (value: number, uncertainty: number): ReportedValue => ({ kind: 'number', value, uncertainty });

  it('grounds the bare cell 146(5) under "K0 (GPa)" as 146 ± 5 GPa', () => {
    const result = ground(triplet('3C-SrMnO3', withUncertainty(146, 5), 'GPa', headerToRow, 'bulk_modulus'), article);
    expect(result.reasons).toEqual([]);
    expect(result).toMatchObject({ anchored: true, valueInQuote: true, unitInQuote: true, grounded: true });
    expect(ground(triplet('3C DFT', number(172.5), 'GPa', rows.slice(0, 4).join('\n'), 'bulk_modulus'), article).grounded).toBe(true);
  });

  it("grounds a cell in another column with that column's unit", () => {
    expect(ground(triplet('3C-SrMnO3', number(55.58), 'Å3', headerToRow, 'volume'), article).grounded).toBe(true);
  });

  const failures: Array<[string, Triplet, string]> = [
    ['a value not printed in the row', triplet('3C-SrMnO3', number(145), 'GPa', headerToRow, 'bulk_modulus'), 'value 145 not in the quote'],
    [
      'a cell of a column without a unit (K0′ = 6.4) given the unit of another',
      triplet('3C-SrMnO3', number(6.4), 'GPa', headerToRow, 'bulk_modulus'),
      'value 6.4 not in the quote',
    ],
    [
      'the volume cell claimed in the bulk-modulus unit',
      triplet('3C-SrMnO3', number(55.58), 'GPa', headerToRow, 'bulk_modulus'),
      'unit GPa not in the quote (55.58 is given in Å^3 there)',
    ],
    [
      'a unit that contradicts the header',
      triplet('3C-SrMnO3', number(146), 'eV', headerToRow, 'bulk_modulus'),
      'unit eV not in the quote (146 is given in GPa there)',
    ],
    [
      'a cell of a row with fewer cells than the header (its column is unknown)',
      triplet('Earlier calculation', number(166), 'Å3', table, 'volume'),
      'value 166 not in the quote',
    ],
    [
      'a data row quoted without its header',
      triplet('3C-SrMnO3', number(146), 'GPa', rows[2]!, 'bulk_modulus'),
      'value 146 not in the quote',
    ],
    [
      'a bare number in a sentence, even after "(GPa)"',
      triplet('3C-SrMnO3', number(146), 'GPa', prose, 'bulk_modulus'),
      'value 146 not in the quote',
    ],
  ];
  it.each(failures)('does not ground %s', (_name, fact, reason) => {
    const result = ground(fact, article);
    expect(result.anchored).toBe(true);
    expect(result.grounded).toBe(false);
    expect(
      result.reasons.some((written) => written.startsWith(reason)),
      JSON.stringify(result.reasons),
    ).toBe(true);
  });

  it('reads header units only in table blocks: the same rows as a paragraph do not ground', () => {
    const asParagraph = articleOf(table);
    expect(ground(triplet('3C-SrMnO3', number(146), 'GPa', headerToRow, 'bulk_modulus'), asParagraph).grounded).toBe(false);
  });
});

describe('ground: evidence from a table flattened into plain text (unit only in a header "Eg [eV]")', () => {
  // Real flattened tables of ../shared/datasets/bandgap-200, one cell per line as printed there;
  // capture joins the lines, so the article is a paragraph, not a table block.
  const FLAT = {
    // text-pub/5_10.1016_j.mtsust.2023.100548.txt, lines 282–300 (row-major: a row per property)
    inputs: [
      'Input parameters in our calculations (References)',
      'c-TiO2',
      'mp-TiO2',
      'Perovskite',
      'Spiro-OMeTAD',
      'c [eV]',
      '4 [35]',
      '4 [35]',
      '3.75 [36]',
      '2.12 [37]',
      'Eg [eV]',
      '3.05 [38]',
      '3.05 [38]',
      '1.66 [34]',
      '3.1 [39]',
      'm+',
      'e',
      '1',
      '1',
      '1',
      '1',
    ].join('\n'),
    // text-arxiv/73_10.1016_j.mtcomm.2023.107183.txt, lines 447–463 (column-major: a row per compound)
    nitrides: [
      'Compound',
      'Eg (HSE06+G0W0) [eV]',
      'Eg (Exp) [eV]',
      'wz-AlN',
      '6.14',
      '6.28',
      'wz-GaN',
      '3.37',
      '3.50',
      'zb-AlN',
      '5.16',
      '5.93',
      'zb-GaN',
      '3.16',
      '3.30',
      'Figure 6 presents the optical properties of the BPN-(Ga, Al)N lattices, focusing on the polariza-',
      'tion of light along the x (E//X), y (E//Y), and z (E//Z) directions. Calculations were performed',
    ].join('\n'),
    // text-pub/14_10.1039_C7CP03960C.txt, lines 366–379
    mose2: [
      'Eg (eV)',
      '1.13 (2.26)a',
      '0',
      '0',
      '0',
      '1.12 (1.94)b',
      '2.05',
      '0.67',
      '0',
      '0',
      '1.10',
      '0',
      'In-plane stiﬀness',
      '(Cx, Cy) (N m1)',
    ].join('\n'),
  };
  const flat = (passage: keyof typeof FLAT) => articleOf(FLAT[passage].replaceAll('\n', ' '));
  // The quotes the replayed ChatExtract tools gave (rejected before; /tmp/rv-debug.mts), cut to the table.
  const QUOTES = {
    inputs:
      'Input parameters in our calculations (References) c-TiO2 mp-TiO2 Perovskite Spiro-OMeTAD c [eV] 4 [35] 4 [35] 3.75 [36] 2.12 [37] Eg [eV] 3.05 [38] 3.05 [38] 1.66 [34] 3.1 [39] m+ e 1 1 1 1',
    nitrides:
      'Compound Eg (HSE06+G0W0) [eV] Eg (Exp) [eV] wz-AlN 6.14 6.28 wz-GaN 3.37 3.50 zb-AlN 5.16 5.93 zb-GaN 3.16 3.30 Figure 6 presents the optical properties',
    mose2: 'Eg (eV) 1.13 (2.26)a 0 0 0 1.12 (1.94)b 2.05 0.67 0 0 1.10 0 In-plane stiﬀness',
  };

  const grounds: Array<[string, keyof typeof FLAT, Triplet]> = [
    [
      'a row-major cell with a citation "3.05 [38]" under "Eg [eV]" (text-pub/5 line 293)',
      'inputs',
      triplet('c-TiO2', number(3.05), 'eV', QUOTES.inputs),
    ],
    ['the last cell of the run "3.1 [39]" (text-pub/5 line 296)', 'inputs', triplet('Spiro-OMeTAD', number(3.1), 'eV', QUOTES.inputs)],
    [
      'a column-major cell under "Eg (HSE06+G0W0) [eV]" (text-arxiv/73 line 451)',
      'nitrides',
      triplet('wz-AlN', number(6.14), 'eV', QUOTES.nitrides),
    ],
    [
      'a cell of the last row under "Eg (Exp) [eV]" (text-arxiv/73 line 461)',
      'nitrides',
      triplet('zb-GaN', number(3.3), 'eV', QUOTES.nitrides),
    ],
    ['a footnoted cell "(2.26)a" under "Eg (eV)" (text-pub/14 line 367)', 'mose2', triplet('H-MoSe2', number(2.26), 'eV', QUOTES.mose2)],
    ['a zero cell under "Eg (eV)" (text-pub/14 line 368)', 'mose2', triplet('T-MoSe2', number(0), 'eV', QUOTES.mose2)],
    [
      'a row quoted below its header, the header found before the quote (text-arxiv/73 line 456)',
      'nitrides',
      triplet('zb-AlN', number(5.16), 'eV', 'zb-AlN 5.16 5.93'),
    ],
    ['a cell in eV claimed in meV (2050 meV = 2.05 eV)', 'mose2', triplet('H-MoSe2', number(2050), 'meV', QUOTES.mose2)],
  ];
  it.each(grounds)('grounds %s', (_name, passage, fact) => {
    const result = ground(fact, flat(passage));
    expect(result).toMatchObject({ anchored: true, valueInQuote: true, unitInQuote: true, grounded: true });
  });

  const failures: Array<[string, Article, Triplet, string]> = [
    [
      'a value not printed in the table',
      flat('nitrides'),
      triplet('wz-AlN', number(6.2), 'eV', QUOTES.nitrides),
      'value 6.2 not in the quote',
    ],
    [
      'a unit that contradicts the header',
      flat('nitrides'),
      triplet('wz-AlN', number(6.14), 'K', QUOTES.nitrides),
      'unit K not in the quote (6.14 is given in eV there)',
    ],
    [
      'a bare cell of a row without a bracketed unit ("m+ e 1 1 1 1")',
      flat('inputs'),
      triplet('c-TiO2', number(1), 'eV', QUOTES.inputs),
      'value 1 not in the quote',
    ],
    [
      'a bare number in prose after the table (text-arxiv/73 line 462: "Figure 6")',
      flat('nitrides'),
      triplet('BPN-AlN', number(6), 'eV', QUOTES.nitrides),
      'value 6 not in the quote',
    ],
    // text-arxiv/19_10.1088_1367-2630_16_6_065001.txt, lines 206–207: the tools said 2 eV, the paper 2 meV.
    [
      'silicene: 2 meV in prose claimed as 2 eV (text-arxiv/19 line 207)',
      articleOf('The inclusion of SOC\nopens a band gap of 2 meV, which is small, but much'),
      triplet('Silicene', number(2), 'eV', 'The inclusion of SOC opens a band gap of 2 meV, which is small'),
      'unit eV not in the quote (2 is given in meV there)',
    ],
    [
      'a header in meV, the cell claimed in eV',
      articleOf('Material Eg (meV) silicene 2 germanene 24'),
      triplet('Silicene', number(2), 'eV', 'Material Eg (meV) silicene 2 germanene 24'),
      'unit eV not in the quote (2 is given in meV there)',
    ],
    [
      'a bare number in a sentence after "band gap (eV)"',
      articleOf('The band gap (eV) of ZnO is 3.4 at room temperature.'),
      triplet('ZnO', number(3.4), 'eV', 'The band gap (eV) of ZnO is 3.4 at room temperature.'),
      'value 3.4 not in the quote',
    ],
    [
      'one bare number after a bracketed unit (too few cells for a table)',
      articleOf('Eg (eV) 3.4 was measured.'),
      triplet('ZnO', number(3.4), 'eV', 'Eg (eV) 3.4 was measured.'),
      'value 3.4 not in the quote',
    ],
    [
      'adjacent headers with different units (flattened columns cannot be told apart)',
      articleOf('Compound Eg (eV) Tc (K) ZnO 3.4 30 GaN 3.5 40'),
      triplet('ZnO', number(30), 'eV', 'Compound Eg (eV) Tc (K) ZnO 3.4 30 GaN 3.5 40'),
      'value 30 not in the quote',
    ],
  ];
  it.each(failures)('does not ground %s', (_name, article, fact, reason) => {
    const result = ground(fact, article);
    expect(result.anchored).toBe(true);
    expect(result.grounded).toBe(false);
    expect(
      result.reasons.some((written) => written.startsWith(reason)),
      JSON.stringify(result.reasons),
    ).toBe(true);
  });
});
