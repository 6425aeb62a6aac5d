import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { provenanceOf } from '../../../../src/text/conditions/provenance';
import { sharedDataSkipReason, sharedPath } from '../../../support/shared-data';

function provenance(sentence: string, number: string) {
  const start = sentence.indexOf(number);
  if (start < 0) throw new Error(`${number} not in ${sentence}`);
  return provenanceOf(sentence, { start, end: start + number.length });
}

describe('provenanceOf: cited values', () => {
  it.each([
    ['Later on, SmN was shown to be a semiconductor with a band gap of 0.7 eV [19].', '0.7 eV', '[19]'],
    ['GaN has band gaps of 3.4 and 3.2 eV [3,4] in its two polymorphs.', '3.4', '[3,4]'],
    ['The wurtzite phase has a band gap of 3.4 eV [5–7].', '3.4 eV', '[5–7]'],
    ['A band gap of 1.1 eV (ref. 12) is usually quoted.', '1.1 eV', '(ref. 12)'],
    ['As shown in Ref. 12 the band gap is 1.1 eV.', '1.1 eV', 'Ref. 12'],
    ['The band gap is 3.3 eV (Smith et al., 2010).', '3.3 eV', '(Smith et al., 2010)'],
    ['A band gap of 2.2 eV was reported by Smith et al. for the film.', '2.2 eV', 'Smith et al.'],
    ['Previous work [12] found a band gap of 2.0 eV.', '2.0 eV', '[12]'],
  ])('%s → cited %s', (sentence, number, reference) => {
    expect(provenance(sentence, number)).toMatchObject({ kind: 'cited', reference });
  });

  it.each([
    ['Using the HSE06 functional [23], we compute a band gap of 2.1 eV.', '2.1 eV', 'computed'],
    ['We compute a band gap of 2.1 eV using the HSE06 functional [23].', '2.1 eV', 'computed'],
    ['We measured a band gap of 3.2 eV, in agreement with earlier work [19].', '3.2 eV', 'measured'],
    ['The calculated band gap of 0.8 eV agrees with the energy27,28 of the films.', '0.8 eV', 'computed'],
    ['MoS2 has a band gap of 1.8 eV in the monolayer.', '1.8 eV', 'unknown'],
  ])('a marker of another clause or noun does not cite: %s → %s', (sentence, number, kind) => {
    expect(provenance(sentence, number).kind).toBe(kind);
  });
});

describe('provenanceOf: computed and measured', () => {
  it.each([
    ['Our calculations give a band gap of 1.2 eV.', '1.2 eV', 'computed', 'calculations'],
    ['The predicted band gap is 2.5 eV.', '2.5 eV', 'computed', 'predicted'],
    ['First-principles results show a gap of 0.4 eV.', '0.4 eV', 'computed', 'First-principles'],
    ['At the HSE06 level the band gap is 3.1 eV.', '3.1 eV', 'computed', 'HSE06'],
    ['DFT gives a band gap of 0.6 eV.', '0.6 eV', 'computed', 'DFT'],
    ['The band gap measured by ellipsometry is 3.3 eV.', '3.3 eV', 'measured', 'ellipsometry'],
    ['We observed a band gap of 1.9 eV.', '1.9 eV', 'measured', 'observed'],
    ['Experimentally, the gap is 1.5 eV.', '1.5 eV', 'measured', 'Experimentally'],
    ['The optical band gap from the Tauc plot is 3.2 eV.', '3.2 eV', 'measured', 'Tauc'],
    ['The absorption spectra show a band gap of 2.7 eV.', '2.7 eV', 'measured', 'absorption spectra'],
  ])('%s → %s', (sentence, number, kind, cue) => {
    const reading = provenance(sentence, number);
    expect(reading.kind).toBe(kind);
    expect(reading.cue?.text).toBe(cue);
  });

  it('takes the cue nearest the value when a sentence has both', () => {
    const sentence = 'The calculated band gap of 1.1 eV is close to the measured one of 1.2 eV.';
    expect([provenance(sentence, '1.1 eV').kind, provenance(sentence, '1.2 eV').kind]).toEqual(['computed', 'measured']);
  });

  it('does not read "a temperature scan" as the SCAN functional', () => {
    expect(provenance('In a temperature scan the gap is 0.2 eV.', '0.2 eV').kind).toBe('unknown');
  });
});

const skipReason = sharedDataSkipReason();

function realSentence(folder: string, paper: number, anchor: string): string {
  const directory = sharedPath('datasets', 'bandgap-200', folder);
  const file = readdirSync(directory).find((name) => name.startsWith(`${paper}_`))!;
  const text = readFileSync(`${directory}/${file}`, 'utf8').replace(/\s+/g, ' ');
  const sentence = text.split(/(?<=[.!?])\s+(?=[A-Z])/u).find((candidate) => candidate.includes(anchor));
  if (!sentence) throw new Error(`"${anchor}" not in ${file}`);
  return sentence;
}

describe.skipIf(skipReason)('provenanceOf on real sentences of bandgap-200 (read from ../shared)', () => {
  it.each([
    ['text-pub', 18, 'semiconductor with a band gap of 0.7 eV', '0.7 eV', 'cited', '[19]'],
    ['text-pub', 18, 'Optical absorption measurements indicate', '0.7 eV', 'cited', '[19]'],
    ['text-pub', 86, 'This pump energy is above the calculated band gap energy', '2.08 eV', 'computed', undefined],
    ['text-pub', 10, 'Hubbard U of', '1.2 eV', 'computed', undefined],
  ] as const)('%s %i "%s" → %s', (folder, paper, anchor, number, kind, reference) => {
    const reading = provenance(realSentence(folder, paper, anchor), number);
    expect(reading.kind).toBe(kind);
    expect(reading.reference).toBe(reference);
  });
});
