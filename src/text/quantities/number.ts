/**
 * Numbers as printed in papers: sign (ASCII "-", Unicode "−"), thousands separators ("10,308",
 * "3 800" with a space or a thin space), decimal points and decimal commas ("6,2"), scientific
 * notation ("1.5e-3", "1.5 × 10^3", "1.5×10−3", "1.5 × 10⁻³", "10−3"), and digit uncertainty
 * ("3.41(2)" → 3.41 ± 0.02, the concise notation of the SI brochure §7.4).
 * Text flattened from PDF loses superscripts: "3.0 × 108" is read as 3.0 × 10^8 (a mantissa,
 * "×", then "10" glued to one or two digits); "5 × 100" (exponent 0) stays a product.
 *
 * The comma is read by the number's shape (SI brochure §5.4.4: "the decimal marker shall be
 * either the point on the line or the comma on the line"; digits may be grouped in threes,
 * separated by a space, never by a point or a comma): "6,2", "0,70" and "39,5" (one comma, then
 * 1, 2 or 4+ digits, or a whole part of 0) are decimal commas; "1,234,567", "1,234.5" and "1,000"
 * group thousands. "1,043" reads both ways: without the paper's decimal mark it is read as
 * thousands, the English convention of the datasets here, and carries an `ambiguity` saying so.
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

/** Spaces that group digits in threes: space, no-break space, thin space, narrow no-break space. */
const GROUP_SPACE = '[ \\u00a0\\u2009\\u202f]';

/**
 * The digits of a number in running text, in the order tried: thousands grouped by commas (the
 * whole part never starts with 0: "0,125" is a decimal comma), grouped by spaces, then plain
 * digits with a decimal point or comma. No alternative ends where a digit or another separated
 * group follows ("(0,0,0)" is three numbers, "3.4,5.9" two).
 */
const mantissaPattern =
  String.raw`(?:[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?(?!\d|[.,]\d)` +
  String.raw`|[1-9]\d{0,2}(?:${GROUP_SPACE}\d{3})+(?:[.,]\d+)?(?!\d|[.,]\d)` +
  String.raw`|\d+(?:\.\d+|,\d+(?!\d|[.,]\d))?` +
  String.raw`|\.\d+)?`;

const exponentPattern = String.raw`(?:[eE][-−+]?\d{1,3}(?![\p{L}\d])|\s?[×x✕]\s?10(?:\s?\^\s?\(?[-−–+]?\d{1,3}\)?|\s?[-−–]\s?\d{1,3}|\s?[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+|[1-9]\d?(?![\d.,])))?`;

/** Source of the number pattern (no flags; needs `u`): sign, digits (`mantissaPattern`), digit uncertainty, exponent. */
export const numberPattern = String.raw`[-−+]?` + mantissaPattern + String.raw`(?:\(\d{1,3}\))?` + exponentPattern;

/**
 * The number pattern of point-only digits: thousands by commas, a decimal point, no decimal comma
 * and no grouping space. What a number in running text falls back to when the context says its
 * comma or space is not part of it (a list "3,5 and…" with no unit, a run of numbers "2 300").
 */
export const pointNumberPattern = String.raw`[-−+]?(?:[1-9]\d{0,2}(?:,\d{3})+(?!\d)|\d+)?(?:\.\d+)?(?:\(\d{1,3}\))?` + exponentPattern;

/** The character between a number's whole and fractional parts. */
export type DecimalMark = '.' | ',';

/** Digits that read two ways: "1,043" is 1043 (a comma between thousands) or 1.043 (a decimal comma). */
export interface NumberAmbiguity {
  /** The value of the other reading (1.043 for "1,043" read as 1043). */
  alternative: number;
  /** The decimal mark under which `alternative` is the right reading (',' for "1,043"). */
  alternativeMark: DecimalMark;
  /** The two readings in words, for a reader. */
  reason: string;
}

/** A parsed number: value and, from digit notation, its uncertainty. */
export interface ParsedNumber {
  value: number;
  uncertainty?: number;
  /** The decimal mark the digits show beyond doubt ("3.4" and "1,234.5" a point, "6,2" a comma); unset for "40" or "1,043". */
  decimalMark?: DecimalMark;
  /** Set when the digits read two ways and nothing said which (`NumberAmbiguity`). */
  ambiguity?: NumberAmbiguity;
}

/** What settles how digits are read: the paper's own decimal mark (`decimalMarkOf`), when known. */
export interface NumberReading {
  decimalMark?: DecimalMark;
}

/** A mantissa as digits with a point (for `Number`), the mark it shows, and its other reading. */
interface Digits {
  digits: string;
  decimalMark?: DecimalMark;
  ambiguity?: { digits: string; alternativeMark: DecimalMark; reason: string };
}

/**
 * Read the mantissa as written (see the module comment). `printed` is the mantissa without sign,
 * uncertainty or exponent.
 */
