/**
 * A material name as a dataset or a tool writes it, split into the base material and the
 * qualifiers that are conditions (issue 26, strict scoring): `BPN-GaN (HSE06)` → `BPN-GaN` +
 * [method HSE06]; `VCCl2 at 0.04 eV/Å electric field GGA` → `VCCl2` + [field 0.04 eV/Å, method
 * GGA]; `SmN (no SOC FM majority channel)` → `SmN (majority channel)` + [method no SOC, phase FM].
 *
 * What is split off, read from the end of the name only (a prefix such as `wz-`, `2H-` or
 * `monolayer` stays part of the material, where `sameMaterialStrict` already compares it):
 * - a trailing parenthesised group, part by part: the group is cut at commas, semicolons and
 *   " and "; a part that holds a condition mention gives its conditions and keeps only its other
 *   words that are not connectives (`no SOC FM majority channel` keeps `majority channel`); a part
 *   without any condition stays whole (`with vdW interaction`, `due to oxygen vacancy`, `111` of
 *   `Ar(111)`, `+` of `OV(+)`), and so does a part that spans conditions (`bulk to single
 *   layers`: no one condition holds);
 * - trailing words outside parentheses, right to left, while each is covered by condition
 *   mentions or is a connective (`at`, `with`, `electric field`, …); they are split off only when
 *   at least one is a condition, and the first word of the name never is.
 * Condition words are whatever the injected reader (`findConditionMentions` of
 * src/text/conditions) classifies; kind `composition` is never split off, because strict material
 * equality already substitutes a written variable (`La2-xSrxCuO4 (x = 0.15)` = `La1.85Sr0.15CuO4`).
 * Pure and deterministic: the same text gives the same split on the truth and the prediction side.
 */
import type { ConditionKind } from '../contracts/conditions';
import { isConditionConnective } from '../text/conditions/condition-connectives';

/** A condition as the scorer compares it: its kind and normalized value ("HSE06", "0.04 eV/Å"). */
export interface ScoredCondition {
  kind: ConditionKind;
  value: string;
  /** The words it was read from, when known. */
  text?: string;
}

/** One condition mention in a text (the shape of `findConditionMentions`, src/text/conditions). */
export interface ConditionMentionLike extends ScoredCondition {
  start: number;
  end: number;
}

/**
 * The subset of the condition reader (src/text/conditions) that scoring relies on, narrowed so
 * the scorer stays pure and its tests can pass a small reader:
 * - `findConditionMentions(text)`: condition mentions with normalized values and UTF-16 offsets;
 * - `methodsCompatible(a, b)`: whether two normalized methods may name the same calculation or
 *   measurement ("GGA-PBE" and "GGA" yes, "HSE06" and "GGA-PBE" no).
 */
export interface ConditionReader {
  findConditionMentions(text: string): readonly ConditionMentionLike[];
  methodsCompatible(a: string, b: string): boolean;
}

/** A material name split into its base and the condition qualifiers it states. */
export interface QualifiedName {
  /** The material without its condition qualifiers, as written otherwise (`SmN (majority channel)`). */
  base: string;
  /** The conditions split off, in the order written. */
  qualifiers: ScoredCondition[];
}

/** Words that make a group's conditions a span or a comparison rather than one condition. */
const RANGE_WORDS = new Set(['to', 'from', 'between', 'versus', 'vs', 'vs.']);

/** Kinds never split off a name (see the module comment). */
const KEPT_KINDS: ReadonlySet<ConditionKind> = new Set(['composition']);

const TRAILING_GROUP = /\(([^()]*)\)\s*$/;
const WORD = /\S+/g;
const PART_SEPARATOR = /\s*(?:[,;]|\band\b)\s*/;

function mentionsOf(text: string, reader: ConditionReader): ConditionMentionLike[] {
  return reader.findConditionMentions(text).filter((mention) => !KEPT_KINDS.has(mention.kind) && mention.end > mention.start);
}

/** True when every letter and digit of `text[start, end)` lies inside a mention. */
function covered(start: number, end: number, text: string, mentions: readonly ConditionMentionLike[]): boolean {
  for (let index = start; index < end; index += 1) {
    if (!/[\p{L}\p{N}]/u.test(text[index]!)) continue;
    if (!mentions.some((mention) => mention.start <= index && index < mention.end)) return false;
  }
  return true;
}

/** The characters of `text[start, end)` outside every mention. */
function uncovered(start: number, end: number, text: string, mentions: readonly ConditionMentionLike[]): string {
  let own = '';
  for (let index = start; index < end; index += 1) {
    if (!mentions.some((mention) => mention.start <= index && index < mention.end)) own += text[index]!;
  }
  return own;
}

