/**
 * Reading a unit expression as scientists write it: prefixes ("kOe", "µm"), powers ("cm^-1",
 * "cm−1", "cm⁻¹", "cm2", "m²", "C− 1"), products ("mA h", "W·m", "J.mol") and quotients
 * ("mAh/g", "W/(m K)"), spelled forms ("electron volts", "degrees Celsius", "gigapascals").
 * Everything after a "/" is in the denominator ("mJ/mol K2" = mJ mol^-1 K^-2), the reading
 * of the Cornell SI table ("W/m.K" → W/m·K).
 */
import { atomSymbol, nameIndex, nameKeys, symbolIndex, symbolKeys, type UnitAtom } from './unit-table';

/** One factor of a unit expression: an atom raised to a (signed, integer) power. */
export interface UnitFactor extends UnitAtom {
  exponent: number;
}

/** A unit expression found in text: `text.slice(start, end)` is what was read. */
export interface UnitMatch {
  start: number;
  end: number;
  factors: UnitFactor[];
}

const superscripts: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁻': '-',
  '⁺': '+',
};
const letter = /\p{L}/u;
const productSeparators = new Set(['·', '⋅', '∙', '*', '.', '•']);
const spaces = /[ \u00a0\u2009\u202f]/;
/** Continuation across a space never starts with these English words (articles, prepositions, conjunctions, `is`). */
const stopWords = new Set(['a', 'at', 'as', 'in', 'is', 'or', 'an', 'and', 'of', 'to', 'for']);

function isSpace(character: string | undefined): boolean {
  return character !== undefined && spaces.test(character);
}

/** The longest atom at `position`, ending at a non-letter; spelled names only if `allowNames`. */
function matchAtom(text: string, position: number, allowNames: boolean): { atom: UnitAtom; end: number } | null {
  for (const key of symbolKeys) {
    if (!text.startsWith(key, position)) continue;
    const next = text[position + key.length];
    if (next !== undefined && letter.test(next)) continue;
    return { atom: symbolIndex.get(key)!, end: position + key.length };
  }
  if (!allowNames) return null;
  const lower = text.slice(position, position + 40).toLowerCase();
  for (const key of nameKeys) {
    if (!lower.startsWith(key)) continue;
    const next = text[position + key.length];
    if (next !== undefined && letter.test(next)) continue;
    return { atom: nameIndex.get(key)!, end: position + key.length };
  }
  return null;
}

/**
 * A power written after an atom: "²", "⁻¹", "^-1", "^(-1)", "2", "−1", "− 1" (PDF spacing).
 * Only one digit (units are raised to small powers): "nm-10" is a range, not nm^-10.
 */
function matchExponent(text: string, position: number): { exponent: number; end: number } | null {
  let index = position;
  let raw = '';
  while (index < text.length && superscripts[text[index]!] !== undefined) raw += superscripts[text[index++]!];
  if (raw) {
    const exponent = Number(raw);
    return Number.isInteger(exponent) && exponent !== 0 && Math.abs(exponent) <= 4 ? { exponent, end: index } : null;
  }
  const match = /^\^?(\()?([-−–‒+]?)(\s?)(\d)(\))?/.exec(text.slice(position, position + 8));
  if (!match) return null;
  const [matched, open, sign, gap, digit, close] = match;
  // A ")" without "(" closes the surrounding text ("(fixed at 1000m-2)"), not the power.
  const whole = close && !open ? matched.slice(0, -1) : matched;
  if (open && !close) return null;
  if (gap && !sign) return null;
  if (/\d/.test(text[position + whole.length] ?? '')) return null;
  const exponent = Number(digit) * (sign && sign !== '+' ? -1 : 1);
  return exponent === 0 ? null : { exponent, end: position + whole.length };
}

/**
 * Read the longest unit expression starting exactly at `position` in `text`; `null` when none.
 * The first atom may be a spelled name; later atoms joined by a space must be symbols that are
 * not English words and must end the token ("0.1 M H2SO4" does not read "M H^2").
 */
export function matchUnitAt(text: string, position: number): UnitMatch | null {
  const factors: UnitFactor[] = [];
  let index = position;
  let end = position;
  let denominator = false;
  let openParenthesis = false;
  for (;;) {
    let cursor = index;
    let joinedBySpace = false;
    let slash = false;
    if (factors.length > 0) {
      if (text[cursor] === '/') {
        slash = true;
        cursor++;
      } else if (productSeparators.has(text[cursor] ?? '')) cursor++;
      else if (isSpace(text[cursor])) {
        while (isSpace(text[cursor])) cursor++;
        if (text[cursor] === '/') {
          slash = true;
          cursor++;
        } else joinedBySpace = true;
      }
      if (slash) {
        while (isSpace(text[cursor])) cursor++;
        if (text[cursor] === '(' && !openParenthesis) {
          openParenthesis = true;
          cursor++;
        }
      }
    }
    const found = matchAtom(text, cursor, factors.length === 0);
    if (!found) break;
    if (joinedBySpace && stopWords.has(text.slice(cursor, found.end))) break;
    let atomEnd = found.end;
    let exponent = 1;
    const power = matchExponent(text, atomEnd);
    if (power) {
      exponent = power.exponent;
      atomEnd = power.end;
    }
    const next = text[atomEnd];
    if (factors.length > 0 && next !== undefined && /[\p{L}\d]/u.test(next)) break;
    if (slash) denominator = true;
    factors.push({ ...found.atom, exponent: denominator ? -exponent : exponent });
    index = atomEnd;
    if (openParenthesis && text[index] === ')') {
      index++;
      openParenthesis = false;
    }
    end = index;
    if (found.atom.spelled) break;
  }
  // An unclosed "(" after "/" ("W/(m K" cut short) is not a unit we can trust.
  if (openParenthesis) return null;
  return factors.length ? { start: position, end, factors } : null;
}

/** Canonical text of factors: symbols with powers, space-separated ("mAh g^-1", "W m^-1 K^-1"). */
export function formatFactors(factors: UnitFactor[]): string {
  return factors.map((factor) => atomSymbol(factor) + (factor.exponent === 1 ? '' : `^${factor.exponent}`)).join(' ');
}

/**
 * Parse a whole unit string ("mA h g−1", "mAh/g", "W/m.K", "electron volts") into factors;
 * `null` when any part is not a unit. Surrounding whitespace and brackets are ignored.
 */
export function parseUnit(text: string): UnitFactor[] | null {
  const trimmed = text
    .trim()
    .replace(/^\((.*)\)$/s, '$1')
    .replace(/^\[(.*)\]$/s, '$1')
    .trim();
  if (!trimmed) return null;
  if (trimmed.startsWith('/') || trimmed.startsWith('1/')) {
    const rest = parseUnit(trimmed.replace(/^1?\//, ''));
    return rest ? rest.map((factor) => ({ ...factor, exponent: -factor.exponent })) : null;
  }
  const match = matchUnitAt(trimmed, 0);
  return match && match.end === trimmed.length ? match.factors : null;
}
