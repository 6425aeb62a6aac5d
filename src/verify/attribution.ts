/**
 * The attribution check: is a triplet's evidence about the claimed material and property? The
 * grounding gate (`ground.ts`) checks that the quote re-anchors and shows the value and unit;
 * a quote "GaN has a band gap of 3.4 eV" grounds "Silicon, band_gap, 3.4 eV" just as well. This
 * check asks that the anchored evidence also names the material and the property.
 *
 * Rules (all on the article's own text at the anchor, never the model's copy of the quote):
 * - The quote lies inside one block; a span over two blocks is rejected (quotes never cross).
 * - Material: named (see `material-named.ts`: the string, a qualifier-free form, an abbreviation
 *   the paper defines, an equal composition or lexicon name) in the span; or, in a table block,
 *   in the label cell (first cell) of a quoted row; or, when the span refers back ("it", "its",
 *   "this compound", "the film", "the latter", "these", …), in the sentence before the span in
 *   the same block.
 * - Property: a synonym or symbol of its schema (`findPropertyMentions`) in the span; or, in a
 *   table block, in the header cell above a quoted cell that holds the value; or in the table's
 *   caption (`ArticleIndex.captionOf`: the caption block right before the table) — but the caption only when
 *   no column header of the table names the property: when one does, the caption's "band gaps
 *   and electron affinities" does not make every column a band gap.
 * - Property in context: a contextual synonym of the schema (`findContextualMentions`: "gap" for
 *   the band gap, "superconductivity" for Tc) counts in the span or the header cell when that
 *   same text also prints one of the schema's units ("the gap is 40 meV", a column "Gap (eV)")
 *   or writes the value as "zero" before the name ("a zero gap", "zero-gap materials"), and names
 *   no other property of the same dimension ("superconductivity at 9 K and TN = 30 K" is not
 *   read as a Tc by context). Papers name a property by its head noun once the dimension of
 *   the number leaves one reading; the schema lists the heads and their exclusions.
 */
import type { Article } from '../contracts/article';
import type { PropertyDefinition } from '../contracts/property';
import type { Triplet } from '../contracts/triplet';
import { findContextualMentions, findPropertyMentions, loadPropertySchemas } from '../properties';
import { anchorEvidence, type Anchor } from '../text/anchoring';
import { buildArticleIndex, createArticleIndexCache, type ArticleIndex, type ArticleIndexCache } from '../text/article-index';
import { parseNumber, parseQuantities } from '../text/quantities';
import { materialNames, namesMaterial } from './material-named';
import { unitTokenInQuote } from './value-in-quote';
import type { TableRow } from '../text/article-table';

/** The verdict. `attributed = materialShown && propertyShown` (and the quote in one block). */
export interface AttributionResult {
  attributed: boolean;
  materialShown: boolean;
  propertyShown: boolean;
  /** Why it is not attributed, in words shown to users ("material not in the evidence"). */
  reasons: string[];
}

/** What the check needs besides the article; injectable for tests and user schemas. */
export interface AttributionDependencies {
  /** Property schemas (`loadPropertySchemas()`); the triplet's property is looked up by name. */
  schemas: readonly PropertyDefinition[];
  /** Article indexes of the run (`createArticleIndexCache()`), so a paper's triplets share one; without it each check builds its own. */
  indexes?: ArticleIndexCache;
}

/** The index of `article` for the dependencies' catalogue: from their cache when they carry one. */
export function articleIndexFor(article: Article, dependencies: AttributionDependencies): ArticleIndex {
  return dependencies.indexes?.get(article, dependencies.schemas) ?? buildArticleIndex(article, dependencies.schemas);
}

/**
 * Dependencies for `catalogue` (default: the built-in schemas, read afresh: nothing is cached in
 * this module), with a new index cache owned by the returned object, so a run that keeps it
 * indexes each article once. Pass the reader's resolved catalogue (built-in and own properties).
 */
export function defaultAttributionDependencies(catalogue: readonly PropertyDefinition[] = loadPropertySchemas()): AttributionDependencies {
  return { schemas: catalogue, indexes: createArticleIndexCache() };
}

/**
 * Words by which a sentence refers back to a material named before it. General English
 * anaphora (personal and demonstrative pronouns, "the latter/former": Quirk et al., A
 * Comprehensive Grammar of the English Language, 1985); the noun list is of words papers use
 * for a specimen (compound, material, film, sample, crystal, alloy, phase, layer).
 */
const REFERS_BACK =
  /(?<![\p{L}\p{N}])(?:it|its|they|their|these|this|the latter|the former|(?:this|that|the) (?:compound|material|film|sample|crystal|alloy|system|structure|phase|monolayer|layer))(?![\p{L}\p{N}])/iu;

const MATERIAL_MISSING = 'material not in the evidence';
const PROPERTY_MISSING = 'property not in the evidence';

function rejected(reason: string): AttributionResult {
  return { attributed: false, materialShown: false, propertyShown: false, reasons: [reason] };
}

