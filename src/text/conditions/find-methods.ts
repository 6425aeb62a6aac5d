/**
 * Reading methods: a method expression ("GGA/PBE", "LSDA+U+SO", "HSE06+G0W0", "DFT+U") is one
 * mention with a canonical value; spin–orbit coupling in words ("without considering SOC") and
 * experimental techniques ("UV–vis absorption", "ARPES") are mentions of their own. Also
 * `methodsCompatible`, which decides whether two method values can describe one value.
 */
import type { ConditionMention } from './condition-types';
import { EXPERIMENT_TERMS, METHOD_MODIFIERS, METHOD_TERMS, SPIN_ORBIT_PHRASES, type MethodTerm } from './method-lexicon';

/** One term of a method expression as read: its canonical value, lineage and the joiner before it. */
interface MethodPart {
  value: string;
  lineage: readonly string[];
  joiner: string;
}

/** A method mention with the parts it was read from (for `methodsCompatible`). */
export interface MethodReading extends ConditionMention {
  parts: MethodPart[];
}

const BEFORE = String.raw`(?<![\p{L}\p{N}])`;
const AFTER = String.raw`(?![\p{L}\p{N}])`;
// "GGA/PBE", "LSDA+U+SO", "HSE06 + G0W0", "G0W0@PBE", "GGA-PBE": one space at most on each side.
const JOINER = String.raw`\s?(?:\+|/|@|-|–|‐)\s?`;

function alternation(terms: readonly MethodTerm[]): string {
  // Longer patterns first: with boundaries backtracking finds the right one anyway, but this
  // keeps the first success the longest spelling ("PBEsol" before "PBE").
  return [...terms]
    .sort((a, b) => b.pattern.length - a.pattern.length)
    .map((term) => `(?:${term.pattern})${AFTER}`)
    .join('|');
}

const caseSensitiveMethods = METHOD_TERMS.filter((term) => !term.caseInsensitive);
const ATOM = `(?:${alternation(caseSensitiveMethods)})`;
const PART = `(?:${alternation([...caseSensitiveMethods, ...METHOD_MODIFIERS])})`;
const compositeSource = `${BEFORE}${ATOM}(?:${JOINER}${PART})*`;

// Every pattern is compiled once, at load: `readMethods` runs for each mention of every value a
// scan or a gate reads (and `methodsCompatible` for each pair), so building them per call cost
// seconds per paper. They are constants; the global ones are reset before each use (`matches`).
const WHOLE_TERM = new Map<MethodTerm, RegExp>(
  [...METHOD_TERMS, ...METHOD_MODIFIERS].map((term) => [term, new RegExp(`^(?:${term.pattern})$`, term.caseInsensitive ? 'iu' : 'u')]),
);
const PART_PATTERN = new RegExp(`(^|${JOINER})(${PART})`, 'gu');
const COMPOSITE = new RegExp(compositeSource, 'gu');
const SPELLED_OUT = METHOD_TERMS.filter((entry) => entry.caseInsensitive).map(
  (term) => [term, new RegExp(`${BEFORE}(?:${term.pattern})${AFTER}`, 'giu')] as const,
);
const SPIN_ORBIT = SPIN_ORBIT_PHRASES.map((phrase) => [phrase, new RegExp(`${BEFORE}(?:${phrase.pattern})${AFTER}`, 'giu')] as const);
const EXPERIMENTS = EXPERIMENT_TERMS.map(
  (term) => [term, new RegExp(`${BEFORE}(?:${term.pattern})${AFTER}`, term.caseInsensitive ? 'giu' : 'gu')] as const,
);

function termMatching(part: string, terms: readonly MethodTerm[]): MethodTerm | undefined {
  return terms.find((term) => WHOLE_TERM.get(term)!.test(part));
}

/** Split a composite's text into its parts, each with the joiner written before it. */
function splitComposite(text: string): MethodPart[] {
  const parts: MethodPart[] = [];
  for (const match of text.matchAll(PART_PATTERN)) {
    const written = match[2]!;
    const term = termMatching(written, parts.length === 0 ? METHOD_TERMS : [...METHOD_TERMS, ...METHOD_MODIFIERS]);
    if (!term) continue;
    parts.push({ value: term.value, lineage: term.lineage, joiner: match[1]!.trim() });
  }
  return parts;
}

/**
 * Canonical parts: a GGA functional named with its family ("GGA/PBE", "GGA-PBE", "PBE-GGA")
 * becomes one part "GGA-PBE", which is how the field names the level.
 */
function mergeFamilyNames(parts: MethodPart[]): MethodPart[] {
  const merged: MethodPart[] = [];
  for (const part of parts) {
    const previous = merged[merged.length - 1];
    const familyJoin = previous && ['/', '-', '–', '‐'].includes(part.joiner);
    if (familyJoin && previous.value === 'GGA' && part.lineage[1] === 'GGA' && part.lineage.length === 3) {
      merged[merged.length - 1] = { value: `GGA-${part.value}`, lineage: part.lineage, joiner: previous.joiner };
    } else if (familyJoin && part.value === 'GGA' && previous.lineage[1] === 'GGA' && previous.lineage.length === 3) {
      merged[merged.length - 1] = { value: `GGA-${previous.value}`, lineage: previous.lineage, joiner: previous.joiner };
    } else {
      merged.push(part);
    }
  }
  return merged;
}

