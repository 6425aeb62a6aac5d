/**
 * The words of the sample's state (phase, polymorph, dimensionality, magnetic order), of the
 * environment, and of directions in the crystal and in k-space. Each entry names the general
 * reference that lists it (`source`); none is here because one paper wrote it. Patterns are
 * regular-expression sources, matched with letter/digit boundaries on both ends.
 */
import type { ConditionKind } from '../../contracts/conditions';

export interface StateTerm {
  readonly kind: ConditionKind;
  /**
   * A group within the kind whose members exclude one another: a sample is "monolayer" or
   * "bulk", "wurtzite" or "zinc blende", but may be both "monolayer" and "2H". Conditions of
   * one kind but different groups never compete for a value.
   */
  readonly group: string;
  /** Normalized value (lower-case words for phases). */
  readonly value: string;
  readonly pattern: string;
  readonly caseInsensitive?: boolean;
  readonly source: string;
}

const kittel = 'C. Kittel, "Introduction to Solid State Physics", 8th ed. (Wiley, 2005)';
const iso = 'ISO/TS 80004-2 (Nanotechnologies — nano-objects: nanoparticle, nanowire, nanoplate)';
const twoD = 'Wikipedia, "Two-dimensional materials" (monolayer, few-layer, bulk counterparts)';
const polymorphs = 'IUPAC Gold Book, "polymorphic transition"; Wikipedia, "Polymorphism (materials science)"';
const structureTypes =
  'Wikipedia, "Crystal structure" and the structure-type pages ("Wurtzite crystal structure", "Cubic crystal system": zinc blende, rock salt); Kittel, ch. 1';

