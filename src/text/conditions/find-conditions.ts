/**
 * `findConditionMentions(text)`: every condition written in a text — methods, quantities of
 * condition, directions and k-points, phases and sample forms, composition variables and
 * environments — each with its normalized value and span. Deterministic, no model.
 */
import type { ConditionMention } from './condition-types';
import { readMethods } from './find-methods';
import { findQuantityConditions } from './find-quantity-conditions';
import { GAS_NAMES, K_POINT_LABEL, STATE_TERMS } from './state-lexicon';

const BEFORE = String.raw`(?<![\p{L}\p{N}])`;
const AFTER = String.raw`(?![\p{L}\p{N}])`;
const MAGNETIC_NOUN = String.raw`(?: (?:phase|state|order|ordering|configuration|ground state))?`;

/** Extra words a term may not be followed by, where the term would then mean something else. */
const NOT_A_STATE: Readonly<Record<string, RegExp>> = {
  // "bulk modulus" is a property, "bulk heterojunction" a device architecture.
  bulk: /^[\s-](?:modul|heterojunction)/i,
};

function mention(kind: ConditionMention['kind'], value: string, text: string, start: number): ConditionMention {
  return { kind, value, text, start, end: start + text.length };
}

function findStates(text: string): ConditionMention[] {
  const found: ConditionMention[] = [];
  for (const term of STATE_TERMS) {
    const suffix = term.group === 'magnetic order' ? MAGNETIC_NOUN : '';
    const pattern = new RegExp(`${BEFORE}(?:${term.pattern})${suffix}${AFTER}`, term.caseInsensitive ? 'giu' : 'gu');
    for (const match of text.matchAll(pattern)) {
      const blocked = NOT_A_STATE[term.value];
      if (blocked?.test(text.slice(match.index + match[0].length))) continue;
      const captured = match.slice(1).find((group) => group !== undefined) ?? '';
      // Words are lower-cased ("Wurtzite" → "wurtzite", "Cubic phase" → "cubic"); labels are
      // kept as written ("2H", "1T'", "β").
      const isLabel = /^(?:[αβγδεθκ]|1T'?|2H|3R|1T_?d)$/.test(captured);
      let value = term.value.includes('$1') ? term.value.replace('$1', captured) : term.value;
      if (term.kind === 'environment') value = GAS_NAMES[captured] ?? value.toLowerCase();
      else if (!isLabel) value = value.toLowerCase();
      else value = value.replace('_', '');
      found.push(mention(term.kind, value, match[0], match.index));
    }
  }
  return found;
}

const gammaOf = (label: string) => (label === 'G' ? 'Γ' : label.replace('′', "'"));

/**
 * Gap character and k-space: "direct"/"indirect" where the words say a gap or transition
 * (`GAP_CHARACTER_SOURCE`, `K_POINT_SOURCE`, `CRYSTAL_DIRECTION_SOURCE` name the references), high-symmetry points ("at the Γ point", "X-point"),
 * paths ("Γ–X", "from the X-point to the G-point"); crystal directions ("along the c axis").
 */
function findDirections(text: string): ConditionMention[] {
  const found: ConditionMention[] = [];
  const add = (pattern: RegExp, value: (match: RegExpMatchArray) => string) => {
    for (const match of text.matchAll(pattern)) found.push(mention('direction', value(match), match[0], match.index));
  };
  const character = (match: RegExpMatchArray) => (match[0].toLowerCase().startsWith('in') ? 'indirect' : 'direct');
  // "direct band gap", "indirect-gap semiconductor", "direct optical transition", "direct K–K gap".
  add(
    new RegExp(
      String.raw`${BEFORE}(?:in)?direct(?=[\s-]+(?:[\p{L}Γ'′–-]+[\s-]+)?(?:band[\s-]?gaps?|gaps?|bandgaps?|transitions?|semiconductors?|character|nature|excitons?|type)${AFTER})`,
      'giu',
    ),
    character,
  );
  // "the gap is direct.", "changes from indirect to direct", "(indirect)".
  add(
    new RegExp(
      String.raw`(?:(?<=\b(?:is|are|remains?|becomes?|be|being|from|to|both|stays?|an?|turns?)\s+)|(?<=\())(?:in)?direct(?=\s*(?:[,.;:()]|$|\s+(?:and|or|to|in|at|with|for|while|whereas|but|one)\b))`,
      'giu',
    ),
    character,
  );
  const label = K_POINT_LABEL;
  add(new RegExp(String.raw`${BEFORE}(${label})[-\s](?:point|valley)s?${AFTER}`, 'gu'), (match) => gammaOf(match[1]!));
  add(new RegExp(String.raw`(?<=\b(?:at|near|around)\s+(?:the\s+)?)Γ(?![\p{L}\p{N}])`, 'gu'), () => 'Γ');
  add(
    new RegExp(
      String.raw`\b(?:from|between)\s+(?:the\s+)?(${label})[-\s]points?\s+(?:to|and)\s+(?:the\s+)?(${label})[-\s]points?${AFTER}`,
      'gu',
    ),
    (match) => `${gammaOf(match[1]!)}–${gammaOf(match[2]!)}`,
  );
  // A path needs Γ at one end, or the word direction/line/path: "M–X" alone may be a bond.
  add(
    new RegExp(String.raw`${BEFORE}(Γ|${label})\s?(?:–|-|—|→|->)\s?(${label})(?:\s+(?:direction|line|path))?${AFTER}`, 'gu'),
    (match) => `${gammaOf(match[1]!)}–${gammaOf(match[2]!)}`,
  );
  add(/\balong\s+(?:the\s+)?(?:crystallographic\s+)?([abc])[-\s]?(?:axis|direction)\b/g, (match) => `${match[1]} axis`);
  add(/\balong\s+(?:the\s+)?(\[[-−\d\s¯]+\])(?:\s+direction)?/g, (match) => match[1]!.replace(/\s/g, ''));
  add(/\balong\s+(?:the\s+)?(armchair|zigzag|in-plane|out-of-plane)(?:\s+direction)?\b/gi, (match) => match[1]!.toLowerCase());
  add(/\b(parallel|perpendicular)\s+to\s+(?:the\s+)?([abc])[-\s]?axis\b/gi, (match) => `${match[1]!.toLowerCase()} to ${match[2]} axis`);
  return found.filter((found) => {
    if (!/[–-]/.test(found.value) || found.value.includes('Γ')) return true;
    return /(?:direction|line|path)$/.test(found.text) || /point/.test(found.text);
  });
}

/** Keep the longest of overlapping mentions (ties: the earlier); drop masks (value ''); sort by start. */
function longestNonOverlapping(candidates: ConditionMention[]): ConditionMention[] {
  const ordered = [...candidates].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: ConditionMention[] = [];
  for (const candidate of ordered) {
    if (kept.some((other) => candidate.start < other.end && other.start < candidate.end)) continue;
    kept.push(candidate);
  }
  return kept.filter((kept) => kept.value !== '').sort((a, b) => a.start - b.start);
}

/**
 * Every condition written in `text`, sorted by start, non-overlapping (where two readings
 * overlap the longer wins: "HSE06+G0W0" over "HSE06", "without considering SOC" over "SOC").
 * Each mention has its kind, its normalized value (see `ConditionSchema.value`), the words as
 * written and UTF-16 offsets into `text` (end exclusive). The vocabulary and the source of each
 * entry are in `method-lexicon.ts` and `state-lexicon.ts`; quantities are read by
 * `parseQuantities`. Never throws; '' gives [].
 */
export function findConditionMentions(text: string): ConditionMention[] {
  if (text.trim() === '') return [];
  const view = compatibilityView(text);
  const read = view.text;
  const methods = readMethods(read).map(({ parts: _parts, ...reading }) => reading);
  const found = longestNonOverlapping([...methods, ...findQuantityConditions(read), ...findStates(read), ...findDirections(read)]);
  if (view.text === text) return found;
  return found.map((mention) => {
    const start = view.originalStart[mention.start]!;
    const end = view.originalEnd[mention.end - 1]!;
    return { ...mention, start, end, text: text.slice(start, end) };
  });
}

/** The text as read, with, for each of its characters, the original span it came from. */
interface CompatibilityView {
  text: string;
  originalStart: number[];
  originalEnd: number[];
}

/**
 * Text extracted from PDFs writes some characters as the font drew them: ligatures ("ﬁeld",
 * "ﬁlm": Unicode compatibility characters, folded by NFKC as `src/text/anchoring/folded-text.ts`
 * does for quotes) and the ångström of LaTeX's \AA, a spacing ring above followed by "A" ("eV/˚A",
 * U+02DA: TeX builds Å from an accent and the letter, and text extraction keeps both). They are
 * read as "fi" and "Å"; every mention is mapped back to the original offsets, so spans stay in
 * the caller's text. Some converters write a symbol font's minus sign as the control character
 * U+0002 ("eV Å\u00021", "cm\u00023"; half the publisher texts of bandgap-200 carry it, and the
 * formula reader already reads it so, src/text/materials/formula-text.ts): before a digit it is
 * read as "−" (before a letter the same code is another glyph, e.g. a degree sign, and is left).
 * A run of white space reads as one space: PDF text breaks lines anywhere ("without\nconsidering
 * SOC"), and the lexicons write their phrases with single spaces. Everything else is kept.
 */
function compatibilityView(text: string): CompatibilityView {
  if (!/[\uFB00-\uFB06\u02DA\u0002]|\s\s|[^\S ]/.test(text)) return { text, originalStart: [], originalEnd: [] };
  let read = '';
  const originalStart: number[] = [];
  const originalEnd: number[] = [];
  const push = (characters: string, start: number, end: number) => {
    for (const character of characters) {
      read += character;
      originalStart.push(start);
      originalEnd.push(end);
    }
  };
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (/\s/.test(character)) {
      let end = index + 1;
      while (end < text.length && /\s/.test(text[end]!)) end += 1;
      push(' ', index, end);
      index = end - 1;
    } else if (character === '\u02DA' && text[index + 1] === 'A') {
      push('Å', index, index + 2);
      index += 1;
    } else if (/[\uFB00-\uFB06]/.test(character)) push(character.normalize('NFKC'), index, index + 1);
    else if (character === '\u0002' && /\d/.test(text[index + 1] ?? '')) push('−', index, index + 1);
    else push(character, index, index + 1);
  }
  return { text: read, originalStart, originalEnd };
}

/**
 * The group of a mention within its kind, whose members exclude one another: two methods, two
 * temperatures, "monolayer" and "bulk" compete; "monolayer" and "2H", or a k-point and a gap
 * character, do not. Used to tell competing conditions from complementary ones.
 */
export function conditionGroup(mention: Pick<ConditionMention, 'kind' | 'value'>): string {
  if (mention.kind === 'phase')
    return `phase:${STATE_TERMS.find((term) => term.value === mention.value)?.group ?? groupOfCaptured(mention.value)}`;
  if (mention.kind === 'direction') {
    if (mention.value === 'direct' || mention.value === 'indirect') return 'direction:gap character';
    return /axis|\[|armchair|zigzag|plane/.test(mention.value) ? 'direction:crystal' : 'direction:k-point';
  }
  if (mention.kind === 'field') return /\b(?:T|Oe|G)$/.test(mention.value) ? 'field:magnetic' : 'field:electric';
  return mention.kind;
}

function groupOfCaptured(value: string): string {
  if (/^[αβγδεθκ]$/.test(value)) return 'polymorph';
  if (/^(?:1T'?|2H|3R|1Td)$/.test(value)) return 'polytype';
  return 'structure';
}
