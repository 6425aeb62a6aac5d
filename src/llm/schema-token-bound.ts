/**
 * How many tokens a reply valid under a JSON schema can take, for engines whose grammar ignores
 * `maxLength` / `maxItems` (WebLLM 0.2.79's XGrammar): `generateObject` gives a request that sets
 * no max_tokens this bound, so a model that loops inside a string or a list is stopped once no
 * valid reply could still be that long instead of running to the end of the context window.
 * With the caps of src/matrix/reply-limits.ts an extraction reply's bound is about 53,000 tokens,
 * far above the presets' max_tokens (1,024 browser, 2,048 paper), which stay the limit that cuts
 * a runaway extraction reply (`truncated-output`).
 */

/**
 * Characters per token assumed for string contents: 1, every character its own token. Every
 * ASCII character is at most one token in the byte-level BPE vocabularies of Qwen2.5, Llama 3 and
 * Gemma 2 and in Mistral v0.3's SentencePiece with byte fallback, so this holds for any ASCII text;
 * a non-ASCII character can take 2–4 tokens (its UTF-8 bytes). Measured with those four
 * tokenizers (src/llm/tokenizers.ts) on the 90,474 sentences of 40–1,000 characters of
 * bandgap-200's texts: 99.9% have ≥ 1.03 characters per token (median 3.9–4.6), the worst 0.33 (a
 * line of symbols); on 982 material names from SuperMat and bandgap-200, ≥ 0.89 (median 1.4–1.6:
 * formulas split into digits and element symbols). A smaller floor would bound nothing useful.
 */
export const CHARS_PER_TOKEN_FLOOR = 1;

/**
 * Characters of a JSON number, at most: 24, the longest shortest-round-trip form of a double
 * ("-1.2345678901234567e-308", ECMAScript Number::toString). A model may print more digits; a
 * number that long is no measurement.
 */
export const NUMBER_CHARS = 24;

/**
 * Whitespace tokens per JSON value: pretty-printed JSON has a newline-and-indent run before each
 * value (or key) and before each closing bracket, and one run is one token in the vocabularies
 * above (runs of spaces and newlines are merged tokens); 2 per value covers both runs. A grammar
 * that allows any whitespace (WebLLM compiles its JSON schemas with XGrammar's `any_whitespace`)
 * admits more, but a reply that spends more than that on whitespace is itself a loop (a
 * whitespace run is what `detectRepetition` names with the shortest unit), so the bound is meant
 * as "the longest reply worth waiting for", not a proof about the grammar.
 */
export const WHITESPACE_TOKENS_PER_VALUE = 2;

/** Characters of the longest valid JSON text, and how many JSON values it holds (containers included). */
interface Size {
  chars: number;
  values: number;
}

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

function largest(sizes: ReadonlyArray<Size | null>): Size | null {
  if (sizes.length === 0 || sizes.some((size) => size === null)) return null;
  return (sizes as Size[]).reduce((a, b) => ({ chars: Math.max(a.chars, b.chars), values: Math.max(a.values, b.values) }));
}

function sizeOfType(type: unknown, schema: Schema): Size | null {
  switch (type) {
    case 'string':
      // Two quotation marks; escapes (\" is two characters) are not counted.
      return typeof schema.maxLength === 'number' ? { chars: schema.maxLength + 2, values: 1 } : null;
    case 'number':
    case 'integer':
      return { chars: NUMBER_CHARS, values: 1 };
    case 'boolean':
      return { chars: 5, values: 1 };
    case 'null':
      return { chars: 4, values: 1 };
    case 'array': {
      if (typeof schema.maxItems !== 'number' || !isSchema(schema.items)) return null;
      const item = sizeOf(schema.items);
      // Brackets, and each item with its comma.
      return item ? { chars: 2 + schema.maxItems * (item.chars + 1), values: 1 + schema.maxItems * item.values } : null;
    }
    case 'object': {
      if (schema.additionalProperties !== false || !isSchema(schema.properties)) return null;
      let size: Size = { chars: 2, values: 1 };
      for (const [key, value] of Object.entries(schema.properties)) {
        const member = isSchema(value) ? sizeOf(value) : null;
        if (!member) return null;
        // Every property, required or not: "key", colon, value, comma.
        size = { chars: size.chars + JSON.stringify(key).length + 1 + member.chars + 1, values: size.values + member.values };
      }
      return size;
    }
    default:
      return null;
  }
}

/** The size of the longest JSON text valid under `schema`, or null when nothing bounds it. */
function sizeOf(schema: Schema): Size | null {
  const options = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (options)
    return options.length === 0 ? null : { chars: Math.max(...options.map((option) => JSON.stringify(option).length)), values: 1 };
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches) return largest(branches.map((branch) => (isSchema(branch) ? sizeOf(branch) : null)));
  if (Array.isArray(schema.type)) return largest(schema.type.map((type) => sizeOfType(type, schema)));
  return sizeOfType(schema.type, schema);
}

/**
 * An upper bound on the tokens of a reply valid under `jsonSchema` (a JSON Schema object, e.g.
 * `jsonSchemaFor(schema).schema`): ⌈characters / `charsPerToken`⌉ + `WHITESPACE_TOKENS_PER_VALUE`
 * per JSON value + 1 (the end-of-sequence token), where characters are those of the longest
 * compact valid text — each string its `maxLength` + 2 quotes, each number `NUMBER_CHARS`, an
 * enum or const its longest option as JSON, an array its brackets + `maxItems` × (item + comma),
 * an object its braces + every property's "key": value, (required or not), `anyOf`/`oneOf` and a
 * list of types their largest. → null when the schema does not bound the reply: a string without
 * `maxLength`, an array without `maxItems`, an object that allows other properties, `{}`, `$ref`,
 * `allOf`, or anything else not listed. Holds for ASCII content at the default floor (see
 * `CHARS_PER_TOKEN_FLOOR` for what it does not cover: non-ASCII-heavy strings, escapes). Pure.
 */
export function maxTokensForSchema(jsonSchema: Record<string, unknown>, options: { charsPerToken?: number } = {}): number | null {
  const size = sizeOf(jsonSchema);
  if (!size) return null;
  return Math.ceil(size.chars / (options.charsPerToken ?? CHARS_PER_TOKEN_FLOOR)) + size.values * WHITESPACE_TOKENS_PER_VALUE + 1;
}
