import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBandgapTruth } from '../../../../src/eval/bandgap/bandgap-truth';
import { loadPropertySchemas } from '../../../../src/properties';
import { roleVerdict, valueRole } from '../../../../src/text/conditions/value-role';
import { parseQuantities } from '../../../../src/text/quantities';
import { sharedDataSkipReason, sharedPath } from '../../../support/shared-data';

const catalogue = loadPropertySchemas();
const schema = (name: string) => catalogue.find((property) => property.name === name)!;

/** The role of the `occurrence`-th `number` (with its unit when written) in `sentence`. */
function roleOf(sentence: string, number: string, property = 'band_gap', occurrence = 0) {
  let start = -1;
  for (let index = 0; index <= occurrence; index++) start = sentence.indexOf(number, start + 1);
  if (start < 0) throw new Error(`${number} not in ${sentence}`);
  return valueRole(sentence, { start, end: start + number.length }, schema(property), catalogue);
}

describe('valueRole: plain values stay values', () => {
  it.each([
    ['The band gap of ZnO is 3.37 eV at room temperature.', '3.37 eV'],
    ['Silicon has a direct band gap of 1.13 eV.', '1.13 eV'],
    ['After hydrogenation the gap is reduced to 67 meV.', '67 meV'],
    ['With strain the gap is improved to 76 meV.', '76 meV'],
    ['The optical band gap, estimated from the Tauc plot, is 3.2 eV.', '3.2 eV'],
    ['The band gap obtained from the PL peak is 2.9 eV.', '2.9 eV'],
    ['The band gaps of the alloys range from 1.2 to 1.5 eV.', '1.2'],
    ['The band gaps of the alloys range from 1.2 to 1.5 eV.', '1.5 eV'],
    ['ZnO has a band gap of 3.37 eV and an exciton binding energy of 60 meV.', '3.37 eV'],
    ['With an exciton binding energy of 60 meV, ZnO has a band gap of 3.37 eV.', '3.37 eV'],
    ['It is a 3 eV bandgap insulator.', '3 eV'],
    ['Eg = 1.8 eV for the film.', '1.8 eV'],
    ['The band gaps are 0.7 eV and 1.1 eV, respectively.', '1.1 eV'],
  ])('%s → value (%s)', (sentence, number) => {
    expect(roleOf(sentence, number)).toEqual({ role: 'value' });
  });

  it.each([
    ['MgB2 has Tc = 39 K.', '39 K', 'tc'],
    ['Nb becomes superconducting below 9.2 K.', '9.2 K', 'tc'],
    ['We observe superconductivity at 4.5 K in the film.', '4.5 K', 'tc'],
    ['The sample shows a superconducting transition at 12 K.', '12 K', 'tc'],
    ['The Curie temperature of Fe is 1043 K.', '1043 K', 'curie_temperature'],
    ['The compound orders antiferromagnetically with TN = 60 K.', '60 K', 'neel_temperature'],
    ['Tc increases to 30 K under pressure.', '30 K', 'tc'],
  ])('%s → value (%s, %s)', (sentence, number, property) => {
    expect(roleOf(sentence, number, property).role).toBe('value');
  });
});

describe('valueRole: differences', () => {
  it.each([
    ['Its bandgap is narrower than that of C60 by approximately 0.3 eV.', '0.3 eV', 'narrower'],
    ['On alloying the band gap increased by 0.2 eV.', '0.2 eV', 'by'],
    ['The absorption edge is shifted by 40 meV to lower energy.', '40 meV', 'by'],
    ['The gap is reduced by 0.15 eV under strain.', '0.15 eV', 'by'],
    ['We find a decrease of 50 meV in the band gap.', '50 meV', 'decrease'],
    ['The strain gives ΔEg = 0.12 eV.', '0.12 eV', 'Δ'],
    ['A band gap difference of 0.4 eV separates the two phases.', '0.4 eV', 'difference'],
    ['The HSE06 band gap is 0.8 eV higher than the PBE one.', '0.8 eV', 'higher'],
    ['The defect level lies 0.4 eV below the conduction band.', '0.4 eV', 'below'],
    ['A shift of the band gap of 25 meV is seen.', '25 meV', 'shift'],
  ])('%s → difference', (sentence, number, cue) => {
    const role = roleOf(sentence, number);
    expect(role.role).toBe('difference');
    expect(role.reason).toContain(cue);
    expect(roleVerdict(role)).toBe('rejected');
  });

  it('reads both ends of "increases from A to B" as a change, for review', () => {
    const sentence = 'Upon annealing the band gap increases from 1.2 to 1.5 eV.';
    const from = roleOf(sentence, '1.2');
    const to = roleOf(sentence, '1.5 eV');
    expect([from.role, from.changeEnd, to.role, to.changeEnd]).toEqual(['difference', 'from', 'difference', 'to']);
    expect([roleVerdict(from), roleVerdict(to)]).toEqual(['needs_review', 'needs_review']);
  });
});

