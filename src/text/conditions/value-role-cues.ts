/**
 * Word lists that `valueRole` reads (value-role.ts): the words by which English and the field
 * say that a number is a change, a ratio, a fit parameter, a measurement condition or another
 * quantity that shares the property's unit. Each list names the general source it is taken
 * from; none was chosen because a particular paper needed it.
 *
 * Patterns are source strings (compiled per call by value-role.ts, no module-level state):
 * case-insensitive, whole words, white space between words matches any run (PDF text breaks
 * lines anywhere).
 */
import type { ValueRoleKind } from './condition-types';

/** A phrase that, as the number's head or right beside it, gives the number a role. */
export interface RoleCue {
  role: Exclude<ValueRoleKind, 'value'>;
  /** Regular-expression source, matched case-insensitively as whole words. */
  pattern: string;
  /** What the number is then, in words: "a difference", "a model parameter". */
  what: string;
}

/**
 * Nouns of change: a number governed by them is the size of a change, not a state. After
 * Quirk et al., A Comprehensive Grammar of the English Language (1985), §7.74 (comparison and
 * degree: "an increase of", "a difference of"), and the shift vocabulary of spectroscopy
 * (IUPAC Gold Book, "bathochromic shift" / "hypsochromic shift"; "red shift", "blue shift").
 */
const CHANGE_NOUNS = [
  'difference',
  'differences',
  'change',
  'changes',
  'variation',
  'shift',
  'shifts',
  'red[\\s-]?shift',
  'blue[\\s-]?shift',
  'bathochromic\\s+shift',
  'hypsochromic\\s+shift',
  'increase',
  'decrease',
  'increment',
  'decrement',
  'reduction',
  'enhancement',
  'drop',
  'rise',
  'lowering',
  'narrowing',
  'widening',
  'opening',
  'closing',
  'renormali[sz]ation',
  'underestimation',
  'overestimation',
  'discrepancy',
  'deviation',
  'correction',
];

/**
 * Heads that make the number a part or a multiple of the property: "half the gap", "twice",
 * "a fraction of", "% of" (Quirk et al. 1985, §5.17–5.18 on multipliers and fractions: half,
 * twice, double, three times, one-third, a quarter).
 */
const FRACTION_HEADS = ['half', 'one[\\s-]half', 'one[\\s-]third', 'a\\s+third', 'a\\s+quarter', 'one[\\s-]quarter', 'fraction'];
const RATIO_HEADS = ['twice', 'double', 'triple', 'thrice', '\\d+(?:\\.\\d+)?\\s*times', 'ratio', 'percent(?:age)?', '%'];

/**
 * Model and computational parameters that carry an energy or a temperature: the Hubbard U and
 * Hund's J, hopping t (Ashcroft & Mermin, Solid State Physics, ch. 10 tight binding; Anisimov,
 * Zaanen & Andersen, Phys. Rev. B 44, 943 (1991) for DFT+U), and the numerical settings of a
 * plane-wave calculation — kinetic-energy cutoff, smearing, convergence thresholds (Martin,
 * Electronic Structure, 2004, ch. 12–13; the VASP and Quantum ESPRESSO manuals' ENCUT, SIGMA,
 * EDIFF, ecutwfc, degauss) — and of a fit (fitting parameter, broadening, width).
 */
const PARAMETER_HEADS = [
  'Hubbard(?:\\s+U)?',
  'U\\s+(?:parameter|value|term|correction)s?',
  'effective\\s+U',
  'on[\\s-]?site\\s+(?:Coulomb\\s+)?(?:repulsion|interaction|energy|potential)',
  'Coulomb\\s+(?:repulsion|interaction)\\s+(?:parameter|energy)',
  "Hund(?:'s|’s)?\\s+(?:coupling|exchange|J)",
  'J\\s+(?:parameter|value)s?',
  'exchange\\s+(?:parameter|constant|coupling|integral)s?',
  // Coupling constants of a model Hamiltonian (spin–orbit λ, electron–phonon), same sources.
  '(?:spin[\\s–-]orbit(?:al)?\\s+)?coupling\\s+constants?',
  'hopping(?:\\s+(?:parameter|integral|energy|amplitude))?',
  'transfer\\s+integral',
  '(?:kinetic[\\s-]energy\\s+|plane[\\s-]wave\\s+|energy\\s+)?cut[\\s-]?offs?(?:\\s+energy)?',
  'ENCUT',
  'ecutwfc',
  'ecutrho',
  'smearing(?:\\s+width)?',
  'degauss',
  'convergence(?:\\s+(?:criterion|criteria|threshold|tolerance))?',
  'converged\\s+(?:to|within)',
  'threshold',
  'tolerance',
  'EDIFF',
  'broadening',
  'Gaussian\\s+width',
  'Lorentzian\\s+width',
  'fit(?:ting)?\\s+parameters?',
  'fitted\\s+with',
  'adjustable\\s+parameter',
];