function asCondition({ kind, value, text }: ConditionMentionLike): ScoredCondition {
  return { kind, value, ...(text !== undefined ? { text } : {}) };
}

/** One part of a parenthesised group: its conditions, and the words kept in the base ('' when none). */
function splitPart(part: string, reader: ConditionReader): { qualifiers: ScoredCondition[]; kept: string } {
  const mentions = mentionsOf(part, reader);
  if (mentions.length === 0) return { qualifiers: [], kept: part.trim() };
  const kept: string[] = [];
  for (const match of part.matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    if (covered(start, end, part, mentions)) continue;
    // A span of conditions ("bulk to single layers", "0 to 10 GPa") is not one condition: kept whole.
    if (RANGE_WORDS.has(match[0].toLowerCase())) return { qualifiers: [], kept: part.trim() };
    // A word joined to a condition by a hyphen keeps only its own letters ("GW-corrected" → "corrected").
    const own = uncovered(start, end, part, mentions).replace(/^[-–+/]+|[-–+/]+$/g, '');
    if (own !== '' && !isConditionConnective(own)) kept.push(own);
  }
  return { qualifiers: mentions.map(asCondition), kept: kept.join(' ') };
}

/** Trailing condition words outside parentheses: where to cut `text`, and the conditions cut off (null when none). */
function splitTail(text: string, reader: ConditionReader): { cut: number; qualifiers: ScoredCondition[] } | null {
  const mentions = mentionsOf(text, reader);
  if (mentions.length === 0) return null;
  const words = [...text.matchAll(WORD)].map((match) => ({ start: match.index, end: match.index + match[0].length, word: match[0] }));
  let cut = text.length;
  let conditionCut: number | null = null;
  // Never the first word: it is the material.
  for (let index = words.length - 1; index >= 1; index -= 1) {
    const { start, end, word } = words[index]!;
    if (covered(start, end, text, mentions)) conditionCut = start;
    else if (!isConditionConnective(word)) break;
    cut = start;
  }
  if (conditionCut === null) return null;
  // Connectives left of the leftmost condition go with it ("VCClBr including SOC" → "VCClBr").
  const qualifiers = mentions.filter((mention) => mention.start >= cut).map(asCondition);
  return qualifiers.length === 0 ? null : { cut, qualifiers };
}

/**
 * Split `name` into its base material and its condition qualifiers (rules in the module comment).
 * A name without condition qualifiers comes back whole (trimmed, a leading byte-order mark
 * removed) with `qualifiers: []`. Never throws.
 */
export function splitQualifiedName(name: string, reader: ConditionReader): QualifiedName {
  let rest = name.replace(/^\uFEFF/, '').trim();
  const keptGroups: string[] = [];
  const qualifiers: ScoredCondition[][] = [];
  for (;;) {
    const group = TRAILING_GROUP.exec(rest);
    if (group && group.index > 0) {
      const parts = group[1]!.split(PART_SEPARATOR).filter((part) => part.trim() !== '');
      const split = parts.map((part) => splitPart(part, reader));
      const found = split.flatMap((part) => part.qualifiers);
      // A group without conditions stays as written (`(with vdW and SOC)` keeps its "and").
      const kept = found.length === 0 ? [group[1]!.trim()] : split.map((part) => part.kept).filter((words) => words !== '');
      const glued = !/\s$/.test(rest.slice(0, group.index));
      rest = rest.slice(0, group.index).trimEnd();
      if (kept.length > 0) keptGroups.unshift(`${glued ? '' : ' '}(${kept.join(', ')})`);
      qualifiers.unshift(found);
      continue;
    }
    const tail = splitTail(rest, reader);
    if (!tail) break;
    rest = rest.slice(0, tail.cut).trimEnd();
    qualifiers.unshift(tail.qualifiers);
  }
  return { base: (rest + keptGroups.join('')).replace(/\s+/g, ' ').trim(), qualifiers: qualifiers.flat() };
}

/**
 * Splits already made, per reader: a corpus scoring compares each name with every name of its
 * paper at three tolerances, and a split reads the name with the whole condition lexicon. Keyed
 * weakly on the reader, so a reader's splits go with it; the split of a text never changes.
 */
const splits = new WeakMap<ConditionReader, Map<string, QualifiedName>>();

/** `splitQualifiedName`, remembered per reader and name. */
export function splitQualifiedNameCached(name: string, reader: ConditionReader): QualifiedName {
  let byName = splits.get(reader);
  if (!byName) {
    byName = new Map();
    splits.set(reader, byName);
  }
  let split = byName.get(name);
  if (!split) {
    split = splitQualifiedName(name, reader);
    byName.set(name, split);
  }
  return split;
}
