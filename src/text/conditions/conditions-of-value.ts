/**
 * `conditionsOfValue(sentence, value)`: which of the conditions written in a sentence hold for
 * one of its values. A sentence often states several values under several conditions ("1.86
 * and 2.31 eV at the GGA/PBE and HSE06 levels, respectively"; "73 meV without SOC, and the
 * GGA+SOC gap is 67 meV"); assigning every condition to every value would make two facts
 * contradict, and assigning none would lose them. Where the sentence does not decide, the
 * condition is left out and the reason is said in words (precision over recall).
 */
import { parseQuantities } from '../quantities';
import type { TextSpan } from '../../contracts/text-span';
import type { ConditionMention, ValueConditions } from './condition-types';
import { conditionGroup, findConditionMentions } from './find-conditions';
import { methodsCompatible } from './find-methods';

const overlaps = (a: TextSpan, b: TextSpan) => a.start < b.end && b.start < a.end;
const inside = (span: TextSpan, range: TextSpan) => span.start >= range.start && span.end <= range.end;

/**
 * A fronted adverbial ("In the absence of SOC, …", "At the HSE06 level, …", "Under 10 GPa, …",
 * "For example 0.04 eV/Å electric field, …"): the words up to the first comma, when the
 * sentence opens with a preposition. Its conditions hold for every value of the sentence.
 */
const FRONTED =
  /^\s*(?:In|At|For|Under|With|Without|When|Using|Within|By|Based on|According to|Upon|After|Including|Considering|Neglecting|From|On)\b[^,;]*?,/;

/**
 * Where one clause of a contrast or a coordination ends and the next begins: ";", "while",
 * "whereas", "but", "although", ", which", and ", and" followed by a new subject or adverbial
 * (", and the GGA+SOC gap …"). ", and 2.31 eV" is not a boundary: that is a list of values.
 */
const CLAUSE_BOUNDARY =
  /;|,?\s+(?:while|whereas|but|although|though)\s+|,\s+(?:and|which|whose)\s+(?=(?:the|a|an|this|that|these|those|it|its|their|they|in|at|for|with|without|when|under|upon|after|is|are|was|were)\b)/gi;

interface Clause extends TextSpan {
  /** The fronted adverbial, whose conditions are the whole sentence's. */
  fronted?: boolean;
}

function clausesOf(sentence: string): Clause[] {
  const clauses: Clause[] = [];
  let start = 0;
  const fronted = FRONTED.exec(sentence);
  if (fronted) {
    clauses.push({ start: 0, end: fronted[0].length, fronted: true });
    start = fronted[0].length;
  }
  for (const boundary of sentence.slice(start).matchAll(CLAUSE_BOUNDARY)) {
    const end = start + boundary.index;
    if (end > start) clauses.push({ start, end });
    start = end + boundary[0].length;
  }
  clauses.push({ start, end: sentence.length });
  return clauses.filter((clause) => clause.end > clause.start);
}

/**
 * The values of the sentence that compete with `value` for its conditions: `otherValues` when
 * given, else the quantities `parseQuantities` finds with the same dimension (or unit) as the
 * value, except those the sentence states as conditions (a Tc's sentence's "at 2 K").
 */
function valuesOf(sentence: string, value: TextSpan, mentions: ConditionMention[], otherValues?: TextSpan[]): TextSpan[] {
  let others = otherValues;
  if (!others) {
    const quantities = parseQuantities(sentence);
    const own = quantities.find((quantity) => overlaps(quantity, value));
    const lead = own ? leadOf(sentence, own) : '';
    others = own
      ? quantities.filter(
          (quantity) =>
            quantity !== own &&
            (own.dimension ? quantity.dimension === own.dimension : quantity.unit === own.unit) &&
            // A quantity written as the value is ("Tc (∼84 K) … Tc (∼87 K)") is another value,
            // even where its form would make it a condition elsewhere.
            (!mentions.some((mention) => overlaps(mention, quantity)) || (lead !== '' && leadOf(sentence, quantity) === lead)),
        )
      : [];
  }
  const all = [value, ...others.filter((other) => !overlaps(other, value))];
  return all.sort((a, b) => a.start - b.start);
}

/**
 * The word and bracket that introduce a quantity ("Tc (" before "∼84 K)", "Eg =" before "1.1 eV"),
 * lower-cased; '' when the quantity follows no such word. Parallel values are written alike.
 */