/**
 * Quantities of the dimension energy that are not a band gap and are often printed beside one:
 * IUPAC Gold Book entries (activation energy, binding energy, electron affinity, ionization
 * energy/potential, work function, photon energy, Urbach tail), Kittel, Introduction to Solid
 * State Physics 8th ed. (exciton binding energy, Fermi energy, spin–orbit and exchange
 * splitting, phonon energy, bandwidth, Rashba splitting), and spectroscopy (peak position,
 * emission/absorption peak, Stokes shift, band offset; Yu & Cardona, Fundamentals of
 * Semiconductors, 4th ed.).
 */
const ENERGY_QUANTITIES = [
  '(?:spin|exchange|Rashba|Zeeman|spin[\\s-]orbit|crystal[\\s-]field|valley|band)[\\s-]*splittings?',
  'splittings?',
  '(?:exciton(?:ic)?\\s+)?binding\\s+energ(?:y|ies)',
  'activation\\s+energ(?:y|ies)',
  'formation\\s+energ(?:y|ies)',
  'cohesive\\s+energ(?:y|ies)',
  'adsorption\\s+energ(?:y|ies)',
  'Urbach\\s+(?:energy|tail|width)',
  'work\\s+functions?',
  'electron\\s+affinit(?:y|ies)',
  'ionization\\s+(?:potential|energy)s?',
  'photon\\s+energ(?:y|ies)',
  'phonon\\s+energ(?:y|ies)',
  'Fermi\\s+(?:level|energy)',
  'bandwidths?',
  'band\\s+widths?',
  '(?:valence|conduction)[\\s-]band\\s+offsets?',
  'band\\s+offsets?',
  'Stokes\\s+shift',
  'peaks?(?:\\s+(?:position|energy|centered|centred|located))?',
  'emission',
  'absorption\\s+(?:peak|maximum|band|line)',
  'resonance',
  'exciton(?:ic)?\\s+(?:peak|energy|transition|resonance)',
  'trap\\s+(?:depth|level|state)',
  'defect\\s+(?:level|state)',
  'donor\\s+level',
  'acceptor\\s+level',
];

/**
 * Temperatures that are not a transition temperature: characteristic temperatures of a solid
 * (Debye temperature, melting point, Weiss/Curie–Weiss θ, glass transition, decomposition;
 * Kittel 8th ed.; Ashcroft & Mermin ch. 23) and the extremum of a response measured against
 * temperature ("a peak in the susceptibility at 60 K": Blundell, Magnetism in Condensed Matter,
 * 2001, §8 on susceptibility maxima of antiferromagnets).
 */
const TEMPERATURE_QUANTITIES = [
  'Debye\\s+temperature',
  'melting\\s+(?:point|temperature)',
  'boiling\\s+(?:point|temperature)',
  '(?:Curie[\\s–-]+)?Weiss\\s+(?:temperature|constant)',
  'glass[\\s-]transition(?:\\s+temperature)?',
  'decomposition\\s+temperature',
  'Verwey\\s+(?:transition|temperature)',
  'peaks?',
  'maximum',
  'minimum',
  'cusp',
  'hump',
  'susceptibility\\s+maximum',
];

/** `TEMPERATURE_QUANTITIES` as one alternation, for "a peak in the susceptibility at 60 K". */
export const TEMPERATURE_QUANTITIES_AT = TEMPERATURE_QUANTITIES.join('|');

/**
 * Verbs and phrases that make a temperature the condition of a measurement or a process step:
 * "measured at 2 K", "cooled to", "down to 2 K", "annealed at 900 K" (the vocabulary of
 * experimental sections; Callister, Materials Science and Engineering, ch. 11 heat treatment:
 * annealed, sintered, calcined, quenched, grown).
 */
export const TEMPERATURE_CONDITION_BEFORE =
  '(?:measured|recorded|collected|taken|performed|carried\\s+out|done|obtained|acquired|kept|held|maintained|' +
  'annealed|sintered|calcined|heated|cooled|quenched|grown|deposited|synthesi[sz]ed|prepared|treated|dried|fired|' +
  'heat[\\s-]treated|aged|irradiated|illuminated|probed|measurements?|spectr(?:um|a)|data|curves?|isotherms?)';

/** "down to 2 K", "cooled to", "heated up to": the end of a temperature sweep. */
export const TEMPERATURE_SWEEP_BEFORE =
  '(?:down\\s+to|cooled(?:\\s+down)?\\s+to|heated(?:\\s+up)?\\s+to|warmed(?:\\s+up)?\\s+to|as\\s+low\\s+as)';

/**
 * Light that excites or probes a sample: its energy is a condition of the measurement, not the
 * sample's gap (IUPAC Gold Book, "excitation energy"; the pump–probe vocabulary of ultrafast
 * spectroscopy). "Excitation energy" alone is left out: it also names a transition of the
 * sample itself (a defect's zero-phonon-line excitation energy), not the light.
 */
