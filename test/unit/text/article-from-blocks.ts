/** Build a valid `Article` from block texts (joined by blank lines), for scan and rules tests. */
import { ArticleSchema, type Article, type BlockKind } from '../../../src/contracts/article';

export function articleFromBlocks(blocks: { kind: BlockKind; text: string; page?: number }[]): Article {
  let text = '';
  const built = blocks.map((block, index) => {
    if (index > 0) text += '\n\n';
    const start = text.length;
    text += block.text;
    return { id: `b${index}`, kind: block.kind, text: block.text, start, end: text.length, ...(block.page ? { page: block.page } : {}) };
  });
  return ArticleSchema.parse({
    doi: null,
    doiOrigin: null,
    title: 'Test article',
    authors: [],
    journal: null,
    year: null,
    url: null,
    source: 'text',
    adapter: 'generic',
    blocks: built,
    text,
    abstractOnly: false,
    warnings: [],
  });
}

export const paragraph = (text: string) => ({ kind: 'paragraph' as const, text });
export const table = (text: string) => ({ kind: 'table' as const, text });
