/**
 * Material mentions in running text: formulas, lexicon names, framework names, abbreviations
 * the paper defines (with their later uses) and sample labels.
 */
import { SAMPLE_LABEL, findAbbreviationDefinitions, type AbbreviationDefinition } from './abbreviations';
import { FRAMEWORK_NAME, NAMED_MATERIALS, canonicalMaterialName } from './material-names';
import { elementByName, isElementSymbol } from './elements';
import { isPlausibleFormulaMention } from './formula-plausibility';
import { normalizeFormula, parseMaterial } from './parse-material';

export interface MaterialMention {
  /** Offsets into the text given (UTF-16 code units), end exclusive. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly kind: 'formula' | 'name' | 'abbreviation';
  /** `normalizeFormula` for formulas; the canonical name; an abbreviation's long form. */
  readonly normalized?: string;
}

/** Formula-looking tokens: optional phase prefix, then formula characters. */
const FORMULA_TOKEN = /(?<![\p{L}\p{N}\-–−])(?:(?:\d[A-Z]'?|[αβγδεθ]'?|[a-z]{1,3})-)?[A-Z(\[][A-Za-z0-9().\[\]·•⋅∙+\-−–δ₀-₉⁰-⁹⁺⁻\u0002]*/gu;
/** Dopant notations spanning two words: `Eu-doped ZnS`, `Al,Ga-codoped Li7La3Zr2O12`. */
const DOPED_TOKEN = /(?<![\p{L}\p{N}])[A-Z][a-z]?(?:,[A-Z][a-z]?)*-(?:co-?)?doped\s+[A-Z(\[][A-Za-z0-9().\[\]·+\-−δ₀-₉]*/gu;
/** A value for the formula's variable right after it: `(x = 0.15)`, `with x = 0.08`. */
const ASSIGNMENT_AFTER = /^\s*(?:\(\s*[xyzδ]\s*=\s*\d*\.?\d+\s*\)|,?\s*(?:with|where|for)\s+[xyzδ]\s*=\s*\d*\.?\d+)/;

/** Trim sentence punctuation and unbalanced brackets off a candidate token. */
function trimToken(token: string, cutWords = true): { text: string; offset: number } {
  let text = token;
  let offset = 0;
  // `MoS2-based`, `TiO2-Nanotubes`: a hyphen before a word ends the formula.
  const cut = cutWords ? /[-–−](?=[a-z]{3,}|[A-Z][a-z]{3,})/.exec(text) : null;
  if (cut) text = text.slice(0, cut.index);
  for (;;) {
    const opens = (text.match(/\(/g) ?? []).length + (text.match(/\[/g) ?? []).length;
    const closes = (text.match(/\)/g) ?? []).length + (text.match(/\]/g) ?? []).length;
    // A full stop right after a letter, or before a citation range (`CsPbBr3.12`, `ZnO.21−23`),
    // ends the sentence rather than starting a decimal.
    const stop = /(?<=[A-Za-z)\]])\.\d+(?:[−–-]\d+)?$|\.\d+[−–-]\d+$/.exec(text);
    if (stop) text = text.slice(0, stop.index);
    else if (/[.,;:\-–−]$/.test(text) || (/[)\]]$/.test(text) && closes > opens)) text = text.slice(0, -1);
    else if (/^[(\[]/.test(text) && opens > closes) {
      text = text.slice(1);
      offset += 1;
    } else if (/^\(.*\)$/.test(text) && opens === 1) {
      text = text.slice(1, -1);
      offset += 1;
    } else break;
  }
  return { text, offset };
}

function formulaMentions(text: string): MaterialMention[] {
  const mentions: MaterialMention[] = [];
  for (const match of text.matchAll(FORMULA_TOKEN)) {
    const { text: token, offset } = trimToken(match[0]);
    const parsed = token.length >= 2 ? parseMaterial(token) : null;
    if (!parsed || !isPlausibleFormulaMention(token, parsed)) continue;
    const start = (match.index ?? 0) + offset;
    let end = start + token.length;
    const assignment = ASSIGNMENT_AFTER.exec(text.slice(end, end + 40));
    if (assignment && parsed.freeVariables.length > 0) end += assignment[0].length;
    const mentionText = text.slice(start, end);
    mentions.push({ start, end, text: mentionText, kind: 'formula', normalized: normalizeFormula(mentionText) ?? undefined });
  }
  for (const match of text.matchAll(DOPED_TOKEN)) {
    const { text: token } = trimToken(match[0], false);
    const normalized = normalizeFormula(token);
    if (!normalized) continue;
    const start = match.index ?? 0;
    mentions.push({ start, end: start + token.length, text: token, kind: 'formula', normalized });
  }
  return mentions;
}

/**
 * Nouns after which a lone element is a material: `Cu foil`, `Si(111) wafer`, `gold
 * nanoparticles`. The forms a specimen takes (film, foil, wafer, substrate, powder, wire, single
 * crystal: Callister & Rethwisch, Materials Science and Engineering, ch. 3–4) and the nano-objects
 * of ISO/TS 80004-2:2015 (nanoparticle, nanowire); `metal` as in `Cu metal`.
 */
const MATERIAL_NOUN =
  '(?:\\(\\d{3,4}\\)\\s*)?(?:(?:thin|single|poly)\\s+)?(?:films?|foils?|wafers?|substrates?|nanoparticles?|nanowires?|nanocrystals?|crystals?|electrodes?|powders?|wires?|slabs?|surfaces?|metal)(?![\\p{L}])';
/**
 * Words before which a lone element is a material: `elemental Nb`, `bulk Pb`. Adjectives of
 * state and crystallinity (IUCr Online Dictionary of Crystallography: crystalline, polycrystalline,
 * amorphous) and of layer count (Wikipedia, "Graphene": monolayer, few-layer).
 */
const MATERIAL_ADJECTIVE = '(?:bulk|elemental|metallic|pure|polycrystalline|amorphous|monocrystalline|crystalline|monolayer|few-layer)';
const ELEMENT_BEFORE_NOUN = new RegExp(`(?<![\\p{L}\\p{N}])([A-Z][a-z]?|[a-z]{3,13})(?=(?:\\s+|(?=\\())${MATERIAL_NOUN})`, 'gu');
const ELEMENT_AFTER_ADJECTIVE = new RegExp(`(?<=(?<![\\p{L}])${MATERIAL_ADJECTIVE}\\s+)([A-Z][a-z]?|[a-z]{3,13})(?![\\p{L}\\p{N}])`, 'giu');
/**
 * Element symbols that are also English words (pronouns, prepositions, `No`, `At`, the article
 * `I`): only `elemental In`, never `In films, …`.
 */
const WORD_SYMBOLS: ReadonlySet<string> = new Set(['In', 'As', 'Be', 'He', 'No', 'At', 'I', 'Am', 'U', 'Es']);

/**
 * A lone element is a material only in context (EVAL's rule of thumb, and the brief's): a
 * following material noun (`Cu foil`, `silicon wafer`) or a preceding adjective
 * (`elemental Nb`). Symbols give kind 'formula', names kind 'name'; normalized is the symbol.
 */
function singleElementMentions(text: string): MaterialMention[] {
  const mentions: MaterialMention[] = [];
  for (const [pattern, afterAdjective] of [
    [ELEMENT_BEFORE_NOUN, false],
    [ELEMENT_AFTER_ADJECTIVE, true],
  ] as const) {
    for (const match of text.matchAll(pattern)) {
      const word = match[1] ?? '';
      const symbol = isElementSymbol(word) ? word : elementByName.get(word.toLowerCase());
      if (!symbol || (!afterAdjective && WORD_SYMBOLS.has(word))) continue;
      const start = match.index ?? 0;
      const kind = symbol === word ? 'formula' : 'name';
      mentions.push({ start, end: start + word.length, text: word, kind, normalized: symbol });
    }
  }
  return mentions;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const LEXICON_PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}-])(?:${NAMED_MATERIALS.flatMap((material) => material.names)
    .sort((a, b) => b.length - a.length)
    .map((name) => escapeRegExp(name).replace(/\\?[-–]/g, '[-–‐ ]'))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
);

/** Listed spellings of acronyms (`STO`, `hBN`, `MOF`): these must match with their capitals. */
const ACRONYM_NAMES: ReadonlyMap<string, string> = new Map(
  NAMED_MATERIALS.flatMap((material) => material.names)
    .filter((name) => /[A-Z]{2}/.test(name))
    .map((name) => [name.toLowerCase(), name] as const),
);

function nameMentions(text: string): MaterialMention[] {
  const mentions: MaterialMention[] = [];
  for (const pattern of [LEXICON_PATTERN, FRAMEWORK_NAME]) {
    for (const match of text.matchAll(pattern)) {
      const acronym = ACRONYM_NAMES.get(match[0].toLowerCase());
      if (acronym !== undefined && acronym !== match[0]) continue;
      const start = match.index ?? 0;
      const normalized = canonicalMaterialName(match[0]) ?? match[0].toLowerCase();
      mentions.push({ start, end: start + match[0].length, text: match[0], kind: 'name', normalized });
    }
  }
  return mentions;
}

function abbreviationMentions(text: string, known: readonly AbbreviationDefinition[]): MaterialMention[] {
  const mentions: MaterialMention[] = [];
  const local = findAbbreviationDefinitions(text);
  const seen = new Set<string>();
  // Definitions from elsewhere in the article apply from the start of this text; local ones
  // from where they are defined.
  for (const [definition, from] of [
    ...local.map((definition) => [definition, definition.start] as const),
    ...known.map((definition) => [definition, 0] as const),
  ]) {
    if (seen.has(definition.abbreviation)) continue;
    seen.add(definition.abbreviation);
    const normalized = normalizeFormula(definition.longForm) ?? definition.longForm.toLowerCase();
    const use = new RegExp(`(?<![\\p{L}\\p{N}-])${escapeRegExp(definition.abbreviation)}(?![\\p{L}\\p{N}])`, 'gu');
    use.lastIndex = from;
    for (let match = use.exec(text); match; match = use.exec(text)) {
      mentions.push({ start: match.index, end: match.index + match[0].length, text: match[0], kind: 'abbreviation', normalized });
    }
  }
  for (const match of text.matchAll(SAMPLE_LABEL)) {
    const start = match.index ?? 0;
    mentions.push({ start, end: start + match[0].length, text: match[0], kind: 'abbreviation', normalized: match[0].toLowerCase() });
  }
  return mentions;
}

/**
 * All material mentions in `text`, sorted by start. Abbreviations defined in `text` are found
 * from their definition on; when scanning an article block by block, pass the definitions of
 * the whole article (`findAbbreviationDefinitions(article.text)`) as `options.definitions` so
 * uses in later blocks are found too; where spans overlap, the longer one is kept (`Eu-doped ZnS`
 * over `ZnS`; a defined abbreviation over a formula reading of it). Offsets are into `text`.
 * Known gap: formulas spaced out by a PDF text layer (`La 2−x Sr x CuO 4`) are not joined in
 * running text; `parseFormula` joins them when given the material string alone.
 */
export function findMaterialMentions(
  text: string,
  options: { readonly definitions?: readonly AbbreviationDefinition[] } = {},
): MaterialMention[] {
  const all = [
    ...abbreviationMentions(text, options.definitions ?? []),
    ...nameMentions(text),
    ...formulaMentions(text),
    ...singleElementMentions(text),
  ];
  all.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: MaterialMention[] = [];
  for (const mention of all) {
    const previous = kept[kept.length - 1];
    if (previous && mention.start < previous.end) {
      if (mention.end - mention.start > previous.end - previous.start) kept[kept.length - 1] = mention;
      continue;
    }
    kept.push(mention);
  }
  return kept;
}
