/**
 * Step 1 of reading quantities: every number in the text that can be a measured value, with
 * the unit written right after it (if any). Conservative on bare numbers' surroundings:
 * numbers inside words or formulas ("H2SO4", "La2-x"), reference brackets ("[12]", "[8,9]"),
 * and after "Fig.", "Table", "Eq.", "Section", "Ref." are dropped here.
 *
 * A comma or space inside the digits (`parseNumber`) is kept only where the text around says it
 * belongs to the number, else the number ends before it, as a point-only reading would:
 * - a decimal comma ("6,2 eV") needs a unit after the number, or after the next number of a range,
 *   uncertainty or pair ("1,2–1,5 eV", "3,4 ± 0,1 eV"), or a paper that writes decimal commas
 *   (`reading.decimalMark`): "x = 0,1", "3,5 and 7" without a unit stay two numbers;
 * - a space between groups of three ("3 800 m²/g") needs a unit after the last group, and no
 *   number, word or reference cue ("Fig.") just before: "La2 300 K", "1 2 300 K" keep 300 K;
 * - neither when the number continues a run of separated digits ("(0,0,0)", "3.4,5.9").
 */
import { matchUnitAt, type UnitMatch } from '../units/match-unit';
import { numberPattern, parseNumber, pointNumberPattern, type DecimalMark, type NumberReading, type ParsedNumber } from './number';

export interface NumberToken {
  start: number;
  /** End of the number (before any unit). */
  end: number;
  number: ParsedNumber;
  unit?: UnitMatch;
}

