/**
 * What a number is in its sentence, for a property (issue 26, "the gate judges the whole
 * fact"): the property's value, or a difference, ratio, part, model parameter, measurement
 * condition or another quantity that shares the property's unit. "Its bandgap is narrower than
 * that of C60 by approximately 0.3 eV" does not state a band gap of 0.3 eV.
 *
 * The reading is deterministic and local: the words right beside the number ("by", "Δ", "from
 * … to", "U =", "/2", "at" for a temperature, a comparative after it) and the number's head —
 * the nearest naming phrase before it in its clause, a property of the catalogue or a cue of
 * value-role-cues.ts. When nothing decides, the number is the value: a false `difference` on a
 * plain value loses a real fact, so every cue must stand right beside the number or be its head.
 */
import type { PropertyDefinition } from '../../contracts/property';
import { findContextualMentions, findPropertyMentions } from '../find-property-mentions';
import type { TextSpan } from '../../contracts/text-span';
import type { ValueRole, ValueRoleKind } from './condition-types';
import {
  APPROXIMATORS,
  CHANGE_BEFORE_FROM,
  CHANGE_VERBS_TO,
  COMPARATIVES,
  headCuesFor,
  TEMPERATURE_CONDITION_BEFORE,
  TEMPERATURE_SWEEP_BEFORE,
  TEMPERATURE_QUANTITIES_AT,
  TRANSITION_WORDS,
  type RoleCue,
} from './value-role-cues';

/**
 * A value role with, for the two ends of a change "from A to B", which end the number is.
 * `roleVerdict` reads it: each end may be the property's value under a condition the sentence
 * gives (before and after annealing), so it is for a reader to decide.
 */
export interface ValueRoleReading extends ValueRole {
  changeEnd?: 'from' | 'to';
}

/** How serious a role is for the gate. */
export type RoleVerdict = 'ok' | 'needs_review' | 'rejected';

/**
 * The gate's verdict for a role: `value` → 'ok'; the two ends of a "from A to B" change
 * (`changeEnd` set) → 'needs_review', since each end is a value of the property under a state the
 * sentence names (the lead integrates the state as a condition); every other role (difference,
 * ratio, fraction, parameter, condition, other-quantity) → 'rejected': the number is not a value
 * of the property at all, and a reader who disagrees can still save it by hand.
 */
export function roleVerdict(role: ValueRole): RoleVerdict {
  if (role.role === 'value') return 'ok';
  if ((role as ValueRoleReading).changeEnd !== undefined) return 'needs_review';
  return 'rejected';
}

/**
 * How far (UTF-16 code units) before the number a rival head or cue may end and still govern it:
 * about eight words, the length of a noun phrase with its "of"-complement and a copula ("the
 * exciton binding energy of bulk ZnO is about"). Farther cues head another phrase more often than
 * not, and a missed cue only costs a review, while a false one loses a fact.
 */
const HEAD_REACH = 60;
const NUMBER = '[-−–]?\\d+(?:[.,]\\d+)?';
const WORD_BEFORE = '(?<![\\p{L}\\p{N}])';
const WORD_AFTER = '(?![\\p{L}\\p{N}])';

/** A clause ends at ";", ":" or a comma before a word or a conjunction ("…, while", "…, whereas"). */
function clauseStart(sentence: string, offset: number): number {
  const before = sentence.slice(0, offset);
  let start = 0;
  for (const match of before.matchAll(/[;:]\s|,\s+(?=\p{L})|\s(?:while|whereas|but)\s/gu)) start = match.index + match[0].length;
  return start;
}

/** Length of the unit written right after the number ("eV", " meV", " K"), 0 when none. */
function unitLength(after: string, property: PropertyDefinition): number {
  const units = [...property.units.map((unit) => unit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), '°C', '℃', 'kelvin', 'electron\\s?volts?'];
  const match = new RegExp(`^\\s*(?:${units.join('|')})${WORD_AFTER}`, 'u').exec(after);
  return match ? match[0].length : 0;
}

