/**
 * What the discriminator reads to answer a triplet's verification questions: the retrieval
 * chunks (`chunkArticle`, src/text/retrieval) its evidence quote lies in, with the sentence before
 * the first one (the material or the method is often named there) and, for a table row, the
 * caption and header. Eunomia's CoV re-reads "the exact in-context sentence" (Fig. 1); the
 * sentence before it is what attribution needs too (issue 11).
 */
import type { Article } from '../../contracts/article';
import type { Triplet } from '../../contracts/triplet';
import type { Chunk } from '../../text/retrieval';

/**
 * The evidence text for `triplet`, one part per line: for a table row its caption and header
 * row, else the sentence before the quote's first chunk (same block) when there is one; then the
 * text of every chunk its evidence position overlaps (a quote may span two sentences). Without a
 * position, or when no chunk overlaps it (a heading), the quote itself. Null for a triplet with
 * no evidence. `chunks` are `chunkArticle(article)`'s, in reading order.
 */
export function evidenceChunkText(triplet: Triplet, article: Article, chunks: readonly Chunk[]): string | null {
  const evidence = triplet.evidence;
  if (!evidence) return null;
  const position = evidence.position;
  const overlapping = position ? chunks.filter((chunk) => chunk.start < position.end && chunk.end > position.start) : [];
  const first = overlapping[0];
  if (!first) return position ? article.text.slice(position.start, position.end) || evidence.quote.exact : evidence.quote.exact;
  const context = first.table
    ? [first.table.caption, first.table.header].filter((line): line is string => line !== undefined && line !== '')
    : first.previousSentence
      ? [first.previousSentence]
      : [];
  return [...context, overlapping.map((chunk) => chunk.quote).join(' ')].join('\n');
}
