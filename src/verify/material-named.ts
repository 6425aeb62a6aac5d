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

/**
 * The names under which `material` may appear in `article`: the string itself; without a
 * trailing parenthesis, and the parenthesis itself when it reads as a material name or formula
 * (papers write "ZnO (w-ZnO)", "CsPbI3 (perovskite)"); and for every `long form (SHORT)` the
 * paper defines where either side is this material, both sides. `source` is the article or its
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
  const formulas: string[] = [];
  const tokens = cleanFormulaText(name).split(/\s+/u);
  let run: string[] = [];
  const flush = () => {
    for (const candidate of LABEL.test(run[0] ?? '') ? [run, run.slice(1)] : [run]) {
      const joined = candidate.length >= 2 ? joinSpacedFormula(candidate.join(' ')) : null;
      if (joined && /\p{Lu}/u.test(joined)) formulas.push(joined);
    }
    run = [];
  };
  for (const token of tokens) {
    if (token && joinSpacedFormula(`${token} 1`) !== null) run.push(token);
    else flush();
  }
  flush();
  return formulas;
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