function found(
  role: Exclude<ValueRoleKind, 'value'>,
  sentence: string,
  cue: TextSpan,
  why: string,
  changeEnd?: 'from' | 'to',
): ValueRoleReading {
  const reading: ValueRoleReading = { role, reason: `'${sentence.slice(cue.start, cue.end).trim().replace(/\s+/g, ' ')}': ${why}`, cue };
  if (changeEnd) reading.changeEnd = changeEnd;
  return reading;
}

/** The last match of `pattern` (a source ending in `$`) in `text`, as a span of the sentence. */
function endMatch(text: string, offset: number, pattern: string): TextSpan | undefined {
  const match = new RegExp(pattern, 'iu').exec(text);
  return match ? { start: offset + match.index, end: offset + match.index + match[0].length } : undefined;
}

interface Head {
  start: number;
  end: number;
  kind: 'property' | 'rival' | 'cue';
  cue?: RoleCue;
  label?: string;
}

/** Naming phrases in `text` (a clause before the number): the property, same-dimension rivals, role cues. */
function headsIn(text: string, offset: number, property: PropertyDefinition, catalogue: readonly PropertyDefinition[]): Head[] {
  const sameDimension = catalogue.filter((other) => other.dimension === property.dimension);
  const withSelf = sameDimension.some((other) => other.name === property.name) ? sameDimension : [...sameDimension, property];
  // A name two properties share (a reader's "optical gap" defined with the synonym "band gap") names
  // the property asked for, not a rival.
  const namesOwn = (start: number, end: number) => findPropertyMentions(text.slice(start, end), [property]).length > 0;
  const heads: Head[] = findPropertyMentions(text, withSelf).map((mention) => ({
    start: offset + mention.start,
    end: offset + mention.end,
    kind: mention.property === property.name || namesOwn(mention.start, mention.end) ? 'property' : 'rival',
    label: withSelf.find((other) => other.name === mention.property)?.label,
  }));
  for (const schema of withSelf)
    for (const mention of findContextualMentions(text, schema))
      heads.push({
        start: offset + mention.start,
        end: offset + mention.end,
        kind: schema.name === property.name ? 'property' : 'rival',
        label: schema.label,
      });
  for (const cue of headCuesFor(property.dimension))
    for (const match of text.matchAll(new RegExp(`${WORD_BEFORE}(?:${cue.pattern})${cue.pattern === '%' ? '' : WORD_AFTER}`, 'giu')))
      heads.push({ start: offset + match.index, end: offset + match.index + match[0].length, kind: 'cue', cue });
  // A property mention inside a cue ("Hubbard U parameter", "spin splitting of the gap" is handled apart) loses to the cue.
  return heads.filter(
    (head) =>
      !heads.some(
        (other) => other !== head && other.start <= head.start && other.end >= head.end && other.end - other.start > head.end - head.start,
      ),
  );
}

/**
 * Is the number at `value` (a span of `sentence`, UTF-16 offsets, end exclusive; with or without
 * its unit) the value of `property`, or something else? `catalogue` is the resolved property
 * catalogue (built-ins and the reader's own), read for rival properties of the same dimension
 * ("a Néel temperature of 60 K" is not a Tc). Returns `{ role: 'value' }` when nothing says
 * otherwise; for every other role a `reason` in words quoting the cue and the cue's span. The two
 * ends of "increases from 1.2 to 1.5 eV" are both `difference` with `changeEnd` 'from' / 'to'
 * (`roleVerdict` → needs_review); "ranges from 1.2 to 1.5 eV" and "reduced to 67 meV" are values.
 * Never throws. Word lists and their sources: value-role-cues.ts.
 */
