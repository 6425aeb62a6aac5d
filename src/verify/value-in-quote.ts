/**
 * Is a triplet's value (and unit) written in a quote? Compares the triplet's `ReportedValue`
 * with the quantities a parser finds in the quote — as written, not converted: grounding asks
 * whether the number is printed there, not whether it is physically equal (1.5 eV ≠ 1500 meV).
 */
import type { ReportedValue } from '../contracts/triplet';

/** The part of a parsed quantity grounding relies on (the subset of `Quantity` it reads). */
export interface QuoteQuantity {
  value: ReportedValue;
  /** Canonical unit symbol, '' when none. */
  unit: string;
  /** The quantity as printed ("11 meV"), for messages. */
  text?: string;
  /** The value in SI base units, when the unit converts. */
  si?: { value: ReportedValue; unit: string };
}

/** `toSI` of `src/text/units`: a value in a canonical unit → SI base units, or null. */
export type ToSI = (value: number, unit: string) => { value: number; unit: string } | null;

/**
 * A reported value in SI base units (both ends of a range), or null when the unit does not
 * convert. The unit is that of the low end; an affine unit (°C) converts each end on its own.
 */
export function reportedValueToSI(value: ReportedValue, unit: string, toSI: ToSI): { value: ReportedValue; unit: string } | null {
  if (value.kind === 'number') {
    const converted = toSI(value.value, unit);
    return converted ? { value: { kind: 'number', value: converted.value }, unit: converted.unit } : null;
  }
  const low = toSI(value.low, unit);
  const high = toSI(value.high, unit);
  return low && high ? { value: { kind: 'range', low: low.value, high: high.value }, unit: low.unit } : null;
}

/**
 * Relative tolerance for "the same number": only what float parsing leaves behind
 * (1.1299999999999999 vs 1.13). Deliberately not the 0.1 % scoring tolerance — a value that is
 * 0.05 % off is a different number from the one printed.
 */
export const VALUE_RELATIVE_TOLERANCE = 1e-9;

/** Equal within `VALUE_RELATIVE_TOLERANCE` of the larger magnitude (exactly, for zero). */
export function sameNumber(a: number, b: number): boolean {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= VALUE_RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * Does the quoted `found` value show the triplet's `claimed` value? A number matches a number
 * (its ± uncertainty and "~" ignored) or either end of a printed range ("1.2–1.5 eV" does print
 * 1.2); a range needs the same range, both ends.
 */
export function valueShownBy(claimed: ReportedValue, found: ReportedValue): boolean {
  if (claimed.kind === 'range') {
    return found.kind === 'range' && sameNumber(claimed.low, found.low) && sameNumber(claimed.high, found.high);
  }
  if (found.kind === 'number') return sameNumber(claimed.value, found.value);
  return sameNumber(claimed.value, found.low) || sameNumber(claimed.value, found.high);
}

/** The value in words for messages: "3.4", "1.2–1.5". */
export function formatReportedValue(value: ReportedValue): string {
  return value.kind === 'number' ? String(value.value) : `${value.low}–${value.high}`;
}

/**
 * True when `unitText` stands in `quote` as a token of its own — not inside a longer word or
 * unit ("eV" in "1.5 eV," yes; "eV" in "meV" or "eVs" no). A fallback for units the unit
 * parser does not know, or that the quantity parser attached to another number of a list.
 */
export function unitTokenInQuote(quote: string, unitText: string): boolean {
  const unit = unitText.trim();
  if (unit.length === 0) return true;
  const escaped = unit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}])`, 'u').test(quote);
}
