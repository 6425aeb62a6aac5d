/**
 * Turning one recorded tool answer (material, value and unit cells as the tool wrote them) into
 * a predicted triplet, or null for a non-answer. Shared by the ChatExtract and LangChain readers.
 */
import type { PredictedTriplet } from '../triplet-scorer';
import { cleanUnitText, parseValueText } from '../reported-value-text';
import { BAND_GAP } from './bandgap-truth';

/** Strip markdown emphasis, surrounding whitespace and a trailing period ("Graphene." → "Graphene"). */
export function cleanCell(text: string): string {
  return text.replace(/\*+/g, '').replace(/\s+/g, ' ').trim().replace(/\.$/, '').trim();
}

/** "None", "none", "None (Note: …)", "N/A", "-", "" and table-rule fragments are non-answers. */
export function isNonAnswer(text: string): boolean {
  const cleaned = cleanCell(text);
  return cleaned === '' || /^(?:none|n\/a|na|null|not (?:given|mentioned|specified))\b/i.test(cleaned) || /^[-+|:\s]+$/.test(cleaned);
}

/**
 * Build a band-gap prediction. The unit is, in order: unit text printed after the number in the
 * value cell ("2.01 Å"), the unit cell, else "eV" — both recorded tools were asked for band
 * gaps in eV, so a bare number is read in the unit the prompt asked for (trade-off: this
 * credits "1.4" with unit "None"; without it, such rows could never match).
 */
export function recordedAnswer(
  material: string,
  value: string,
  unit: string,
  engine: string,
): (PredictedTriplet & { engine: string; valueText: string }) | null {
  if (isNonAnswer(material) || isNonAnswer(value)) return null;
  const parsed = parseValueText(cleanCell(value));
  if (!parsed) return null;
  const unitCell = isNonAnswer(unit) ? '' : cleanUnitText(cleanCell(unit));
  const chosenUnit = parsed.unitText || unitCell || 'eV';
  return { material: cleanCell(material), property: BAND_GAP, value: parsed.value, unit: chosenUnit, engine, valueText: cleanCell(value) };
}