export function valueRole(
  sentence: string,
  value: TextSpan,
  property: PropertyDefinition,
  catalogue: readonly PropertyDefinition[],
): ValueRoleReading {
  const start = clauseStart(sentence, value.start);
  const before = sentence.slice(start, value.start);
  const unitEnd = value.end + unitLength(sentence.slice(value.end), property);
  const after = sentence.slice(unitEnd);
  const valueText = sentence.slice(value.start, unitEnd).trim();
  const name = property.label.toLowerCase();
  const at = (pattern: string) => endMatch(before, start, pattern);

  // 0. A whole "from A to B" read as one quantity (as `parseQuantities` reads "from 2.42 eV to
  // 2.50 eV") after a change verb: both ends of a change, not a range of values (step 1's rule).
  if (/^from\b/iu.test(valueText)) {
    const verb = at(`${WORD_BEFORE}${CHANGE_BEFORE_FROM}(?:\\s+[\\p{L}-]+){0,4}\\s*$`);
    if (verb)
      return found(
        'difference',
        sentence,
        { start: verb.start, end: value.start + 4 },
        `${valueText} is a change between two states, not one ${name}`,
        'from',
      );
  }

  // 1. From A to B: a change between two states, unless it spans a range ("ranges from", "varies from").
  const fromEnd = at(`${WORD_BEFORE}from\\s*${APPROXIMATORS}$`);
  if (fromEnd && new RegExp(`^\\s*(?:to|→|->)\\s*${APPROXIMATORS}${NUMBER}`, 'u').test(after)) {
    const verb = endMatch(before.slice(0, fromEnd.start - start), start, `${WORD_BEFORE}${CHANGE_BEFORE_FROM}(?:\\s+[\\p{L}-]+){0,4}\\s*$`);
    if (verb)
      return found(
        'difference',
        sentence,
        { start: verb.start, end: fromEnd.end },
        `${valueText} is where a change starts, not one ${name}`,
        'from',
      );
    return { role: 'value' };
  }
  const toEnd = at(`${WORD_BEFORE}from\\s*${APPROXIMATORS}${NUMBER}\\s*(?:\\p{L}{1,3}\\s*)?(?:to|→|->)\\s*${APPROXIMATORS}$`);
  if (toEnd) {
    const verb = endMatch(before.slice(0, toEnd.start - start), start, `${WORD_BEFORE}${CHANGE_BEFORE_FROM}(?:\\s+[\\p{L}-]+){0,4}\\s*$`);
    if (verb)
      return found(
        'difference',
        sentence,
        { start: verb.start, end: toEnd.end },
        `${valueText} is where a change ends, not one ${name}`,
        'to',
      );
    return { role: 'value' };
  }

  // 2. "by 0.3 eV", "ΔEg = 0.2 eV", "0.3 eV lower than": a difference.
  const by = at(`${WORD_BEFORE}by\\s*${APPROXIMATORS}$`);
  if (by) {
    const comparative = endMatch(before, start, `${WORD_BEFORE}(?:${COMPARATIVES}|${CHANGE_BEFORE_FROM})${WORD_AFTER}`);
    const cue = comparative && comparative.start < by.start ? comparative : by;
    const said = `'by ${valueText}'${cue === by ? '' : ` after '${sentence.slice(cue.start, cue.end)}'`}`;
    return { role: 'difference', reason: `${said}: a difference, not the ${name}`, cue: { start: cue.start, end: by.end } };
  }
  const delta = at(`[ΔδΔ]\\s*[\\p{L}\\p{N}_,]{0,8}\\s*(?:\\([^)]*\\)\\s*)?[=≈~:]?\\s*${APPROXIMATORS}$`);
  if (delta) return found('difference', sentence, delta, `a Δ (difference) before ${valueText}, not the ${name}`);
  const comparativeAfter = new RegExp(
    `^\\s*(?:in\\s+energy\\s+)?(${COMPARATIVES})${WORD_AFTER}(?=(?:\\s+[\\p{L}\\p{N}-]+){0,4}?\\s+than${WORD_AFTER}|\\s*(?:in\\s+energy)?\\s*(?:[,.;)]|$)|\\s+(?:the\\s+|its\\s+|their\\s+)?(?:[\\p{L}-]+\\s+){0,2}?(?:top|bottom|valence|conduction|VBM|CBM|VB|CB|Fermi|E_?F|vacuum|edges?|bands?|gaps?|bandgaps?|levels?|partners?|maximum|minimum|T_?[cCN]|transition|onset)${WORD_AFTER})`,
    'iu',
  ).exec(after);
  if (comparativeAfter) {
    const cue = { start: unitEnd + comparativeAfter.index, end: unitEnd + comparativeAfter[0].length };
    return found(
      'difference',
      sentence,
      cue,
      `${valueText} '${comparativeAfter[1]}': a difference from another level or material, not the ${name}`,
    );
  }

  // 3. Parts and multiples written as symbols: "Eg/2 = 0.6 eV", "2×Elaser = 4.8 eV", "20% of the gap".
  const half = at(`\\/\\s*\\d+\\s*\\)?\\s*[=≈~:]?\\s*${APPROXIMATORS}$`);
  if (half) return found('fraction', sentence, half, `a divided quantity before ${valueText}, not the ${name}`);
  const times = at(`${WORD_BEFORE}\\d+(?:\\.\\d+)?\\s*[×x*·]\\s*\\p{L}[\\p{L}\\p{N}_,]*\\s*[=≈~:]?\\s*${APPROXIMATORS}$`);
  if (times) return found('ratio', sentence, times, `a multiple before ${valueText}, not the ${name}`);
  if (/%\s*$/u.test(valueText) && /^\s*of\b/iu.test(after))
    return found(
      'ratio',
      sentence,
      { start: value.start, end: unitEnd + (/^\s*of/iu.exec(after)?.[0].length ?? 0) },
      `a percentage of something, not the ${name}`,
    );

  // 4. Model parameters written as symbols: "U = 5 eV", "Ueff = 4 eV", "J = 0.7 eV", "t = 2.7 eV".
  const symbol = at(
    `${WORD_BEFORE}(?:U(?:_?(?:eff|d|f|p))?|J(?:_?H)?|t(?:_?\\d|')?)\\s*(?:\\([^)]*\\)\\s*)?(?:[=≈~:]|of|equal\\s+to|set\\s+to)\\s*${APPROXIMATORS}$`,
  );
  if (symbol) return found('parameter', sentence, symbol, `a model parameter (Hubbard U, exchange J or hopping t), not the ${name}`);

  // 5. Temperatures of a measurement or process ("measured at 2 K", "cooled to", "down to 2 K").
  if (property.dimension === 'temperature') {
    const sweep = at(`${WORD_BEFORE}${TEMPERATURE_SWEEP_BEFORE}\\s*${APPROXIMATORS}$`);
    if (sweep)
      return found('condition', sentence, sweep, `the end of a temperature sweep, a condition of the measurement, not the ${name}`);
    const process = at(
      `${WORD_BEFORE}${TEMPERATURE_CONDITION_BEFORE}(?:\\s+[\\p{L}-]+){0,2}?\\s+(?:at|to|between|from|in|below|above)\\s*${APPROXIMATORS}$`,
    );
    if (process) return found('condition', sentence, process, `the temperature of a measurement or process step, not the ${name}`);
    const bareAt = at(`${WORD_BEFORE}at\\s*${APPROXIMATORS}$`);
    if (bareAt) return temperatureAt(sentence, start, bareAt, valueText, property, catalogue);
  }

  // 6. "reduced to 67 meV", "improved to": a change that ends in the new value.
  if (at(`${WORD_BEFORE}${CHANGE_VERBS_TO}(?:\\s+[\\p{L}-]+){0,3}?\\s+to\\s*${APPROXIMATORS}$`)) return { role: 'value' };

  // 7. Apposition: "the band gap (3.4 eV)", "resonantly with the band gap (hν = 3.43 eV)" — the
  // parenthesis restates the noun before it (Quirk et al. 1985, §17.65), whatever symbol it uses.
  const open = before.lastIndexOf('(');
  if (open >= 0 && !before.slice(open).includes(')')) {
    const outside = before.slice(0, open).replace(/\s+$/u, '');
    const heads = headsIn(outside, start, property, catalogue).filter((head) => head.end === start + outside.length);
    if (heads.some((head) => head.kind === 'property') && !heads.some((head) => head.kind !== 'property')) return { role: 'value' };
  }

  // 8. The number's head: the nearest naming phrase before it, or a noun right after a determiner + number.
  return headRole(sentence, start, value, unitEnd, valueText, property, catalogue);
}

