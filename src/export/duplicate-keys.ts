/**
 * Keys written twice in one JSON object (issue 27, item 10). `JSON.parse` keeps the last value of
 * a repeated key and says nothing (ECMA-262 §25.5.1; RFC 8259 §4 leaves it to the reader), so a
 * row `{"material":"GaN", …, "material":"AlN", "status":"verified"}` was imported as AlN over a
 * quote about GaN. A reader cannot tell which of two values was meant, so an import refuses such a
 * row. The keys are read by jsonc-parser's scanner (the JSON reader of VS Code), which unescapes
 * them as `JSON.parse` does ("\u0061" is "a").
 */
import { visit, type JSONPath } from 'jsonc-parser';

/** A key written more than once in one object: the key, and the path from the root to the object that holds it. */
export interface DuplicateKey {
  key: string;
  /** Keys and array indices from the text's root to the object (`[]` for the root object; `[3]` for a JSON array's fourth element). */
  path: JSONPath;
}

/**
 * Every repeated key of every object in `text` (JSON; read after `JSON.parse` accepted it), in
 * text order, each once per object however often it repeats. Empty when there are none. Runs in
 * one pass, without building the values. Never throws.
 */
export function duplicateKeys(text: string): DuplicateKey[] {
  const duplicates: DuplicateKey[] = [];
  const open: Array<{ keys: Set<string>; reported: Set<string> }> = [];
  visit(
    text,
    {
      onObjectBegin: () => {
        open.push({ keys: new Set(), reported: new Set() });
      },
      onObjectProperty: (key, _offset, _length, _line, _character, pathSupplier) => {
        const object = open[open.length - 1];
        if (!object) return;
        if (!object.keys.has(key)) object.keys.add(key);
        else if (!object.reported.has(key)) {
          object.reported.add(key);
          duplicates.push({ key, path: pathSupplier() });
        }
      },
      onObjectEnd: () => {
        open.pop();
      },
    },
    { disallowComments: true },
  );
  return duplicates;
}

/** How many keys the objects of a parsed JSON value hold, all levels. */
function keyCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + keyCount(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  for (const key of Object.keys(value)) count += 1 + keyCount((value as Record<string, unknown>)[key]);
  return count;
}

/**
 * True when `text` may repeat a key, given `value`, what `JSON.parse(text)` made of it; false
 * only when it certainly does not. Every key of the text ends with `"` and `:` (white space
 * between), so the text has at least as many such pairs as keys, and the value as many keys as
 * the text less its repeats: when the pairs are no more than the value's keys, nothing repeats.
 * A string holding `":` only sends the text to `duplicateKeys`. About ten times cheaper than
 * the scan, which it spares almost every row of a real file.
 */
export function mayRepeatKeys(text: string, value: unknown): boolean {
  let pairs = 0;
  for (const _pair of text.matchAll(/"\s*:/g)) pairs += 1;
  return pairs > keyCount(value);
}

/** The field a duplicate key names, for messages: `"material"`, `"evidence.quote.exact"`; `skip` leading path parts (a JSON array's index) are left out. */
function fieldName(duplicate: DuplicateKey, skip: number): string {
  return [...duplicate.path.slice(skip), duplicate.key].join('.');
}

/**
 * Why an entry with `duplicates` is refused, in words: "key "material" written twice (JSON keeps
 * only the last, so which value was meant cannot be told)"; at most three keys are named. `skip`
 * path parts are left out of each name (1 for the elements of a JSON array).
 */
export function duplicateKeysMessage(duplicates: readonly DuplicateKey[], skip = 0): string {
  const names = duplicates.slice(0, 3).map((duplicate) => `"${fieldName(duplicate, skip)}"`);
  const more = duplicates.length > 3 ? ` and ${duplicates.length - 3} more` : '';
  const what = duplicates.length === 1 ? `key ${names[0]} written twice` : `keys ${names.join(', ')}${more} written twice`;
  return `${what} in one object (JSON keeps only the last, so which value was meant cannot be told)`;
}
