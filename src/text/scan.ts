/**
 * The deterministic scan: quantities, material mentions and property mentions of an article,
 * and the candidates linking them (see `Candidate`). No model; milliseconds per paper.
 */
import { findConditionMentions, type ConditionMention } from './conditions';
import type { Block } from '../contracts/article';
import type { PropertyDefinition } from '../contracts/property';
import { findPropertyMentions, type PropertyMention } from './find-property-mentions';
import type { ArticleIndex, IndexedSentence } from './article-index';
import { findMaterialMentions } from './materials';
import { unitFitsProperty } from './scan-fit';
import { sentenceValueFacts } from './scan-facts';
import { tableCandidates } from './scan-table';
import type { Candidate, ScanMaterialMention, ScanQuantity, ScanResult } from './scan-types';

export interface ScanOptions {
  /**
   * Property schemas to look for; default: the index's whole catalogue. The value role reads rival
   * properties from the index's catalogue (built-in and the reader's own): a number headed by
   * another property of the same unit ("the Néel temperature is 120 K" in a Tc scan) is not a
   * candidate.
   */
  properties?: readonly PropertyDefinition[];
}

function rebase<T extends { start: number; end: number }>(items: T[], offset: number): T[] {
  return items.map((item) => ({ ...item, start: item.start + offset, end: item.end + offset }));
}

function within<T extends { start: number; end: number }>(items: readonly T[], span: { start: number; end: number }): T[] {
  return items.filter((item) => item.start >= span.start && item.end <= span.end);
}

function overlaps(item: { start: number; end: number }, others: readonly { start: number; end: number }[]): boolean {
  return others.some((other) => item.start < other.end && item.end > other.start);
}

// "3.4 eV for ZnO", "121 GPa in SrMnO2.5", "1.2 eV) of the CsPbBr3": a preposition ties a value to a
// material printed after it; anything else after the value ("… eV while WSe2 …") starts
// another clause.
const valueThenMaterial = /^[\s),]{0,3}(?:for|of|in|from|on)\s+(?:the\s+|a\s+|an\s+)?(?:[\p{L}-]+\s+)?$/iu;

/**
 * The material a value belongs to within its sentence: one printed right after it and tied by a
 * preposition, else the nearest one before it (the subject usually precedes the value), else null.
 */
function materialOf(quantity: ScanQuantity, materials: readonly ScanMaterialMention[], text: string): ScanMaterialMention | null {
  const after = materials.find((material) => material.start >= quantity.end);
  if (after && valueThenMaterial.test(text.slice(quantity.end, after.start))) return after;
  const before = materials.filter((material) => material.end <= quantity.start);
  return before[before.length - 1] ?? null;
}

/** Characters from a property mention to a value, counting a mention after the value double plus 10 (see `nearestMention`). */
export function mentionCost(mention: { start: number; end: number }, quantity: { start: number; end: number }): number {
  return mention.end <= quantity.start ? quantity.start - mention.end : Math.max(0, mention.start - quantity.end) * 2 + 10;
}

/**
 * The property mention a value belongs to. A mention before the value is preferred: in
 * "a = 5.4099(6) Å, c = 9.059(1) Å" the first value is 3 characters after "a" and 2 before "c".
 * A mention after the value counts double plus 10 characters ("a 3 eV bandgap" still links).
 */
export function nearestMention(mentions: readonly PropertyMention[], quantity: ScanQuantity): PropertyMention | null {
  let best: PropertyMention | null = null;
  for (const mention of mentions) if (best === null || mentionCost(mention, quantity) < mentionCost(best, quantity)) best = mention;
  return best;
}

