/**
 * The passage each property's model calls see: the article blocks in which the deterministic
 * scan (`scanArticle`) found a candidate value for that property, in reading order, each headed
 * by its block id, capped in length. Sending passages rather than the whole paper keeps prompts
 * inside small models' context windows; the cost is that a value the scan cannot see (no
 * property word in its sentence) is not shown to the models either.
 */
import type { Article } from '../contracts/article';
import type { Candidate } from '../text/scan-types';

export interface Passage {
  /** `[b3] <block text>` paragraphs joined by blank lines. */
  text: string;
  /** Blocks included (wholly or cut), in reading order. */
  blockIds: string[];
  /** Blocks with candidates left out or cut because of the cap. */
  truncatedBlockIds: string[];
  /** Scan candidates in the blocks, for the run record. */
  candidates: number;
  /** The spans of `article.text` the passage shows (a whole block, or the cut part of one), in reading order. */
  ranges: { start: number; end: number }[];
}

/** Below this many characters of room, a block that does not fit is left out rather than cut. */
const MIN_CUT = 200;

/**
 * Build the passage for one property from its scan `candidates`, at most `maxChars` characters.
 * Whole blocks are added in reading order while they fit. A block that does not fit is cut when
 * at least `MIN_CUT` (200) characters of room remain: the cut starts at its first candidate's
 * sentence (or table segment) and runs for the room left, marked with "…"; otherwise the block
 * is left out. Both cases are listed in `truncatedBlockIds`. No candidates → empty text.
 * Trade-off: reading order rather than candidate density keeps the paper's own flow (material
 * defined before its value) at the price of maybe cutting a dense late table.
 */
export function buildPassage(article: Article, candidates: readonly Candidate[], maxChars: number): Passage {
  const byBlock = new Map<string, Candidate[]>();
  for (const candidate of candidates) byBlock.set(candidate.blockId, [...(byBlock.get(candidate.blockId) ?? []), candidate]);
  const parts: string[] = [];
  const blockIds: string[] = [];
  const truncatedBlockIds: string[] = [];
  const ranges: { start: number; end: number }[] = [];
  let used = 0;
  for (const block of article.blocks) {
    const inBlock = byBlock.get(block.id);
    if (!inBlock) continue;
    const separator = parts.length > 0 ? 2 : 0;
    const whole = `[${block.id}] ${block.text}`;
    if (used + separator + whole.length <= maxChars) {
      parts.push(whole);
      blockIds.push(block.id);
      ranges.push({ start: block.start, end: block.end });
      used += separator + whole.length;
      continue;
    }
    truncatedBlockIds.push(block.id);
    const head = `[${block.id}] …`;
    const room = maxChars - used - separator - head.length - 1;
    if (room < MIN_CUT) continue;
    const from = Math.max(block.start, Math.min(...inBlock.map((candidate) => candidate.segment.start)));
    const cutEnd = Math.min(block.end, from + room);
    const cut = article.text.slice(from, cutEnd);
    const piece = `${head}${cut}${from + room < block.end ? '…' : ''}`;
    parts.push(piece);
    blockIds.push(block.id);
    ranges.push({ start: from, end: cutEnd });
    used += separator + piece.length;
  }
  return { text: parts.join('\n\n'), blockIds, truncatedBlockIds, candidates: candidates.length, ranges };
}
