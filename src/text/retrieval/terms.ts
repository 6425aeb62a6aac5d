/**
 * Terms for retrieval: one tokenizer shared by the BM25 index, the query and the lexical
 * similarity MMR uses, so the three agree on what a word is.
 *
 * A term is a lower-cased run of letters, digits and underscores ("e_g", "tio2", "mev"), or a
 * number with its decimals ("2.1" stays one term rather than "2" and "1"). English function
 * words are dropped: BM25's idf already makes them cheap, but in the cosine similarity of two
 * sentences they would make every pair look alike.
 */
import type { PropertyDefinition } from '../../contracts/property';

const STOPWORDS = new Set(
  (
    'a an and are as at be been by can for from has have in into is it its of on or that the their these this those to ' +
    'was we were which with while than then there also our not no all both such between using used'
  ).split(' '),
);

/** Terms of `text`, in order, repeats kept: lower-cased words and numbers, without stopwords. */
export function terms(text: string): string[] {
  const words = text.toLowerCase().match(/\p{N}+(?:[.,]\p{N}+)*|[\p{L}\p{N}_]+/gu) ?? [];
  return words.filter((word) => !STOPWORDS.has(word));
}

/**
 * The query for `property`: the distinct terms of its label, synonyms, symbols and units, e.g.
 * band gap → "band", "gap", "bandgap", "optical", "energy", "fundamental", "eg", "e_g", …, "ev",
 * "mev". One-letter terms are dropped (a symbol "a" or a unit "K" would match every "a" and every
 * "K"), unless the property has nothing else.
 */
export function propertyQueryTerms(property: PropertyDefinition): string[] {
  const all = [...new Set([property.label, ...property.synonyms, ...property.symbols, ...property.units].flatMap(terms))];
  const longer = all.filter((term) => term.length > 1);
  return longer.length > 0 ? longer : all;
}

/** Term frequencies of `text`. */
export function termVector(text: string): Map<string, number> {
  const vector = new Map<string, number>();
  for (const term of terms(text)) vector.set(term, (vector.get(term) ?? 0) + 1);
  return vector;
}

/** Cosine of two term-frequency vectors, in [0, 1]; 0 when either is empty. */
export function cosineSimilarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  for (const [term, count] of a) dot += count * (b.get(term) ?? 0);
  if (dot === 0) return 0;
  const norm = (vector: ReadonlyMap<string, number>) => Math.sqrt([...vector.values()].reduce((sum, count) => sum + count * count, 0));
  return dot / (norm(a) * norm(b));
}
