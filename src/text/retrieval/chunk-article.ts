/**
 * Chunking for retrieval: the units BM25 + MMR rank and a model reads. A chunk is one sentence of
 * prose or of a heading, one table row (carrying its table's header row and caption), or one
 * whole caption. Headings are read like prose: most name a section and rank low, but a title
 * can be the one place a value is printed with its material ("Superconductivity at 39 K in
 * magnesium diboride", Nagamatsu et al., Nature 2001), and text no chunk holds no model reads.
 *
 * Every chunk keeps its block and its offsets into `Article.text`, so whatever a model quotes
 * from it can be re-anchored, and carries what attribution needs beside the chunk itself: the
 * sentence before it (the material is often named there: "ZnO films were grown … The gap is
 * 3.3 eV") and the paper's own abbreviation definitions for abbreviations it uses ("BFO" →
 * "bismuth ferrite"), which may be printed pages earlier.
 */
import type { Article, Block, BlockKind } from '../../contracts/article';
import { buildArticleIndex, type ArticleIndex } from '../article-index';
import type { AbbreviationDefinition } from '../materials';

/**
 * Longest chunk in characters before it is cut at a line break or space. A "sentence" of a PDF
 * capture can be a flattened table or a reference list thousands of characters long; cutting it
 * keeps each chunk a passage a small model can read beside others. Trade-off: a cut can separate
 * a value from its property name, but 1,200 characters (about 300 tokens, six or so ordinary
 * sentences) is far longer than any sentence that states one fact.
 */
export const MAX_CHUNK_CHARS = 1200;

/** An abbreviation the paper defines and the chunk uses: `{ abbreviation: 'BFO', longForm: 'bismuth ferrite' }`. */
export interface ChunkDefinition {
  abbreviation: string;
  longForm: string;
}

/** A table row's surroundings: the header row (cells joined by tabs) and the caption, when one precedes the table. */
export interface ChunkTable {
  header: string;
  caption?: string;
}

export interface Chunk {
  /** `<blockId>#<n>`, unique within one article: `b12#0`, `b12#1`, … */
  id: string;
  blockId: string;
  /** What the chunk is: a sentence of prose, a table row, or a whole caption. */
  kind: 'sentence' | 'table-row' | 'caption';
  blockKind: BlockKind;
  section?: string;
  page?: number;
  /** Offsets of the sentence, row or caption in `Article.text` (UTF-16, end exclusive). */
  start: number;
  end: number;
  /** `Article.text.slice(start, end)`: the text a quote from this chunk must come from. */
  quote: string;
  /** The text searched: `quote`, and for a table row the caption and header before it, one per line. */
  text: string;
  /** The sentence before this one in the same block, if any (sentences only). */
  previousSentence?: string;
  /** Offset of `previousSentence` in `Article.text` (present exactly when it is). */
  previousStart?: number;
  /** Definitions, from anywhere in the article, of abbreviations used in `text` (not those defined in the chunk itself). */
  definitions: ChunkDefinition[];
  /** Table rows only. */
  table?: ChunkTable;
}

type Span = { start: number; end: number };

