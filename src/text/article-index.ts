/**
 * One model of an article's evidence, built once per article and property catalogue and read by
 * every stage that cuts the text into units: attribution, the fact check, grounding's table
 * cells, retrieval chunks and eval's truth locator. Before it, six places split sentences and
 * table rows each by their own rule and disagreed (which caption a table has, whether a row
 * under a merged header counts).
 *
 * Units, all with offsets into `Article.text` (UTF-16, end exclusive):
 * - prose (paragraph, caption, heading): sentences by `splitSentences`;
 * - tables: rows of cells, the header row, each data row's alignment with the header, and THE
 *   caption (`tableCaption`: the caption block right before it, never one after);
 * - the paper's abbreviation definitions (the first definition of each short form wins);
 * - quantities per block (`parseQuantities`; a table's cells with their header's unit,
 *   `tableRowQuantities` of the table's own rows).
 *
 * Everything past the block list is computed on first use and memoized inside the index object
 * (never in module state), so building one is cheap and an index serves a whole paper's
 * triplets. The index is immutable: its arrays are frozen or read-only by type.
 *
 * Caching: `createArticleIndexCache()` gives whoever owns a run (the gate's dependencies, an
 * eval run) a WeakMap from article to index; nothing here caches across callers.
 */
import type { Article, Block } from '../contracts/article';
import type { PropertyDefinition } from '../contracts/property';
import { blockAt as blockOfArticleAt } from './anchoring/article-anchors';
import { findAbbreviationDefinitions, type AbbreviationDefinition } from './materials';
import { parseQuantities, tableRowQuantities, type Quantity } from './quantities';
import { splitSentences } from './split-sentences';
import { readTable, type IndexedTable, type TableCell, type TableRow } from './article-table';

/** A span of `Article.text`: UTF-16 offsets, end exclusive. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A sentence of a prose block; `index` counts the block's sentences from 0. */
export interface IndexedSentence extends Span {
  readonly block: Block;
  readonly index: number;
}

/** A cell found by offset, with its row and table. */
export interface CellPlace {
  readonly table: IndexedTable;
  readonly row: TableRow;
  readonly cell: TableCell;
}

export interface ArticleIndex {
  readonly article: Article;
  /** The resolved property catalogue (built-in and the reader's own) the index was built for. */
  readonly catalogue: readonly PropertyDefinition[];
  /** The catalogue's schema named `name`, or undefined. */
  schemaOf(name: string): PropertyDefinition | undefined;
  /** The block holding `offset` of `Article.text`, or undefined (between blocks, out of range). */
  blockAt(offset: number): Block | undefined;
  /** Sentences of a prose block (none for a table block). */
  sentencesOf(block: Block): readonly IndexedSentence[];
  /** The sentence of a prose block holding `offset`, or undefined (a table, or white space between sentences). */
  sentenceAt(offset: number): IndexedSentence | undefined;
  /** The table block `block` read as rows, or undefined when it is not a table. */
  tableOf(block: Block): IndexedTable | undefined;
  /** All table blocks, in reading order. */
  tables(): readonly IndexedTable[];
  /** Data rows (not the header) of the table blocks that `span` touches, blank ones included, in order. */
  rowsIn(span: Span): readonly TableRow[];
  /** The table cell holding `offset`, or undefined (prose, a tab, a line break). */
  cellAt(offset: number): CellPlace | undefined;
  /** THE caption of a table (`tableCaption`), or undefined. */
  captionOf(table: Block | IndexedTable): Block | undefined;
  /** Every abbreviation definition of the paper (`findAbbreviationDefinitions` of `Article.text`), in order. */
  abbreviations(): readonly AbbreviationDefinition[];
  /** The paper's abbreviation definitions by short form, the first definition of each winning. */
  definitions(): ReadonlyMap<string, AbbreviationDefinition>;
  /** Quantities of a block with `Article.text` offsets: prose by `parseQuantities`, tables by `tableRowQuantities` of `tableOf(block)`'s rows. */
  quantitiesOf(block: Block): readonly Quantity[];
}

/** Memoize `make(key)` in a Map owned by the index. */
function memo<K, V>(make: (key: K) => V): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    if (!values.has(key)) values.set(key, make(key));
    return values.get(key)!;
  };
}

/**
 * Index `article` for `catalogue`. Cheap: the units are read when first asked for. Never throws
 * for an article that satisfies `ArticleSchema` (blocks in order, not overlapping).
 */