/** "… at 60 K" for a temperature property: a transition at it, another quantity's extremum, or a condition. */
function temperatureAt(
  sentence: string,
  clause: number,
  bareAt: TextSpan,
  valueText: string,
  property: PropertyDefinition,
  catalogue: readonly PropertyDefinition[],
): ValueRoleReading {
  const nearStart = Math.max(clause, bareAt.start - 48);
  const near = sentence.slice(nearStart, bareAt.start);
  const name = property.label.toLowerCase();
  const heads = headsIn(near, nearStart, property, catalogue).filter((head) => head.kind !== 'cue');
  const transition = endMatch(near, nearStart, `${WORD_BEFORE}${TRANSITION_WORDS}${WORD_AFTER}`);
  const quantity = endMatch(near, nearStart, `${WORD_BEFORE}(?:${TEMPERATURE_QUANTITIES_AT})${WORD_AFTER}`);
  const nearest = heads.sort((left, right) => right.end - left.end)[0];
  if (nearest?.kind === 'rival')
    return found(
      'other-quantity',
      sentence,
      { start: nearest.start, end: bareAt.end },
      `the ${nearest.label?.toLowerCase() ?? 'another property'} is named at ${valueText}, not the ${name}`,
    );
  if (nearest?.kind === 'property') return { role: 'value' };
  const rivalWord = rivalQualifier(near, property, catalogue);
  if (transition && rivalWord)
    return found(
      'other-quantity',
      sentence,
      { start: transition.start, end: bareAt.end },
      `a ${rivalWord} transition at ${valueText}, not the ${name}`,
    );
  if (transition) return { role: 'value' };
  if (quantity)
    return found(
      'other-quantity',
      sentence,
      { start: quantity.start, end: bareAt.end },
      `the temperature of another feature (a maximum or peak), not the ${name}`,
    );
  return found('condition', sentence, bareAt, `the temperature of the measurement, not the ${name}`);
}