function canonicalValue(parts: MethodPart[]): string {
  return parts
    .map((part, index) => (index === 0 ? '' : part.joiner === '@' || part.joiner === '/' ? part.joiner : '+') + part.value)
    .join('');
}

function* matches(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    yield match;
    if (match[0].length === 0) pattern.lastIndex++;
  }
}

/**
 * Every method written in `text`, possibly overlapping (the caller keeps the longest):
 * method expressions, functionals spelled out, spin–orbit phrases and experimental techniques.
 * A spin–orbit phrase naming both cases ("with and without SOC") is returned with value '' so
 * that the caller drops it after it has masked its parts.
 */
export function readMethods(text: string): MethodReading[] {
  const readings: MethodReading[] = [];
  const push = (start: number, written: string, value: string, parts: MethodPart[]) =>
    readings.push({ kind: 'method', value, text: written, start, end: start + written.length, parts });
  for (const match of [...matches(COMPOSITE, text)]) {
    const parts = mergeFamilyNames(splitComposite(match[0]));
    if (parts.length > 0) push(match.index, match[0], canonicalValue(parts), parts);
  }
  for (const [term, pattern] of SPELLED_OUT) {
    for (const match of matches(pattern, text)) {
      push(match.index, match[0], term.value, [{ value: term.value, lineage: term.lineage, joiner: '' }]);
    }
  }
  for (const [phrase, pattern] of SPIN_ORBIT) {
    for (const match of matches(pattern, text)) {
      const value = phrase.value ?? '';
      push(match.index, match[0], value, value === '' ? [] : [{ value, lineage: ['SOC'], joiner: '' }]);
    }
  }
  for (const [term, pattern] of EXPERIMENTS) {
    for (const match of matches(pattern, text)) {
      push(match.index, match[0], term.value, [{ value: term.value, lineage: term.lineage, joiner: '' }]);
    }
  }
  return readings;
}

/** What a method value says: the level of theory, its starting point, and the SOC and U terms. */
interface MethodInfo {
  level?: readonly string[];
  start?: readonly string[];
  spinOrbit?: boolean;
}

const isModifier = (part: MethodPart) => part.lineage[0] === '+U' || part.lineage[0] === 'SOC';

function methodInfo(value: string): MethodInfo | undefined {
  // Spin–orbit coupling named alone is a value of its own ("SOC"), not a phrase of running text.
  if (/^\s*(?:\+\s*)?(?:SOC|SO|SOI|spin[-–‐ ]orbit(?: coupling)?)\s*$/i.test(value)) return { spinOrbit: true };
  const readings = readMethods(value).filter((reading) => reading.value !== '');
  if (readings.length === 0) return undefined;
  const info: MethodInfo = {};
  const levels: (readonly string[])[] = [];
  for (const reading of readings) {
    for (const part of reading.parts) {
      if (part.value === 'no SOC') info.spinOrbit = false;
      else if (part.lineage[0] === 'SOC') info.spinOrbit = info.spinOrbit ?? true;
      else if (!isModifier(part)) levels.push(part.lineage);
    }
  }
  // The level is the last method beyond DFT (GW on top of HSE06), else the most specific DFT one;
  // the DFT methods under a beyond-DFT one are its starting point.
  const beyond = levels.filter((lineage) => lineage[0] !== 'DFT');
  const dft = levels.filter((lineage) => lineage[0] === 'DFT');
  const mostSpecific = (lineages: (readonly string[])[]) => lineages.reduce((a, b) => (b.length > a.length ? b : a));
  if (beyond.length > 0) {
    info.level = beyond[beyond.length - 1];
    if (dft.length > 0) info.start = mostSpecific(dft);
  } else if (dft.length > 0) {
    info.level = mostSpecific(dft);
  }
  return info;
}

/** True when one lineage is a prefix of the other (or either is unknown). */
function refines(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b) return true;
  const shorter = a.length <= b.length ? a : b;
  const longer = shorter === a ? b : a;
  return shorter.every((name, index) => longer[index] === name);
}

/**
 * Whether two method values (normalized, as `findConditionMentions` gives them, or written
 * loosely: "GGA/PBE", "VCClBr GGA no SOC") can describe the same value: equal, or one refines
 * the other in the tree of `method-lexicon.ts` ("PBE", "GGA-PBE" and "GGA" are compatible;
 * "HSE06" and "GGA-PBE" are not; "HSE06+G0W0" refines "GW" but not "HSE06"). A term one side
 * does not state is unknown, not absent: "GGA" is compatible with "GGA+SOC" and with "GGA+U";
 * only an explicit "no SOC" contradicts "SOC". Values the lexicon does not know are compared
 * case-insensitively as text. Never throws.
 */
export function methodsCompatible(a: string, b: string): boolean {
  const infoA = methodInfo(a);
  const infoB = methodInfo(b);
  if (!infoA || !infoB) return a.trim().toLowerCase() === b.trim().toLowerCase();
  if (infoA.spinOrbit !== undefined && infoB.spinOrbit !== undefined && infoA.spinOrbit !== infoB.spinOrbit) return false;
  return refines(infoA.level, infoB.level) && refines(infoA.start, infoB.start);
}