function sentenceCandidates(
  block: Block,
  sentence: IndexedSentence,
  previousSentence: IndexedSentence | null,
  schemas: { properties: readonly PropertyDefinition[]; catalogue: readonly PropertyDefinition[] },
  context: { text: string; quantities: readonly ScanQuantity[]; materials: ScanMaterialMention[]; mentions: PropertyMention[] },
): Candidate[] {
  const mentions = within(context.mentions, sentence);
  if (mentions.length === 0) return [];
  const text = context.text;
  const quantities = within(context.quantities, sentence);
  // A material "mention" inside a quantity or a property symbol ("K" in "39 K") is not one.
  const materials = within(context.materials, sentence).filter(
    (material) => !overlaps(material, quantities) && !overlaps(material, mentions),
  );
  const previousMaterials = previousSentence
    ? within(context.materials, previousSentence).filter((material) => !overlaps(material, context.quantities))
    : [];
  const sentenceText = text.slice(sentence.start, sentence.end);
  // The sentence's conditions are read once for all its values.
  let sentenceConditions: ConditionMention[] | undefined;
  const conditionsOfSentence = () => (sentenceConditions ??= findConditionMentions(sentenceText));
  const candidates: Candidate[] = [];
  for (const quantity of quantities) {
    const fitting = mentions.filter((mention) =>
      unitFitsProperty(
        quantity,
        schemas.properties.find((schema) => schema.name === mention.property)!,
      ),
    );
    const mention = nearestMention(fitting, quantity);
    if (!mention) continue;
    const material = materialOf(quantity, materials, text) ?? previousMaterials[previousMaterials.length - 1] ?? null;
    const property = schemas.properties.find((schema) => schema.name === mention.property)!;
    const value = { start: quantity.start - sentence.start, end: quantity.end - sentence.start };
    const facts = sentenceValueFacts(
      sentenceText,
      sentence.start,
      value,
      property,
      schemas.catalogue,
      material?.text ?? null,
      conditionsOfSentence,
    );
    if (!facts) continue; // a difference, parameter, measurement condition or another quantity
    candidates.push({
      property: mention.property,
      mention,
      quantity,
      material,
      segment: { kind: 'sentence', start: sentence.start, end: sentence.end, blockId: block.id },
      blockId: block.id,
      ...facts,
    });
  }
  return candidates;
}

/**
 * Scan the article of `index` block by block, reading its units from the index: the sentences of
 * prose blocks, the rows, header and caption of tables, the quantities of each block (a table's
 * cells with their header's unit, as the gate reads them) and the paper's abbreviation
 * definitions. Returns every quantity and material mention (offsets into `article.text`, in
 * reading order) and the candidates: a quantity whose unit fits a property mentioned in the same
 * sentence (prose) or column header (tables), with the material mention (`materialOf`: one right
 * after the value tied by "for/of/in", else the nearest before it in the sentence), else the last
 * one of the previous sentence in the block, else null.
 * Each candidate carries its value role, conditions, provenance and doubts (src/text/scan-facts.ts,
 * the gate's own readers); a number whose role the gate rejects (a difference, a model parameter,
 * a measurement condition, another quantity of the unit) is not a candidate.
 */
export function scanArticle(index: ArticleIndex, options: ScanOptions = {}): ScanResult {
  const { article, catalogue } = index;
  const schemas = options.properties ?? catalogue;
  const result: ScanResult = { quantities: [], materials: [], candidates: [] };
  // Abbreviations are defined once ("bismuth ferrite (BFO)") and used blocks later, so they are
  // those of the whole article.
  const definitions = index.abbreviations();
  for (const block of article.blocks) {
    const quantities = index.quantitiesOf(block);
    const materials = rebase(findMaterialMentions(block.text, { definitions }), block.start);
    result.quantities.push(...quantities);
    result.materials.push(...materials);
    const table = index.tableOf(block);
    if (table) {
      result.candidates.push(...tableCandidates(table, schemas, quantities, materials));
      continue;
    }
    const mentions = rebase(findPropertyMentions(block.text, schemas), block.start);
    if (mentions.length === 0) continue;
    const sentences = index.sentencesOf(block);
    sentences.forEach((sentence, position) => {
      const previous = position > 0 ? sentences[position - 1]! : null;
      result.candidates.push(
        ...sentenceCandidates(
          block,
          sentence,
          previous,
          { properties: schemas, catalogue },
          { text: article.text, quantities, materials, mentions },
        ),
      );
    });
  }
  return result;
}
