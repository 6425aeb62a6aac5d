/**
 * Length limits on the strings and lists of a stored triplet (`TripletSchema`, `EvidenceSchema`,
 * `DatasetTripletSchema` and the Chain-of-Verification answers). They are not the decoding caps
 * of `REPLY_LIMITS` (src/matrix/reply-limits.ts), which are advice to a model: these are
 * validation rules, so that an imported file or a misbehaving model cannot store a megabyte in
 * a field a person reads in one table cell. Each bound is several times the longest real value
 * measured in ../shared (2026-11-25), so no real paper reaches it:
 *
 * - material: SuperMat's longest of 1,133 materials is 98 characters, ComProScanner's longest
 *   composition 104 ("0.94K0.45Na0.55Nb0.95Sb0.05O3 - 0.02CaZrO3 - …"); the rules engine's
 *   longest over the 127 fixture documents is 20.
 * - quote: one passage (a sentence, table row or caption). The longest the rules engine quotes
 *   from the fixtures is 1,424 characters; a model quotes from one retrieval chunk (1,200,
 *   `MAX_CHUNK_CHARS`), and an elided quote may span at most 2 × 1,200 + 1,000 = 3,400
 *   (`maximumElidedSpan`). 10,000 keeps any real passage and refuses a pasted article.
 * - title: MuLMS's longest of 50 titles is 189 characters, the fixtures' 186.
 * - DOI: the longest of the 398 distinct DOIs in the datasets is 37 characters.
 * - author: the longest name in MuLMS is 36 characters; large collaborations list thousands
 *   of authors, hence the generous count.
 * - unit: the longest in ComProScanner is 8 characters ("p.m. V−1"), in the fixtures 6.
 * - journal: the longest in MuLMS is 56 characters.
 */
import { z } from 'zod';

/** One bound: the most characters (strings) or items (lists), what the field is, and why, for the error message. */
export interface TextLimit {
  max: number;
  what: string;
  why: string;
}

export const TEXT_LIMITS = {
  material: { max: 500, what: 'a material', why: 'the longest real one measured is 104 characters' },
  property: { max: 200, what: 'a property name', why: 'a schema name such as "band_gap"' },
  unit: { max: 100, what: 'a unit', why: 'a unit as printed, such as "mS cm^-1"' },
  valueText: { max: 200, what: 'a value as printed', why: 'such as "(3.40 ± 0.05) × 10^3"' },
  conditions: { max: 2_000, what: 'the conditions', why: 'a few clauses of temperature, pressure and method' },
  conditionValue: {
    max: 2_000,
    what: 'a condition',
    why: 'a method, a quantity or a few words; a legacy free-text condition keeps its old bound',
  },
  conditionList: { max: 32, what: 'a list of conditions', why: 'a method, a few quantities, a direction and a phase' },
  quote: { max: 10_000, what: 'a quote', why: 'one passage of the paper' },
  quoteContext: { max: 1_000, what: 'a quote prefix or suffix', why: 'a few words either side of the quote' },
  blockId: { max: 100, what: 'a block id', why: 'such as "b12"' },
  engine: { max: 100, what: 'an engine name', why: 'such as "moa" or "rules"' },
  paperKey: { max: 5_000, what: 'a paper key', why: '"doi:", "url:" or "title:" and the DOI, page address or title' },
  doi: { max: 500, what: 'a DOI', why: 'the longest real one measured is 37 characters' },
  url: { max: 4_096, what: 'a page address', why: 'a web address' },
  title: { max: 2_000, what: 'a title', why: 'the longest real one measured is 189 characters' },
  author: { max: 500, what: 'an author name', why: 'one person or group' },
  authors: { max: 10_000, what: 'an author list', why: 'large collaborations list a few thousand' },
  journal: { max: 1_000, what: 'a journal name', why: 'the longest real one measured is 56 characters' },
  volume: { max: 100, what: 'a volume', why: 'a volume as printed, such as "127" or "A12"' },
  pages: { max: 100, what: 'a page range', why: 'such as "10709-10716" or an article number "041027"' },
  id: { max: 200, what: 'an id', why: 'a UUID, or a run id and a record number' },
  mergeKey: { max: 8_000, what: 'a merge key', why: 'the paper key, material, property and value joined' },
  vote: { max: 100, what: 'a vote', why: 'a path or tool name such as "moa"' },
  votes: { max: 100, what: 'a list of votes', why: 'one per path or proposer' },
  model: { max: 200, what: 'a model id', why: 'such as "Qwen2.5-1.5B-Instruct-q4f16_1-MLC"' },
  models: { max: 100, what: 'a list of model ids', why: 'one per role of a run' },
  question: { max: 2_000, what: 'a verification question or answer', why: 'one question or a short answer' },
  questionId: { max: 100, what: 'a question id', why: 'such as "phase"' },
  answers: { max: 100, what: 'a list of verification answers', why: 'one per question of a property' },
  fileName: { max: 255, what: 'a file name', why: 'file systems allow at most 255 bytes' },
  reason: { max: 2_000, what: 'a reason', why: 'one doubt of the gate in words, quoting a few words of the paper' },
  reasons: { max: 64, what: 'a list of reasons', why: 'one per doubt of the gate and of cross-verification' },
} as const satisfies Record<string, TextLimit>;

const count = (value: number) => value.toLocaleString('en-US');

/**
 * `z.string()` of at most `limit.max` characters (UTF-16 units, as `String.length` counts), whose
 * error says so in words: "a quote is at most 10,000 characters (one passage of the paper); this
 * one has 12,345".
 */
export function boundedText(limit: TextLimit): z.ZodString {
  return z.string().max(limit.max, {
    error: (issue) =>
      `${limit.what} is at most ${count(limit.max)} characters (${limit.why}); this one has ${count(String(issue.input).length)}`,
  });
}

/** `z.array(item)` of at most `limit.max` items, with the same kind of message as `boundedText`. */
export function boundedList<Item extends z.ZodType>(item: Item, limit: TextLimit): z.ZodArray<Item> {
  return z.array(item).max(limit.max, {
    error: (issue) =>
      `${limit.what} holds at most ${count(limit.max)} entries (${limit.why}); this one has ${count((issue.input as unknown[]).length)}`,
  });
}
