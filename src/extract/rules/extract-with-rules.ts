/**
 * The rules extractor: the honest, model-free baseline. A triplet is emitted only when a
 * material, a property mention, and a value with a fitting unit stand in the same sentence or
 * table row, the value is plausible for the property, and the quote (that sentence or row)
 * contains the value and the unit as written — so every triplet it emits grounds. Each triplet
 * carries the conditions and provenance the scan read for its value (`Candidate`); a number the
 * gate would reject as not the property's value (a difference, parameter, condition) is never a
 * candidate.
 */
import type { Article } from '../../contracts/article';
import type { Evidence } from '../../contracts/evidence';
import { TEXT_LIMITS } from '../../contracts/text-limits';
import type { Triplet } from '../../contracts/triplet';
import { loadPropertySchemas, propertyCatalogue, type PropertyDefinition } from '../../properties';
import { describeQuote } from '../../text/anchoring';
import { buildArticleIndex } from '../../text/article-index';
import { mentionCost, scanArticle } from '../../text/scan';
import { isPlausible } from '../../text/scan-fit';
import type { Candidate, ScanMaterialMention } from '../../text/scan-types';
import { pairRespectively, saysRespectively } from './respectively';

export interface RulesOptions {
  /** Property schemas to extract; default: all built-in ones. */
  properties?: readonly PropertyDefinition[];
}

/**
 * Most characters between a property mention and its value in prose (`mentionCost`: a mention
 * after the value counts double plus 10, so at most 35 characters there). Precision over
 * recall: in "Eg of GaAs is 1.42 eV" the gap is a dozen characters; at 80 and beyond, a value
 * tends to belong to another clause ("the band gap … while the photon energy was 6.3 eV").
 */
export const MAX_MENTION_TO_VALUE_CHARACTERS = 80;

function distance(left: { start: number; end: number }, right: { start: number; end: number }): number {
  return Math.max(0, left.start - right.end, right.start - left.end);
}

function accepts(candidate: Candidate, schema: PropertyDefinition, article: Article): boolean {
  const { material, quantity, segment, mention } = candidate;
  if (!material || material.start < segment.start || material.end > segment.end) return false;
  if (segment.kind === 'sentence' && mentionCost(mention, quantity) > MAX_MENTION_TO_VALUE_CHARACTERS) return false;
  if (!isPlausible(quantity.value, quantity.unit, schema)) return false;
  const quote = article.text.slice(segment.start, segment.end);
  return quantity.valueText !== '' && quantity.unitText !== '' && quote.includes(quantity.valueText) && quote.includes(quantity.unitText);
}

/**
 * Within one segment, a material mention gives its property at most one value: the nearest.
 * In "with TN = 235 K, slightly lower than that of 3C-SrMnO3 (240 K)" both values are nearest
 * to 3C-SrMnO3, but only 240 K is its own; the 235 K (of a phase named in an earlier sentence)
 * is dropped. Costs recall on "increases from 115 GPa to 144 GPa", keeps precision.
 */
function onePerMaterial(candidates: readonly Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const key = JSON.stringify([candidate.segment.start, candidate.property, candidate.material!.start]);
    const current = best.get(key);
    if (!current || distance(candidate.quantity, candidate.material!) < distance(current.quantity, current.material!))
      best.set(key, candidate);
  }
  const kept = new Set(best.values());
  return candidates.filter((candidate) => kept.has(candidate));
}

/**
 * Final material assignment: sentences saying "respectively" are re-paired in order
 * (`pairRespectively`), all other segments keep one value per material and property
 * (`onePerMaterial`). Returns the candidates in reading order.
 */
function assignMaterials(candidates: readonly Candidate[], materials: readonly ScanMaterialMention[], text: string): Candidate[] {
  const groups = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const key = JSON.stringify([candidate.segment.start, candidate.property]);
    groups.set(key, [...(groups.get(key) ?? []), candidate]);
  }
  const assigned: Candidate[] = [];
  for (const group of groups.values()) {
    const segment = group[0]!.segment;
    if (segment.kind === 'sentence' && saysRespectively(text.slice(segment.start, segment.end))) {
      const inSentence = materials.filter(
        (material) =>
          material.start >= segment.start &&
          material.end <= segment.end &&
          !group.some((candidate) => material.start < candidate.quantity.end && material.end > candidate.quantity.start),
      );
      assigned.push(...pairRespectively(group, inSentence));
    } else {
      assigned.push(...onePerMaterial(group));
    }
  }
  return assigned.sort((left, right) => left.quantity.start - right.quantity.start);
}

/**
 * Triplets of `article` (engine "rules"), in reading order, one per distinct material, property,
 * value and quote. Evidence: the sentence or table row (from the header row when the unit is
 * printed there) as a quote selector with position and `blockId` (and `page` for PDFs). The
 * scan reads rival properties from `properties` and the built-in schemas they do not name
 * (`propertyCatalogue`).
 */
export function extractWithRules(article: Article, options: RulesOptions = {}): Triplet[] {
  const schemas = options.properties ?? loadPropertySchemas();
  const index = buildArticleIndex(article, propertyCatalogue(schemas));
  const { candidates, materials } = scanArticle(index, { properties: schemas });
  const accepted = candidates.filter((candidate) => {
    const schema = schemas.find((known) => known.name === candidate.property);
    return schema !== undefined && accepts(candidate, schema, article);
  });
  const triplets: Triplet[] = [];
  const seen = new Set<string>();
  for (const candidate of assignMaterials(accepted, materials, article.text)) {
    const schema = schemas.find((known) => known.name === candidate.property)!;
    const { material, quantity, segment } = candidate;
    const key = JSON.stringify([material!.text, schema.name, quantity.value, segment.start, segment.end]);
    if (seen.has(key)) continue;
    seen.add(key);
    const block = article.blocks.find((known) => known.id === segment.blockId);
    const evidence: Evidence = { ...describeQuote(article.text, segment.start, segment.end), blockId: segment.blockId };
    if (block?.page !== undefined) evidence.page = block.page;
    const triplet: Triplet = {
      material: material!.text,
      property: schema.name,
      value: quantity.value,
      unit: quantity.unitText,
      valueText: quantity.valueText,
      evidence,
      engine: 'rules',
    };
    // The conditions read for the value (each with its span in Article.text) and where it comes
    // from; a candidate's doubts are the gate's to state again when it checks the triplet.
    if (candidate.conditions.length > 0) triplet.conditions = candidate.conditions.slice(0, TEXT_LIMITS.conditionList.max);
    triplet.provenance = candidate.provenance;
    triplets.push(triplet);
  }
  return triplets;
}
