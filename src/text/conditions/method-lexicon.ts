/**
 * The method vocabulary of the condition reader: exchange–correlation functionals and the
 * methods beyond DFT (many-body perturbation theory, DMFT), the "+U" and spin–orbit terms that
 * refine them, and the experimental techniques that give a band gap, a transition temperature or
 * a transport value. Built from the field's general references (each entry names its `source`),
 * never from one paper: a term is here because a textbook, a standard review or a reference page
 * lists it.
 *
 * `pattern` is a regular-expression source matched case-sensitively (functional names are
 * acronyms whose case carries meaning: "SCAN" is a functional, "scan" is a word), with
 * `caseInsensitive` only for terms spelled out in words. Word boundaries are added by the
 * reader: a letter or digit may not touch either end ("PL" never matches inside "PLOT", "GW"
 * never inside "GWh").
 *
 * `lineage` places a method in the refinement tree that `methodsCompatible` walks: the first
 * element is the family ("DFT", "GW", "BSE", "DMFT", "experiment"), each next one refines it
 * (["DFT", "GGA", "PBE"]).
 */

export interface MethodTerm {
  /** Canonical name, used in normalized values ("PBE", "HSE06", "G0W0", "UV–vis"). */
  readonly value: string;
  /** Regular-expression source of the spellings (no flags, no boundaries). */
  readonly pattern: string;
  readonly caseInsensitive?: boolean;
  /** Family first, then each refinement, ending with `value` itself. */
  readonly lineage: readonly string[];
  /** The general reference that lists the term, in words. */
  readonly source: string;
}

const martin = 'R. M. Martin, "Electronic Structure: Basic Theory and Practical Methods" (Cambridge, 2004)';
const softwareList = 'Wikipedia, "List of quantum chemistry and solid-state physics software" (functional columns)';
const hybrid = 'Wikipedia, "Hybrid functional" (B3LYP, PBE0, HSE)';
const manyBody = 'Wikipedia, "GW approximation"; Aryasetiawan & Gunnarsson, Rep. Prog. Phys. 61, 237 (1998), a review of the GW method';

/**
 * Functionals and methods that can start a method expression ("GGA", "HSE06", "DFT+U",
 * "HSE06+G0W0"). Longer spellings are tried first, so "PBEsol" is not read as "PBE".
 */