const powerSuffix = /^(?:\^\s?\(?[-−+]?\d{1,2}\)?|−\s?\d{1,2}|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)(?!\d)/;
const referenceContext =
  /(?:\bFig(?:ure)?s?\.?|\bTables?|\bEqs?\.?|\bEquations?|\bSections?|\bSec\.|\bRefs?\.?|\bNo\.|\bSchemes?|\bChapters?|\bSteps?|\bSamples?|\bpH)\s*\(?[A-Za-z]?$/;
const wordCharacter = /[\p{L}\d_.]/u;
const spaceBeforeUnit = /^[ \u00a0\u2009\u202f]{0,3}/;
/** The next number of a range, an uncertainty or a pair, after a number: "–1,5", " ± 0,1", " and 6,5". */
const joinedNumber = /^\s*(?:–|—|−|-|~|to|±|\+\/-|\+\/−|and|or)\s*[-−+]?\d+(?:[.,]\d+)?/;
/** A comma or grouping space between digits. */
const separatorInDigits = /\d[, \u00a0\u2009\u202f]\d/;

function insideReferenceBrackets(text: string, start: number, end: number): boolean {
  return /\[[\d,\s–\-−]*$/.test(text.slice(Math.max(0, start - 20), start)) && /^[\d,\s–\-−]*\]/.test(text.slice(end, end + 20));
}

function unitAfter(text: string, end: number): UnitMatch | null {
  const gap = spaceBeforeUnit.exec(text.slice(end, end + 3))![0].length;
  return matchUnitAt(text, end + gap);
}

/**
 * Whether a space between digit groups in `raw` (at `start` of `text`) groups thousands. Text
 * captured from PDF puts spaces between numbers that are not one number, so a plain space counts
 * only where nothing says otherwise (each rule below is a case found in ../shared's papers):
 * - a unit follows the last group ("3 800 m²/g", "22 400 mL mol−1");
 * - the whole part has 1–2 digits, or 3 when every group is "000" ("100 000"), and two groups or
 *   more end in "000" ("1 500 000"): "380 500 nm" is a range whose dash was lost, "300 400 T" and
 *   "50 100 150 200 T" figure axes;
 * - no digit run, word, comma, colon, slash, sign or bound just before ("U 5 610 V": a PDF font's
 *   "=" read as "5"; ",18 580 nm": a citation; "1/2 115 µA"; "− 1 441F4"; "< 4 100%"), nor a lone letter or ")" and a
 *   space (the same lost "=": "λ 5 633 nm", "E1(dxz) 5 120 meV"), nor a reference cue ("Fig.");
 * - one digit, then a group 101–109: a "× 10ⁿ" whose superscript and sign were lost ("5 107 torr").
 * Thin and no-break spaces group digits only, so they need only the unit.
 */
function groupingBelongs(text: string, start: number, raw: string): boolean {
  const end = start + raw.length;
  if (!unitAfter(text, end)) return false;
  if (!/\d \d/.test(raw)) return true;
  const [whole = '', ...groups] = /^\d{1,3}(?: \d{3})+/.exec(raw)![0].split(' ');
  if (whole.length === 3 && !groups.every((group) => group === '000')) return false;
  // "50 100 150 200 250 300 T": an axis; "1 500 000" ends in "000".
  if (groups.length > 1 && groups.at(-1) !== '000') return false;
  if (whole.length === 1 && /^10[1-9]$/.test(groups[0] ?? '')) return false;
  const before = text.slice(Math.max(0, start - 3), start);
  if (/(?:[\p{L}\d_.,;:/−\-+×<>≤≥]|\d\s|[−\-+×<>≤≥]\s|(?:^|[\s(])\p{L}\s|\)\s)$/u.test(before)) return false;
  return !referenceContext.test(text.slice(Math.max(0, start - 14), start));
}

/**
 * Whether the decimal comma of `raw` (at `start` of `text`; `parseNumber` read one) is one: the
 * paper writes decimal commas (`reading.decimalMark`), or a unit follows the number or the next
 * number of a range, uncertainty or pair ("1,2–1,5 eV"). Never right after a comma, colon or
 * semicolon: "Nazarov,1,2 G." and "(PEG),43,48 F127" are superscript citations.
 */
function decimalCommaBelongs(text: string, start: number, raw: string, reading: NumberReading): boolean {
  if (/[,;:]$/.test(text.slice(Math.max(0, start - 1), start))) return false;
  if (reading.decimalMark === ',') return true;
  const end = start + raw.length;
  if (unitAfter(text, end)) return true;
  const joined = joinedNumber.exec(text.slice(end, end + 24));
  return joined !== null && unitAfter(text, end + joined[0].length) !== null;
}

/**
 * Whether the comma or grouping space inside `raw` (at `start` of `text`; `raw` has no sign)
 * belongs to the number: never when the number continues a run of separated digits ("(0,0,0)",
 * "3.4,5.9"); a grouping space by `groupingBelongs`, a decimal comma by `decimalCommaBelongs`;
 * a comma between thousands ("1,043", "12,500.5") as always.
 */
function separatorBelongs(text: string, start: number, raw: string, reading: NumberReading): boolean {
  if (/\d[.,]\s?$/.test(text.slice(Math.max(0, start - 3), start))) return false;
  if (/\d[ \u00a0\u2009\u202f]\d/.test(raw)) return groupingBelongs(text, start, raw.replace(/[\u00a0\u2009\u202f]/g, '\u2009'));
  return parseNumber(raw, reading)?.decimalMark !== ',' || decimalCommaBelongs(text, start, raw, reading);
}

/**
 * Numbers with their attached or following unit, left to right. `reading.decimalMark` is the
 * paper's decimal mark (`decimalMarkOf`) when known: it settles "1,043" and lets a decimal comma
 * stand without a unit.
 */
export function findNumberTokens(text: string, reading: NumberReading = {}): NumberToken[] {
  const tokens: NumberToken[] = [];
  const numberRegex = new RegExp(numberPattern, 'gu');
  const pointRegex = new RegExp(pointNumberPattern, 'yu');
  let consumedUntil = 0;
  for (let match = numberRegex.exec(text); match !== null; match = numberRegex.exec(text)) {
    if (match[0] === '') {
      // Past one code point, as `matchAll` does: inside a surrogate pair the `u` regex would match here again.
      numberRegex.lastIndex += (text.codePointAt(match.index) ?? 0) > 0xffff ? 2 : 1;
      continue;
    }
    let start = match.index;
    let raw = match[0];
    const signed = /^[-−+]/.test(raw) ? 1 : 0;
    if (separatorInDigits.test(raw) && !separatorBelongs(text, start + signed, raw.slice(signed), reading)) {
      pointRegex.lastIndex = start;
      raw = pointRegex.exec(text)?.[0] ?? '';
      numberRegex.lastIndex = start + Math.max(1, raw.length);
    }
    if (start < consumedUntil) continue;
    if (!/\d/.test(raw)) continue;
    const before = text[start - 1];
    // A sign glued to a preceding digit or letter is a dash ("1.2-1.5", "La2-x"): drop it.
    if (/^[-−+]/.test(raw) && before !== undefined && /[\p{L}\d)]/u.test(before)) {
      start += 1;
      raw = raw.slice(1);
    }
    const previous = text[start - 1];
    if (previous !== undefined && wordCharacter.test(previous)) continue;
    if (raw.endsWith('.')) raw = raw.slice(0, -1);
    let end = start + raw.length;
    if (/^[-−+]?10$/.test(raw)) {
      const power = powerSuffix.exec(text.slice(end, end + 8));
      if (power) end += power[0].length;
    }
    const number = parseNumber(text.slice(start, end), reading);
    if (!number) continue;
    if (insideReferenceBrackets(text, start, end)) continue;
    if (referenceContext.test(text.slice(Math.max(0, start - 14), start))) continue;
    const gap = spaceBeforeUnit.exec(text.slice(end, end + 3))![0].length;
    const unit = matchUnitAt(text, end + gap) ?? undefined;
    const next = text[end];
    if (next !== undefined && /[\p{L}]/u.test(next)) {
      // Glued letters must be a unit ("300K", "5nm"), else this is a label ("2D", "3d", "1s").
      if (!unit || gap > 0) continue;
      // Integers glued to one letter are orbitals ("1s", "4f"), figure panels ("Figures 3I and
      // 3J") and isotopes ("14C", "35S") more often than units: keep only K, V, M (molar: "6M
      // NaOH"), h, m, g, and s from 3 up, and none near a figure reference.
      if (unit.end - unit.start === 1 && Number.isInteger(number.value)) {
        if (!/[KVMhmgs]/.test(next) || (next === 's' && number.value < 3)) continue;
        if (/\bFig(?:ure)?s?\b/.test(text.slice(Math.max(0, start - 30), start))) continue;
      }
    }
    tokens.push({ start, end, number, unit });
    consumedUntil = unit ? unit.end : end;
  }
  return tokens;
}

/**
 * The decimal mark a text writes, judged on its numbers with a unit (`findNumberTokens`): a point
 * when more of them show a point ("3.4 eV", "1,234.5 K") than a comma ("6,2 eV"), a comma when
 * more show a comma, undefined on a tie (none at all included). Numbers with no unit are not
 * counted: DOIs, section numbers and reference lists ("[8,9]") say nothing about the values.
 */
export function decimalMarkOf(text: string): DecimalMark | undefined {
  let points = 0;
  let commas = 0;
  for (const token of findNumberTokens(text)) {
    if (!token.unit) continue;
    if (token.number.decimalMark === '.') points += 1;
    else if (token.number.decimalMark === ',') commas += 1;
  }
  return points > commas ? '.' : commas > points ? ',' : undefined;
}
