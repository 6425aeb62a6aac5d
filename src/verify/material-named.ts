/**
 * Does a piece of evidence name a given material? The material as written, a form of it without
 * its trailing qualifiers ("zb-GaAs (PBE)" → "zb-GaAs"), an abbreviation the paper defines
 * for it or the long form of such an abbreviation ("bismuth ferrite (BFO)"), or any material
 * mention whose composition or lexicon name equals it ("Ga1N1" names GaN, "gallium nitride"
 * names GaN when the lexicon knows the name). Used by the attribution check (`attribution.ts`).
 */
import type { Article } from '../contracts/article';
import type { ArticleIndex } from '../text/article-index';
import { findAbbreviationDefinitions, findMaterialMentions, parseMaterial, sameMaterial } from '../text/materials';
import { elementByName, isElementSymbol } from '../text/materials/elements';
import { cleanFormulaText, joinSpacedFormula } from '../text/materials/formula-text';

/**
 * Trailing parenthesised qualifiers after a space: "Graphene (with SOC)", "TiO2 (anatase)", and
 * one level of nesting, as in a short name that itself holds a parenthesis ("(Ba(K)-122)"). A
 * parenthesis glued to the name is part of it: "Poly(3-hexylthiophene)", "Ca(OH)2".
 */
const TRAILING_PARENTHESIS = /^(.*?\S)\s+\(((?:[^()]|\([^()]*\))+)\)\s*$/u;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every abbreviation definition of the paper: the index's, read once per index; for a bare
 * article, read here on each call (no module cache: a caller with many triplets passes the index).
 */
function definitionsOf(source: Article | ArticleIndex) {
  return 'abbreviations' in source ? source.abbreviations() : findAbbreviationDefinitions(source.text);
}

/** A part of a material string: its text and where it starts in the string. */
export interface NamePart {
  text: string;
  start: number;
}

/**
 * `material` cut into its bare name and its trailing parenthesised groups (in the order written),
 * each with its offset in `material`: "VCClBr (GGA + SOC, increased)" → "VCClBr" at 0 and
 * "GGA + SOC, increased" at 8; "Gallium nitride (BPN-GaN)" → "Gallium nitride", "BPN-GaN". A
 * parenthesis glued to the name stays in it (`TRAILING_PARENTHESIS`). Never throws.
 */
export function nameParts(material: string): { bare: NamePart; groups: NamePart[] } {
  let bare = material.trimEnd();
  const groups: NamePart[] = [];
  for (let qualified = TRAILING_PARENTHESIS.exec(bare); qualified; qualified = TRAILING_PARENTHESIS.exec(bare)) {
    const inner = qualified[2]!;
    const open = bare.lastIndexOf(`(${inner})`);
    const lead = inner.length - inner.trimStart().length;
    groups.unshift({ text: inner.trim(), start: open + 1 + lead });
    bare = qualified[1]!;
  }
  const lead = bare.length - bare.trimStart().length;
  return { bare: { text: bare.trim(), start: lead }, groups };
}

/**
 * The names under which `material` may appear in `article`: the string itself; without a
 * trailing parenthesis, and the parenthesis itself when it reads as a material name or formula
 * (papers write "ZnO (w-ZnO)", "CsPbI3 (perovskite)"); and for every `long form (SHORT)` the
 * paper defines where either side is this material, both sides; a descriptor of one element
 * with its symbol for its name and the reverse (`elementSpellings`: "white phosphorus" →
 * "white-P"). `source` is the article or its
 * `ArticleIndex` (whose definitions are read once for all triplets). Never empty.
 */