export const EXCITATION_WORDS =
  '(?:excited(?:\\s+(?:with|at|by|using))?|excitation\\s+(?:light|laser|source|beam|wavelength|photons?)|laser|pump(?:ed|ing)?|probe[sd]?|incident|illuminat(?:ed|ion)|irradiat(?:ed|ion)|h\\s*ν\\s*(?:pump|probe|exc))';

/**
 * Words that make a temperature a transition temperature when written right before "at":
 * "a transition at 60 K", "orders at", "becomes superconducting at" (Kittel 8th ed.,
 * superconductivity and ferromagnetism chapters; Blundell 2001). The word before a
 * "transition"/"ordering" (its qualifier: "antiferromagnetic ordering") decides whose transition
 * it is, read against the catalogue.
 */
export const TRANSITION_WORDS = '(?:transitions?|ordering|orders|ordered|onset|becomes|became|become|turns|enters)';

/** Verbs of change that end in the new state: "reduced to 67 meV" is the new value (Quirk et al. 1985, §16.26 resultative "to"). */
export const CHANGE_VERBS_TO =
  '(?:reduced|increased|decreased|raised|lowered|improved|enhanced|shifted|changed|tuned|narrowed|widened|' +
  'drops?|dropped|rises?|rose|goes|went|jumps?|jumped|falls?|fell|reaches|reached|grows?|grew|opens?|opened|' +
  'reduces|increases|decreases|shifts|changes|narrows|widens|enlarged|suppressed|boosted|amounts)';

/** Verbs of change before "from A to B" (as `CHANGE_VERBS_TO`), and the nouns "change/increase/shift from". */
export const CHANGE_BEFORE_FROM =
  '(?:increas(?:e|es|ed|ing)|decreas(?:e|es|ed|ing)|reduc(?:e|es|ed|ing|tion)|ris(?:e|es|ing)|rose|drop(?:s|ped|ping)?|' +
  'fall(?:s|ing)?|fell|shift(?:s|ed|ing)?|chang(?:e|es|ed|ing)|tun(?:e|es|ed|ing)|enhanc(?:e|es|ed|ing|ement)|' +
  'narrow(?:s|ed|ing)?|widen(?:s|ed|ing)?|low(?:er|ers|ered|ering)|rais(?:e|es|ed|ing)|go(?:es)?|went|evolv(?:e|es|ed|ing)|' +
  'mov(?:e|es|ed|ing)|grow(?:s|ing)?|grew|jump(?:s|ed)?|switch(?:es|ed)?)';

/**
 * Comparatives written after the number: "0.3 eV lower than", "10 K above Tc" (Quirk et al.
 * 1985, §7.74–7.83: the measure phrase before a comparative states the difference).
 */
export const COMPARATIVES =
  '(?:lower|higher|larger|smaller|greater|less|wider|narrower|bigger|more|above|below|beneath|under|over|deeper|shallower|stronger|weaker|red[\\s-]?shifted|blue[\\s-]?shifted)';

/** Words that hedge a number ("approximately 0.3 eV", "~0.3 eV"); they may stand between a cue and the number. */
export const APPROXIMATORS =
  '(?:(?:approximately|approx\\.?|about|around|roughly|nearly|almost|only|just|ca\\.?|circa|some|merely|over|up\\s+to|as\\s+much\\s+as|[~≈∼≃]|<|>|≤|≥)\\s*)*';

/** The role cues read as the head of a number, for a property of the given dimension. */
export function headCuesFor(dimension: string): RoleCue[] {
  const cues: RoleCue[] = [
    ...CHANGE_NOUNS.map((pattern) => ({ role: 'difference' as const, pattern, what: 'a change or difference' })),
    ...FRACTION_HEADS.map((pattern) => ({ role: 'fraction' as const, pattern, what: 'a part of the value' })),
    ...RATIO_HEADS.map((pattern) => ({ role: 'ratio' as const, pattern, what: 'a multiple or ratio of the value' })),
    ...PARAMETER_HEADS.map((pattern) => ({ role: 'parameter' as const, pattern, what: 'a model or computational parameter' })),
  ];
  const quantities = dimension === 'energy' ? ENERGY_QUANTITIES : dimension === 'temperature' ? TEMPERATURE_QUANTITIES : [];
  cues.push(...quantities.map((pattern) => ({ role: 'other-quantity' as const, pattern, what: 'another quantity of the same dimension' })));
  if (dimension === 'energy')
    cues.push({
      role: 'condition',
      pattern: `${EXCITATION_WORDS}(?:\\s+(?:energy|energies|light|wavelength|source|beam|photons?))?`,
      what: 'the energy of the exciting light, a condition of the measurement',
    });
  return cues;
}
