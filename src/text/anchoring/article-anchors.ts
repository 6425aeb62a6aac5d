/** Anchoring on an `Article`: a bare quote string, and the block an offset falls in. */
import type { Article, Block } from '../../contracts/article';
import { anchorEvidence, type Anchor } from './anchor-evidence';

/**
 * Anchor a bare quote (what a model returns when it gives no selectors) in `article.text`:
 * the best exact, whitespace-insensitive or fuzzy match, or `null` when it is not there or the
 * quote is empty. Offsets are UTF-16 indices into `article.text`.
 */
export function anchorQuoteInArticle(article: Article, exact: string): Anchor | null {
  if (exact.length === 0) return null;
  return anchorEvidence(article.text, { quote: { type: 'TextQuoteSelector', exact, prefix: '', suffix: '' } });
}

/**
 * The block whose [start, end) contains `offset` (binary search over the reading-order blocks;
 * gives `id` and, for PDFs, `page`), or `null` when the offset falls between blocks or outside
 * the text.
 */
export function blockAt(article: Article, offset: number): Block | null {
  const blocks = article.blocks;
  let low = 0;
  let high = blocks.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const block = blocks[middle]!;
    if (offset < block.start) high = middle - 1;
    else if (offset >= block.end) low = middle + 1;
    else return block;
  }
  return null;
}
