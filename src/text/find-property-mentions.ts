/**
 * Finds where a text names a property: by a synonym ("band gap", "Curie temperature") or a
 * symbol ("Eg", "Tc"), using the lexicon of the property schemas the caller passes (its
 * catalogue), so this text reading depends on no property module (.dependency-cruiser.cjs,
 * `text-below-properties`).
 */
import type { PropertyDefinition } from '../contracts/property';

/** A property named in a text: offsets (UTF-16, end exclusive), the text as written, the schema name. */
export interface PropertyMention {
  start: number;
  end: number;
  text: string;
  property: string;
}

const letterOrDigitBefore = '(?<![\\p{L}\\p{N}])';
const letterOrDigitAfter = '(?![\\p{L}\\p{N}])';
// Symbols are glued to subscripts and indices in extracted text ("Tc0", "Eg1"): an underscore
// or a further letter/digit after the symbol makes it a different symbol.
const symbolBefore = '(?<![\\p{L}\\p{N}_])';
const symbolAfter = '(?![\\p{L}\\p{N}_])';
// "a = 3.905 Å", "a ≈ 5.43(1) Å", "c = 1.2 nm": an assignment of a number with a length unit.
const latticeAssignment = '(?=\\s*[=≈~]\\s*[-−]?\\d+(?:[.,]\\d+)?\\s*(?:\\(\\d+\\)\\s*)?(?:Å|nm|pm|Angstrom|angstrom)(?![\\p{L}]))';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Spaces in a lexicon entry match any run of white space (PDF text breaks lines anywhere). */
function lexiconPattern(entry: string): string {
  return entry.trim().split(/\s+/).map(escape).join('\\s+');
}

function byLengthDescending(entries: string[]): string[] {
  return [...entries].sort((left, right) => right.length - left.length);
}

interface CompiledProperty {
  name: string;
  synonyms: RegExp;
  symbols: RegExp | null;
}

// Compiled patterns are cached per schema object: schemas are immutable once loaded.
const compiledCache = new WeakMap<PropertyDefinition, CompiledProperty>();

function compile(schema: PropertyDefinition): CompiledProperty {
  const cached = compiledCache.get(schema);
  if (cached) return cached;
  const synonymAlternatives = byLengthDescending(schema.synonyms).map(lexiconPattern).join('|');
  // Names are case-insensitive and may be plural ("band gaps", "Curie temperatures").
  const synonyms = new RegExp(`${letterOrDigitBefore}(?:${synonymAlternatives})(?:e?s)?${letterOrDigitAfter}`, 'giu');
  let symbols: RegExp | null = null;
  if (schema.symbols.length > 0) {
    const symbolAlternatives = byLengthDescending(schema.symbols).map(lexiconPattern).join('|');
    const after = schema.symbolContext === 'lattice-assignment' ? latticeAssignment : symbolAfter;
    symbols = new RegExp(`${symbolBefore}(?:${symbolAlternatives})${after}`, 'gu');
  }
  const compiled = { name: schema.name, synonyms, symbols };
  compiledCache.set(schema, compiled);
  return compiled;
}

function collect(text: string, pattern: RegExp, property: string, into: PropertyMention[]): void {
  for (const match of text.matchAll(pattern)) {
    into.push({ start: match.index, end: match.index + match[0].length, text: match[0], property });
  }
}

/**
 * All property mentions in `text`, in order of `start`. Synonyms match case-insensitively as
 * whole words (with an optional plural "s"); symbols match case-sensitively as whole words, and
 * `lattice-assignment` symbols only before "= <number> <length unit>". Where mentions overlap,
 * the longest wins ("lattice constant a" over "lattice constant", "Tc,onset" over "Tc"); on a
 * tie the schema listed first wins.
 */
export function findPropertyMentions(text: string, schemas: readonly PropertyDefinition[]): PropertyMention[] {
  const found: PropertyMention[] = [];
  for (const schema of schemas) {
    const compiled = compile(schema);
    collect(text, compiled.synonyms, compiled.name, found);
    if (compiled.symbols) collect(text, compiled.symbols, compiled.name, found);
  }
  // Stable sort keeps schema order on ties.
  const byPriority = found
    .map((mention, order) => ({ mention, order }))
    .sort((left, right) => right.mention.end - right.mention.start - (left.mention.end - left.mention.start) || left.order - right.order);
  const kept: PropertyMention[] = [];
  for (const { mention } of byPriority) {
    if (kept.every((other) => mention.end <= other.start || mention.start >= other.end)) kept.push(mention);
  }
  return kept.sort((left, right) => left.start - right.start);
}

// Contextual synonyms are compiled apart from the lexicon: they never enter the scan.
const contextualCache = new WeakMap<PropertyDefinition, RegExp | null>();

function compileContextual(schema: PropertyDefinition): RegExp | null {
  if (contextualCache.has(schema)) return contextualCache.get(schema)!;
  let pattern: RegExp | null = null;
  if (schema.contextualSynonyms.length > 0) {
    const names = byLengthDescending(schema.contextualSynonyms).map(lexiconPattern).join('|');
    // An exclusion is the word(s) right before the name, joined by white space or a hyphen.
    const excluded = byLengthDescending(schema.contextualExclusions).map(lexiconPattern).join('|');
    const notExcluded = excluded ? `(?<!${letterOrDigitBefore}(?:${excluded})[\\s\\-‐–]+)` : '';
    pattern = new RegExp(`${notExcluded}${letterOrDigitBefore}(?:${names})(?:e?s)?${letterOrDigitAfter}`, 'giu');
  }
  contextualCache.set(schema, pattern);
  return pattern;
}

/**
 * Where `text` names `schema`'s property by a contextual synonym (`contextualSynonyms`: "gap"
 * for the band gap), in order of `start`: case-insensitive whole words with an optional plural,
 * except where one of `contextualExclusions` stands right before it ("spin gap", "spin-gap",
 * "non-superconducting"). Only for the attribution check, which adds the context (a value of
 * the property's units in the same evidence); the scan uses `findPropertyMentions` alone.
 * Empty when the schema has no contextual synonyms.
 */
export function findContextualMentions(text: string, schema: PropertyDefinition): PropertyMention[] {
  const pattern = compileContextual(schema);
  const found: PropertyMention[] = [];
  if (pattern) collect(text, pattern, schema.name, found);
  return found;
}
