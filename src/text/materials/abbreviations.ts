/**
 * Abbreviations a paper defines for its materials: `bismuth ferrite (BFO)`,
 * `YBa2Cu3O7−δ (YBCO)`, and sample labels (`compound 1`, `sample A`).
 *
 * Long-form matching follows Schwartz & Hearst, "A simple algorithm for identifying
 * abbreviation definitions in biomedical text", PSB 2003 (right-to-left character match, long
 * form of at most min(|SF| + 5, 2·|SF|) words). Materials abbreviations often take letters from
 * the formula rather than the name (`bismuth ferrite` → BFO, from BiFeO3), so when that match
 * fails we accept the shortest word window that starts with the abbreviation's first letter,
 * but only when the window reads as a material (an element name, a material word, a formula).
 */
import { elementByName } from './elements';
import { isPlausibleFormulaMention } from './formula-plausibility';
import { parseMaterial } from './parse-material';

/** A token that reads as a formula in prose (`YBa2Cu3O7−δ`, `AlN`; not `CB`, `CNS`). */
function isFormulaWord(word: string): boolean {
  const parsed = parseMaterial(word);
  return parsed !== null && isPlausibleFormulaMention(word, parsed);
}

export interface AbbreviationDefinition {
  /** The short form as written (`BFO`). */
  readonly abbreviation: string;
  /** The long form (`bismuth ferrite`, `YBa2Cu3O7−δ`). */
  readonly longForm: string;
  /** Offsets of the short form inside the parentheses. */
  readonly start: number;
  readonly end: number;
  /** Offsets of the long form. */
  readonly longStart: number;
  readonly longEnd: number;
}

/** A group of head nouns with the general reference that lists them. */
export interface MaterialHeadGroup {
  /** Singular forms, lower case; plurals (`-s`, `-es`) are accepted too. */
  readonly words: readonly string[];
  readonly source: string;
}

/** Binary-compound anion names (`-ide`) and the collective names of their anions. */
const ANION_HEADS = [
  'oxide',
  'nitride',
  'carbide',
  'sulfide',
  'selenide',
  'telluride',
  'phosphide',
  'arsenide',
  'antimonide',
  'fluoride',
  'chloride',
  'bromide',
  'iodide',
  'halide',
  'hydride',
  'boride',
  'silicide',
  'chalcogenide',
  'pnictide',
];

/**
 * Head nouns that name a material: anions and salts (`nitride`, `titanate`), mineral and
 * structure names, 2D materials, and a few generic material words. The long form's last word
 * must be one of these or an element name, so `density of states (DOS)` and `oxygen
 * reduction reaction (ORR)` are not taken for materials.
 */
