import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPropertySchemas } from '../../../src/properties';
import { findPropertyMentions } from '../../../src/text/find-property-mentions';

const schemas = loadPropertySchemas();
const found = (text: string) => findPropertyMentions(text, schemas).map((mention) => [mention.property, mention.text]);

// Real sentences; lines of ../shared/datasets/bandgap-200/text-pub/<file> unless said otherwise
// (PDF line breaks kept where they matter).
describe('findPropertyMentions on real sentences', () => {
  it.each<[string, string, string[][]]>([
    [
      '14_10.1039_C7CP03960C.txt:169-170',
      'a-P displays a direct band gap of 1.12 eV while b-P has an\nindirect band gap of 2.05 eV (Table 1).',
      [
        ['band_gap', 'band gap'],
        ['band_gap', 'band gap'],
      ],
    ],
    [
      'manual_pub__manual.csv, paper 7 (10.1021/ic4018135)',
      'This is similar to LaOBiS2 where the energy gap was found to be 0.82 eV.',
      [['band_gap', 'energy gap']],
    ],
    [
      'manual_pub__manual.csv, paper 8 (10.1038/nature09720)',
      'even in the case of the non-doped 3 eV bandgap insulator.',
      [['band_gap', 'bandgap']],
    ],
    [
      '11_10.1038_s41467-021-21203-6.txt:703',
      'of band-gap renormalization in the photoexcited monolayer MoS2.',
      [['band_gap', 'band-gap']],
    ],
    [
      '14_10.1039_C7CP03960C.txt:324',
      'Lattice parameter (a, b), band gap (Eg), in-plane stiﬀness',
      [
        ['lattice_constant', 'Lattice parameter'],
        ['band_gap', 'band gap'],
        ['band_gap', 'Eg'],
      ],
    ],
    ['14_10.1039_C7CP03960C.txt:366 (a table header)', 'Eg (eV)', [['band_gap', 'Eg']]],
    [
      '18_10.1088_0953-8984_27_11_115503.txt:74',
      'From speciﬁc heat measurements an ordering temperature TN of 18.2 K',
      [['neel_temperature', 'TN']],
    ],
    ['1_10.1002_adfm.202311895.txt:137', 'temperature TN = 30.8 K. In the 1970s, the occurrence of a dy-', [['neel_temperature', 'TN']]],
    [
      '100_10.1063_1.1566097.txt:68',
      'annealing,5–9 and Curie temperatures up to 150 K have now',
      [['curie_temperature', 'Curie temperatures']],
    ],
    [
      '98_10.1039_D2CP02724K.txt:192',
      'lattice constants of VCClBr are a = 3.257 Å and b = 3.959 Å. Due to',
      [
        ['lattice_constant', 'lattice constants'],
        ['lattice_a', 'a'],
        ['lattice_b', 'b'],
      ],
    ],
    ['18_10.1088_0953-8984_27_11_115503.txt:185', 'constant, i.e. a = 5.04 Å, and convergence was considered', [['lattice_a', 'a']]],
    ['16_10.1063_1.4979859.txt:141', 'GmbH with a viscosity of 2.49 cSt and a density of 1.070 g/ml.', [['density', 'density']]],
    // Captured text of ../shared/fixtures/pdf/supercon/supermat__1609.04957-CC.pdf
    [
      'supermat__1609.04957-CC.pdf',
      'the Sm1111 series marks the highest Tc (Tc=55 K) in all types of iron-based pnictides',
      [
        ['tc', 'Tc'],
        ['tc', 'Tc'],
      ],
    ],
    [
      'supermat__P066020501-CC.pdf',
      'in the superconducting (SC) high-Tc cuprate YBa2(Cu1-yCoy)3O7+δ (y=0.013, Tc=93 K).',
      [
        ['tc', 'Tc'],
        ['tc', 'Tc'],
      ],
    ],
  ])('%s', (_source, text, expected) => {
    expect(found(text)).toEqual(expected);
  });
});

describe('findPropertyMentions case and boundary rules', () => {
  it('matches symbols case-sensitively and as whole words only', () => {
    // supermat__EPL0410207-CC.pdf: "2∆/kTc" is a ratio, not a Tc mention.
    expect(found('yielding 2∆/kTc = 3.9 ± 0.1')).toEqual([]);
    expect(found('for example, eg in our notes')).toEqual([]);
    expect(found('the TC of the ferromagnet')).toEqual([['curie_temperature', 'TC']]);
    expect(found('the Tc of the superconductor')).toEqual([['tc', 'Tc']]);
    expect(found('Tc0 and TcX')).toEqual([['tc', 'Tc0']]);
  });

  it('matches names case-insensitively and across line breaks, preferring the longest', () => {
    expect(found('The BAND\nGAP widens')).toEqual([['band_gap', 'BAND\nGAP']]);
    expect(found('the superconducting transition temperature rises')).toEqual([['tc', 'superconducting transition temperature']]);
    expect(found('Tc,onset = 12 K')).toEqual([['tc', 'Tc,onset']]);
    expect(found('lattice constant a of 3.9 Å')).toEqual([['lattice_a', 'lattice constant a']]);
  });

  it('takes a, b, c as lattice constants only in an assignment with a length unit', () => {
    // 16_10.1063_1.4979859.txt:114: the PDF text garbles "=" as "¼"; no assignment, no mention of a.
    expect(found('with measured lattice constants of a ¼ b ¼ 5.68 6 0.01 A˚ and')).toEqual([['lattice_constant', 'lattice constants']]);
    expect(found('a = 3 samples and c = 4 K')).toEqual([]);
    expect(found('as a function of a and b')).toEqual([]);
    expect(found('c = 12.4(2) Å')).toEqual([['lattice_c', 'c']]);
  });

  it('returns offsets that slice back to the mention, and never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        for (const mention of findPropertyMentions(text, schemas)) expect(text.slice(mention.start, mention.end)).toBe(mention.text);
      }),
    );
    const text = 'The band gap Eg of ZnO is 3.4 eV and Tc = 39 K.';
    for (const mention of findPropertyMentions(text, schemas)) expect(text.slice(mention.start, mention.end)).toBe(mention.text);
  });
});