export const METHOD_TERMS: readonly MethodTerm[] = [
  { value: 'DFT', pattern: 'DFT', lineage: ['DFT'], source: `${martin}, ch. 6–7 (density functional theory)` },
  { value: 'DFT', pattern: 'density[- ]functional theory', caseInsensitive: true, lineage: ['DFT'], source: `${martin}, ch. 6` },
  { value: 'LDA', pattern: 'LDA', lineage: ['DFT', 'LDA'], source: `${martin}, ch. 8 (local density approximation)` },
  {
    value: 'LDA',
    pattern: 'local[- ]density approximation',
    caseInsensitive: true,
    lineage: ['DFT', 'LDA'],
    source: `${martin}, ch. 8`,
  },
  { value: 'LSDA', pattern: 'LSDA', lineage: ['DFT', 'LDA', 'LSDA'], source: `${martin}, ch. 8 (local spin density approximation)` },
  { value: 'GGA', pattern: 'GGA', lineage: ['DFT', 'GGA'], source: `${martin}, ch. 8 (generalized-gradient approximations)` },
  {
    value: 'GGA',
    pattern: 'generali[sz]ed[- ]gradient approximation',
    caseInsensitive: true,
    lineage: ['DFT', 'GGA'],
    source: `${martin}, ch. 8`,
  },
  {
    value: 'PBE',
    pattern: 'PBE',
    lineage: ['DFT', 'GGA', 'PBE'],
    source: `${martin}, ch. 8 (Perdew–Burke–Ernzerhof GGA); ${softwareList}`,
  },
  {
    value: 'PBE',
    pattern: 'Perdew[-–‐ ]Burke[-–‐ ]Ernzerhof',
    lineage: ['DFT', 'GGA', 'PBE'],
    source: `${martin}, ch. 8`,
  },
  {
    value: 'PBEsol',
    pattern: 'PBEsol',
    lineage: ['DFT', 'GGA', 'PBEsol'],
    source: `${softwareList}; Wikipedia, "Density functional theory"`,
  },
  { value: 'PW91', pattern: 'PW91', lineage: ['DFT', 'GGA', 'PW91'], source: `${martin}, ch. 8 (Perdew–Wang 1991 GGA)` },
  { value: 'SCAN', pattern: 'SCAN', lineage: ['DFT', 'meta-GGA', 'SCAN'], source: `${softwareList}; Wikipedia, "Meta-GGA" (SCAN)` },
  { value: 'r2SCAN', pattern: 'r(?:2|²)SCAN', lineage: ['DFT', 'meta-GGA', 'r2SCAN'], source: `${softwareList} (r2SCAN)` },
  { value: 'meta-GGA', pattern: 'meta-GGA', lineage: ['DFT', 'meta-GGA'], source: 'Wikipedia, "Density functional theory" (meta-GGA)' },
  { value: 'HSE06', pattern: 'HSE[- ]?06', lineage: ['DFT', 'hybrid', 'HSE', 'HSE06'], source: hybrid },
  { value: 'HSE03', pattern: 'HSE[- ]?03', lineage: ['DFT', 'hybrid', 'HSE', 'HSE03'], source: hybrid },
  { value: 'HSE', pattern: 'HSE', lineage: ['DFT', 'hybrid', 'HSE'], source: hybrid },
  {
    value: 'HSE',
    pattern: 'Heyd[-–‐ ]Scuseria[-–‐ ]Ernzerhof',
    lineage: ['DFT', 'hybrid', 'HSE'],
    source: hybrid,
  },
  { value: 'PBE0', pattern: 'PBE0', lineage: ['DFT', 'hybrid', 'PBE0'], source: hybrid },
  { value: 'B3LYP', pattern: 'B3LYP', lineage: ['DFT', 'hybrid', 'B3LYP'], source: hybrid },
  { value: 'hybrid', pattern: 'hybrid functionals?', caseInsensitive: true, lineage: ['DFT', 'hybrid'], source: hybrid },
  {
    value: 'mBJ',
    pattern: '(?:TB[-‐]?)?(?:mBJ|MBJ)|TB09|(?:Tran[-–‐ ]Blaha )?modified Becke[-–‐ ]Johnson',
    lineage: ['DFT', 'mBJ'],
    source: `${softwareList} (TB-mBJ meta-GGA potential); Wikipedia, "Band-gap problem"`,
  },
  { value: 'G0W0', pattern: 'G0W0|G₀W₀|G_0W_0', lineage: ['GW', 'G0W0'], source: manyBody },
  { value: 'GW0', pattern: 'GW0|GW₀|GW_0', lineage: ['GW', 'GW0'], source: manyBody },
  { value: 'scGW', pattern: 'scGW|QSGW|QPscGW', lineage: ['GW', 'scGW'], source: manyBody },
  { value: 'GW', pattern: 'GW(?: approximation)?', lineage: ['GW'], source: manyBody },
  {
    value: 'BSE',
    pattern: 'BSE|Bethe[-–‐ ]Salpeter equation',
    lineage: ['BSE'],
    source: `Wikipedia, "Bethe–Salpeter equation"; ${martin}, ch. 21 (excitations)`,
  },
  {
    value: 'DMFT',
    pattern: 'DMFT|dynamical mean[- ]field theory',
    lineage: ['DMFT'],
    source: 'Wikipedia, "Dynamical mean-field theory"; Kotliar et al., Rev. Mod. Phys. 78, 865 (2006), a review',
  },
];

