/**
 * A small lexicon of materials known by name: synonym groups whose first entry is the canonical
 * name, optionally with a formula (`h-BN` ↔ `BN`). Kept modest on purpose: common 2D materials,
 * material classes, and abbreviations frequent enough to be written undefined (YBCO, LSCO, STO).
 * Every entry names the general reference that lists it (`source`: IUPAC, a handbook or
 * textbook, a Wikipedia article, a standard review); a name is never added because one paper or
 * one dataset record writes it. Paper-specific abbreviations (`white-P`, a sample code) come from
 * `findAbbreviationDefinitions`, where the paper itself defines them, not from here.
 */

export interface NamedMaterial {
  /** Canonical name (lower case) and its synonyms as written. */
  readonly names: readonly string[];
  /** A formula the name stands for, when it stands for one compound. */
  readonly formula?: string;
  /** True for a class of materials (`perovskite`) rather than one material. */
  readonly isClass?: boolean;
  /** The general reference that lists these names (and the formula), in words. */
  readonly source: string;
}

export const NAMED_MATERIALS: readonly NamedMaterial[] = [
  { names: ['graphene', 'monolayer graphene'], source: 'IUPAC Gold Book, "graphene layer"; Wikipedia, "Graphene"' },
  { names: ['graphite'], source: 'IUPAC Gold Book, "graphite"' },
  { names: ['diamond'], source: 'Wikipedia, "Diamond"' },
  { names: ['silicene'], source: 'Wikipedia, "Silicene"; Molle et al., Nat. Mater. 16, 163 (2017), a review of the Xenes' },
  { names: ['germanene'], source: 'Wikipedia, "Germanene"; Molle et al., Nat. Mater. 16, 163 (2017)' },
  { names: ['stanene'], source: 'Wikipedia, "Stanene"; Molle et al., Nat. Mater. 16, 163 (2017)' },
  { names: ['phosphorene'], source: 'Wikipedia, "Phosphorene"' },
  { names: ['black phosphorus'], source: 'Wikipedia, "Allotropes of phosphorus" (black phosphorus)' },
  { names: ['white phosphorus'], source: 'Wikipedia, "Allotropes of phosphorus" (white phosphorus)' },
  {
    names: ['blue phosphorene'],
    source: 'Zhu & Tománek, Phys. Rev. Lett. 112, 176802 (2014), which named the allotrope; Wikipedia, "Phosphorene"',
  },
  { names: ['hexagonal boron nitride', 'h-BN', 'hBN'], formula: 'BN', source: 'Wikipedia, "Boron nitride" (hexagonal form, h-BN)' },
  {
    names: ['carbon nanotube', 'carbon nanotubes', 'CNT', 'CNTs'],
    source: 'Wikipedia, "Carbon nanotube" (CNT); ISO/TS 80004-2 (nanotube)',
  },
  { names: ['buckminsterfullerene'], formula: 'C60', source: 'Wikipedia, "Buckminsterfullerene" (C60); IUPAC Gold Book, "fullerenes"' },
  { names: ['fullerene', 'fullerenes'], isClass: true, source: 'IUPAC Gold Book, "fullerenes" (a class: C60, C70, …)' },
  {
    names: ['spiro-OMeTAD', 'spiro-MeOTAD'],
    source: 'Wikipedia, "Spiro-OMeTAD" (both spellings are in common use in the perovskite solar-cell literature)',
  },
  { names: ['PEDOT:PSS'], source: 'Wikipedia, "PEDOT:PSS"' },
  {
    names: ['YBCO'],
    formula: 'YBa2Cu3O7-δ',
    source: 'Wikipedia, "Yttrium barium copper oxide" (YBCO); Keimer et al., Nature 518, 179 (2015)',
  },
  {
    names: ['LSCO'],
    formula: 'La2-xSrxCuO4',
    source: 'Keimer et al., Nature 518, 179 (2015), a review of the cuprates (LSCO = La2−xSrxCuO4)',
  },
  {
    names: ['STO', 'strontium titanate'],
    formula: 'SrTiO3',
    source: 'Wikipedia, "Strontium titanate"; Zubko et al., Annu. Rev. Condens. Matter Phys. 2, 141 (2011) (STO)',
  },
  {
    names: ['BFO', 'bismuth ferrite'],
    formula: 'BiFeO3',
    source: 'Wikipedia, "Bismuth ferrite" (BFO); Catalan & Scott, Adv. Mater. 21, 2463 (2009)',
  },
  {
    names: ['LLZO'],
    formula: 'Li7La3Zr2O12',
    source: 'Murugan, Thangadurai & Weppner, Angew. Chem. Int. Ed. 46, 7778 (2007); review in Electrochem 2, 390 (2021) (LLZO)',
  },
  { names: ['ITO', 'indium tin oxide'], source: 'Wikipedia, "Indium tin oxide" (ITO)' },
  { names: ['FTO', 'fluorine-doped tin oxide'], source: 'Wikipedia, "Transparent conducting film" (ITO, FTO, AZO)' },
  { names: ['MAPbI3', 'methylammonium lead iodide'], formula: 'CH3NH3PbI3', source: 'Wikipedia, "Methylammonium lead halide" (MAPbI3)' },
  { names: ['perovskite', 'perovskites'], isClass: true, source: 'Wikipedia, "Perovskite (structure)"; IMA list of minerals (perovskite)' },
  { names: ['spinel', 'spinels'], isClass: true, source: 'Wikipedia, "Spinel group"; IMA list of minerals' },
  { names: ['garnet', 'garnets'], isClass: true, source: 'Wikipedia, "Garnet"; IMA list of minerals' },
  { names: ['zeolite', 'zeolites'], isClass: true, source: 'IUPAC Gold Book, "zeolites"' },
  { names: ['MXene', 'MXenes'], isClass: true, source: 'Wikipedia, "MXenes"; Naguib et al., Adv. Mater. 26, 992 (2014)' },
  {
    names: ['metal-organic framework', 'metal–organic framework', 'metal-organic frameworks', 'MOF', 'MOFs'],
    isClass: true,
    source:
      'Batten et al., "Terminology of metal–organic frameworks and coordination polymers", IUPAC Recommendations 2013, Pure Appl. Chem. 85, 1715',
  },
  {
    names: ['covalent organic framework', 'covalent organic frameworks', 'COF', 'COFs'],
    isClass: true,
    source: 'Wikipedia, "Covalent organic framework" (COF); Côté et al., Science 310, 1166 (2005)',
  },
  { names: ['cuprate', 'cuprates'], isClass: true, source: 'Wikipedia, "Cuprate superconductor"' },
  {
    names: ['iron pnictide', 'iron pnictides', 'iron-based superconductor', 'iron-based superconductors'],
    isClass: true,
    source: 'Wikipedia, "Iron-based superconductor" (iron pnictides and chalcogenides)',
  },
  {
    names: ['transition metal dichalcogenide', 'transition metal dichalcogenides', 'TMD', 'TMDs', 'TMDC', 'TMDCs'],
    isClass: true,
    source: 'Wikipedia, "Transition metal dichalcogenide monolayers" (TMD, TMDC); Manzeli et al., Nat. Rev. Mater. 2, 17033 (2017)',
  },
  { names: ['quantum dot', 'quantum dots'], isClass: true, source: 'IUPAC Gold Book, "quantum dot"' },
  { names: ['Heusler alloy', 'Heusler alloys'], isClass: true, source: 'Wikipedia, "Heusler compound"' },
];