export function materialNames(material: string, source: Article | ArticleIndex): string[] {
  const names = new Set<string>([material.trim()]);
  // PDF text spaces subscripts ("Nb 3 Sn"); the formula is printed joined elsewhere.
  const joined = joinSpacedFormula(material.trim());
  if (joined) names.add(joined);
  let bare = material.trim();
  for (let qualified = TRAILING_PARENTHESIS.exec(bare); qualified; qualified = TRAILING_PARENTHESIS.exec(bare)) {
    bare = qualified[1]!;
    names.add(bare);
    // Only a parenthesis that is itself a material mention: "(PBE+SOC)", "(Exp)" are qualifiers.
    const inner = qualified[2]!.trim();
    const mentions = findMaterialMentions(inner);
    if (mentions.length === 1 && mentions[0]!.text.length >= inner.length - 2) names.add(inner);
  }
  // "Graphene on SiC(0001)", "WSe2 on sapphire": a material on a substrate is named by its own name.
  const onSubstrate = /^(.+?)\s+on\s+\S/u.exec(bare);
  if (onSubstrate) names.add(onSubstrate[1]!);
  for (const name of [...names]) for (const formula of spacedFormulasIn(name)) names.add(formula);
  for (const name of [...names]) for (const variant of elementSpellings(name)) names.add(variant);
  for (const definition of definitionsOf(source)) {
    const matches = [...names].some(
      (name) =>
        comparable(name) === comparable(definition.abbreviation) ||
        comparable(name) === comparable(definition.longForm) ||
        sameMaterial(definition.longForm, name),
    );
    if (matches) {
      names.add(definition.abbreviation);
      names.add(definition.longForm);
    }
  }
  return [...names].filter((name) => name.length > 0);
}

/**
 * A label of two or three capitals before a formula: a doping level or phase ("OD", "UD" for
 * over- and underdoped, as in Keimer et al., Nature 518, 179 (2015); "HT" for a high-temperature phase).
 */
const LABEL = /^[A-Z]{2,3}$/u;

/**
 * Spaced formulas inside a descriptive name, joined: "nonmagnetic Nb 3 Sn and V 3 Si" → "Nb3Sn",
 * "V3Si"; "AV 3 Sb 5 with A = K, Rb, Cs" → "AV3Sb5"; "UD Bi 2 Sr 2 Ca 2 Cu 3 O 10" → also
 * "Bi2Sr2Ca2Cu3O10" without its label. PDF text layers and annotators copying from them space
 * out subscripts, while the prose a quote comes from may print the formula joined. Only runs of
 * two or more tokens that `joinSpacedFormula` accepts: a lone token of a description ("Cs" in
 * "A = K, Rb, Cs") is a constituent, not the material.
 */
function spacedFormulasIn(name: string): string[] {
  return spacedFormulaRuns(name).map((run) => run.formula);
}

/**
 * `spacedFormulasIn` with where each joined formula is written in `name` (UTF-16 offsets of
 * `name`, end exclusive; a run without its label starts after the label).
 */
export function spacedFormulaRuns(name: string): { start: number; end: number; formula: string }[] {
  const runs: { start: number; end: number; formula: string }[] = [];
  let run: { start: number; end: number; token: string }[] = [];
  const flush = () => {
    for (const candidate of LABEL.test(run[0]?.token ?? '') ? [run, run.slice(1)] : [run]) {
      const joined = candidate.length >= 2 ? joinSpacedFormula(candidate.map((token) => token.token).join(' ')) : null;
      if (joined && /\p{Lu}/u.test(joined)) runs.push({ start: candidate[0]!.start, end: candidate.at(-1)!.end, formula: joined });
    }
    run = [];
  };
  for (const match of name.matchAll(/\S+/gu)) {
    const token = cleanFormulaText(match[0]);
    if (token && joinSpacedFormula(`${token} 1`) !== null) run.push({ start: match.index, end: match.index + match[0].length, token });
    else flush();
  }
  flush();
  return runs;
}

/** Element symbols by lower-case name ("phosphorus" → "P"), with the US and British spellings `elementByName` lists. */
const symbolOfName = (word: string) => elementByName.get(word.toLowerCase());
const nameOfSymbol = new Map(
  [...elementByName].filter(([name]) => !['aluminum', 'cesium', 'sulphur'].includes(name)).map(([name, symbol]) => [symbol, name]),
);

/**
 * The other spellings of a descriptor of one element: its words joined by spaces or hyphens, one
 * of them the element's name or symbol, the others words (a capital only first: "Black
 * phosphorus" opens a sentence) or a Greek polymorph letter
 * ("white phosphorus", "black-P", "α-Sn", "amorphous silicon"). Papers name an allotrope or a
 * form of an element either way ("white phosphorus" is "white-P" two sentences on), and the
 * symbol stands for the name by the IUPAC naming of the elements, so each spelling is written
 * with the other, and with a hyphen or a space next to it. Nothing for a descriptor with a
 * formula or two elements ("H-MoSe2", "Eu-doped ZnS", "P-doped Si"): there
 * the symbol is part of something else.
 */