function readDigits(printed: string, reading: NumberReading): Digits {
  if (new RegExp(GROUP_SPACE).test(printed)) {
    const digits = printed.replace(new RegExp(GROUP_SPACE, 'g'), '');
    const mark = /[.,]/.exec(digits)?.[0] as DecimalMark | undefined;
    return { digits: digits.replace(',', '.'), ...(mark ? { decimalMark: mark } : {}) };
  }
  const grouped = /^\d{1,3}((?:,\d{3})+)(\.\d+)?$/.exec(printed);
  if (grouped && !printed.startsWith('0')) {
    const thousands = printed.replace(/,/g, '');
    // Two groups, a decimal point after them, or "000" can only be thousands.
    if (grouped[1]!.length > 4 || grouped[2] !== undefined) return { digits: thousands, decimalMark: '.' };
    if (grouped[1] === ',000' || reading.decimalMark === '.') return { digits: thousands };
    const decimal = printed.replace(',', '.');
    if (reading.decimalMark === ',') return { digits: decimal };
    return {
      digits: thousands,
      ambiguity: {
        digits: decimal,
        alternativeMark: ',',
        reason: `"${printed}" is ${thousands} with a comma between thousands or ${decimal} with a decimal comma`,
      },
    };
  }
  if (printed.includes(',')) return { digits: printed.replace(',', '.'), decimalMark: ',' };
  return { digits: printed, ...(printed.includes('.') ? { decimalMark: '.' } : {}) };
}

/** A number's parts as printed: the text, its mantissa's place in it, and the power of ten after it. */
interface NumberParts {
  /** The trimmed text with "−" and "–" as "-". */
  rest: string;
  sign: '' | '-';
  /** Offsets of the mantissa in `rest`. */
  mantissa: { start: number; end: number };
  /** The digit uncertainty "(2)", when printed. */
  uncertainty?: string;
  power: number;
}

const numberBody = new RegExp(String.raw`^([-+]?)(${mantissaPattern})(?:\((\d{1,3})\))?(?:[eE]([-+]?\d{1,3}))?$`, 'u');

/** Split `text` into `NumberParts`; a bare power of ten ("10^-3", "10⁻³") as its value; null when it is not one number. */
function splitNumber(text: string): NumberParts | { value: number } | null {
  const rest = text.trim().replace(/[−–]/g, '-');
  let exponent = 0;
  const times = /\s?[×x✕]\s?10\s?(?:\^\s?)?\(?\s?([-+]?\s?\d{1,3}|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)\)?$/.exec(rest);
  if (times) {
    exponent = Number(
      [...times[1]!]
        .map((character) => superscriptDigits[character] ?? character)
        .join('')
        .replace(/\s/g, ''),
    );
  } else {
    const power = /^([-+]?)10(?:\^\(?([-+]?\d{1,3})\)?|(-\d{1,3})|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))$/.exec(rest);
    if (power) {
      const raw = power[2] ?? power[3] ?? [...power[4]!].map((character) => superscriptDigits[character]).join('');
      const value = 10 ** Number(raw);
      return { value: power[1] === '-' ? -value : value };
    }
  }
  const match = numberBody.exec(times ? rest.slice(0, times.index) : rest);
  if (!match || !/\d/.test(match[2]!)) return null;
  const start = match[1]!.length;
  return {
    rest,
    sign: match[1] === '-' ? '-' : '',
    mantissa: { start, end: start + match[2]!.length },
    ...(match[3] === undefined ? {} : { uncertainty: match[3] }),
    power: exponent + Number(match[4] ?? 0),
  };
}

/**
 * Parse a number as printed ("−1.5×10−3", "3.41(2)", "10,308", "3 800", "6,2", "10⁻³", "2.5e4").
 * `reading.decimalMark`, the paper's decimal mark, settles "1,043" (1043 with '.', 1.043 with
 * ','); without it "1,043" is 1043 with an `ambiguity`. Returns `null` when the text is not
 * exactly one number.
 */
export function parseNumber(text: string, reading: NumberReading = {}): ParsedNumber | null {
  const parts = splitNumber(text);
  if (!parts || !('rest' in parts)) return parts;
  const { sign, power } = parts;
  const read = readDigits(parts.rest.slice(parts.mantissa.start, parts.mantissa.end), reading);
  // Via the decimal string (not mantissa × 10^n) so that printed numbers round-trip exactly.
  const value = Number(`${sign}${read.digits}e${power}`);
  if (!Number.isFinite(value)) return null;
  const parsed: ParsedNumber = { value, ...(read.decimalMark ? { decimalMark: read.decimalMark } : {}) };
  if (read.ambiguity) {
    parsed.ambiguity = {
      alternative: Number(`${sign}${read.ambiguity.digits}e${power}`),
      alternativeMark: read.ambiguity.alternativeMark,
      reason: read.ambiguity.reason,
    };
  }
  if (parts.uncertainty === undefined) return parsed;
  const decimals = read.digits.includes('.') ? read.digits.split('.')[1]!.length : 0;
  return { ...parsed, uncertainty: Number(parts.uncertainty) * 10 ** -decimals * 10 ** power };
}

/**
 * `text` (one number, as `parseNumber` reads it) with its mantissa written with a decimal point
 * and no grouping: "6,2 × 10^3" → "6.2 × 10^3", "3 800" → "3800", "1,043" → "1043" (or "1.043"
 * with `reading.decimalMark` ','). For code that reads the printed digits themselves (the place
 * of the last digit). The text trimmed, unchanged, when it is a bare power of ten or not a number.
 */
export function withDecimalPoint(text: string, reading: NumberReading = {}): string {
  const parts = splitNumber(text);
  if (!parts || !('rest' in parts)) return text.trim();
  const { start, end } = parts.mantissa;
  const trimmed = text.trim();
  return trimmed.slice(0, start) + readDigits(parts.rest.slice(start, end), reading).digits + trimmed.slice(end);
}

/** Format a number so that `parseNumber` reads it back (shortest round-trip, "e" notation). */
export function formatNumber(value: number): string {
  return String(value).replace('e+', 'e');
}
