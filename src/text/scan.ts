/**
 * The deterministic scan: quantities, material mentions and property mentions of an article,
 * and the candidates linking them (see `Candidate`). No model; milliseconds per paper.
 */
import { findConditionMentions, type ConditionMention } from './conditions';
import type { Article, Block } from '../contracts/article';
import { findPropertyMentions, loadPropertySchemas, type PropertyDefinition, type PropertyMention } from '../properties';
import { unitFitsProperty } from './scan-fit';
import { splitSentences, type SentenceSpan } from './scan-sentences';
import { defaultScanDependencies } from './scan-dependencies';
import { captionOf, sentenceValueFacts } from './scan-facts';
import { tableCandidates } from './scan-table';
import type { Candidate, ScanDependencies, ScanMaterialMention, ScanQuantity, ScanResult } from './scan-types';

export interface ScanOptions {
  /** Property schemas to look for; default: all built-in ones. */
  properties?: readonly PropertyDefinition[];
  /**
   * The whole property catalogue (built-in and the reader's own) the value role reads rival
   * properties from: a number headed by another property of the same unit ("the work function
   * is 4.5 eV" in a band-gap scan) is not a candidate. Default: `properties` plus the built-in
   * schemas they do not name.
   */
  catalogue?: readonly PropertyDefinition[];
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
  sentence: SentenceSpan,
  previousSentence: SentenceSpan | null,
  schemas: { properties: readonly PropertyDefinition[]; catalogue: readonly PropertyDefinition[] },
  context: { text: string; quantities: ScanQuantity[]; materials: ScanMaterialMention[]; mentions: PropertyMention[] },
  dependencies: ScanDependencies,
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
        dependencies,
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

/** `properties` and the built-in schemas they do not name (a reader's own schema replaces a built-in one of its name). */
function catalogueOf(properties: readonly PropertyDefinition[]): PropertyDefinition[] {
  const named = new Set(properties.map((schema) => schema.name));
  return [...properties, ...loadPropertySchemas().filter((schema) => !named.has(schema.name))];
}

/**
 * Scan `article` block by block. Returns every quantity and material mention (offsets into
 * `article.text`, in reading order) and the candidates: a quantity whose unit fits a property
 * mentioned in the same sentence (prose) or column header (tables), with the material
 * mention (`materialOf`: one right after the value tied by "for/of/in", else the nearest before
 * it in the sentence), else the last one of the previous sentence in the block, else null.
 * Each candidate carries its value role, conditions, provenance and doubts (src/text/scan-facts.ts,
 * the gate's own readers); a number whose role the gate rejects (a difference, a model parameter,
 * a measurement condition, another quantity of the unit) is not a candidate.
 * `dependencies` defaults to the real parsers (`defaultScanDependencies`); tests inject others.
 */
export function scanArticle(
  article: Article,
  options: ScanOptions = {},
  dependencies: ScanDependencies = defaultScanDependencies,
): ScanResult {
  const schemas = options.properties ?? loadPropertySchemas();
  const catalogue = options.catalogue ?? catalogueOf(schemas);
  const result: ScanResult = { quantities: [], materials: [], candidates: [] };
  // Abbreviations are defined once ("bismuth ferrite (BFO)") and used blocks later, so they are
  // collected over the whole article before the block-by-block pass.
  const definitions = dependencies.findAbbreviationDefinitions?.(article.text) ?? [];
  for (const block of article.blocks) {
    const quantities = rebase(dependencies.parseQuantities(block.text), block.start);
    const materials = rebase(dependencies.findMaterialMentions(block.text, { definitions }), block.start);
    result.quantities.push(...quantities);
    result.materials.push(...materials);
    if (block.kind === 'table') {
      result.candidates.push(...tableCandidates(block, schemas, quantities, materials, dependencies, captionOf(article.blocks, block)));
      continue;
    }
    const mentions = rebase(findPropertyMentions(block.text, schemas), block.start);
    if (mentions.length === 0) continue;
    const sentences = rebase(splitSentences(block.text), block.start);
    sentences.forEach((sentence, index) => {
      const previous = index > 0 ? sentences[index - 1]! : null;
      result.candidates.push(
        ...sentenceCandidates(
          block,
          sentence,
          previous,
          { properties: schemas, catalogue },
          { text: article.text, quantities, materials, mentions },
          dependencies,
        ),
      );
    });
  }
  return result;
}
