/**
 * Is the name given as a fact's material a material or a sample (issue 26, "Material: the
 * subject is a material or a sample the paper defines — not a model, band, structure type or
 * figure")? "They determine a U parameter … of GdN" must not become a fact about "the Hubbard
 * model"; a gap "of the conduction band" is not a material's.
 */
import { lookupMaterialName, parseMaterial } from '../materials';

interface SubjectRule {
  /** Regular-expression source matched against the whole name (trimmed), case-insensitively unless `caseSensitive`. */
  pattern: string;
  caseSensitive?: boolean;
  /** What the name is instead, in words. */
  what: string;
}

/**
 * Names that are not materials. Sources: models of condensed-matter theory (Ashcroft & Mermin,
 * Solid State Physics: tight-binding, Hubbard, Heisenberg, Ising, Anderson, Kronig–Penney models);
 * bands and band edges (Kittel, Introduction to Solid State Physics 8th ed., ch. 7–8: conduction
 * and valence band, VBM/CBM, band edge, Fermi level); structure types and lattices (IUCr Online
 * Dictionary of Crystallography, "structure type", "Bravais lattice": rock-salt, zinc-blende,
 * wurtzite, perovskite, spinel, fluorite, rutile, honeycomb, kagome, square, triangular lattice);
 * figure, table and equation references (the parts of a scientific article, Chicago Manual of
 * Style 17th ed., ch. 3); computational methods (Martin, Electronic Structure, 2004: DFT, LDA,
 * GGA, PBE, HSE06, B3LYP, GW, DFT+U, mBJ).
 */
const RULES: readonly SubjectRule[] = [
  { pattern: '(?:the\\s+)?(?:[\\p{L}\\p{N}–-]+\\s+){0,3}models?', what: 'a model, not a material' },
  {
    pattern:
      '(?:the\\s+)?(?:(?:lowest|highest|top|bottom|upper|lower|first|second)\\s+)?(?:conduction|valence|impurity|defect|flat|d|f|p|s)[\\s-]+bands?(?:\\s+(?:edge|minimum|maximum|offset|states?))?',
    what: 'a band or band edge, not a material',
  },
  {
    pattern: '(?:the\\s+)?(?:VBM|CBM|VB|CB|VBM?s|CBM?s|Fermi\\s+(?:level|energy|surface)|band\\s+edges?|bands?)',
    what: 'a band or band edge, not a material',
  },
  { pattern: '(?:the\\s+)?(?:(?:direct|indirect|band|energy|optical)\\s+)?(?:gap|bandgap)s?', what: 'the gap itself, not a material' },
  {
    pattern: '(?:the\\s+)?(?:[\\p{L}–-]+[\\s-]+){0,2}(?:structure|structure\\s+type|crystal\\s+structure|phase\\s+type)s?',
    what: 'a structure type, not a material',
  },
  {
    pattern:
      '(?:the\\s+)?(?:(?:honeycomb|kagome|kagomé|square|triangular|hexagonal|cubic|tetragonal|orthorhombic|monoclinic|bravais|bcc|fcc|host|crystal|reciprocal)\\s+)?lattices?',
    what: 'a lattice, not a material',
  },
  {
    pattern:
      '(?:fig(?:ure)?s?\\.?|tables?|tab\\.|eqs?\\.?|equations?|schemes?|refs?\\.?|sections?|sec\\.)\\s*(?:S?\\d+[a-z]?|[IVX]+)(?:\\s*\\([a-z]\\))?',
    what: 'a figure, table, equation or section reference, not a material',
  },
  {
    pattern:
      '(?:DFT(?:\\+U)?|LDA(?:\\+U)?|LSDA(?:\\+U)?|GGA(?:\\+U)?|PBE0?|PBEsol|HSE(?:06)?|B3LYP|GW|G0W0|(?:TB-)?mBJ|SCAN|DMFT|BSE|TDDFT)(?:\\s+(?:calculations?|functional|level|method))?',
    caseSensitive: true,
    what: 'a computational method, not a material',
  },
  { pattern: '(?:the\\s+)?(?:calculations?|method|functional|simulation|experiment|theory)s?', what: 'a method, not a material' },
  {
    pattern: '(?:the|this|that|these|those)\\s+(?:material|compound|sample|system|crystal|film)s?',
    what: 'a reference back to a material, not its name',
  },
];

/**
 * Names the rules would catch but that are materials: a structure-type word used as the paper's
 * name of its sample ("Perovskite", "MAPbI3 film") passes, since the rules only catch a structure
 * word with its head noun ("perovskite structure"). A name that parses as a formula, or is a
 * lexicon name (`lookupMaterialName`), is always a material.
 */
function isMaterialName(name: string): boolean {
  return parseMaterial(name) !== null || lookupMaterialName(name) !== undefined;
}

/**
 * A reason in words when `material` (a fact's material as given) is not a material or sample —
 * a model ("Hubbard model"), a band or state ("conduction band", "VBM", "the gap"), a structure
 * type or lattice alone ("rock-salt structure", "honeycomb lattice"), a figure/table/equation
 * reference ("Fig. 3", "Table 1", "Eq. 2"), a method ("DFT", "HSE06") or a bare reference back
 * ("the compound"); `undefined` for real names: formulas, lexicon names, and anything else,
 * including the paper's own labels ("S1", "BPN-GaN", "c-TiO2", "Perovskite", "Spiro-OMeTAD").
 * An empty name is a problem ("no material given"). Never throws. Sources of the word lists:
 * `RULES`.
 */
export function materialSubjectProblem(material: string): string | undefined {
  const name = material
    .normalize('NFKC')
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[.,;:]+$/u, '');
  if (name === '') return 'no material given';
  if (isMaterialName(name)) return undefined;
  for (const rule of RULES)
    if (new RegExp(`^(?:${rule.pattern})$`, rule.caseSensitive ? 'u' : 'iu').test(name)) return `"${material.trim()}" is ${rule.what}`;
  return undefined;
}