const GENERIC_WORDS = new Set(['temperature', 'point', 'transition', 'ordering', 'critical', 'constant', 'the', 'of']);

/** A qualifier word of a same-dimension rival property ("antiferromagnetic" for a Tc) written in `text`, if any. */
function rivalQualifier(text: string, property: PropertyDefinition, catalogue: readonly PropertyDefinition[]): string | undefined {
  const wordsOf = (schema: PropertyDefinition) =>
    new Set(
      [...schema.synonyms, ...schema.contextualSynonyms]
        .flatMap((synonym) => synonym.toLowerCase().split(/\s+/))
        .filter((word) => !GENERIC_WORDS.has(word)),
    );
  const own = wordsOf(property);
  const written = text.toLowerCase().split(/[^\p{L}]+/u);
  for (const rival of catalogue.filter((other) => other.dimension === property.dimension && other.name !== property.name))
    for (const word of wordsOf(rival)) if (!own.has(word) && written.includes(word)) return word;
  return undefined;
}

/**
 * An extremum word ("maximum", "minimum") as a head: it makes the number another quantity's
 * extremum ("a maximum of the susceptibility"), but the extremum of the property itself ("the
 * maximum Tc", "Tc reaches its maximum value of") is still one of its values (Quirk et al. 1985,
 * §7.2: an attributive adjective restricts its noun; it does not name another quantity).
 */