/**
 * Check that `triplet`'s evidence names its material and property (rules in the module comment).
 * `anchor` is where the evidence lies in `article.text` (UTF-16 offsets, e.g. from `ground()`
 * or `anchorQuoteInArticle`); when null or undefined the evidence is anchored here with
 * `anchorEvidence`. Returns a verdict with reasons in words; never throws for a valid triplet and
 * article. An unknown property (no schema) is never shown.
 */
export function checkAttribution(
  triplet: Triplet,
  article: Article,
  anchor?: Anchor | null,
  dependencies: AttributionDependencies = defaultAttributionDependencies(),
): AttributionResult {
  const span = anchor ?? (triplet.evidence ? anchorEvidence(article.text, triplet.evidence) : null);
  if (!span || span.end <= span.start) return rejected(triplet.evidence ? 'quote not found in the article' : 'no evidence quote given');
  const index = articleIndexFor(article, dependencies);
  const block = index.blockAt(span.start);
  if (!block || index.blockAt(span.end - 1) !== block) return rejected('quote crosses two blocks');

  // NFKC folds PDF text's mathematical letters ("E𝑔" → "Eg") and ligatures ("ﬁ") for matching.
  const spanText = article.text.slice(span.start, span.end).normalize('NFKC');
  const rows = block.kind === 'table' ? index.rowsIn(span) : [];

  const names = materialNames(triplet.material, index);
  const materialShown =
    namesMaterial(spanText, names) ||
    rows.some((row) => namesMaterial((row.cells[0]?.text ?? '').normalize('NFKC'), names)) ||
    (REFERS_BACK.test(spanText) && namesMaterial(sentenceBefore(index, block, span.start).normalize('NFKC'), names));

  const schema = dependencies.schemas.find((candidate) => candidate.name === triplet.property);
  const namesProperty = (text: string) =>
    schema !== undefined &&
    (findPropertyMentions(text.normalize('NFKC'), [schema]).length > 0 || namesInContext(text, schema, dependencies));
  let propertyShown = namesProperty(spanText);
  if (!propertyShown && block.kind === 'table') {
    const header = (index.tableOf(block)?.header.cells ?? []).map((cell) => cell.text);
    const columns = valueColumns(rows, triplet);
    propertyShown = columns.some((column) => namesProperty(header[column] ?? ''));
    if (!propertyShown && !header.some(namesProperty)) propertyShown = namesProperty(index.captionOf(block)?.text ?? '');
  }

  const reasons = [...(materialShown ? [] : [MATERIAL_MISSING]), ...(propertyShown ? [] : [PROPERTY_MISSING])];
  if (!schema) reasons.push(`no property schema named "${triplet.property}"`);
  return { attributed: materialShown && propertyShown, materialShown, propertyShown, reasons };
}

/** "zero" written right before a name: the value in words ("a zero gap", "zero-gap materials"). */
const ZERO_BEFORE = /(?<![\p{L}\p{N}])zero[\s\-‐–]+$/iu;

/** Does `text` name `schema` by a contextual synonym, in the context the module comment requires? */
function namesInContext(text: string, schema: PropertyDefinition, dependencies: AttributionDependencies): boolean {
  const normalized = text.normalize('NFKC');
  const mentions = findContextualMentions(normalized, schema);
  if (mentions.length === 0) return false;
  const rivals = dependencies.schemas.filter((other) => other.name !== schema.name && other.dimension === schema.dimension);
  if (rivals.length > 0 && findPropertyMentions(normalized, rivals).length > 0) return false;
  const unitPrinted =
    schema.units.some((unit) => unitTokenInQuote(normalized, unit)) ||
    parseQuantities(normalized).some((quantity) => schema.units.includes(quantity.unit));
  return unitPrinted || mentions.some((mention) => ZERO_BEFORE.test(normalized.slice(0, mention.start)));
}

/** The number a cell may print the value as: the leading number of "1.12", "146(5)", "(1.52)b", "3.4 eV", "6,2", "3 800". */
export function cellNumber(cell: string): number | undefined {
  const match = /^\(?\s*([-−–]?\d[\d,]*(?:[ \u2009]\d{3}(?!\d))*(?:\.\d+)?(?:\(\d+\))?)/u.exec(cell.trim());
  return match ? parseNumber(match[1]!)?.value : undefined;
}

/** Columns of `rows` whose cell prints the triplet's value (a range by its low end). */
function valueColumns(rows: readonly TableRow[], triplet: Triplet): number[] {
  const target = triplet.value.kind === 'range' ? triplet.value.low : triplet.value.value;
  const columns = new Set<number>();
  for (const row of rows)
    row.cells.forEach(({ text: cell }, column) => {
      const number = cellNumber(cell);
      if (column > 0 && number !== undefined && Math.abs(number - target) <= 1e-9 * Math.max(1, Math.abs(target))) columns.add(column);
    });
  return [...columns];
}

/** The sentence of `block` that ends before `offset` (an `Article.text` offset); '' when none. */
function sentenceBefore(index: ArticleIndex, block: Parameters<ArticleIndex['sentencesOf']>[0], offset: number): string {
  const before = index
    .sentencesOf(block)
    .filter((sentence) => sentence.end <= offset)
    .at(-1);
  return before ? index.article.text.slice(before.start, before.end) : '';
}