export const MATERIAL_HEAD_GROUPS: readonly MaterialHeadGroup[] = [
  {
    words: ANION_HEADS,
    source:
      'IUPAC Red Book (Nomenclature of Inorganic Chemistry, 2005), IR-5 and Table IX (-ide anion names); IR-3.5 (halogens, chalcogens, pnictogens)',
  },
  {
    // Mixed-anion compounds named by their anions: `oxynitride`, `oxychalcogenide`, `oxypnictide`.
    words: ANION_HEADS.filter((word) => word !== 'oxide').map((word) => `oxy${word}`),
    source: 'Kageyama et al., "Expanding frontiers in materials chemistry and physics with multiple anions", Nat. Commun. 9, 772 (2018)',
  },
  {
    words: [
      'titanate',
      'zirconate',
      'niobate',
      'tantalate',
      'cobaltate',
      'nickelate',
      'cuprate',
      'ferrate',
      'manganate',
      'aluminate',
      'silicate',
      'phosphate',
      'borate',
      'carbonate',
      'sulfate',
      'nitrate',
      'vanadate',
      'tungstate',
      'molybdate',
      'gallate',
      'stannate',
      'ruthenate',
      'iridate',
      'chromate',
      'hafnate',
    ],
    source: 'IUPAC Red Book (2005), IR-8 and Table IX (-ate oxoanion names)',
  },
  { words: ['formate', 'acetate'], source: 'IUPAC Blue Book (Nomenclature of Organic Chemistry, 2013), P-65 (carboxylate anions)' },
  {
    words: ['graphene', 'silicene', 'phosphorene', 'germanene', 'stanene', 'borophene'],
    source: 'Molle et al., "Buckled two-dimensional Xene sheets", Nat. Mater. 16, 163 (2017); IUPAC Gold Book, "graphene layer"',
  },
  {
    words: ['ethylene', 'styrene', 'propylene'],
    source: 'IUPAC Purple Book (Compendium of Polymer Terminology and Nomenclature, 2008): source-based polymer names (poly-ethylene)',
  },
  {
    words: [
      'graphite',
      'perovskite',
      'kesterite',
      'wurtzite',
      'ilmenite',
      'apatite',
      'magnetite',
      'hematite',
      'goethite',
      'rutile',
      'anatase',
      'spinel',
      'garnet',
    ],
    source: 'IMA list of minerals (mineral and structure-type names)',
  },
  { words: ['ferrite', 'manganite'], source: 'Wikipedia, "Ferrite (magnet)" and "Manganite" (compound classes named after minerals)' },
  {
    words: ['alloy', 'glass', 'steel', 'ceramic', 'cement'],
    source: 'Callister & Rethwisch, Materials Science and Engineering: An Introduction, ch. 1 (classes of materials)',
  },
  { words: ['framework'], source: 'Batten et al., IUPAC Recommendations 2013, Pure Appl. Chem. 85, 1715 (metal–organic frameworks)' },
  { words: ['nanotube', 'nanowire', 'nanosheet'], source: 'ISO/TS 80004-2:2015, Nanotechnologies — Vocabulary — Part 2: Nano-objects' },
  { words: ['zeolite'], source: 'IUPAC Gold Book, "zeolites"' },
  { words: ['mxene'], source: 'Naguib et al., "25th Anniversary Article: MXenes", Adv. Mater. 26, 992 (2014)' },
];

const MATERIAL_HEAD = new RegExp(`^(?:${MATERIAL_HEAD_GROUPS.flatMap((group) => group.words).join('|')})(?:e?s)?$`, 'i');

function looksLikeMaterial(longForm: string): boolean {
  const head = longForm.split(/[\s-]+/).pop() ?? '';
  return elementByName.has(head.toLowerCase()) || MATERIAL_HEAD.test(head) || isFormulaWord(head);
}

/** Schwartz–Hearst `findBestLongForm`; null when the short form's letters are not found. */
function schwartzHearstLongForm(shortForm: string, candidate: string): string | null {
  let shortIndex = shortForm.length - 1;
  let longIndex = candidate.length - 1;
  while (shortIndex >= 0) {
    const character = (shortForm[shortIndex] ?? '').toLowerCase();
    if (!/[\p{L}\p{N}]/u.test(character)) {
      shortIndex -= 1;
      continue;
    }
    while (
      (longIndex >= 0 && (candidate[longIndex] ?? '').toLowerCase() !== character) ||
      (shortIndex === 0 && longIndex > 0 && /[\p{L}\p{N}]/u.test(candidate[longIndex - 1] ?? ''))
    ) {
      longIndex -= 1;
    }
    if (longIndex < 0) return null;
    longIndex -= 1;
    shortIndex -= 1;
  }
  return candidate.slice(candidate.lastIndexOf(' ', longIndex) + 1);
}

/** The shortest trailing word window starting with the short form's first letter. */
function firstLetterLongForm(shortForm: string, words: readonly string[]): string | null {
  const first = shortForm[0]?.toLowerCase();
  for (let count = 1; count <= Math.min(words.length, shortForm.length + 1); count += 1) {
    const window = words.slice(words.length - count);
    if (window[0]?.[0]?.toLowerCase() === first) return window.join(' ');
  }
  return null;
}