export const STATE_TERMS: readonly StateTerm[] = [
  // Dimensionality and sample form.
  { kind: 'phase', group: 'form', value: 'monolayer', pattern: '[Mm]ono[- ]?layers?|[Ss]ingle[- ]layers?|1L', source: twoD },
  { kind: 'phase', group: 'form', value: 'bilayer', pattern: '[Bb]i[- ]?layers?|2L', source: twoD },
  { kind: 'phase', group: 'form', value: 'trilayer', pattern: '[Tt]ri[- ]?layers?|3L', source: twoD },
  { kind: 'phase', group: 'form', value: 'few-layer', pattern: '[Ff]ew[- ]layers?', source: twoD },
  { kind: 'phase', group: 'form', value: 'multilayer', pattern: '[Mm]ulti[- ]?layers?', source: twoD },
  { kind: 'phase', group: 'form', value: 'bulk', pattern: '[Bb]ulk', source: `${twoD}; ${kittel}, ch. 1` },
  {
    kind: 'phase',
    group: 'form',
    value: 'thin film',
    pattern: '(?:[Tt]hin[- ])?films?',
    source: 'IUPAC Gold Book, "thin film"; Wikipedia, "Thin film"',
  },
  {
    kind: 'phase',
    group: 'form',
    value: 'nanocrystal',
    pattern: '[Nn]anocrystals?|[Nn]anocrystalline|[Qq]uantum dots?|QDs?',
    source: `${iso}; IUPAC Gold Book, "quantum dot"`,
  },
  { kind: 'phase', group: 'form', value: 'nanoparticle', pattern: '[Nn]anoparticles?|NPs', source: iso },
  { kind: 'phase', group: 'form', value: 'nanowire', pattern: '[Nn]anowires?|NWs', source: iso },
  { kind: 'phase', group: 'form', value: 'nanosheet', pattern: '[Nn]anosheets?', source: iso },
  {
    kind: 'phase',
    group: 'form',
    value: 'single crystal',
    pattern: '[Ss]ingle[- ]crystals?|[Ss]ingle[- ]crystalline',
    source: 'IUPAC Gold Book, "single crystal"',
  },
  {
    kind: 'phase',
    group: 'form',
    value: 'polycrystalline',
    pattern: '[Pp]olycrystalline|[Pp]olycrystals?',
    source: 'IUPAC Gold Book, "polycrystal"',
  },
  { kind: 'phase', group: 'form', value: 'amorphous', pattern: '[Aa]morphous', source: 'IUPAC Gold Book, "amorphous solid"' },
  // Structure types and crystal systems.
  { kind: 'phase', group: 'structure', value: 'wurtzite', pattern: '[Ww]urtzite|wz|WZ', source: structureTypes },
  {
    kind: 'phase',
    group: 'structure',
    value: 'zinc blende',
    pattern: '[Zz]inc[- ]?blende|[Zz]incblende|[Ss]phalerite|zb|ZB',
    source: structureTypes,
  },
  { kind: 'phase', group: 'structure', value: 'rock salt', pattern: '[Rr]ock[- ]?salt', source: structureTypes },
  {
    kind: 'phase',
    group: 'structure',
    value: 'rutile',
    pattern: '[Rr]utile',
    source: `${polymorphs}; Wikipedia, "Titanium dioxide" (rutile, anatase, brookite)`,
  },
  {
    kind: 'phase',
    group: 'structure',
    value: 'anatase',
    pattern: '[Aa]natase',
    source: 'Wikipedia, "Titanium dioxide" (rutile, anatase, brookite)',
  },
  {
    kind: 'phase',
    group: 'structure',
    value: 'brookite',
    pattern: '[Bb]rookite',
    source: 'Wikipedia, "Titanium dioxide" (rutile, anatase, brookite)',
  },
  {
    kind: 'phase',
    group: 'structure',
    value: '$1',
    pattern: '(cubic|tetragonal|orthorhombic|hexagonal|trigonal|rhombohedral|monoclinic|triclinic) (?:phase|structure|polymorph|form)',
    caseInsensitive: true,
    source: `${kittel}, ch. 1 (the crystal systems)`,
  },
  // Polytypes of layered crystals ("2H-MoS2", "the 1T phase").
  {
    kind: 'phase',
    group: 'polytype',
    value: '$1',
    pattern: "(1T'|1T|2H|3R|1Td|1T_d)(?=-[A-Z]| (?:phase|polytype|structure|form))",
    source:
      'Wikipedia, "Transition metal dichalcogenide monolayers" (2H, 1T, 1T′, 3R polytypes); Manzeli et al., Nat. Rev. Mater. 2, 17033 (2017), a review',
  },
  // Greek-letter polymorph labels ("α-Fe2O3", "β phase").
  {
    kind: 'phase',
    group: 'polymorph',
    value: '$1',
    pattern: '([αβγδεθκ])(?=-[A-Z(\\[]| (?:phase|polymorph|form)\\b)',
    source: `${polymorphs} (Greek-letter labels of polymorphs)`,
  },
  // Magnetic order.
  {
    kind: 'phase',
    group: 'magnetic order',
    value: 'ferromagnetic',
    pattern: '[Ff]erromagnet(?:ic|ism)|FM(?! (?:image|images|imaging|tip|topography|measurements?|microscopy|scans?|characteri[sz]ation))',
    source: `${kittel}, ch. 11 (ferromagnetic order)`,
  },
  {
    kind: 'phase',
    group: 'magnetic order',
    value: 'antiferromagnetic',
    pattern:
      '[Aa]ntiferromagnet(?:ic|ism)|AFM(?! (?:image|images|imaging|tip|topography|height|measurements?|microscopy|scans?|characteri[sz]ation|profile))',
    source: `${kittel}, ch. 12 (antiferromagnetic order)`,
  },
  {
    kind: 'phase',
    group: 'magnetic order',
    value: 'ferrimagnetic',
    pattern: '[Ff]errimagnet(?:ic|ism)',
    source: `${kittel}, ch. 12 (ferrimagnetic order)`,
  },
  {
    kind: 'phase',
    group: 'magnetic order',
    value: 'paramagnetic',
    pattern: '[Pp]aramagnet(?:ic|ism)',
    source: `${kittel}, ch. 11 (paramagnetism)`,
  },
  {
    kind: 'phase',
    group: 'magnetic order',
    value: 'nonmagnetic',
    pattern: '[Nn]on-?magnetic|NM(?= (?:phase|state|configuration))',
    source: `${kittel}, ch. 11`,
  },
  // Environment.
  {
    kind: 'environment',
    group: 'medium',
    value: 'air',
    pattern: '(?:in|under|exposed to) (?:ambient |dry |humid |the )?air',
    caseInsensitive: true,
    source: 'IUPAC Gold Book, "ambient"; Wikipedia, "Standard conditions for temperature and pressure"',
  },
  {
    kind: 'environment',
    group: 'medium',
    value: 'ambient',
    pattern: '(?:under|at|in) ambient (?:conditions|atmosphere|pressure)',
    caseInsensitive: true,
    source: 'IUPAC Gold Book, "ambient"',
  },
  {
    kind: 'environment',
    group: 'medium',
    value: 'vacuum',
    pattern: '(?:in|under) (?:an? )?(?:high |ultra-?high )?vacuum|in UHV|under UHV',
    caseInsensitive: true,
    source: 'IUPAC Gold Book, "vacuum"; ISO 3529-1 (vacuum technology vocabulary)',
  },
  {
    kind: 'environment',
    group: 'medium',
    value: 'water',
    pattern: '(?:in|under|immersed in) (?:deionized |DI |liquid )?water',
    caseInsensitive: true,
    source: 'IUPAC Gold Book, "aqueous solution"',
  },
  {
    kind: 'environment',
    group: 'medium',
    value: 'solution',
    pattern: '(?:in|from) (?:an? )?(?:aqueous |organic |the )?solutions?',
    caseInsensitive: true,
    source: 'IUPAC Gold Book, "solution"',
  },
  {
    kind: 'environment',
    group: 'medium',
    value: '$1',
    pattern:
      '(?:in|under) (?:an? |the |flowing |pure |dry )?(argon|Ar|nitrogen|N2|N₂|oxygen|O2|O₂|hydrogen|H2|H₂|helium|He)(?: (?:atmosphere|gas|flow|ambient|environment))?',
    source: 'IUPAC Gold Book, "inert atmosphere"; Wikipedia, "Inert gas" (annealing and measurement atmospheres)',
  },
];

