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

/** A token that reads as a formula in prose (`YBa2Cu3O7−δ`, `AlN`; not `CB`, `BNS`). */
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

/**
 * Head nouns that name a material: anions and salts (`nitride`, `titanate`), mineral and
 * structure names, 2D materials, and a few generic material words. The long form's last word
 * must be one of these or an element name, so `density of states (DOS)` and `oxygen
 * reduction reaction (ORR)` are not taken for materials.
 */
const MATERIAL_HEAD =
  /^(?:(?:ox|nitr|carb|sulf|selen|tellur|phosph|arsen|fluor|chlor|brom|iod|hal|hydr|bor|silic|antimon|chalcogen|pnict)ides?|(?:titan|zircon|niob|tantal|cobalt|nickel|cupr|ferr|mangan|alumin|silic|phosph|bor|carbon|sulf|nitr|vanad|tungst|molybd|gall|stann|ruthen|irid|chrom|hafn|form|acet)ates?|(?:graph|silic|phosphor|german|stan|boroph|ethyl|styr|propyl)enes?|(?:ferr|mangan|graph|perovsk|kester|wurtz|ilmen|apat|magnet|hemat|goeth)ites?|rutile|anatase|spinels?|garnets?|alloys?|glass(?:es)?|steels?|ceramics?|cements?|frameworks?|nanotubes?|nanosheets?|nanowires?|zeolites?|mxenes?|oxyarsenides?|oxychalcogenides?)$/i;

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
    // `[M(HCOO)3]`: a group glued to a formula is formula syntax; `LaAlO3(LAO)` is not.
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

/** Sample labels: `compound 1`, `sample A`, `complex 2a`, `catalyst B2`. */
export const SAMPLE_LABEL = /\b(?:[Cc]ompound|[Ss]ample|[Cc]omplex|[Cc]atalyst)\s+(?:\d{1,2}[a-z]?|[A-Z]\d?)(?![\p{L}\p{N}])/gu;