export function buildArticleIndex(article: Article, catalogue: readonly PropertyDefinition[]): ArticleIndex {
  const blocks = article.blocks;
  const positions = new Map(blocks.map((block, index) => [block, index]));
  const byName = new Map(catalogue.map((schema) => [schema.name, schema]));

  const blockAt = (offset: number): Block | undefined => blockOfArticleAt(article, offset) ?? undefined;
  const sentencesOf = memo((block: Block): readonly IndexedSentence[] =>
    block.kind === 'table'
      ? []
      : Object.freeze(
          splitSentences(block.text).map((sentence, index) => ({
            block,
            index,
            start: block.start + sentence.start,
            end: block.start + sentence.end,
          })),
        ),
  );
  const tableOf = memo((block: Block): IndexedTable | undefined =>
    block.kind === 'table' && positions.has(block) ? readTable(article, block, positions.get(block)!) : undefined,
  );
  let tables: readonly IndexedTable[] | undefined;
  let abbreviations: readonly AbbreviationDefinition[] | undefined;
  let definitions: ReadonlyMap<string, AbbreviationDefinition> | undefined;
  const quantitiesOf = memo((block: Block): readonly Quantity[] => {
    if (block.kind !== 'table')
      return Object.freeze(
        parseQuantities(block.text).map((quantity) => ({
          ...quantity,
          start: quantity.start + block.start,
          end: quantity.end + block.start,
        })),
      );
    // A table block not of this article has no place in it, but its rows still read.
    const table = tableOf(block) ?? readTable(article, block, -1);
    return Object.freeze(tableRowQuantities(table.header, table.rows));
  });

  const index: ArticleIndex = {
    article,
    catalogue,
    schemaOf: (name) => byName.get(name),
    blockAt,
    sentencesOf,
    sentenceAt(offset) {
      const block = blockAt(offset);
      return block ? sentencesOf(block).find((sentence) => sentence.start <= offset && offset < sentence.end) : undefined;
    },
    tableOf,
    tables() {
      tables ??= Object.freeze(blocks.flatMap((block) => tableOf(block) ?? []));
      return tables;
    },
    rowsIn(span) {
      const rows: TableRow[] = [];
      for (const table of index.tables()) {
        if (table.block.end <= span.start || table.block.start >= span.end) continue;
        rows.push(...table.rows.filter((row) => row.end > span.start && row.start < span.end));
      }
      return rows;
    },
    cellAt(offset) {
      const block = blockAt(offset);
      const table = block && tableOf(block);
      const row = table && [table.header, ...table.rows].find((each) => each.start <= offset && offset < each.end);
      const cell = row?.cells.find((each) => each.start <= offset && offset < each.end);
      return table && row && cell ? { table, row, cell } : undefined;
    },
    captionOf(table) {
      return tableOf('block' in table ? table.block : table)?.caption;
    },
    abbreviations() {
      abbreviations ??= Object.freeze(findAbbreviationDefinitions(article.text));
      return abbreviations;
    },
    definitions() {
      if (!definitions) {
        const first = new Map<string, AbbreviationDefinition>();
        for (const definition of index.abbreviations())
          if (!first.has(definition.abbreviation)) first.set(definition.abbreviation, definition);
        definitions = first;
      }
      return definitions;
    },
    quantitiesOf,
  };
  return Object.freeze(index);
}

/** Indexes per article and catalogue, owned by whoever creates it (a run, a gate's dependencies). */
export interface ArticleIndexCache {
  /** The index of `article` for `catalogue`, built on first request; same article and catalogue objects → same index. */
  get(article: Article, catalogue: readonly PropertyDefinition[]): ArticleIndex;
}

/** A new, empty cache: a WeakMap by article (then by catalogue), so an article no one holds is let go with its index. */
export function createArticleIndexCache(): ArticleIndexCache {
  const byArticle = new WeakMap<Article, WeakMap<readonly PropertyDefinition[], ArticleIndex>>();
  return {
    get(article, catalogue) {
      let byCatalogue = byArticle.get(article);
      if (!byCatalogue) byArticle.set(article, (byCatalogue = new WeakMap()));
      let index = byCatalogue.get(catalogue);
      if (!index) byCatalogue.set(catalogue, (index = buildArticleIndex(article, catalogue)));
      return index;
    },
  };
}
