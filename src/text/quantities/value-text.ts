/**
 * A value as printed on its own — a ground-truth cell, a recorded tool's answer, what a reader
 * types into the Edit form ("~1.45", "1.5-2.3", "between 1.2 and 1.5", "2.01 Å", "43 eV.",
 * "1.2 × 10^-3", "<0.002", "23.7 ± 0.5 K", "3.41(2)", "below 1.7 K") — read into a
 * `ReportedValue`, the bound it states and whatever unit text follows. The numbers are read by
 * the one number reader of Assay (`parseNumber`, number.ts: signs, thousands, decimal commas,
 * exponents, digit uncertainty), so a cell, an edit and a sentence of a paper read "6,2" or
 * "3.41(2)" alike. The eval loaders and the dataset's Edit form (`store/dataset-rows.ts`) use it.
 */
import type { ReportedValue } from '../../contracts/triplet';
import { numberPattern, parseNumber } from './number';

export interface ParsedValueText {
  value: ReportedValue;
  /** Set when the text is a bound: `upper` for `<`, `≤`, "below", "up to"; `lower` for `>`, `≥`, "above". */
  bound?: 'upper' | 'lower';
  /** Text after the number(s), trimmed ("eV", "Å", ""); the caller decides what unit it is. */
  unitText: string;
}

// A bare power of ten ("10^-4", "10^(−3)") first: the number pattern reads a power of ten only
// after a mantissa ("1.2 × 10^-3"), so it would take "10" and leave "^-4" as unit text.
const NUMBER = String.raw`[-−+]?10\s*\^\s*\(?[-−+]?\d+\)?|${numberPattern}`;
// A cell whose superscript was flattened to a space: "9 × 10 13 cm −3" is 9 × 10^13 (in a cell
// the number is a value, so "× 10 13" is a power of ten; in running text `parseNumber` reads only
// the glued form "× 1013", as "2 × 10 mm" is a product there).
const SPACED_POWER = /([×x])\s*10 ([-−–+]?\d{1,3})(?![\d.,])/gu;
// A bare power of ten whose superscript was flattened, with the minus sign U+2212: "10−3" is
// 10^-3, as `findNumberTokens` reads it (an ASCII hyphen or a dash makes a range: "10-20").
const FLATTENED_POWER = /(^|[^\d.,])([-−+]?)10−(\d{1,2})(?![\d.,])/gu;
const APPROXIMATE_PREFIX = /^(?:~|∼|≈|≃|about|approx(?:\.|imately)?|around|nearly|roughly|ca\.?)\s*/i;
// An upper or lower bound ("<0.002", "≤ 5", "below 1.7 K", "up to 72 K"). `ReportedValue` has
// no bound kind, so a bound is read as its limit marked approximate, and `bound` says which
// side: strict scoring matches a bound only with the same bound, lenient scores the limit.
const BOUND_PREFIX = /^(?:<=|>=|<|>|≤|≥|≲|≳|below|above|up to|over|under|less than|more than|higher than|lower than)\s*/i;
const LOWER_BOUND = /^(?:>=|>|≥|≳|above|over|more than|higher than)/i;
const UNCERTAINTY = /^\s*(?:±|\+\/-|\+-)\s*(\d+(?:\.\d*)?|\.\d+)(.*)$/su;
// "1.5-2.3", "1.2 to 1.5", "1.2~1.5", "1−10"; "between 1.2 and 1.5", "from 1 to 5" (as
// `parseQuantities` reads ranges).
const RANGE = new RegExp(String.raw`^(${NUMBER})\s*(?:-|–|—|−|to|~|∼)\s*(${NUMBER})(.*)$`, 'isu');
const OPENED_RANGE = new RegExp(String.raw`^(?:between|from)\s+(${NUMBER})\s*(?:and|to|-|–|−)\s*(${NUMBER})(.*)$`, 'isu');
const SINGLE = new RegExp(String.raw`^(${NUMBER})(.*)$`, 'isu');

/**
 * One number as printed ("1.2e-3", "1.2 × 10^-3", "10^-4", "−0.15", "6,2", "3 800", "3.41(2)")
 * with its digit uncertainty, or null when `parseNumber` does not read it as exactly one number.
 */
function readNumber(text: string): { value: number; uncertainty?: number } | null {
  const read = parseNumber(text);
  if (!read) return null;
  return read.uncertainty === undefined ? { value: read.value } : { value: read.value, uncertainty: read.uncertainty };
}

/**
 * Parse a printed value. Returns null when the text does not start with a number (after
 * markdown emphasis, an approximate marker or a bound sign): "None", "B1", "---".
 * A range needs two numbers joined by a dash, "to" or "~" ("1.5-2.3", "1.2 to 1.5"), or
 * "between … and …" / "from … to …"; a leading minus stays a sign ("-0.15" is a number). An
 * uncertainty is "± 0.1" after the number or the digits in brackets ("3.41(2)" → ± 0.02).
 * Never throws.
 */
export function parseValueText(raw: string): ParsedValueText | null {
  let text = raw.replace(/\*+/g, '').replace(/\s+/g, ' ').trim().replace(SPACED_POWER, '$1 10^$2').replace(FLATTENED_POWER, '$1$210^-$3');
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
  const range = OPENED_RANGE.exec(text) ?? RANGE.exec(text);
  if (range?.[1] && range[2]) {
    const low = readNumber(range[1]);
    const high = readNumber(range[2]);
    if (low !== null && high !== null) {
      return {
        value: { kind: 'range', low: low.value, high: high.value, ...(approximate ? { approximate } : {}) },
        ...(bound ? { bound } : {}),
        unitText: cleanUnitText(range[3] ?? ''),
      };
    }
  }
  const single = SINGLE.exec(text);
  if (!single?.[1]) return null;
  const number = readNumber(single[1]);
  if (number === null) return null;
  let rest = single[2] ?? '';
  const uncertaintyMatch = UNCERTAINTY.exec(rest);
  const uncertainty = uncertaintyMatch ? Number(uncertaintyMatch[1]) : number.uncertainty;
  if (uncertaintyMatch) rest = uncertaintyMatch[2] ?? '';
  return {
    value: {
      kind: 'number',
      value: number.value,
      ...(uncertainty !== undefined ? { uncertainty } : {}),
      ...(approximate ? { approximate } : {}),
    },
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