/** Cut a span longer than `MAX_CHUNK_CHARS` at the last line break (else space) before the limit. */
function boundedSpans(text: string, span: Span): Span[] {
  const spans: Span[] = [];
  let { start } = span;
  while (span.end - start > MAX_CHUNK_CHARS) {
    const window = text.slice(start, start + MAX_CHUNK_CHARS);
    const cut = window.lastIndexOf('\n') > MAX_CHUNK_CHARS / 2 ? window.lastIndexOf('\n') : window.lastIndexOf(' ');
    const end = start + (cut > 0 ? cut : MAX_CHUNK_CHARS);
    spans.push({ start, end });
    start = end;
    while (start < span.end && /\s/.test(text[start]!)) start++;
  }
  if (span.end > start) spans.push({ start, end: span.end });
  return spans;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The definitions of abbreviations `text` uses as whole words, skipping those defined inside `span`. */
function definitionsUsed(text: string, span: Span, definitions: ReadonlyMap<string, AbbreviationDefinition>): ChunkDefinition[] {
  const used: ChunkDefinition[] = [];
  for (const [abbreviation, definition] of definitions) {
    if (definition.start >= span.start && definition.end <= span.end) continue;
    if (new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(abbreviation)}(?![\\p{L}\\p{N}])`, 'u').test(text)) {
      used.push({ abbreviation, longForm: definition.longForm });
    }
  }
  return used;
}

interface ChunkContext {
  article: Article;
  index: ArticleIndex;
  definitions: ReadonlyMap<string, AbbreviationDefinition>;
}

function makeChunk(
  block: Block,
  index: number,
  kind: Chunk['kind'],
  span: Span,
  context: ChunkContext,
  extra: { previousSentence?: string; previousStart?: number; table?: ChunkTable } = {},
): Chunk {
  const quote = context.article.text.slice(span.start, span.end);
  const text = extra.table ? [extra.table.caption, extra.table.header, quote].filter((line) => line !== undefined).join('\n') : quote;
  return {
    id: `${block.id}#${index}`,
    blockId: block.id,
    kind,
    blockKind: block.kind,
    ...(block.section !== undefined ? { section: block.section } : {}),
    ...(block.page !== undefined ? { page: block.page } : {}),
    start: span.start,
    end: span.end,
    quote,
    text,
    ...(extra.previousSentence !== undefined ? { previousSentence: extra.previousSentence, previousStart: extra.previousStart } : {}),
    definitions: definitionsUsed(text, span, context.definitions),
    ...(extra.table ? { table: extra.table } : {}),
  };
}

function sentenceChunks(block: Block, context: ChunkContext): Chunk[] {
  const text = context.article.text;
  const spans = context.index.sentencesOf(block).flatMap((sentence) => boundedSpans(text, sentence));
  return spans.map((span, index) => {
    const previous = spans[index - 1];
    return makeChunk(
      block,
      index,
      'sentence',
      span,
      context,
      previous ? { previousSentence: text.slice(previous.start, previous.end), previousStart: previous.start } : {},
    );
  });
}

/**
 * Rows of a table block (the index's rows: "\n" between rows, "\t" between cells, header first;
 * see src/capture), each with the header and caption. Blank rows are left out, and the first
 * row that prints something is the header the chunks carry.
 */
function tableChunks(block: Block, caption: string | undefined, context: ChunkContext): Chunk[] {
  const read = context.index.tableOf(block)!;
  const rows: Span[] = [read.header, ...read.rows].filter((row) => !row.blank);
  const [header, ...body] = rows;
  if (!header || body.length === 0) {
    // A header alone (or a one-line table): the table is its own chunk.
    return [
      makeChunk(block, 0, 'table-row', { start: block.start, end: block.end }, context, caption ? { table: { header: '', caption } } : {}),
    ];
  }
  const table: ChunkTable = { header: context.article.text.slice(header.start, header.end), ...(caption ? { caption } : {}) };
  return body.map((row, index) => makeChunk(block, index, 'table-row', row, context, { table }));
}

/**
 * Chunks of `article` in reading order: every sentence of every paragraph and heading block
 * (also the one big block of a plain-text or PDF capture), every row of every table block with its header row
 * and its caption (`ArticleIndex.captionOf`: the caption block printed just before the table), and
 * every caption block whole. Sentences and captions longer than `MAX_CHUNK_CHARS` are cut.
 * Sentences, rows, caption and abbreviation definitions are those of `index` (the article's
 * `ArticleIndex`, built here when not given): the first definition of an abbreviation wins.
 * Pure; never throws.
 */
export function chunkArticle(article: Article, index: ArticleIndex = buildArticleIndex(article, [])): Chunk[] {
  const context: ChunkContext = { article, index, definitions: index.definitions() };
  const chunks: Chunk[] = [];
  for (const block of article.blocks) {
    if (block.kind === 'paragraph' || block.kind === 'heading') chunks.push(...sentenceChunks(block, context));
    else if (block.kind === 'caption') {
      boundedSpans(article.text, block).forEach((span, part) => chunks.push(makeChunk(block, part, 'caption', span, context)));
    } else if (block.kind === 'table') {
      chunks.push(...tableChunks(block, index.captionOf(block)?.text, context));
    }
  }
  return chunks;
}

/**
 * The span of `Article.text` a model reads when it is shown `chunk` (`renderChunk`): from the
 * previous sentence, which is rendered as its `[context]` line, to the end of the chunk; the
 * chunk alone when it has none. A fact whose material is named in the sentence before its value
 * ("… we grew CsPbBr3 nanocrystals. Their band gap is 2.3 eV") is
 * read whole. Table rows show header and caption as well, which lie elsewhere in the text and
 * are not part of the span. UTF-16 offsets, end exclusive.
 */
export function shownSpan(chunk: Chunk): { start: number; end: number } {
  return { start: chunk.previousStart ?? chunk.start, end: chunk.end };
}
