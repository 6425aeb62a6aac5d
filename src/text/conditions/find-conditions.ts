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
  const methods = readMethods(text).map(({ parts: _parts, ...reading }) => reading);
  return longestNonOverlapping([...methods, ...findQuantityConditions(text), ...findStates(text), ...findDirections(text)]);
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
