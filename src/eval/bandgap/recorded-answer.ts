import { cleanUnitText, parseValueText } from '../../text/quantities/value-text';
import { BAND_GAP } from './bandgap-truth';
import type { PredictedTriplet } from '../triplet-scorer-types';

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
 * Build a band-gap prediction. The unit is the unit text printed after the number in the value
 * cell ("2.01 Å"), else the unit cell, else "" — a missing unit ("None") stays missing, so
 * strict scoring never credits it. Lenient scoring reads it as `assumedUnit` "eV", the unit
 * both recorded tools were asked for. A bound ("< 0.1") keeps its side in `bound`.
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
  return {
    material: cleanCell(material),
    property: BAND_GAP,
    value: parsed.value,
    unit: parsed.unitText || unitCell,
    assumedUnit: 'eV',
    ...(parsed.bound ? { bound: parsed.bound } : {}),
    engine,
    valueText: cleanCell(value),
  };
}
