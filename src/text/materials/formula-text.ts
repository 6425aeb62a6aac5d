/**
 * Character-level clean-up applied before a formula is parsed: Unicode sub- and superscripts,
 * the many minus signs and middle dots, and two artefacts of PDF fonts with their own encodings
 * (pdfminer.six issue #289 and tabula issue #628 list such substitutions for the minus sign): a
 * colon for the decimal point (`Ba 0:7 K 0:3 Fe 2 As 2`), and the Symbol-font minus come out as
 * `À` or as a control character U+0002 (`Zn 1Àx Mg x O`).
 */

import { isElementSymbol } from './elements';
import { parseFormulaCore } from './formula-parser';

const SUBSCRIPT_DIGITS = '₀₁₂₃₄₅₆₇₈₉';
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** δ-like oxygen offsets (`O7-δ`, `O8+δ`, `O 1Àd`): taken as 0 when no value is given. */
export const SMALL_OFFSET_VARIABLES: readonly string[] = ['δ', 'd'];

/**
 * Map Unicode forms to ASCII formula syntax; `·` is the one adduct separator kept.
 * Superscript digits become `^digits` so a charge or mass number stays distinguishable from
 * a subscript: `Eu²⁺` → `Eu^2+`, `¹⁷O` → `^17O`.
 */
export function cleanFormulaText(text: string): string {
  let result = '';
  let previousSuperscript = false;
  for (const character of text.normalize('NFC')) {
    const subscript = SUBSCRIPT_DIGITS.indexOf(character);
    const superscript = SUPERSCRIPT_DIGITS.indexOf(character);
    if (subscript >= 0) result += String(subscript);
    else if (superscript >= 0) result += (previousSuperscript ? '' : '^') + String(superscript);
    else if (character === '⁺') result += previousSuperscript ? '+' : '^+';
    else if (character === '⁻') result += previousSuperscript ? '-' : '^-';
    else if ('−–—‐‑₋'.includes(character)) result += '-';
    else if (character === '₊') result += '+';
    else if ('•⋅∙∗*'.includes(character)) result += '·';
    else if (character === '．') result += '.';
    else if (character === 'Δ' || character === 'ẟ') result += 'δ';
    else if (character === '\u00a0' || character === '\u2009' || character === '\u200a') result += ' ';
    else if (character === '\ufeff' || character === '\u200b') continue;
    else result += character;
    previousSuperscript = superscript >= 0 || character === '⁺' || character === '⁻';
  }
  return result
    .replace(/(\d):(\d)/g, '$1.$2')
    .replace(/(\d)\s*[À\u0002]\s*([xyzδd])/g, '$1-$2')
    .trim();
}

/**
 * PDF text layers often space every subscript out (`Nb 3 Sn`, `CuSO 4 •5H 2 O`).
 * Join the tokens when every one looks like formula material (an element run, a number, a
 * lone variable, brackets); a token starting with a lower-case word (`poly-`, `single`) blocks
 * the join so running text is not glued into a false formula. Returns null when not joinable.
 */
export function joinSpacedFormula(text: string): string | null {
  // A text layer can also split a symbol (`N b 3 Sn`, `S r 2 Ru O 4`): glue a capital and a
  // lone lower-case letter back when they make an element symbol.
  const glued = text
    .replace(/(?<![A-Za-z])([A-Z]) ([a-z])(?![A-Za-z])/g, (match, capital: string, small: string) =>
      isElementSymbol(capital + small) ? capital + small : match,
    )
    .replace(/(\d\.) (\d)/g, '$1$2');
  const tokens = glued.split(/\s+/).filter((token) => token.length > 0);
  if (tokens.length < 2) return null;
  const formulaToken =
    /^(?:[A-Z(\[\d.·+\-^][A-Za-z0-9().\[\]·+\-^δ]*|[xyzδdn][)\]]*|[xyzδn][+\-][\dxyzδ.]+|[xyzn][A-Z(][A-Za-z0-9()]*|[)\]][A-Za-z0-9().\[\]·+\-δ]*)$/;
  const lowerWord = /[a-z]{3,}/;
  for (const token of tokens) {
    if (!formulaToken.test(token) || lowerWord.test(token)) return null;
  }
  return tokens.join('');
}

/** One `variable = value` assignment, e.g. from `(x = 0.15)` or `with x = 0.08`. */
const ASSIGNMENT = /([xyzδdn])\s*(?:=|~|≈|∼|≃|≅)\s*(\d*\.?\d+)/g;

/**
 * Read a clause made only of assignments (`x = 0.15`, `y~0.2 and z~1.5`, `with x = 0.08`);
 * null when anything else is left over, so an ordinary qualifier is not mistaken for one.
 */
export function parseAssignmentClause(clause: string): Record<string, number> | null {
  const values: Record<string, number> = {};
  let found = false;
  const rest = clause.replace(ASSIGNMENT, (_match, variable: string, value: string) => {
    values[variable] = Number(value);
    found = true;
    return ' ';
  });
  if (!found) return null;
  return /^[\s,;:]*$/.test(rest.replace(/\b(?:with|where|and|for)\b/gi, ' ')) ? values : null;
}

/** Descriptive words around a material string: `underdoped`, `single crystal of`, `thin films`. */
const DESCRIPTOR_WORD = /^["“”']?(?:[a-z][a-z()]+-?|[a-z]+-[a-z]+|of|on|\d{3,4}-type)["“”']?$/;
/** A capitalised descriptor opening the string: `Single crystal of …`, `Polycrystalline …`. */
const CAPITALISED_DESCRIPTOR = /^[A-Z][a-z]{3,}(?:-[a-z]+)?$/;

/**
 * Drop leading and trailing lower-case descriptor words (`single crystals of Nb3Sn`,
 * `Sr2RuO4 film`, `poly- crystalline Nb 3 Sn`); null when nothing was dropped or nothing is left.
 * A lone variable letter (`x`) is not a descriptor.
 */
export function stripDescriptorWords(text: string): string | null {
  const words = text.split(/\s+/).filter((word) => word.length > 0);
  let first = 0;
  let last = words.length;
  if (CAPITALISED_DESCRIPTOR.test(words[0] ?? '') && parseFormulaCore(words[0] ?? '') === null) first = 1;
  while (first < last && DESCRIPTOR_WORD.test(words[first] ?? '')) first += 1;
  while (last > first && DESCRIPTOR_WORD.test(words[last - 1] ?? '')) last -= 1;
  if (first === 0 && last === words.length) return null;
  return first < last ? words.slice(first, last).join(' ') : null;
}

/**
 * The SuperCon database (NIMS) writes unknown oxygen content with capital letters:
 * `Bi2Sr2Ca1Cu2O8+Z`, `Y1Ba2Cu3O7-Y`. Rewrite those endings to lower-case variables (`O8+z`,
 * `O7-y`); null when the string has no such ending.
 */
export function rewriteSuperConOxygen(text: string): string | null {
  const rewritten = text.replace(
    /O(\d*(?:\.\d+)?)([+-]?)([YZ])$/,
    (_match, amount: string, sign: string, variable: string) => `O${amount}${sign}${variable.toLowerCase()}`,
  );
  return rewritten === text ? null : rewritten;
}
