/**
 * The quick scan reads each value as the gate's fact check does (issue 26): a number that is a
 * difference, a model parameter, a measurement condition or another quantity of the unit is no
 * candidate; the others carry their conditions (with spans in Article.text), provenance and
 * doubts. General sentences of each kind, not rows of a dev paper.
 */
import { describe, expect, it } from 'vitest';
import { loadPropertySchemas } from '../../../src/properties';
import { buildArticleIndex } from '../../../src/text/article-index';
import { scanFor } from '../../support/scan-for';
import { articleFromBlocks, paragraph, table } from './article-from-blocks';

const schemas = loadPropertySchemas();

function scan(...blocks: Parameters<typeof articleFromBlocks>[0]) {
  const article = articleFromBlocks(blocks);
  return { article, candidates: scanFor(article, schemas).candidates };
}

const values = (sentence: string) => scan(paragraph(sentence)).candidates.map((candidate) => candidate.quantity.text);

describe('the scan offers no candidate for a number that is not the property value', () => {
  it.each([
    ['a difference ("narrower than … by")', 'The band gap of C70 is narrower than that of C60 by approximately 0.3 eV.', []],
    ['a difference after the value', 'The band gap of ZnO is 3.3 eV, which is larger than that of GaN by 0.2 eV.', ['3.3 eV']],
    ['a measurement temperature of a Tc sentence', 'The Tc of NbSe2 was determined from the resistivity measured at 2 K.', []],
    ['a susceptibility maximum', 'Above Tc, CeRhIn5 shows a peak in the susceptibility at 60 K.', []],
    ['a Hubbard U', 'A Hubbard U of 6.4 eV was applied to the Gd 4f states to reproduce the band gap of GdN.', []],
    ['a Hubbard U written as a symbol', 'We used U = 5 eV on the Ni 3d states, which gives a band gap of 4.1 eV for NiO.', ['4.1 eV']],
  ])('%s', (_kind, sentence, expected) => {
    expect(values(sentence)).toEqual(expected);
  });

  it('still offers the plain value of the same property, its extremum, and a lattice constant written as a symbol', () => {
    expect(values('The superconducting transition temperature of MgB2 is 39 K.')).toEqual(['39 K']);
    // The maximum of the property itself is one of its values; a maximum of another response is not (above).
    expect(values('Across the doping series, Ba1-xKxFe2As2 has a maximum Tc of 38 K.')).toEqual(['38 K']);
    expect(values('Under pressure the Tc of FeSe reaches its maximum value of 37 K.')).toEqual(['37 K']);
    expect(values('The susceptibility of CeRhIn5 shows a maximum of 60 K below Tc.')).toEqual([]);
    // "a = 5.43 Å": the symbol is the number's head (it is a mention only with its value).
    expect(values('The refinement of Si gives the lattice parameter a = 5.4307 Å.')).toEqual(['5.4307 Å']);
  });
});

describe('the conditions, provenance and doubts a candidate carries', () => {
  it('pairs "respectively" values with their methods, each condition at its place in Article.text', () => {
    const { article, candidates } = scan(
      paragraph('Electronic structure'),
      paragraph('The band gap of GaN is 1.86 and 2.31 eV at the GGA/PBE and HSE06 levels, respectively.'),
    );
    expect(
      candidates.map((candidate) => [candidate.quantity.valueText, candidate.material?.text, candidate.conditions.map((c) => c.value)]),
    ).toEqual([
      ['1.86', 'GaN', ['GGA-PBE']],
      ['2.31', 'GaN', ['HSE06']],
    ]);
    for (const candidate of candidates) {
      const [condition] = candidate.conditions;
      expect(article.text.slice(condition!.position!.start, condition!.position!.end)).toBe(condition!.text);
      expect(candidate.provenance.kind).toBe('computed');
      expect(candidate.role).toEqual({ role: 'value', verdict: 'ok' });
      expect(candidate.doubts).toEqual([]);
    }
  });

  it('reads a table column "Eg (HSE06) (eV)" as the method of its cells', () => {
    const { article, candidates } = scan(
      paragraph('Table 1. Band gaps of the monolayers.'),
      table('Material\tEg (PBE) (eV)\tEg (HSE06) (eV)\nMoS2\t1.67\t2.05\nWS2\t1.81\t2.21'),
    );
    expect(
      candidates.map((candidate) => [candidate.material?.text, candidate.quantity.text, candidate.conditions.map((c) => c.value)]),
    ).toEqual([
      ['MoS2', '1.67', ['PBE']],
      ['WS2', '1.81', ['PBE']],
      ['MoS2', '2.05', ['HSE06']],
      ['WS2', '2.21', ['HSE06']],
    ]);
    const hse = candidates[2]!.conditions[0]!;
    expect(article.text.slice(hse.position!.start, hse.position!.end)).toBe('HSE06');
  });

  it("takes a method from the table's caption when the header names none", () => {
    const { candidates } = scan(
      { kind: 'caption', text: 'Table 2. Band gaps calculated with the HSE06 functional.' },
      table('Compound\tEg (eV)\nMoS2\t2.05'),
    );
    expect(candidates.map((candidate) => candidate.conditions.map((c) => c.value))).toEqual([['HSE06']]);
  });

  it("takes no caption printed after the table: that is the next item's, and the gate reads none either", () => {
    const { article, candidates } = scan(table('Compound\tEg (eV)\nMoS2\t2.05'), {
      kind: 'caption',
      text: 'Figure 3. Band structures calculated with the HSE06 functional.',
    });
    expect(buildArticleIndex(article, schemas).captionOf(article.blocks[0]!)).toBeUndefined();
    expect(candidates.map((candidate) => [candidate.quantity.text, candidate.conditions])).toEqual([['2.05', []]]);
  });

  it('offers a cited value marked cited, with the doubt the gate states', () => {
    const [candidate] = scan(paragraph('SnS was shown to be a semiconductor with a band gap of 1.3 eV [12].')).candidates;
    expect(candidate!.provenance).toMatchObject({ kind: 'cited', reference: '[12]' });
    expect(candidate!.doubts).toEqual(['cited [12]: a value the paper quotes from elsewhere, not its own result']);
  });

  it('offers a value whose sentence gives two methods it does not pair, with that doubt and no method', () => {
    const [candidate] = scan(paragraph('Using PBE and HSE06 we find that ZnO has a band gap of 2.9 eV.')).candidates;
    expect(candidate!.conditions.filter((condition) => condition.kind === 'method')).toEqual([]);
    expect(candidate!.doubts).toEqual([expect.stringMatching(/two methods \(PBE, HSE06\).*2\.9 eV/)]);
  });

  it('offers a change "from A to B" for review, saying so, and a range as a value', () => {
    const [change] = scan(paragraph('The band gap of CdS increases from 2.42 eV to 2.50 eV after annealing.')).candidates;
    expect(change!.role).toMatchObject({ role: 'difference', verdict: 'needs_review' });
    expect(change!.doubts[0]).toMatch(/'increases from': .*a change between two states/);
    const [range] = scan(paragraph('The band gaps of the CdSe nanocrystals range from 1.9 eV to 2.4 eV.')).candidates;
    expect(range!.role).toEqual({ role: 'value', verdict: 'ok' });
  });
});
