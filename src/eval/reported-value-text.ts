/**
 * Reading a value as printed in a ground-truth cell or a recorded tool's answer ("~1.45",
 * "1.5-2.3", "2.01 Å", "43 eV.", "1.2 × 10^-3", "<0.002", "23.7 ± 0.5 K", "below 1.7 K") into
 * a `ReportedValue` plus whatever unit text follows the number. Used by the dataset loaders,
 * not by the scorer itself.
 */
import type { ReportedValue } from '../contracts/triplet';
import { parseNumber } from '../text/quantities/number';

export interface ParsedValueText {
  value: ReportedValue;
  /** Set when the text is a bound: `upper` for `<`, `≤`, "below", "up to"; `lower` for `>`, `≥`, "above". */
  bound?: 'upper' | 'lower';
  /** Text after the number(s), trimmed ("eV", "Å", ""); the caller decides what unit it is. */
  unitText: string;
}

// "10^-4" first: otherwise the plain-number branch would take "10" and leave "^-4" as unit text.
// Digits as printed: thousands by commas or spaces ("1,200", "3 800"), a decimal point or comma
// ("6,2"), read by the number reader (`parseNumber`).
const NUMBER = String.raw`10\s*\^\s*\(?[-−+]?\d+\)?|[-−+]?(?:\d{1,3}(?:[, ]\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d*|,\d+(?![\d,]))?|\.\d+)(?:\s*(?:[eE][-−+]?\d+|[×x*]\s*10\s*\^?\s*\(?[-−+]?\d+\)?))?`;
const APPROXIMATE_PREFIX = /^(?:~|∼|≈|≃|about|approx(?:\.|imately)?|around|ca\.?)\s*/i;
// An upper or lower bound ("<0.002", "≤ 5", "below 1.7 K", "up to 72 K"). `ReportedValue` has
// no bound kind, so a bound is read as its limit marked approximate, and `bound` says which
// side: strict scoring matches a bound only with the same bound, lenient scores the limit.
const BOUND_PREFIX = /^(?:<=|>=|<|>|≤|≥|≲|≳|below|above|up to|over|under|less than|more than|higher than|lower than)\s*/i;
const LOWER_BOUND = /^(?:>=|>|≥|≳|above|over|more than|higher than)/i;
const UNCERTAINTY = String.raw`^\s*(?:±|\+\/-|\+-)\s*(\d+(?:\.\d*)?|\.\d+)(.*)$`;
const RANGE = new RegExp(String.raw`^(${NUMBER})\s*(?:-|–|—|to|~|∼)\s*(${NUMBER})(.*)$`, 'i');
const SINGLE = new RegExp(String.raw`^(${NUMBER})(.*)$`, 'i');

/**
 * Turn one number as printed ("1.2e-3", "1.2 × 10^-3", "10^-4", "−0.15", "6,2", "3 800") into a
 * JS number: the number reader's (`parseNumber`) when it reads the text, else the forms below.
 */
export function readNumber(text: string): number | null {
  const read = parseNumber(text.replace(/\s*([×x*])\s*/, ' $1 ').replace(/\s*\^\s*/, '^'));
  if (read) return read.value;
  const cleaned = text.replace(/−/g, '-').replace(/\s+/g, '');
  const power = /^(?:([-+]?(?:\d+(?:\.\d*)?|\.\d+))[×x*])?10\^?\(?([-+]?\d+)\)?$/.exec(cleaned);
  if (power && (power[1] !== undefined || cleaned.startsWith('10^'))) {
    return Number(power[1] ?? '1') * 10 ** Number(power[2]);
  }
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

/**
 * Parse a printed value. Returns null when the text does not start with a number (after
 * markdown emphasis, an approximate marker or a bound sign): "None", "B1", "---".
 * A range needs two numbers joined by a dash, "to" or "~" ("1.5-2.3", "1.2 to 1.5"); a leading
 * minus stays a sign ("-0.15" is a number).
 */
export function parseValueText(raw: string): ParsedValueText | null {
  let text = raw.replace(/\*+/g, '').replace(/\s+/g, ' ').trim();
  let approximate = false;
  let bound: 'upper' | 'lower' | undefined;
  const approximateMatch = APPROXIMATE_PREFIX.exec(text);
  const boundMatch = approximateMatch ? null : BOUND_PREFIX.exec(text);
  if (boundMatch) bound = LOWER_BOUND.test(boundMatch[0]) ? 'lower' : 'upper';
  const prefix = approximateMatch ?? boundMatch;
  if (prefix) {
    approximate = true;
    text = text.slice(prefix[0].length);
  }
  const range = RANGE.exec(text);
  if (range?.[1] && range[2]) {
    const low = readNumber(range[1]);
    const high = readNumber(range[2]);
    if (low !== null && high !== null) {
      return {
        value: { kind: 'range', low, high, ...(approximate ? { approximate } : {}) },
        ...(bound ? { bound } : {}),
        unitText: cleanUnitText(range[3] ?? ''),
      };
    }
  }
  const single = SINGLE.exec(text);
  if (!single?.[1]) return null;
  const value = readNumber(single[1]);
  if (value === null) return null;
  let rest = single[2] ?? '';
  const uncertaintyMatch = new RegExp(UNCERTAINTY).exec(rest);
  const uncertainty = uncertaintyMatch ? Number(uncertaintyMatch[1]) : undefined;
  if (uncertaintyMatch) rest = uncertaintyMatch[2] ?? '';
  return {
    value: { kind: 'number', value, ...(uncertainty !== undefined ? { uncertainty } : {}), ...(approximate ? { approximate } : {}) },
    ...(bound ? { bound } : {}),
    unitText: cleanUnitText(rest),
  };
}

/** Strip trailing punctuation and bracketed notes from unit text: "eV." → "eV", "eV (Note…" → "eV". */
export function cleanUnitText(text: string): string {
  return text
    .replace(/[([].*$/s, '')
    .replace(/[.,;:]+\s*$/, '')
    .trim();
}
