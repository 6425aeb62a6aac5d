/**
 * Builds `Article.text` and its `blocks` together so that the offset invariant holds by
 * construction: each block's text is appended to the article text (blocks separated by a blank
 * line) and its `start`/`end` recorded at that moment. Every capture path (HTML, XML, PDF) goes
 * through this one builder.
 */
import type { Block, BlockKind } from '../contracts/article';
import { CAPTURED_TEXT_LIMITS } from '../contracts/captured-text';
import { normalizeBlockText } from './normalize-text';

export const BLOCK_SEPARATOR = '\n\n';
/** The longest block `ArticleSchema` accepts (`CAPTURED_TEXT_LIMITS.block`); longer runs are split. */
const MAX_BLOCK_CHARS = CAPTURED_TEXT_LIMITS.block;
const MAX_SECTION_CHARS = CAPTURED_TEXT_LIMITS.section;

/** `text` cut into pieces of at most `MAX_BLOCK_CHARS`, at the last `separator` before each cut when there is one. */
function splitLongText(text: string, separator: string): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > MAX_BLOCK_CHARS) {
    const cut = rest.lastIndexOf(separator, MAX_BLOCK_CHARS);
    let end = cut > MAX_BLOCK_CHARS / 2 ? cut : MAX_BLOCK_CHARS;
    if (/[\uD800-\uDBFF]/.test(rest[end - 1] ?? '')) end -= 1; // never between the halves of a surrogate pair
    parts.push(rest.slice(0, end).trimEnd());
    rest = rest.slice(end).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}

export interface BlockOptions {
  section?: string;
  page?: number;
  /** Keep line breaks and tabs (tables: rows on lines, cells split by tabs). Default false. */
  preserveLines?: boolean;
}

export class ArticleBuilder {
  private readonly blocks: Block[] = [];
  private text = '';

  /**
   * Append one block. Control characters are removed and whitespace is normalized (see
   * `normalizeBlockText`); a block that is empty after normalization is dropped and `undefined`
   * returned. A text longer than `ArticleSchema` accepts for one block (200,000 characters) is
   * added as several blocks of the same kind, cut at spaces (line breaks in tables); the last
   * one is returned.
   */
  add(kind: BlockKind, rawText: string, options: BlockOptions = {}): Block | undefined {
    const preserveLines = options.preserveLines ?? kind === 'table';
    const text = normalizeBlockText(rawText, preserveLines);
    if (!text) return undefined;
    if (text.length > MAX_BLOCK_CHARS) {
      // A run longer than any real paragraph (a text file without blank lines): several blocks.
      let last: Block | undefined;
      for (const part of splitLongText(text, preserveLines ? '\n' : ' ')) last = this.append(kind, part, options);
      return last;
    }
    return this.append(kind, text, options);
  }

  private append(kind: BlockKind, text: string, options: BlockOptions): Block {
    if (this.text.length > 0) this.text += BLOCK_SEPARATOR;
    const start = this.text.length;
    this.text += text;
    const block: Block = { id: `b${this.blocks.length}`, kind, text, start, end: this.text.length };
    // A section name is a label: one longer than the schema allows (a paragraph marked up as a heading) is cut.
    if (options.section) block.section = normalizeBlockText(options.section, false).slice(0, MAX_SECTION_CHARS) || undefined;
    if (options.page !== undefined) block.page = options.page;
    if (block.section === undefined) delete block.section;
    this.blocks.push(block);
    return block;
  }

  get blockCount(): number {
    return this.blocks.length;
  }

  /** Characters of body text so far, excluding headings (used to tell articles from landing pages). */
  get bodyLength(): number {
    return this.blocks.filter((block) => block.kind !== 'heading').reduce((sum, block) => sum + block.text.length, 0);
  }

  build(): { blocks: Block[]; text: string } {
    return { blocks: [...this.blocks], text: this.text };
  }
}
