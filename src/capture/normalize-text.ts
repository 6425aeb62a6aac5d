/**
 * Text normalization shared by every capture path. The rule is: change only what carries no
 * meaning (layout whitespace, soft hyphens, zero-width characters), so that evidence quotes
 * stay verbatim. PDF-specific repairs (ligatures, Unicode minus, de-hyphenation) live in
 * `normalizePdfText`, because in HTML and XML those characters are what the publisher wrote.
 */

import { stripControlCharacters } from '../contracts/captured-text';

// U+0002 before a digit: the minus sign of the math fonts of PDF producers (Elsevier, RSC, IOP),
// which text extractors write as the font's code point 2 ("N m\u00021", "eV Å\u00021",
// "cm\u00023"). Removing it as a control character would turn Å⁻¹ into Å1 and −3 into 3, so it
// becomes the minus sign it stands for before the control characters go.
const FONT_MINUS = /\u0002(?=\d)/g;
// Soft hyphen, zero-width space/joiners, word joiner, BOM.
const INVISIBLE = /[\u00AD\u200B\u200C\u200D\u2060\uFEFF]/g;
// Every Unicode space except line breaks, plus tabs; NBSP and thin spaces become plain spaces.
const HORIZONTAL_SPACE = /[\t\f\v \u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+/g;

/**
 * Collapse layout whitespace in one block of text, after removing control characters and
 * terminal escape sequences (`stripControlCharacters`: every block of every capture path passes
 * through here, so none reaches the store or a terminal). A U+0002 right before a digit is a PDF
 * math font's minus sign and becomes U+2212 first (`FONT_MINUS`).
 * - `preserveLines = false`: every run of whitespace (including newlines) becomes one space.
 * - `preserveLines = true` (tables): tabs are kept as cell separators and newlines as row
 *   separators; other space runs collapse, blank lines are dropped.
 * Returns the result with no leading or trailing blank lines ("" when nothing visible is left).
 */
export function normalizeBlockText(raw: string, preserveLines: boolean): string {
  const visible = stripControlCharacters(raw.replace(INVISIBLE, '').replace(FONT_MINUS, '\u2212').replace(/\r\n?/g, '\n'));
  if (!preserveLines) return visible.replace(/\s+/g, ' ').replace(HORIZONTAL_SPACE, ' ').trim();
  return (
    visible
      .split('\n')
      .map((line) =>
        line
          .split('\t')
          .map((cell) => cell.replace(HORIZONTAL_SPACE, ' ').trim())
          .join('\t')
          .replace(/^\t+$/, ''),
      )
      .filter((line) => line.trim().length > 0)
      // No final trim: a header row that starts with empty cells keeps its leading tabs, so the
      // columns stay aligned with the data rows below.
      .join('\n')
  );
}

const LIGATURES: Record<string, string> = {
  '\uFB00': 'ff',
  '\uFB01': 'fi',
  '\uFB02': 'fl',
  '\uFB03': 'ffi',
  '\uFB04': 'ffl',
  '\uFB05': 'st',
  '\uFB06': 'st',
};

/**
 * Repairs for text taken from a PDF's text layer: Latin ligature glyphs (U+FB00–FB06) become
 * their letters, and minus-sign look-alikes (U+2212 MINUS SIGN, U+FE63, U+FF0D) become ASCII
 * '-', because PDF producers use them interchangeably and a quantity parser must see one form.
 */
export function normalizePdfText(raw: string): string {
  return raw.replace(/[\uFB00-\uFB06]/g, (glyph) => LIGATURES[glyph] ?? glyph).replace(/[\u2212\uFE63\uFF0D]/g, '-');
}