/**
 * Every `long form (SHORT)` definition of a material in `text`, in order of appearance.
 * The short form has 2–10 characters, at most two words, starts with a letter and
 * holds two capitals (`BFO`, `hBN`; not `C3v`, `Fig. 2`); the long form lies in the same
 * sentence.
 */
export function findAbbreviationDefinitions(text: string): AbbreviationDefinition[] {
  const definitions: AbbreviationDefinition[] = [];
  const parenthesis = /\(([^()]{2,12})\)/g;
  for (let match = parenthesis.exec(text); match; match = parenthesis.exec(text)) {
    const inner = match[1] ?? '';
    const shortForm = inner.trim();
    // `Ca3(PO4)2`: a group glued to a formula is formula syntax; `BiFeO3(BFO)` is not.
    const glued = /\S/.test(text[match.index - 1] ?? ' ');
    if (
      (glued && parseMaterial(shortForm) !== null) ||
      shortForm.length < 2 ||
      shortForm.length > 10 ||
      shortForm.split(/\s+/).length > 2 ||
      !/^\p{L}[\p{L}\p{N}\-+:]*(?: [\p{L}\p{N}]+)?$/u.test(shortForm) ||
      (shortForm.match(/\p{Lu}/gu) ?? []).length < 2 ||
      /[=;,.]/.test(shortForm) ||
      isFormulaWord(shortForm)
    ) {
      continue;
    }
    const before = text.slice(Math.max(0, match.index - 300), match.index);
    const sentence = before.split(/[.!?;:]\s+(?=[A-Z])|\n/).pop() ?? '';
    const words = sentence
      .trim()
      .split(/\s+/)
      .filter((word) => word.length > 0);
    const lastWord = words[words.length - 1] ?? '';
    let longForm: string | null = null;
    if (isFormulaWord(lastWord)) {
      longForm = lastWord;
    } else {
      const limit = Math.min(shortForm.length + 5, shortForm.length * 2);
      const window = words.slice(-limit);
      const candidate = schwartzHearstLongForm(shortForm, window.join(' '));
      longForm =
        candidate && candidate.length > shortForm.length && looksLikeMaterial(candidate)
          ? candidate
          : firstLetterLongForm(shortForm, window);
      if (longForm && !looksLikeMaterial(longForm)) longForm = null;
    }
    if (!longForm) continue;
    const longEnd = match.index - (before.length - before.trimEnd().length);
    const start = match.index + 1 + inner.indexOf(shortForm);
    definitions.push({
      abbreviation: shortForm,
      longForm,
      start,
      end: start + shortForm.length,
      longStart: Math.max(
        0,
        text.lastIndexOf(longForm, longEnd - longForm.length) >= 0
          ? text.lastIndexOf(longForm, longEnd - longForm.length)
          : longEnd - longForm.length,
      ),
      longEnd,
    });
  }
  return definitions;
}

/**
 * Nouns that take a label in chemistry writing: `compound 1`, `sample A`, `complex 2a`,
 * `catalyst B2`.
 */
export const SAMPLE_NOUNS: MaterialHeadGroup = {
  words: ['compound', 'sample', 'complex', 'catalyst'],
  source: 'ACS Guide to Scholarly Communication (2020), "Chemical compounds": compounds referred to by bold numerals or letters',
};

/** Sample labels: a noun of `SAMPLE_NOUNS` (capitalised or not) and a number or letter label. */
export const SAMPLE_LABEL = new RegExp(
  `\\b(?:${SAMPLE_NOUNS.words.map((word) => `[${word[0]!.toUpperCase()}${word[0]}]${word.slice(1)}`).join('|')})\\s+(?:\\d{1,2}[a-z]?|[A-Z]\\d?)(?![\\p{L}\\p{N}])`,
  'gu',
);
