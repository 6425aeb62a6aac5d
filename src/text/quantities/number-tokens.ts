/**
 * Step 1 of reading quantities: every number in the text that can be a measured value, with
 * the unit written right after it (if any). Conservative on bare numbers' surroundings:
 * numbers inside words or formulas ("H2SO4", "La2-x"), reference brackets ("[12]", "[8,9]"),
 * and after "Fig.", "Table", "Eq.", "Section", "Ref." are dropped here.
 */
import { matchUnitAt, type UnitMatch } from '../units/match-unit';
import { numberPattern, parseNumber, type ParsedNumber } from './number';

export interface NumberToken {
  start: number;
  /** End of the number (before any unit). */
  end: number;
  number: ParsedNumber;
  unit?: UnitMatch;
}

const numberRegex = new RegExp(numberPattern, 'gu');
const powerSuffix = /^(?:\^\s?\(?[-−+]?\d{1,2}\)?|−\s?\d{1,2}|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)(?!\d)/;
const referenceContext =
  /(?:\bFig(?:ure)?s?\.?|\bTables?|\bEqs?\.?|\bEquations?|\bSections?|\bSec\.|\bRefs?\.?|\bNo\.|\bSchemes?|\bChapters?|\bSteps?|\bSamples?|\bpH)\s*\(?[A-Za-z]?$/;
const wordCharacter = /[\p{L}\d_.]/u;
const spaceBeforeUnit = /^[ \u00a0\u2009\u202f]{0,3}/;

function insideReferenceBrackets(text: string, start: number, end: number): boolean {
  return /\[[\d,\s–\-−]*$/.test(text.slice(Math.max(0, start - 20), start)) && /^[\d,\s–\-−]*\]/.test(text.slice(end, end + 20));
}

/** Numbers with their attached or following unit, left to right. */
export function findNumberTokens(text: string): NumberToken[] {
  const tokens: NumberToken[] = [];
  let consumedUntil = 0;
  for (const match of text.matchAll(numberRegex)) {
    let start = match.index;
    if (start < consumedUntil) continue;
    let raw = match[0];
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
    const number = parseNumber(text.slice(start, end));
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
