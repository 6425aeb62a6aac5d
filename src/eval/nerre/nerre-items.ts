/**
 * Whole-entity ("strict") scoring shared by the LLM-NERRE sets, and the re-scorable rows
 * (`src/eval/rescorable.ts`) built from the same items.
 *
 * An item is one annotated entity (`value` null) or one link from a root entity to another
 * (`value` = the linked entity), each labelled with its entity or link type (`property`). Two
 * items are the same when their property is equal and their entity texts are equal after
 * `normalizeEntity`; each record's items are a set. Counts are summed over records (micro):
 * precision = matched / predicted items, recall = matched / truth items (`prfFigures`).
 */
import { prfFigures, type EvalPrediction, type EvalTruth, type PrfFigures } from '../rescorable';

/** One entity or link, entity texts as written. */
export interface NerreItem {
  /** Entity type (`formula`, `applications`, `host`) or link type (`formula|||applications`). */
  property: string;
  /** The entity, or for a link its root entity. */
  material: string;
  /** For a link, the linked entity; null for an entity. */
  value: string | null;
}

/**
 * The text an entity is compared on: Unicode NFKC (subscript ₂ → 2, full-width letters, ligatures),
 * whitespace runs → one space, trimmed. Case and punctuation are kept: `CO` is not `Co`.
 */
export function normalizeEntity(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

/** The identity of an item under `normalizeEntity` (property, entity, linked entity). */
export function itemKey(item: NerreItem): string {
  return [item.property, normalizeEntity(item.material), item.value === null ? '' : normalizeEntity(item.value)].join('\u0000');
}

/** The items once each (first spelling kept), dropping any whose entity or linked entity is blank. */
export function uniqueItems(items: Iterable<NerreItem>): NerreItem[] {
  const seen = new Map<string, NerreItem>();
  for (const item of items) {
    if (!normalizeEntity(item.material) || (item.value !== null && !normalizeEntity(item.value))) continue;
    const key = itemKey(item);
    if (!seen.has(key)) seen.set(key, item);
  }
  return [...seen.values()];
}

/** Strict figures over all items, and per property (entity or link type) in first-seen order. */
export interface StrictItemScores {
  overall: PrfFigures;
  byProperty: Record<string, PrfFigures>;
}

/**
 * Micro-averaged whole-entity figures over records, each a pair of truth and predicted items
 * (deduplicated here). `properties` lists types to report even when no record has one.
 */
export function scoreItems(
  records: Iterable<{ truth: readonly NerreItem[]; predicted: readonly NerreItem[] }>,
  properties: readonly string[] = [],
): StrictItemScores {
  const counts = new Map<string, { predictions: number; truths: number; matched: number }>(
    properties.map((property) => [property, { predictions: 0, truths: 0, matched: 0 }]),
  );
  const tally = (property: string) => {
    if (!counts.has(property)) counts.set(property, { predictions: 0, truths: 0, matched: 0 });
    return counts.get(property)!;
  };
  for (const { truth, predicted } of records) {
    const truthKeys = new Set(uniqueItems(truth).map(itemKey));
    for (const item of uniqueItems(truth)) tally(item.property).truths++;
    for (const item of uniqueItems(predicted)) {
      const count = tally(item.property);
      count.predictions++;
      if (truthKeys.has(itemKey(item))) count.matched++;
    }
  }
  const byProperty: Record<string, PrfFigures> = {};
  let predictions = 0;
  let truths = 0;
  let matched = 0;
  for (const [property, count] of counts) {
    byProperty[property] = prfFigures(count.predictions, count.truths, count.matched);
    predictions += count.predictions;
    truths += count.truths;
    matched += count.matched;
  }
  return { overall: prfFigures(predictions, truths, matched), byProperty };
}

/** Items as `EvalPrediction`s of one record (`paper` its id); unit "" and quote null (NERRE has neither). */
export function predictionRows(paper: string, items: readonly NerreItem[], status: string): EvalPrediction[] {
  return uniqueItems(items).map(({ material, property, value }) => ({ paper, material, property, value, unit: '', quote: null, status }));
}

/** Items as `EvalTruth`s of one record: the entity as its only alias. */
export function truthRows(paper: string, items: readonly NerreItem[]): EvalTruth[] {
  return uniqueItems(items).map(({ material, property, value }) => ({ paper, aliases: [material], property, value, unit: '' }));
}
