/**
 * "The band gaps of BPN-GaN and BPN-AlN are 2.3 eV and 3.2 eV, respectively": a sentence with
 * "respectively" pairs its materials and values in order, which the nearest-material rule of the
 * scan gets wrong. This step re-pairs the candidates of such sentences, or drops them.
 */
import type { Candidate, ScanMaterialMention } from '../../text/scan-types';

const respectivelyWord = /\brespectively\b/i;

/**
 * The candidates of one "respectively" sentence and one property, with materials re-assigned:
 * - as many material mentions in the sentence as values → the i-th value goes to the i-th material;
 * - a single material mention → every value is its own (values under different conditions:
 *   "BPN-GaN … measures 1.86 and 2.31 eV at the GGA/PBE and HSE06 levels, respectively");
 * - anything else → none (precision over recall).
 * `materials` are the sentence's material mentions in reading order; `candidates` in reading order.
 */
export function pairRespectively(candidates: readonly Candidate[], materials: readonly ScanMaterialMention[]): Candidate[] {
  if (materials.length === 1) return candidates.map((candidate) => ({ ...candidate, material: materials[0]! }));
  if (materials.length !== candidates.length) return [];
  return candidates.map((candidate, index) => ({ ...candidate, material: materials[index]! }));
}

/** True when `sentence` says "respectively". */
export function saysRespectively(sentence: string): boolean {
  return respectivelyWord.test(sentence);
}
