import { describe, expect, it } from 'vitest';
import { extractWithRules } from '../../../src/extract/rules';
import { loadPropertySchemas } from '../../../src/properties';
import { expectEvidenceInText } from '../../support/expect-evidence';
import { articleFromBlocks, paragraph, table } from '../text/article-from-blocks';

const schemas = loadPropertySchemas();

function extract(...blocks: Parameters<typeof articleFromBlocks>[0]) {
  const article = articleFromBlocks(blocks);
  const triplets = extractWithRules(article, { properties: schemas });
  for (const triplet of triplets) {
    // Every triplet grounds: valid, quote at its position, value and unit inside the quote.
    expectEvidenceInText(triplet, article);
    expect(triplet.engine).toBe('rules');
  }
  return { article, triplets, facts: triplets.map((triplet) => [triplet.material, triplet.property, triplet.valueText, triplet.unit]) };
}

describe('extractWithRules on real sentences', () => {
  // Evidence sentences of ../shared/datasets/bandgap-200/manual_pub__manual.csv (`source` column)
  // with the truth of that row.
  it.each<[string, string, string[]]>([
    ['paper 7', 'This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.', ['LaOBiS2', 'band_gap', '0.82', 'eV']],
    [
      'paper 7',
      'First principle calculations (Figure 4) confirm that SrFBiS2 is a semiconductor with a direct band gap of 0.8 eV located at X point.',
      ['SrFBiS2', 'band_gap', '0.8', 'eV'],
    ],
    [
      'paper 8',
      'Our discoveries demonstrate that a highly mobile 2DEG can be readily obtained without any elaborate interface preparation at the surface of SrTiO3, even in the case of the non-doped 3 eV bandgap insulator.',
      ['SrTiO3', 'band_gap', '3', 'eV'],
    ],
    [
      'paper 11',
      'This unambiguously confirms that, downward BB, and hence the PIPT, is not driven  by excitations across the ZnO band gap (3.4 eV).',
      ['ZnO', 'band_gap', '3.4', 'eV'],
    ],
    [
      'paper 14',
      'H-MoSe2 is a semiconductor with a direct band gap of about 1.13 eV while T-MoSe2, ZT-MoSe2 and SO-MoSe2 are zero band gap materials.',
      ['H-MoSe2', 'band_gap', 'about 1.13', 'eV'],
    ],
  ])('%s: %s', (_paper, sentence, expected) => {
    const { facts, triplets, article } = extract(paragraph(sentence));
    expect(facts).toHaveLength(1);
    expect([facts[0]![0], facts[0]![1], facts[0]![3]]).toEqual([expected[0], expected[1], expected[3]]);
    expect(facts[0]![2]).toContain(expected[2]!.replace('about ', ''));
    expect(triplets[0]!.evidence).toMatchObject({ quote: { exact: sentence.trim() }, blockId: 'b0' });
    expect(article.text).toContain(triplets[0]!.evidence!.quote.exact);
  });

  it('reads Tc from superconductor papers (captured text of fixtures/pdf/supercon)', () => {
    // supermat__P066020501-CC.pdf
    expect(
      extract(
        paragraph(
          'the CuO2 planes of a fully oxydised superconducting YBa2Cu3O7 based system with Tc=93 K, when a disorder is introduced through the substitution of cobalt atoms.',
        ),
      ).facts,
    ).toEqual([['YBa2Cu3O7', 'tc', '93', 'K']]);
  });

  it('emits nothing without a material in the sentence, and for a value tied to a photon energy far away', () => {
    // paper 11: the band gap mention is there, but no material is named in the sentence.
    expect(
      extract(
        paragraph(
          'In order to drive the ultrafast SMT we excite the sample resonantly with the band gap (hνpump = 3.43 eV) and monitor the photoinduced dynamics with time-delayed (Δt) probe pulses (hνprobe = 6.3 eV).',
        ),
      ).facts,
    ).toEqual([]);
  });

  it('drops values outside the plausible range', () => {
    // paper 7's sentence with its value replaced by an implausible one (band gaps are −2 to 15 eV).
    expect(extract(paragraph('This is similar to LaOBiS2 where the energy gap was found to be 82 eV.')).facts).toEqual([]);
    // A Tc of 930 K is above the 300 K bound (supermat__P066020501-CC.pdf, value changed).
    expect(extract(paragraph('a fully oxydised superconducting YBa2Cu3O7 based system with Tc=930 K.')).facts).toEqual([]);
  });

  it('gives each material one value of a property per sentence (PhysRevB.90.214101, fixtures/aps/xml)', () => {
    const sentence =
      'Through magnetic susceptibility measurements, Belik et al. [14] found the phase to be antiferromagnetic, with TN = 235 K, slightly lower than that of 3C-SrMnO3 (240 K).';
    expect(extract(paragraph(sentence)).facts).toEqual([['3C-SrMnO3', 'neel_temperature', '240', 'K']]);
  });

  it('reads a table row with the unit in the header; the quote runs from the header row', () => {
    const header = '\tV0 (Å3)\tK0 (GPa)\tK0′\tPressure medium';
    const { facts, triplets } = extract(
      paragraph('Table 1.'),
      table(
        `${header}\nPresent study\t\t\t\t\n3C-SrMnO3−δ BM3\t55.58(2)\t146(5)\t6.4(5)\tNeon\n4H BM3\t233.86(2)\t115.6(11)\t5.44(8)\tNeon`,
      ),
    );
    expect(facts).toEqual([['3C-SrMnO3−δ', 'bulk_modulus', '146(5)', 'GPa']]);
    expect(triplets[0]!.evidence!.quote.exact.startsWith(header)).toBe(true);
    expect(triplets[0]!.evidence!.blockId).toBe('b1');
  });

  it('pairs materials and values in order in a "respectively" sentence (paper 73, 10.1016/j.mtcomm…)', () => {
    // manual_pub__manual.csv, paper 73: truth BPN-GaN 2.3 eV and BPN-AlN 3.2 eV.
    expect(
      extract(
        paragraph(
          'Our findings reveal that the band gap values for BPN-GaN and BPN-AlN are 2.3 eV and 3.2 eV, respectively, at the HSE06 level.',
        ),
      ).facts,
    ).toEqual([
      ['BPN-GaN', 'band_gap', '2.3', 'eV'],
      ['BPN-AlN', 'band_gap', '3.2', 'eV'],
    ]);
    // Same paper: one material, two values under two methods (truth: 2.31 and 1.86 eV, both BPN-GaN).
    expect(
      extract(
        paragraph(
          'In the case of BPN-GaN, the band gap is indirect and measures 2.31 eV and 1.86 eV at the HSE06 and GGA/PBE levels, respectively.',
        ),
      ).facts,
    ).toEqual([
      ['BPN-GaN', 'band_gap', '2.31', 'eV'],
      ['BPN-GaN', 'band_gap', '1.86', 'eV'],
    ]);
  });

  it("puts the scan's conditions (with their place in Article.text) and provenance on each triplet", () => {
    const { article, triplets } = extract(
      paragraph('The band gap of GaN is 1.86 and 2.31 eV at the GGA/PBE and HSE06 levels, respectively.'),
      paragraph('SnS was shown to be a semiconductor with a band gap of 1.3 eV [12].'),
      { kind: 'caption', text: 'Table 1. Band gaps calculated with the HSE06 functional.' },
      table('Compound\tEg (eV)\nMoS2\t2.05'),
    );
    expect(triplets.map((t) => [t.material, t.valueText, t.conditions?.map((c) => `${c.kind}=${c.value}`), t.provenance?.kind])).toEqual([
      ['GaN', '1.86', ['method=GGA-PBE'], 'computed'],
      ['GaN', '2.31', ['method=HSE06'], 'computed'],
      ['SnS', '1.3', undefined, 'cited'],
      ['MoS2', '2.05', ['method=HSE06'], 'unknown'],
    ]);
    expect(triplets[2]!.provenance).toMatchObject({ reference: '[12]' });
    for (const condition of triplets.flatMap((t) => t.conditions ?? []))
      expect(article.text.slice(condition.position!.start, condition.position!.end)).toBe(condition.text);
  });

  it('emits no triplet for a difference or a model parameter', () => {
    expect(extract(paragraph('The band gap of C70 is narrower than that of C60 by approximately 0.3 eV.')).facts).toEqual([]);
    expect(
      extract(paragraph('They determine a U parameter equal to 6.4 eV in order to fix the experimental band gap of GdN.')).facts,
    ).toEqual([]);
  });

  it('keeps the page of a PDF block', () => {
    const article = articleFromBlocks([
      { kind: 'paragraph', text: 'This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.', page: 3 },
    ]);
    expect(extractWithRules(article, { properties: schemas })[0]!.evidence).toMatchObject({ page: 3, blockId: 'b0' });
  });
});
