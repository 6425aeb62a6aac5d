/**
 * A small lexicon of materials known by name: synonym groups whose first entry is the canonical
 * name, optionally with a formula (`h-BN` ↔ `BN`). Kept modest on purpose: common 2D materials,
 * material classes, and abbreviations frequent enough to be written undefined (YBCO, LSCO, STO).
 * Paper-specific abbreviations come from `findAbbreviationDefinitions`, not from here.
 */

export interface NamedMaterial {
  /** Canonical name (lower case) and its synonyms as written. */
  readonly names: readonly string[];
  /** A formula the name stands for, when it stands for one compound. */
  readonly formula?: string;
  /** True for a class of materials (`perovskite`) rather than one material. */
  readonly isClass?: boolean;
}

export const NAMED_MATERIALS: readonly NamedMaterial[] = [
  { names: ['graphene', 'monolayer graphene'] },
  { names: ['graphite'] },
  { names: ['diamond'] },
  { names: ['silicene'] },
  { names: ['germanene'] },
  { names: ['stanene'] },
  { names: ['phosphorene', 'black phosphorene'] },
  { names: ['black phosphorus', 'black-P'] },
  { names: ['white phosphorus', 'white-P'] },
  { names: ['blue phosphorene'] },
  { names: ['hexagonal boron nitride', 'h-BN', 'hBN'], formula: 'BN' },
  { names: ['carbon nanotube', 'carbon nanotubes', 'CNT', 'CNTs'] },
  { names: ['fullerene', 'buckminsterfullerene'], formula: 'C60' },
  { names: ['spiro-OMeTAD', 'SpiroOMeTAD', 'spiro-MeOTAD'] },
  { names: ['PEDOT:PSS'] },
  { names: ['YBCO'], formula: 'YBa2Cu3O7-δ' },
  { names: ['LSCO'], formula: 'La2-xSrxCuO4' },
  { names: ['STO', 'strontium titanate'], formula: 'SrTiO3' },
  { names: ['BFO', 'bismuth ferrite'], formula: 'BiFeO3' },
  { names: ['LLZO'], formula: 'Li7La3Zr2O12' },
  { names: ['ITO', 'indium tin oxide'] },
  { names: ['FTO', 'fluorine-doped tin oxide'] },
  { names: ['MAPbI3', 'methylammonium lead iodide'], formula: 'CH3NH3PbI3' },
  { names: ['perovskite', 'perovskites'], isClass: true },
  { names: ['spinel', 'spinels'], isClass: true },
  { names: ['garnet', 'garnets'], isClass: true },
  { names: ['zeolite', 'zeolites'], isClass: true },
  { names: ['MXene', 'MXenes'], isClass: true },
  { names: ['metal-organic framework', 'metal–organic framework', 'metal-organic frameworks', 'MOF', 'MOFs'], isClass: true },
  { names: ['covalent organic framework', 'covalent organic frameworks', 'COF', 'COFs'], isClass: true },
  { names: ['cuprate', 'cuprates'], isClass: true },
  { names: ['iron pnictide', 'iron pnictides', 'iron-based superconductor', 'iron-based superconductors'], isClass: true },
  { names: ['transition metal dichalcogenide', 'transition metal dichalcogenides', 'TMD', 'TMDs', 'TMDC', 'TMDCs'], isClass: true },
  { names: ['quantum dot', 'quantum dots'], isClass: true },
  { names: ['Heusler alloy', 'Heusler alloys'], isClass: true },
];

/**
 * Framework names with a serial number: `bio-MOF-11`, `ZIF-8`, `UiO-66`, `HKUST-1`,
 * `MIL-101(Cr)`, `MOF-5`, `COF-1`, `IRMOF-3`, `PCN-222`.
 */
export const FRAMEWORK_NAME =
  /(?<![\p{L}\p{N}-])(?:[a-z]+-)?(?:IR)?(?:MOF|ZIF|UiO|HKUST|MIL|COF|PCN|NU|CAU)-\d+[A-Za-z]?(?:\([A-Z][a-z]?\))?(?![\p{L}\p{N}])/gu;

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