/**
 * Families of framework materials named by an acronym and a serial number (`ZIF-8`, `UiO-66`),
 * each with the general reference that lists it. `IRMOF` is its own family (isoreticular MOFs).
 */
export const FRAMEWORK_FAMILIES: ReadonlyArray<{ readonly prefix: string; readonly source: string }> = [
  { prefix: 'MOF', source: 'Furukawa et al., Science 341, 1230444 (2013), a review (MOF-5, MOF-177, …)' },
  { prefix: 'IRMOF', source: 'Eddaoudi et al., Science 295, 469 (2002) (isoreticular MOFs); Furukawa et al. (2013)' },
  { prefix: 'ZIF', source: 'Park et al., PNAS 103, 10186 (2006) (zeolitic imidazolate frameworks); Furukawa et al. (2013)' },
  { prefix: 'UiO', source: 'Cavka et al., J. Am. Chem. Soc. 130, 13850 (2008) (Universitetet i Oslo, UiO-66); Furukawa et al. (2013)' },
  { prefix: 'HKUST', source: 'Chui et al., Science 283, 1148 (1999) (HKUST-1); Furukawa et al. (2013)' },
  { prefix: 'MIL', source: "Férey et al., Science 309, 2040 (2005) (Matériaux de l'Institut Lavoisier, MIL-101); Furukawa et al. (2013)" },
  { prefix: 'PCN', source: 'Furukawa et al. (2013) (porous coordination networks, PCN-222)' },
  { prefix: 'NU', source: 'Farha et al., J. Am. Chem. Soc. 134, 15016 (2012) (Northwestern University, NU-110)' },
  { prefix: 'CAU', source: 'Reinsch et al., Chem. Mater. 25, 17 (2013) (Christian-Albrechts-Universität, CAU-10)' },
  { prefix: 'COF', source: 'Côté et al., Science 310, 1166 (2005) (COF-1, COF-5)' },
];

/**
 * Framework names with a serial number: `bio-MOF-11`, `ZIF-8`, `UiO-66`, `HKUST-1`,
 * `MIL-101(Cr)`, `MOF-5`, `COF-1`, `IRMOF-3`, `PCN-222`: a family of `FRAMEWORK_FAMILIES`, a
 * hyphen and a number, optionally after a lower-case qualifier and hyphen (`bio-MOF-11`, An et al.,
 * J. Am. Chem. Soc. 132, 38 (2010)) and before a metal in parentheses (`MIL-101(Cr)`).
 */
export const FRAMEWORK_NAME = new RegExp(
  `(?<![\\p{L}\\p{N}-])(?:[a-z]+-)?(?:${FRAMEWORK_FAMILIES.map((family) => family.prefix)
    .sort((a, b) => b.length - a.length)
    .join('|')})-\\d+[A-Za-z]?(?:\\([A-Z][a-z]?\\))?(?![\\p{L}\\p{N}])`,
  'gu',
);

function comparableName(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[–—−‐]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

const byName = new Map<string, NamedMaterial>();
for (const material of NAMED_MATERIALS) {
  for (const name of material.names) byName.set(comparableName(name), material);
}

/** The lexicon entry for a name, case-insensitive (`Graphene`, `hBN`); undefined otherwise. */
export function lookupMaterialName(text: string): NamedMaterial | undefined {
  return byName.get(comparableName(text));
}

/**
 * Canonical lower-case name: the lexicon's first name for a known synonym, a framework name
 * lower-cased (`bio-MOF-11`), else null.
 */
export function canonicalMaterialName(text: string): string | null {
  const entry = lookupMaterialName(text);
  if (entry?.names[0]) return comparableName(entry.names[0]);
  FRAMEWORK_NAME.lastIndex = 0;
  const trimmed = text.trim();
  const framework = FRAMEWORK_NAME.exec(trimmed);
  FRAMEWORK_NAME.lastIndex = 0;
  return framework && framework[0] === trimmed ? comparableName(trimmed) : null;
}
