import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../src/text/split-sentences';

const sentences = (text: string) => splitSentences(text).map((span) => text.slice(span.start, span.end));

describe('splitSentences', () => {
  it.each<[string, string, string[]]>([
    // manual_pub__manual.csv (bandgap-200), paper 12: "Fig." and "~1.45" must not split.
    [
      'Fig. and a decimal point',
      'As shown in Fig. 1e, the PL spectra at 78 K display a new emission peak at ~1.45 eV in the WS2–WSe2 heterobilayers. It is attributed to interlayer excitons16.',
      [
        'As shown in Fig. 1e, the PL spectra at 78 K display a new emission peak at ~1.45 eV in the WS2–WSe2 heterobilayers.',
        'It is attributed to interlayer excitons16.',
      ],
    ],
    // bandgap-200 text-pub/18_10.1088_0953-8984_27_11_115503.txt:185 ("i.e.")
    ['i.e.', 'constant, i.e. a = 5.04 Å, and convergence was considered.', ['constant, i.e. a = 5.04 Å, and convergence was considered.']],
    // bandgap-200 text-pub/11_10.1038_s41467-021-21203-6.txt:447 ("i.e.,")
    [
      'i.e., with a comma',
      'band gap are lattice vacancies, i.e., oxygen or zinc vacancies28. The',
      ['band gap are lattice vacancies, i.e., oxygen or zinc vacancies28.', 'The'],
    ],
    [
      'et al. and e.g.',
      'Smith et al. (ref. 3) measured it, e.g. in ZnO. Then it grew.',
      ['Smith et al. (ref. 3) measured it, e.g. in ZnO.', 'Then it grew.'],
    ],
    [
      'ca. and initials',
      'J. Bardeen and L. N. Cooper found ca. 10 K. Another result follows.',
      ['J. Bardeen and L. N. Cooper found ca. 10 K.', 'Another result follows.'],
    ],
    // supermat__P066020501-CC.pdf: a unit letter after a number ends the sentence.
    [
      'a unit before the period',
      'provided Tc= 93 K.\n\nThe neutron scattering experiments were performed',
      ['provided Tc= 93 K.', 'The neutron scattering experiments were performed'],
    ],
    ['question, exclamation and a bracket', 'Is it a gap? Yes! (See below.) Done', ['Is it a gap?', 'Yes!', '(See below.)', 'Done']],
    // bandgap-200 text-pub/7_10.1021_ic4018135.txt: a citation glued after the period.
    [
      'a citation after the period',
      'When compared to LaOBiS2, the a-axial lattice parameter is larger, and the c-axial one is slightly smaller.11 The PDF data',
      ['When compared to LaOBiS2, the a-axial lattice parameter is larger, and the c-axial one is slightly smaller.11', 'The PDF data'],
    ],
    [
      'a lower-case continuation',
      'The value was approx. three times larger vs. bulk.',
      ['The value was approx. three times larger vs. bulk.'],
    ],
  ])('%s', (_case, text, expected) => {
    expect(sentences(text)).toEqual(expected);
  });

  it('returns ordered, non-overlapping, trimmed spans that keep every non-blank character', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const spans = splitSentences(text);
        let previousEnd = 0;
        for (const span of spans) {
          expect(span.start).toBeGreaterThanOrEqual(previousEnd);
          expect(span.end).toBeGreaterThan(span.start);
          expect(text[span.start]).not.toMatch(/\s/);
          previousEnd = span.end;
        }
        expect(
          spans
            .map((span) => text.slice(span.start, span.end))
            .join('')
            .replace(/\s/g, ''),
        ).toBe(text.replace(/\s/g, ''));
      }),
    );
  });
});
