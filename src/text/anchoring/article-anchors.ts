/** Anchoring on an `Article`: a bare quote string, and the block an offset falls in. */
import type { Article, Block } from '../../contracts/article';
import type { Evidence } from '../../contracts/evidence';
import { anchorEvidence, type Anchor } from './anchor-evidence';
import { describeQuote } from './describe-quote';

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

/**
 * Full selectors for a quote a model gave bare: anchor `evidence` in `article.text` and describe
 * the span found — the article's own text as `exact` (so a whitespace or fuzzy match is stored as
 * the paper prints it), 32 characters of prefix and suffix, the `TextPositionSelector`, and the
 * block id and PDF page. Evidence that already has a position, or that does not anchor (a quote
 * the paper does not contain), is returned unchanged: it is never made to look anchored.
 */
export function completeEvidence(article: Article, evidence: Evidence): Evidence {
  if (evidence.position) return evidence;
  const anchor = anchorEvidence(article.text, evidence);
  if (!anchor || anchor.end <= anchor.start) return evidence;
  const block = blockAt(article, anchor.start);
  return {
    ...describeQuote(article.text, anchor.start, anchor.end),
    ...(block ? { blockId: block.id, ...(block.page !== undefined ? { page: block.page } : {}) } : {}),
  };
}
