/**
 * Builds `Article.text` and its `blocks` together so that the offset invariant holds by
 * construction: each block's text is appended to the article text (blocks separated by a blank
 * line) and its `start`/`end` recorded at that moment. Every capture path (HTML, XML, PDF) goes
 * through this one builder.
 */
import type { Block, BlockKind } from '../contracts/article';
import { normalizeBlockText } from './normalize-text';

export const BLOCK_SEPARATOR = '\n\n';

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
   * Append one block. Whitespace is normalized (see `normalizeBlockText`); a block that is
   * empty after normalization is dropped and `undefined` returned.
   */
  add(kind: BlockKind, rawText: string, options: BlockOptions = {}): Block | undefined {
    const text = normalizeBlockText(rawText, options.preserveLines ?? kind === 'table');
    if (!text) return undefined;
    if (this.text.length > 0) this.text += BLOCK_SEPARATOR;
    const start = this.text.length;
    this.text += text;
    const block: Block = { id: `b${this.blocks.length}`, kind, text, start, end: this.text.length };
    if (options.section) block.section = normalizeBlockText(options.section, false) || undefined;
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