describe('valueRole: ratios, fractions, parameters', () => {
  it.each([
    ['The chemical potential sits at Eg/2 = 0.6 eV.', '0.6 eV', 'fraction'],
    ['The level lies at half the gap, 0.55 eV.', '0.55 eV', 'fraction'],
    ['The resonance condition is 2×Elaser = 4.8 eV.', '4.8 eV', 'ratio'],
    ['The Stokes shift is twice the gap, 2.2 eV.', '2.2 eV', 'ratio'],
    ['They determine a U parameter equal to 6.4 eV in order to fix the experimental band gap of GdN.', '6.4 eV', 'parameter'],
    ['We use U = 5 eV on the Gd 4f states and obtain a band gap.', '5 eV', 'parameter'],
    ['Hund’s coupling J = 0.7 eV is included in the band gap calculation.', '0.7 eV', 'parameter'],
    ['The hopping t = 2.7 eV sets the band gap.', '2.7 eV', 'parameter'],
    ['A plane-wave cutoff energy of 500 eV was used for the band gap.', '500 eV', 'parameter'],
    ['A Gaussian smearing of 0.05 eV was used.', '0.05 eV', 'parameter'],
    ['The band gap energies converged to within 1 meV.', '1 meV', 'parameter'],
  ])('%s → %s', (sentence, number, role) => {
    const reading = roleOf(sentence, number);
    expect(reading.role).toBe(role);
    expect(reading.reason).toBeTruthy();
    expect(reading.cue).toBeDefined();
  });
});

describe('valueRole: conditions and other quantities', () => {
  it.each([
    ['The magnetization of the superconductor was measured at 2 K.', '2 K', 'tc', 'condition'],
    ['Below Tc, the resistivity at 2 K is zero.', '2 K', 'tc', 'condition'],
    ['The susceptibility was followed down to 2 K.', '2 K', 'tc', 'condition'],
    ['The samples were cooled to 1.8 K before the Tc scan.', '1.8 K', 'tc', 'condition'],
    ['The films were annealed at 900 K to raise Tc.', '900 K', 'tc', 'condition'],
    ['The crystals were grown at 1200 K.', '1200 K', 'curie_temperature', 'condition'],
    ['There is a peak in the susceptibility at 60 K.', '60 K', 'tc', 'other-quantity'],
    ['The Debye temperature of the superconductor is 420 K.', '420 K', 'tc', 'other-quantity'],
    ['The Néel temperature of the parent compound is 60 K.', '60 K', 'tc', 'other-quantity'],
    ['An antiferromagnetic ordering at 60 K precedes superconductivity.', '60 K', 'tc', 'other-quantity'],
    ['The melting point of the superconductor is 1100 K.', '1100 K', 'tc', 'other-quantity'],
    ['The sample was excited with a 3.8 eV laser to probe the band gap.', '3.8 eV', 'band_gap', 'condition'],
    ['We find a spin-splitting of the gap of 0.36 eV.', '0.36 eV', 'band_gap', 'other-quantity'],
    ['The exciton binding energy of ZnO is 60 meV, large compared with its band gap.', '60 meV', 'band_gap', 'other-quantity'],
    ['The PL emission peak at 2.9 eV lies below the band gap.', '2.9 eV', 'band_gap', 'other-quantity'],
    ['The work function of the film is 4.5 eV, as the band gap is small.', '4.5 eV', 'band_gap', 'other-quantity'],
    ['The activation energy of 0.2 eV is much smaller than the band gap.', '0.2 eV', 'band_gap', 'other-quantity'],
    ['An Urbach energy of 45 meV shows the disorder below the band gap.', '45 meV', 'band_gap', 'other-quantity'],
  ])('%s → %s', (sentence, number, property, role) => {
    const reading = roleOf(sentence, number, property);
    expect(reading.role).toBe(role);
    expect(roleVerdict(reading)).toBe('rejected');
  });

  it('keeps "band gap of X" when a rival word stands elsewhere in the sentence', () => {
    expect(roleOf('Despite its spin splitting, the band gap of CrI3 is 1.1 eV.', '1.1 eV').role).toBe('value');
    expect(roleOf('The band gap of 1.2 eV exceeds the exciton binding energy of 20 meV.', '1.2 eV').role).toBe('value');
  });
});

