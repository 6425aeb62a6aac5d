/**
 * The words of the dataset's full-text search (src/store/triplet-search-index.ts): how a
 * triplet's text is cut into index terms and a typed search into query words.
 *
 * A word is a run of non-space characters with the punctuation at its ends dropped ("(TiO2),"
 * is "tio2"), so a chemical formula ("Ba0.5Sr0.5TiO3", "Ca(OH)2", "TiO2/ZnO") or a DOI
 * ("10.1021/acs.nanolett.5b01234") is one word, never cut at its dots or brackets. Text is
 * NFKC-normalized and lower-cased first, so "TiO₂" is "tio2" and a ligature "ﬁ" is "fi".
 * Besides the whole word, the index holds each part of it that starts after a punctuation mark
 * inside it ("acs.nanolett.5b01234", "nanolett.5b01234", "5b01234"; "oh)2" of "ca(oh)2";
 * "luminescence" of "photo-luminescence"), so a DOI's or formula's later part is found too.
 */

/** The longest word indexed or searched, in UTF-16 units: longer words keep their first 100 (a DOI is at most ~40; only junk is longer). */
export const MAX_WORD_LENGTH = 100;

/** At most this many inner parts are indexed per word, so a hostile "a.a.a.a…" cannot multiply the index. */
export const MAX_WORD_PARTS = 8;

/** Punctuation at a word's ends: anything but a letter, a mark or a digit. */
const EDGES = /^[^\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+$/gu;

/** A letter or digit right after a character that is neither: where an inner part starts. */
const PART_START = /(?<=[^\p{L}\p{M}\p{N}])[\p{L}\p{N}]/gu;

/** The words of `text`: NFKC, lower case, split at white space, end punctuation dropped, each cut to `MAX_WORD_LENGTH`; empty words left out. */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  for (const raw of text.normalize('NFKC').toLowerCase().split(/\s+/u)) {
    const word = raw.replace(EDGES, '').slice(0, MAX_WORD_LENGTH);
    if (word !== '') words.push(word);
  }
  return words;
}

/**
 * The index terms of `text`: each word (`searchWords`) and, for a word with punctuation inside,
 * up to `MAX_WORD_PARTS` of its tails that start at a letter or digit after a punctuation mark.
 * "See 10.1021/acs.nl.5b0" → ["see", "10.1021/acs.nl.5b0", "1021/acs.nl.5b0", "acs.nl.5b0", "nl.5b0", "5b0"].
 */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of searchWords(text)) {
    terms.push(word);
    let parts = 0;
    for (const match of word.matchAll(PART_START)) {
      if (parts === MAX_WORD_PARTS) break;
      terms.push(word.slice(match.index));
      parts += 1;
    }
  }
  return terms;
}

/**
 * FNV-1a, 32 bits, over the UTF-16 code units of `text` (Fowler, Noll and Vo;
 * http://www.isthe.com/chongo/tech/comp/fnv/: offset basis 2166136261, prime 16777619). The
 * index keeps it per row to tell, when it re-reads the table, which rows' text changed; two
 * texts of one row colliding (odds 2⁻³²) would leave that row's old words indexed.
 */
export function textFingerprint(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