function extremum(sentence: string, head: Head): boolean {
  return /^(?:maximum|minimum)$/iu.test(sentence.slice(head.start, head.end));
}

/** Step 7 of `valueRole`: the role of the number's head. */
function headRole(
  sentence: string,
  clause: number,
  value: TextSpan,
  unitEnd: number,
  valueText: string,
  property: PropertyDefinition,
  catalogue: readonly PropertyDefinition[],
): ValueRoleReading {
  const name = property.label.toLowerCase();
  const before = sentence.slice(clause, value.start);
  // "a 3.8 eV laser", "the 0.36 eV spin splitting": a measure phrase before its noun.
  if (/(?:^|\b(?:a|an|the|this|that|its|their|our|with|of)\s*)$/iu.test(before)) {
    const after = sentence.slice(unitEnd, unitEnd + 60);
    const following = headsIn(after, unitEnd, property, catalogue).filter((head) =>
      /^[\s\-‐]*$/u.test(sentence.slice(unitEnd, head.start)),
    );
    const first = following.sort((left, right) => left.start - right.start)[0];
    if (first?.kind === 'property') return { role: 'value' };
    if (first?.kind === 'cue') return found(first.cue!.role, sentence, first, `${first.cue!.what} of ${valueText}, not the ${name}`);
  }
  // Read up to the value's end: a symbol is a mention only with its value ("a = 5.43 Å", "Tc = 39 K"),
  // so a clause cut before the number would never show it; heads past the number's start are not heads.
  const heads = headsIn(sentence.slice(clause, unitEnd), clause, property, catalogue)
    .filter((head) => head.end <= value.start)
    .sort((left, right) => right.end - left.end);
  const prepositionObject = (head: Head) =>
    new RegExp(
      `${WORD_BEFORE}(?:from|by|using|with|via|through|in|on|under|within)\\s+(?:the\\s+|a\\s+|an\\s+|its\\s+|their\\s+)?(?:[\\p{L}-]+\\s+)?$`,
      'iu',
    ).test(sentence.slice(clause, head.start));
  const hasProperty = heads.some((head) => head.kind === 'property');
  for (const head of heads) {
    // A cue far back in a long clause heads another noun phrase ("the total energy difference
    // between … we obtain the zero-phonon-line energy of 1.39 eV"): only a near one decides.
    if (head.kind !== 'property' && value.start - head.end > HEAD_REACH) continue;
    if (head.kind === 'cue' && hasProperty && prepositionObject(head)) continue; // "the band gap obtained from the PL peak is …"
    // "Tc reaches its maximum value of 32 K": the extremum of the property named before it.
    if (head.kind === 'cue' && hasProperty && extremum(sentence, head) && /^\s+values?\b/iu.test(sentence.slice(head.end))) continue;
    if (head.kind === 'property') {
      // "spin splitting of the gap", "half the gap", "shift of the band gap", "Eg/2".
      const governing = heads.find(
        (other) =>
          other.kind === 'cue' &&
          other.end <= head.start &&
          new RegExp(`^\\s*(?:of|in)?\\s*(?:the|its|their|a)?\\s*$`, 'iu').test(sentence.slice(other.end, head.start)),
      );
      if (governing && !extremum(sentence, governing))
        return found(
          governing.cue!.role,
          sentence,
          { start: governing.start, end: head.end },
          `${governing.cue!.what} (${valueText}), not the ${name}`,
        );
      return { role: 'value' };
    }
    if (head.kind === 'rival')
      return found(
        'other-quantity',
        sentence,
        head,
        `the number belongs to the ${head.label?.toLowerCase() ?? 'another property'}, not the ${name}`,
      );
    return found(head.cue!.role, sentence, head, `${head.cue!.what} (${valueText}), not the ${name}`);
  }
  return { role: 'value' };
}