const skipReason = sharedDataSkipReason();

/** The sentence of a bandgap-200 text (white space collapsed, as PDF text breaks lines anywhere) that holds `anchor`. */
function realSentence(folder: 'text-pub' | 'text-arxiv', paper: number, anchor: string): string {
  const directory = sharedPath('datasets', 'bandgap-200', folder);
  const file = readdirSync(directory).find((name) => name.startsWith(`${paper}_`))!;
  const text = readFileSync(`${directory}/${file}`, 'utf8').replace(/\s+/g, ' ');
  const sentence = text.split(/(?<=[.!?])\s+(?=[A-Z])/u).find((candidate) => candidate.includes(anchor));
  if (!sentence) throw new Error(`"${anchor}" not in ${file}`);
  return sentence;
}

describe.skipIf(skipReason)('valueRole on real sentences of bandgap-200 (read from ../shared)', () => {
  it.each([
    ['text-pub', 18, 'U parameter equal to', '6.4 eV', 'parameter'],
    ['text-pub', 10, 'Hubbard U of', '1.2 eV', 'parameter'],
    ['text-pub', 32, 'cutoff energy of 1000 eV', '1000 eV', 'parameter'],
    ['text-arxiv', 84, 'corresponds to the exciton binding energy', '3 meV', 'other-quantity'],
    ['text-pub', 86, '90 meV above', '90 meV', 'difference'],
    ['text-arxiv', 8, 'shifted by about 60 meV', '60 meV', 'difference'],
    ['text-pub', 90, 'shifts from 1.663 eV', '1.625 eV', 'difference'],
    ['text-pub', 86, 'This pump energy is above the calculated band gap energy', '2.08 eV', 'value'],
    ['text-pub', 18, 'semiconductor with a band gap of 0.7 eV', '0.7 eV', 'value'],
  ] as const)('%s %i "%s": %s → %s', (folder, paper, anchor, number, role) => {
    expect(roleOf(realSentence(folder, paper, anchor), number).role).toBe(role);
  });

  it('reads the truth sentences of manual_pub and manual_arxiv as values (measured share printed)', () => {
    const misread: string[] = [];
    let located = 0;
    for (const file of ['manual_pub__manual.csv', 'manual_arxiv__manual.csv']) {
      const papers = parseBandgapTruth(readFileSync(sharedPath('datasets', 'bandgap-200', file), 'utf8'));
      const seen = new Set<string>();
      for (const truth of papers.flatMap((paper) => paper.truths)) {
        if (!truth.source || /^table/iu.test(truth.source) || truth.value.kind !== 'number') continue;
        const target = truth.value.value;
        const sentence = truth.source.replace(/\s+/g, ' ');
        const quantity = parseQuantities(sentence).find((candidate) => {
          if (candidate.value.kind !== 'number' || !['eV', 'meV'].includes(candidate.unit)) return false;
          const inElectronvolts = candidate.unit === 'meV' ? candidate.value.value / 1000 : candidate.value.value;
          return Math.abs(inElectronvolts - target) <= 0.005;
        });
        if (!quantity || seen.has(`${sentence}|${quantity.start}`)) continue;
        seen.add(`${sentence}|${quantity.start}`);
        located++;
        const reading = valueRole(sentence, { start: quantity.start, end: quantity.end }, schema('band_gap'), catalogue);
        if (reading.role !== 'value') misread.push(`${file}: ${reading.role} (${reading.reason}) — ${sentence}`);
      }
    }
    const share = (located - misread.length) / located;
    console.log(`valueRole on truth sentences: ${located - misread.length}/${located} read as value (${(share * 100).toFixed(1)}%)`);
    for (const line of misread) console.log(`  misread: ${line}`);
    expect(located).toBeGreaterThan(80);
    // 97 of 105 measured; the 8 others are PL/exciton peak positions and a defect level 0.4 eV above the VBM that
    // the annotators recorded as band gaps, which the issue asks to read as other quantities.
    expect(share).toBeGreaterThanOrEqual(0.9);
  });
});