export function elementSpellings(descriptor: string): string[] {
  const parts = descriptor.trim().split(/([\s\-‐–]+)/u);
  const words = parts.filter((_, index) => index % 2 === 0);
  if (words.length < 2) return [];
  const elementAt = words.map((word) => symbolOfName(word) !== undefined || isElementSymbol(word));
  if (elementAt.filter(Boolean).length !== 1) return [];
  const other = (word: string, index: number) => elementAt[index] || /^(?:\p{Lu}?\p{Ll}+|[αβγδεθκ]'?)$/u.test(word);
  if (!words.every(other)) return [];
  const at = elementAt.indexOf(true) * 2;
  const word = parts[at]!;
  const swapped = symbolOfName(word) ?? nameOfSymbol.get(word);
  if (swapped === undefined) return [];
  const variants = new Set<string>();
  for (const joiner of [' ', '-']) {
    const next = [...parts];
    next[at] = swapped;
    // The separators next to the element take either joiner; the others stay as written.
    if (at > 0) next[at - 1] = joiner;
    if (at + 1 < next.length) next[at + 1] = joiner;
    variants.add(next.join(''));
  }
  variants.delete(descriptor.trim());
  return [...variants];
}

function comparable(text: string): string {
  return cleanFormulaText(text).replace(/\s+/gu, ' ').trim().toLowerCase();
}

/**
 * Is `name` written in `text` as a whole token? A formula compares case-sensitively (CO is not
 * Co), a name case-insensitively; white space may differ; a hyphenated prefix may precede it
 * ("zb-GaAs" names GaAs) but no letter or digit may touch it.
 */
export function nameWritten(text: string, name: string): boolean {
  const cleaned = cleanFormulaText(name).trim();
  if (cleaned.length < 2 && !/^\p{Lu}$/u.test(cleaned)) return false;
  const pattern = cleaned.split(/\s+/u).map(escape).join('\\s+');
  const flags = parseMaterial(cleaned) ? 'u' : 'iu';
  return new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, flags).test(cleanFormulaText(text));
}

/**
 * Suspended hyphens ("α- and β-Sn", "2H-, 1T- and 1T'-MoS2") written out in full ("α-Sn and β-Sn"):
 * English drops the shared stem of prefixed names in a coordination, and a phase or polymorph
 * prefix is how papers tell such materials apart. The expansion is appended, the text kept.
 */
const SUSPENDED = /((?:[\p{L}\p{N}'′]+-,?\s+)+)(and|or)\s+([\p{L}\p{N}'′]+)-([\p{L}\p{N}()]+)/gu;

function expandSuspendedHyphens(text: string): string {
  const expansions: string[] = [];
  for (const match of text.matchAll(SUSPENDED)) {
    const prefixes = match[1]!.split(/-,?\s+/u).filter(Boolean);
    expansions.push([...prefixes, match[3]!].map((prefix) => `${prefix}-${match[4]!}`).join(` ${match[2]!} `));
  }
  return expansions.length === 0 ? text : `${text} ${expansions.join(' ')}`;
}

/**
 * True when `text` names `material` under one of `names` (from `materialNames`): written as a
 * token (`nameWritten`), or a material mention in `text` (`findMaterialMentions`) that
 * `sameMaterial` finds equal to one of the names (composition within pymatgen's tolerances,
 * lexicon synonyms); an abbreviation mention counts through its long form. Names cut by a
 * suspended hyphen ("α- and β-Sn" names α-Sn) count.
 */
export function namesMaterial(text: string, names: readonly string[]): boolean {
  if (names.some((name) => nameWritten(text, name))) return true;
  const expanded = expandSuspendedHyphens(text);
  if (expanded !== text && names.some((name) => nameWritten(expanded, name))) return true;
  for (const mention of findMaterialMentions(text)) {
    const forms = [mention.text, ...(mention.kind === 'abbreviation' && mention.normalized ? [mention.normalized] : [])];
    if (forms.some((form) => names.some((name) => sameMaterial(form, name)))) return true;
  }
  return false;
}