/**
 * Terms that only refine a method written before them with "+" ("DFT+U", "LSDA+U+SO",
 * "GGA+SOC"): the Hubbard U and spin–orbit coupling. "U" alone is never a method.
 */
export const METHOD_MODIFIERS: readonly MethodTerm[] = [
  {
    value: 'U',
    pattern: 'U',
    lineage: ['+U'],
    source: 'Wikipedia, "Hubbard model" and "DFT+U"; Anisimov et al., J. Phys.: Condens. Matter 9, 767 (1997), a review',
  },
  {
    value: 'SOC',
    pattern: 'SOC|SOI',
    lineage: ['SOC'],
    source: `${martin}, app. O (spin–orbit interaction); Wikipedia, "Spin–orbit interaction"`,
  },
  { value: 'SO', pattern: 'SO', lineage: ['SOC'], source: `${martin}, app. O (spin–orbit interaction)` },
];

/** How spin–orbit coupling is written out in words. */
// "spin–orbital coupling" is the same term with the adjective (Winkler, Spin–Orbit Coupling Effects in Two-Dimensional Electron and Hole Systems, 2003, uses both).
const socTerm = String.raw`(?:SOC|SOI|spin[-–‐ ]orbit(?:al)?(?:[-–‐ ](?:coupling|interactions?|effects?))?)`;

/**
 * Spin–orbit coupling stated with or without, in words. A phrase with `value: null` names both
 * ("with and without SOC") and is read as no condition, so that its "without SOC" tail is not
 * taken for one.
 */
export const SPIN_ORBIT_PHRASES: readonly { value: string | null; pattern: string; source: string }[] = [
  {
    value: null,
    pattern: String.raw`(?:with|including) and (?:without|excluding) (?:the )?${socTerm}|(?:without|excluding) and (?:with|including) (?:the )?${socTerm}`,
    source: `${martin}, app. O (calculations compared with and without the spin–orbit term)`,
  },
  {
    value: 'no SOC',
    pattern: String.raw`(?:(?:without|not) (?:considering |including |taking into account |the inclusion of |inclusion of )?|in the absence of |neglecting |excluding |ignoring |no )(?:the )?${socTerm}`,
    source: `${martin}, app. O (the spin–orbit term neglected in scalar-relativistic calculations)`,
  },
  {
    value: 'SOC',
    pattern: String.raw`(?:(?:when |after |upon )?(?:including|considering|taking into account)|with(?: the)?(?: inclusion of)?|in the presence of|(?:the )?inclusion of)(?: the)? ${socTerm}|${socTerm} (?:is |was |are |were )?(?:included|considered|taken into account)`,
    source: `${martin}, app. O (spin–orbit interaction included in the Hamiltonian)`,
  },
];

const kittel = 'C. Kittel, "Introduction to Solid State Physics", 8th ed. (Wiley, 2005)';
const iupacSpectroscopy = 'IUPAC Gold Book and Compendium of Analytical Nomenclature (the "Orange Book"), spectroscopic techniques';

/**
 * Experimental techniques, all refining "experiment". Spelled-out terms are case-insensitive;
 * acronyms are not ("PL", "ARPES").
 */
