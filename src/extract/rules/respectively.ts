/**
 * "The band gaps of Si and Ge are 1.12 eV and 0.66 eV, respectively": a sentence with
 * "respectively" pairs its materials and values in order, which the nearest-material rule of the
 * scan gets wrong. This step re-pairs the candidates of such sentences, or drops them.
 */
import type { Candidate, ScanMaterialMention } from '../../text/scan-types';

const respectivelyWord = /\brespectively\b/i;

/**
 * The candidates of one "respectively" sentence and one property, with materials re-assigned:
 * - as many material mentions in the sentence as values → the i-th value goes to the i-th material;
 * - a single material mention → every value is its own (values under different conditions:
 *   "the gap of Si is 0.61 and 1.17 eV at the PBE and HSE06 levels, respectively");
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
