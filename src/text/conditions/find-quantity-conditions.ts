/**
 * Conditions that are quantities: temperature, pressure, magnetic or electric field, strain,
 * frequency, and composition variables ("x = 0.3"). The numbers are read by the project's
 * quantity parser (`parseQuantities`), never by a parser of this module; this module only
 * decides which of those quantities the sentence states as a condition.
 */
import { formatNumber, parseQuantities, type Quantity } from '../quantities';
import type { ConditionKind } from '../../contracts/conditions';
import type { ConditionMention } from './condition-types';

/**
 * `parseQuantities` leaves out bounds ("under 10 GPa" reads as "less than"), which is right for
 * a value and wrong for a condition: "under" before a number is how a pressure, strain or field
 * is applied. Masking the word with spaces keeps every offset. Other bound words ("above",
 * "up to") stay bounds: "above 300 K" is no single condition.
 */
function maskApplied(text: string): string {
  return text.replace(/\bunder(?=\s+(?:an?\s+|the\s+)?[-−+]?\d)/gi, (word) => ' '.repeat(word.length));
}

/** Kinds read from the quantity's dimension, as `toSIWithDimension` names it. */
function kindOfDimension(quantity: Quantity): ConditionKind | 'electric field?' | 'strain?' | undefined {
  switch (quantity.dimension) {
    case 'temperature':
      return 'temperature';
    case 'pressure':
      return 'pressure';
    case 'magnetism':
      return 'field';
    case 'frequency':
      return 'frequency';
    // eV/Å is a force to the unit algebra, and an electric field (per elementary charge) in
    // DFT papers: it counts as a field only beside the word "field" (a force criterion of a
    // relaxation, "0.01 eV/Å", is no condition).
    case 'force':
      return 'electric field?';
    case 'dimensionless':
      return quantity.unit === '%' ? 'strain?' : undefined;
    default:
      // V/m and its prefixes: kg m s^-3 A^-1.
      return quantity.si?.unit === 'kg m s^-3 A^-1' ? 'field' : undefined;
  }
}

// A quantity is a condition when the sentence introduces it as one: after a preposition of
// condition ("at 300 K", "under 10 GPa", "in 9 T", "with 2% strain"), after its kind's noun
// ("a pressure of 10 GPa", "T = 300 K"), in parentheses, or before its kind's noun ("0.04 eV/Å
// electric field", "2% tensile strain"). "a Tc of 39 K" is the value of a property, not a
// condition, and is left out.
const LEAD =
  /(?:\b(?:at|under|in|with|applying|applied|of\s+applied)\s+(?:(?:an?|the)\s+)?(?:(?:applied|external|hydrostatic|uniaxial|biaxial|tensile|compressive|magnetic|electric|static|vertical|perpendicular)\s+){0,2}(?:(?:temperature|pressure|field|strain|frequency)\s+(?:of\s+)?)?|\b(?:temperatures?|pressures?|fields?|strains?|frequenc(?:y|ies))\s+(?:of\s+)?|(?<![\p{L}\p{N}_])[TPBHEfε]\s*=\s*|\(\s*)(?:~|∼|≈|about\s+|approximately\s+)?$/iu;
const TRAIL_NOUN =
  /^\s*(?:of\s+)?(?:(?:applied|external|hydrostatic|uniaxial|biaxial|tensile|compressive|magnetic|electric|static|vertical|perpendicular|in-plane|out-of-plane)\s+){0,2}(temperature|pressure|fields?|strain)\b/iu;
const STRAIN_SENSE = /\b(tensile|compressive)\b/i;

function conditionKind(text: string, quantity: Quantity): ConditionKind | undefined {
  const guess = kindOfDimension(quantity);
  if (!guess) return undefined;
  const before = text.slice(Math.max(0, quantity.start - 60), quantity.start);
  const trail = TRAIL_NOUN.exec(text.slice(quantity.end, quantity.end + 60));
  if (guess === 'electric field?') {
    const near = text.slice(Math.max(0, quantity.start - 40), quantity.end + 30);
    return /\bfield\b/i.test(near) ? 'field' : undefined;
  }
  if (guess === 'strain?') {
    const near = `${before.slice(-30)} ${trail?.[0] ?? ''}`;
    return /\bstrain\b/i.test(near) ? 'strain' : undefined;
  }
  return LEAD.test(before) || trail ? guess : undefined;
}

function normalizedValue(text: string, kind: ConditionKind, quantity: Quantity): string {
  const { value } = quantity;
  const number =
    value.kind === 'range'
      ? `${formatNumber(value.low)}–${formatNumber(value.high)}`
      : `${value.approximate ? '~' : ''}${formatNumber(value.value)}`;
  if (kind === 'strain') {
    const sense = STRAIN_SENSE.exec(text.slice(Math.max(0, quantity.start - 30), quantity.end + 30));
    return `${number}%${sense ? ` ${sense[1]!.toLowerCase()}` : ''}`;
  }
  // The canonical symbol, written as papers write compound units ("eV/Å", "V/nm"), not as the
  // factor list ("eV Å^-1") the unit matcher returns.
  const unit = quantity.unit.replace(/^(\S+) (\S+)\^-1$/, '$1/$2');
  return `${number} ${unit}`;
}

const COMPOSITION_LEAD = /(?<![\p{L}\p{N}_])([xyzδ])\s*=\s*$/u;

/**
 * The quantity conditions of `text` (and composition variables), left to right. Offsets are
 * those of the quantity as `parseQuantities` gives them (plus "x = " for a composition).
 */
export function findQuantityConditions(text: string): ConditionMention[] {
  const mentions: ConditionMention[] = [];
  for (const quantity of parseQuantities(maskApplied(text))) {
    const composition = quantity.unit === '' ? COMPOSITION_LEAD.exec(text.slice(Math.max(0, quantity.start - 8), quantity.start)) : null;
    if (composition) {
      const start = quantity.start - composition[0].length;
      const value =
        quantity.value.kind === 'range'
          ? `${formatNumber(quantity.value.low)}–${formatNumber(quantity.value.high)}`
          : formatNumber(quantity.value.value);
      mentions.push({
        kind: 'composition',
        value: `${composition[1]} = ${value}`,
        text: text.slice(start, quantity.end),
        start,
        end: quantity.end,
      });
      continue;
    }
    const kind = conditionKind(text, quantity);
    if (!kind) continue;
    mentions.push({
      kind,
      value: normalizedValue(text, kind, quantity),
      text: text.slice(quantity.start, quantity.end),
      start: quantity.start,
      end: quantity.end,
    });
  }
  for (const match of text.matchAll(/\broom[- ]temperature\b/gi)) {
    mentions.push({
      kind: 'temperature',
      value: 'room temperature',
      text: match[0],
      start: match.index,
      end: match.index + match[0].length,
    });
  }
  return mentions;
}