export const EXPERIMENT_TERMS: readonly MethodTerm[] = [
  {
    value: 'UV–vis',
    pattern:
      'UV[-–‐/ ]?(?:vis|Vis|VIS)(?:[-–‐ ]NIR)?(?: (?:absorption|absorbance|diffuse reflectance|reflectance|transmittance))?(?: (?:spectroscopy|spectra|spectrum|measurements?))?',
    lineage: ['experiment', 'UV–vis'],
    source: `${iupacSpectroscopy}; Wikipedia, "Ultraviolet–visible spectroscopy"`,
  },
  {
    value: 'Tauc plot',
    pattern: 'Tauc(?:[- ]plots?| relation| method| equation)?',
    lineage: ['experiment', 'UV–vis', 'Tauc plot'],
    source: 'Wikipedia, "Tauc plot"; Tauc, Mater. Res. Bull. 3, 37 (1968)',
  },
  {
    value: 'diffuse reflectance',
    pattern: '(?:UV[-–‐ ]?vis )?diffuse[- ]reflectance(?: spectroscopy| spectra| measurements?)?|DRS',
    lineage: ['experiment', 'UV–vis', 'diffuse reflectance'],
    source: `${iupacSpectroscopy}; Wikipedia, "Diffuse reflectance spectroscopy" (Kubelka–Munk)`,
  },
  {
    value: 'photoluminescence',
    pattern: '(?:[Pp]hotoluminescence|PL)(?: (?:spectroscopy|spectra|spectrum|measurements?|emission))?',
    lineage: ['experiment', 'photoluminescence'],
    source: `${iupacSpectroscopy}; Wikipedia, "Photoluminescence" (PL)`,
  },
  {
    value: 'optical absorption',
    pattern: '(?:optical )?absorption (?:spectroscopy|spectra|spectrum|measurements?|edge)|optical absorption',
    caseInsensitive: true,
    lineage: ['experiment', 'optical absorption'],
    source: `${kittel}, ch. 8 (optical absorption and the band gap)`,
  },
  {
    value: 'ARPES',
    pattern: 'ARPES|angle[- ]resolved photo(?:emission|electron) spectroscopy',
    lineage: ['experiment', 'ARPES'],
    source: 'Wikipedia, "Angle-resolved photoemission spectroscopy"; Damascelli et al., Rev. Mod. Phys. 75, 473 (2003), a review',
  },
  {
    value: 'STS',
    pattern: 'STS|scanning tunnel(?:l)?ing spectroscopy',
    lineage: ['experiment', 'STS'],
    source: 'Wikipedia, "Scanning tunneling spectroscopy"',
  },
  {
    value: 'STM',
    pattern: 'STM|scanning tunnel(?:l)?ing microscopy',
    lineage: ['experiment', 'STM'],
    source: 'Wikipedia, "Scanning tunneling microscope"',
  },
  {
    value: 'ellipsometry',
    pattern: '(?:spectroscopic )?ellipsometry',
    caseInsensitive: true,
    lineage: ['experiment', 'ellipsometry'],
    source: `${iupacSpectroscopy}; Wikipedia, "Ellipsometry"`,
  },
  {
    value: 'resistivity',
    pattern:
      '(?:(?:electrical|four[- ]probe|transport) )?resistivity (?:measurements?|data|curves?)|(?:four[- ]probe|transport) measurements?',
    caseInsensitive: true,
    lineage: ['experiment', 'resistivity'],
    source: `${kittel}, ch. 6 and 10 (electrical resistivity; the superconducting transition in resistivity)`,
  },
  {
    value: 'magnetization',
    pattern: '(?:magnetization|magnetisation|magnetic susceptibility|SQUID) (?:measurements?|data|curves?)',
    caseInsensitive: true,
    lineage: ['experiment', 'magnetization'],
    source: `${kittel}, ch. 10–11 (magnetization and susceptibility; Meissner effect)`,
  },
  {
    value: 'specific heat',
    pattern: '(?:specific[- ]heat|heat[- ]capacity) (?:measurements?|data|curves?)',
    caseInsensitive: true,
    lineage: ['experiment', 'specific heat'],
    source: `${kittel}, ch. 5 and 10 (heat capacity; the specific-heat jump at Tc)`,
  },
  {
    value: 'experiment',
    pattern: '[Ee]xperiments?|[Ee]xperimental(?:ly)?|[Ee]xpt\\.?|Exp\\.?|EXP',
    lineage: ['experiment'],
    source: 'IUPAC Gold Book, "experiment"; the abbreviations "Exp."/"Expt." of tables in physics journals (AIP Style Manual)',
  },
];
