import { describe, expect, it } from 'vitest';
import { loadPropertySchemas } from '../../../src/properties';
import { buildArticleIndex } from '../../../src/text/article-index';
import { scanArticle } from '../../../src/text/scan';
import { articleFromBlocks, paragraph, table } from './article-from-blocks';

const schemas = loadPropertySchemas();

function candidatesOf(...blocks: Parameters<typeof articleFromBlocks>[0]) {
  const article = articleFromBlocks(blocks);
  const result = scanArticle(buildArticleIndex(article, schemas));
  return {
    article,
    result,
    links: result.candidates.map((candidate) => [
      candidate.property,
      candidate.quantity.valueText,
      candidate.quantity.unit,
      candidate.material?.text ?? null,
    ]),
  };
}

describe('scanArticle on real sentences', () => {
  // Evidence sentences of ../shared/datasets/bandgap-200/manual_pub__manual.csv (`source` column).
  it.each<[string, string, (string | null)[][]]>([
    [
      'paper 7 (10.1021/ic4018135)',
      'First principle calculations (Figure 4) confirm that SrFBiS2 is a semiconductor with a direct band gap of 0.8 eV located at X point.',
      [['band_gap', '0.8', 'eV', 'SrFBiS2']],
    ],
    [
      'paper 7 (10.1021/ic4018135)',
      'This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.',
      [['band_gap', '0.82', 'eV', 'LaOBiS2']],
    ],
    [
      'paper 8 (10.1038/nature09720)',
      'Our discoveries demonstrate that a highly mobile 2DEG can be readily obtained without any elaborate interface preparation at the surface of SrTiO3, even in the case of the non-doped 3 eV bandgap insulator.',
      [['band_gap', '3', 'eV', 'SrTiO3']],
    ],
    [
      'paper 14 (10.1039/C7CP03960C)',
      'H-MoSe2 is a semiconductor with a direct band gap of about 1.13 eV while T-MoSe2, ZT-MoSe2 and SO-MoSe2 are zero band gap materials.',
      [['band_gap', 'about 1.13', 'eV', 'H-MoSe2']],
    ],
    // Captured text of ../shared/fixtures/pdf/supercon/supermat__P066020501-CC.pdf
    [
      'supermat__P066020501-CC.pdf',
      'the CuO2 planes of a fully oxydised superconducting YBa2Cu3O7 based system with Tc=93 K, when a disorder is introduced',
      [['tc', '93', 'K', 'YBa2Cu3O7']],
    ],
  ])('%s', (_source, sentence, expected) => {
    const { links } = candidatesOf(paragraph(sentence));
    expect(links.map(([property, , unit, material]) => [property, unit, material])).toEqual(
      expected.map(([property, , unit, material]) => [property, unit, material]),
    );
    expect(links.map(([, valueText]) => valueText).join()).toContain(
      expected.map(([, valueText]) => valueText!.replace('about ', '')).join(),
    );
  });

  it('knows an abbreviation defined in an earlier block as a material', () => {
    // Defined in the introduction, used in the results: the scan must link the later value to it.
    const { links } = candidatesOf(
      paragraph('Films of lanthanum strontium manganite (LSMO) were grown on SrTiO3 at 750 °C.'),
      paragraph('The Curie temperature of LSMO is 350 K in the thickest films.'),
    );
    expect(links).toContainEqual(['curie_temperature', '350', 'K', 'LSMO']);
  });

  it('links a value to the property whose unit fits, not to any property mentioned', () => {
    // bandgap-200 text-pub/20_10.1103_PhysRevApplied.14.064079.txt:20 — a current density is no mass density.
    expect(
      candidatesOf(paragraph('pyroelectric converter made of this material generates a pyroelectric current density of 1.95 μA/cm2 and'))
        .links,
    ).toEqual([]);
    // bandgap-200 text-pub/16_10.1063_1.4979859.txt:141 — a mass density in g/ml is.
    expect(
      candidatesOf(paragraph('GmbH with a viscosity of 2.49 cSt and a density of 1.070 g/ml.')).links.map((link) => link.slice(0, 3)),
    ).toEqual([['density', '1.070', 'g mL^-1']]);
  });

  it('binds "a = …, c = …" values to the symbol before each (PhysRevB.90.214101, captured from fixtures/aps/xml)', () => {
    const { links } = candidatesOf(
      paragraph(
        'Rietveld refinement of PXRD on 6H-SrMnO3 at ambient conditions yielded the lattice parameters a = 5.4305(2) Å and c = 13.4034(13) Å, in excellent agreement with earlier reports.',
      ),
    );
    expect(links).toEqual([
      ['lattice_a', '5.4305(2)', 'Å', '6H-SrMnO3'],
      ['lattice_c', '13.4034(13)', 'Å', '6H-SrMnO3'],
    ]);
  });

  it('takes the material from the previous sentence when the sentence has none', () => {
    // bandgap-200 text-pub/14_10.1039_C7CP03960C.txt:169-172 (first sentence shortened)
    const { links, result, article } = candidatesOf(
      paragraph('We studied H-MoSe2 monolayers. It is a semiconductor with a direct band gap of about 1.13 eV.'),
    );
    expect(links).toEqual([['band_gap', 'about 1.13', 'eV', 'H-MoSe2']]);
    const [candidate] = result.candidates;
    expect(article.text.slice(candidate!.segment.start, candidate!.segment.end)).toBe(
      'It is a semiconductor with a direct band gap of about 1.13 eV.',
    );
    expect(candidate!.blockId).toBe('b0');
  });

  it('reads a table: property column header with its unit, material in the first column', () => {
    // Table of PhysRevB.90.214101 (fixtures/aps/xml/limesoup__10.1103_PhysRevB.90.214101.xml), two rows.
    const header = '\tV0 (Å3)\tK0 (GPa)\tK0′\tPressure medium';
    const rows = '3C-SrMnO3−δ BM3\t55.58(2)\t146(5)\t6.4(5)\tNeon\nPXRD V0\t55.259(3)\t\t\t';
    const { links, result, article } = candidatesOf(paragraph('Table 1.'), table(`${header}\n${rows}`));
    expect(links).toEqual([['bulk_modulus', '146(5)', 'GPa', '3C-SrMnO3−δ']]);
    const [candidate] = result.candidates;
    expect(candidate!.segment.kind).toBe('table-row');
    expect(article.text.slice(candidate!.segment.start, candidate!.segment.end)).toBe(
      `${header}\n3C-SrMnO3−δ BM3\t55.58(2)\t146(5)\t6.4(5)\tNeon`,
    );
    expect(candidate!.quantity.value).toEqual({ kind: 'number', value: 146, uncertainty: 5 });
  });

  it("reads a table's cells as the article index does: a bare approximate or range cell takes its header's unit", () => {
    const { links, result, article } = candidatesOf(table('Compound\tEg (eV)\nMoS2\t~1.45\nWS2\t1.2–1.5\nGaN\t3.4 eV'));
    expect(links).toEqual([
      ['band_gap', '~1.45', 'eV', 'MoS2'],
      ['band_gap', '1.2–1.5', 'eV', 'WS2'],
      ['band_gap', '3.4', 'eV', 'GaN'],
    ]);
    expect(result.candidates.map((candidate) => candidate.quantity.value)).toEqual([
      { kind: 'number', value: 1.45, approximate: true },
      { kind: 'range', low: 1.2, high: 1.5 },
      { kind: 'number', value: 3.4 },
    ]);
    // A cell read with the header's unit is quoted from the header row; one with its own unit, from its row.
    expect(result.candidates.map((candidate) => article.text.slice(candidate.segment.start, candidate.segment.end))).toEqual([
      'Compound\tEg (eV)\nMoS2\t~1.45',
      'Compound\tEg (eV)\nMoS2\t~1.45\nWS2\t1.2–1.5',
      'GaN\t3.4 eV',
    ]);
    expect(result.quantities).toEqual(buildArticleIndex(article, schemas).quantitiesOf(article.blocks[0]!));
  });

  it("cuts prose into the article index's sentences", () => {
    const { result, article } = candidatesOf(
      paragraph('Thin films were grown on Si (100) by PLD at 700 °C. The band gap of ZnO is 3.3 eV. See Fig. 2 for details.'),
    );
    const index = buildArticleIndex(article, schemas);
    expect(result.candidates).toHaveLength(1);
    const [candidate] = result.candidates;
    const sentence = index.sentenceAt(candidate!.quantity.start)!;
    expect([candidate!.segment.start, candidate!.segment.end]).toEqual([sentence.start, sentence.end]);
  });

  it('gives offsets into Article.text for quantities, materials and candidates', () => {
    const { article, result } = candidatesOf(
      paragraph('Abstract'),
      paragraph('This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.'),
    );
    for (const item of [...result.quantities, ...result.materials]) expect(article.text.slice(item.start, item.end)).toBe(item.text);
    for (const candidate of result.candidates) {
      expect(article.text.slice(candidate.mention.start, candidate.mention.end)).toBe(candidate.mention.text);
      expect(article.text.slice(candidate.quantity.start, candidate.quantity.end)).toBe(candidate.quantity.text);
    }
  });
});