function leadOf(sentence: string, quantity: TextSpan): string {
  const match = /([\p{L}][\p{L}\p{N}_]*)\s*([(=:])\s*$/u.exec(sentence.slice(Math.max(0, quantity.start - 40), quantity.start));
  return match ? `${match[1]!.toLowerCase()}${match[2]}` : '';
}

/** True when the mentions name more than one condition of their group. */
function competing(mentions: ConditionMention[]): boolean {
  const values = [...new Set(mentions.map((mention) => mention.value))];
  if (mentions[0]?.kind === 'method') return values.some((a, index) => values.slice(index + 1).some((b) => !methodsCompatible(a, b)));
  return values.length > 1;
}

const NUMBER_WORDS = ['', 'one', 'two', 'three', 'four', 'five', 'six'];
const KIND_PLURALS: Record<string, string> = { frequency: 'frequencies', strain: 'strains' };

function ambiguityReason(group: ConditionMention[], sentence: string, value: TextSpan): string {
  const texts = [...new Set(group.map((mention) => mention.text))];
  const kind = group[0]!.kind;
  const noun = KIND_PLURALS[kind] ?? `${kind}s`;
  const count = NUMBER_WORDS[texts.length] ?? String(texts.length);
  return `the sentence gives ${count} ${noun} (${texts.join(', ')}) and does not say which one ${sentence.slice(value.start, value.end)} belongs to`;
}

/**
 * Pair the values and the mentions of one clause by position: "1.86 eV (GGA/PBE) and 2.31 eV
 * (HSE06)" (each mention after its value) or "PBE gives 1.86 eV and HSE06 gives 2.31 eV" (each
 * before). Only when there are as many mentions as values and they alternate; else undefined.
 * Mentions before the first value (or after the last) that would break the count are set aside
 * first when the rest alternate: in "the overdoped nature of x=0, Tc (∼84 K) for the x=0 sample
 * is lower than Tc (∼87 K) for x=0.1" the opening "x=0" introduces the topic, and each value is
 * followed by exactly one composition of its own.
 */
function pairByPosition(values: TextSpan[], mentions: ConditionMention[], value: TextSpan): ConditionMention | undefined {
  if (values.length < 2) return undefined;
  if (mentions.length !== values.length) {
    const after = mentions.filter((mention) => mention.start >= values[0]!.end);
    const before = mentions.filter((mention) => mention.end <= values[values.length - 1]!.start);
    if (after.length === values.length) return pairByPosition(values, after, value);
    if (before.length === values.length) return pairByPosition(values, before, value);
    return undefined;
  }
  const index = values.indexOf(value);
  const after = values.every(
    (each, i) => each.end <= mentions[i]!.start && (i + 1 === values.length || mentions[i]!.end <= values[i + 1]!.start),
  );
  if (after) return mentions[index];
  const before = values.every((each, i) => mentions[i]!.end <= each.start && (i === 0 || values[i - 1]!.end <= mentions[i]!.start));
  return before ? mentions[index] : undefined;
}

/** A mention in parentheses right after the value: "2.31 eV (HSE06)". */
function parenthetical(sentence: string, value: TextSpan, mentions: ConditionMention[]): ConditionMention[] {
  return mentions.filter((mention) => {
    const between = sentence.slice(value.end, mention.start);
    return /^\s*(?:\[[^\]]*\]\s*)?\([^()]*$/.test(between) && /^[^()]*\)/.test(sentence.slice(mention.end));
  });
}

/**
 * The conditions of `sentence` that hold for the value at `value` (offsets into `sentence`,
 * UTF-16, end exclusive), with the reasons for the ones that could not be assigned:
 * 1. the value's own quantity is never its own condition, nor is another value of the sentence;
 * 2. "respectively": n values and n conditions of one group pair in order;
 * 3. a fronted adverbial holds for every value; otherwise a condition holds for the values of
 *    its clause (clauses split at ";", "while", "whereas", "but", ", and the …"), and a clause
 *    without a value of its own lends its conditions to every value;
 * 4. within a clause, a condition in parentheses after the value, or n conditions alternating
 *    with n values, pair; two or more competing conditions left over are all dropped, with a
 *    reason in `ambiguous`.
 * `mentionsOfSentence`: `findConditionMentions(sentence)`, when the caller has it (the scan reads
 * each sentence once for all its values).
 * `otherValues`: the sentence's other values, when the caller knows them; else they are found
 * with `parseQuantities` (same dimension as the value). Conditions come back sorted by start,
 * one per (kind, value). Never throws.
 */
export function conditionsOfValue(
  sentence: string,
  value: TextSpan,
  otherValues?: TextSpan[],
  mentionsOfSentence?: readonly ConditionMention[],
): ValueConditions {
  const mentions = mentionsOfSentence ? [...mentionsOfSentence] : findConditionMentions(sentence);
  const values = valuesOf(sentence, value, mentions, otherValues);
  const candidates = mentions.filter((mention) => !values.some((each) => overlaps(each, mention)));
  const clauses = clausesOf(sentence);
  const valueClause = clauses.find((clause) => !clause.fronted && value.start >= clause.start && value.start < clause.end) ?? clauses[0]!;
  const clauseHasValue = (clause: Clause) => values.some((each) => each.start >= clause.start && each.start < clause.end);
  const respectively = /\brespectively\b/i.test(sentence) && values.length >= 2;

  const groups = new Map<string, ConditionMention[]>();
  for (const mention of candidates) groups.set(conditionGroup(mention), [...(groups.get(conditionGroup(mention)) ?? []), mention]);

  const kept: ConditionMention[] = [];
  const ambiguous: string[] = [];
  for (const group of groups.values()) {
    if (respectively && group.length === values.length) {
      kept.push(group[values.indexOf(value)]!);
      continue;
    }
    const global = group.filter((mention) => clauses.some((clause) => clause.fronted && inside(mention, clause)));
    let own = [...global, ...group.filter((mention) => inside(mention, valueClause))];
    if (own.length === 0) {
      own = group.filter((mention) => clauses.some((clause) => !clause.fronted && !clauseHasValue(clause) && inside(mention, clause)));
    }
    if (own.length === 0) continue;
    if (!competing(own)) {
      kept.push(...own);
      continue;
    }
    const clauseValues = values.filter((each) => inside(each, valueClause));
    const local = own.filter((mention) => inside(mention, valueClause));
    const paired = parenthetical(sentence, value, local);
    const chosen = paired.length === 1 ? paired[0] : pairByPosition(clauseValues, local, value);
    if (chosen && !competing([chosen, ...global])) kept.push(chosen, ...global);
    else ambiguous.push(ambiguityReason(own, sentence, value));
  }
  const unique = new Map<string, ConditionMention>();
  for (const mention of kept.sort((a, b) => a.start - b.start)) {
    const key = `${mention.kind}=${mention.value}`;
    if (!unique.has(key)) unique.set(key, mention);
  }
  return { conditions: [...unique.values()], ambiguous };
}
