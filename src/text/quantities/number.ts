/**
 * Numbers as printed in papers: sign (ASCII "-", Unicode "−"), thousands separators ("10,308"),
 * decimals, scientific notation ("1.5e-3", "1.5 × 10^3", "1.5×10−3", "1.5 × 10⁻³", "10−3"),
 * and digit uncertainty ("3.41(2)" → 3.41 ± 0.02, the concise notation of the SI brochure §7.4).
 * Text flattened from PDF loses superscripts: "3.0 × 108" is read as 3.0 × 10^8 (a mantissa,
 * "×", then "10" glued to one or two digits); "5 × 100" (exponent 0) stays a product.
 */

const superscriptDigits: Record<string, string> = {
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
  '−': '-',
  '–': '-',
};

/** Source of the number pattern (no flags); group 1 = mantissa, 2 = digit uncertainty, 3/4 = exponent. */
export const numberPattern =
  String.raw`[-−+]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)?(?:\.\d+)?` +
  String.raw`(?:\(\d{1,3}\))?` +
  String.raw`(?:[eE][-−+]?\d{1,3}(?![\p{L}\d])|\s?[×x✕]\s?10(?:\s?\^\s?\(?[-−–+]?\d{1,3}\)?|\s?[-−–]\s?\d{1,3}|\s?[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+|[1-9]\d?(?![\d.,])))?`;

/** A parsed number: value and, from digit notation, its uncertainty. */
export interface ParsedNumber {
  value: number;
  uncertainty?: number;
}

/**
 * Parse a number as printed ("−1.5×10−3", "3.41(2)", "10,308", "10⁻³", "2.5e4"). Returns
 * `null` when the text is not exactly one number.
 */
export function parseNumber(text: string): ParsedNumber | null {
  let rest = text.trim().replace(/[−–]/g, '-');
  let exponent = 0;
  const times = /\s?[×x✕]\s?10\s?(?:\^\s?)?\(?\s?([-+]?\s?\d{1,3}|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)\)?$/.exec(rest);
  if (times) {
    exponent = Number(
      [...times[1]!]
        .map((character) => superscriptDigits[character] ?? character)
        .join('')
        .replace(/\s/g, ''),
    );
    rest = rest.slice(0, times.index);
  } else {
    const power = /^([-+]?)10(?:\^\(?([-+]?\d{1,3})\)?|(-\d{1,3})|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))$/.exec(rest);
    if (power) {
      const raw = power[2] ?? power[3] ?? [...power[4]!].map((character) => superscriptDigits[character]).join('');
      const value = 10 ** Number(raw);
      return { value: power[1] === '-' ? -value : value };
    }
  }
  const match = /^([-+]?)((?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?)(?:\((\d{1,3})\))?(?:[eE]([-+]?\d{1,3}))?$/.exec(rest);
  if (!match || !/\d/.test(match[2]!)) return null;
  const mantissa = match[2]!.replace(/,/g, '');
  const scale = 10 ** (exponent + Number(match[4] ?? 0));
  // Via the decimal string (not mantissa × 10^n) so that printed numbers round-trip exactly.
  const value = Number(`${match[1] === '-' ? '-' : ''}${mantissa}e${exponent + Number(match[4] ?? 0)}`);
  if (!Number.isFinite(value)) return null;
  if (match[3] === undefined) return { value };
  const decimals = mantissa.includes('.') ? mantissa.split('.')[1]!.length : 0;
  return { value, uncertainty: Number(match[3]) * 10 ** -decimals * scale };
}

/** Format a number so that `parseNumber` reads it back (shortest round-trip, "e" notation). */
export function formatNumber(value: number): string {
  return String(value).replace('e+', 'e');
}