/** Spellings of the element symbols as gas names, for the environment's normalized value. */
export const GAS_NAMES: Readonly<Record<string, string>> = {
  Ar: 'argon',
  N2: 'nitrogen',
  'N₂': 'nitrogen',
  O2: 'oxygen',
  'O₂': 'oxygen',
  H2: 'hydrogen',
  'H₂': 'hydrogen',
  He: 'helium',
};

/**
 * Labels of high-symmetry points of the Brillouin zone (Γ, X, M, K, L, … and primed ones), after
 * Setyawan & Curtarolo, Comput. Mater. Sci. 49, 299 (2010), and Kittel ch. 2; "G" is a common
 * plain-text spelling of Γ.
 */
export const K_POINT_LABEL = "(?:Γ|G|X|M|K|K'|K′|L|W|U|A|H|R|Z|Y|S|T|Q|Σ|Λ|Δ|N|P|F)";
export const K_POINT_SOURCE = 'Setyawan & Curtarolo, Comput. Mater. Sci. 49, 299 (2010) (high-symmetry k-point labels); Kittel, ch. 2';

/** Gap character: Kittel, ch. 8 ("direct" and "indirect" absorption processes). */
export const GAP_CHARACTER_SOURCE = `${kittel}, ch. 8 (direct and indirect band gaps)`;
/** Crystal directions: Kittel, ch. 1 (index system for crystal directions and planes). */
export const CRYSTAL_DIRECTION_SOURCE = `${kittel}, ch. 1 (directions [uvw] and crystal axes)`;
