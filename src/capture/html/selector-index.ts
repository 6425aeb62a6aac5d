/**
 * Resolving long selector lists in one pass over the tree.
 *
 * Adapters describe what to leave out with long lists of simple selectors (`.references`,
 * `#Bib1`, `div.abstract`). Browsers answer `querySelectorAll` for such a list natively and fast,
 * but jsdom's selector engine scans the whole tree once per list item, which cost close to a
 * second per capture on large pages (6,000 elements, 80 items). So compound selectors made only
 * of a tag, ids and classes are matched here in a single walk, from each element's `class` and
 * `id` attributes read once; anything else (`a[href^="#top"]`, `.x .y`, `:not()`) is left to
 * `querySelectorAll`. The result is the same set of elements either way.
 */

interface CompoundSelector {
  tag: string | null;
  id: string | null;
  classes: string[];
}

const COMPOUND = /^([a-zA-Z][\w-]*)?((?:[.#][\w-]+)*)$/;

/** Split a selector list at top-level commas (not inside `()` or `[]`). */
export function splitSelectorList(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of list) {
    if (character === '(' || character === '[') depth += 1;
    if (character === ')' || character === ']') depth -= 1;
    if (character === ',' && depth === 0) {
      if (current.trim()) items.push(current.trim());
      current = '';
    } else {
      current += character;
    }
  }
  if (current.trim()) items.push(current.trim());
  return items;
}

function parseCompound(selector: string, fold: (name: string) => string): CompoundSelector | null {
  const match = COMPOUND.exec(selector);
  if (!match || (!match[1] && !match[2])) return null;
  const parts = match[2]?.match(/[.#][\w-]+/g) ?? [];
  const ids = parts.filter((part) => part.startsWith('#')).map((part) => part.slice(1));
  if (ids.length > 1) return null;
  const id = ids[0];
  return {
    tag: match[1]?.toLowerCase() ?? null,
    id: id ? fold(id) : null,
    classes: parts.filter((part) => part.startsWith('.')).map((part) => fold(part.slice(1))),
  };
}

/**
 * For each selector list, the set of elements under `scope` (the scope itself excluded, as with
 * `querySelectorAll`) that match it. An empty list gives an empty set.
 */
export function selectAll(scope: ParentNode, lists: readonly string[]): Set<Element>[] {
  const results = lists.map(() => new Set<Element>());
  // In quirks mode (old pages without a doctype) browsers match class names and ids ignoring case.
  const ownerDocument = (scope as Node).ownerDocument ?? (scope as Document);
  const fold = ownerDocument.compatMode === 'BackCompat' ? (name: string) => name.toLowerCase() : (name: string) => name;
  // Compound selectors indexed by their most selective key: id, else first class, else tag.
  const byId = new Map<string, { compound: CompoundSelector; list: number }[]>();
  const byClass = new Map<string, { compound: CompoundSelector; list: number }[]>();
  const byTag = new Map<string, { compound: CompoundSelector; list: number }[]>();
  const push = (
    map: Map<string, { compound: CompoundSelector; list: number }[]>,
    key: string,
    entry: { compound: CompoundSelector; list: number },
  ): void => {
    const entries = map.get(key) ?? [];
    entries.push(entry);
    map.set(key, entries);
  };
  lists.forEach((list, index) => {
    for (const selector of splitSelectorList(list)) {
      const compound = parseCompound(selector, fold);
      if (!compound) {
        for (const element of scope.querySelectorAll(selector)) results[index]?.add(element);
        continue;
      }
      const entry = { compound, list: index };
      if (compound.id) push(byId, compound.id, entry);
      else if (compound.classes[0]) push(byClass, compound.classes[0], entry);
      else if (compound.tag) push(byTag, compound.tag, entry);
    }
  });
  if (byId.size === 0 && byClass.size === 0 && byTag.size === 0) return results;
  const test = (
    element: Element,
    classes: readonly string[],
    id: string,
    entries: { compound: CompoundSelector; list: number }[] | undefined,
  ): void => {
    for (const { compound, list } of entries ?? []) {
      if (compound.tag && compound.tag !== element.localName.toLowerCase()) continue;
      if (compound.id && compound.id !== id) continue;
      if (!compound.classes.every((name) => classes.includes(name))) continue;
      results[list]?.add(element);
    }
  };
  const visit = (parent: ParentNode): void => {
    for (let element = parent.firstElementChild; element; element = element.nextElementSibling) {
      const classAttribute = element.getAttribute('class');
      const classes = classAttribute ? classAttribute.split(/\s+/).filter(Boolean).map(fold) : [];
      const id = fold(element.getAttribute('id') ?? '');
      if (id) test(element, classes, id, byId.get(id));
      for (const name of new Set(classes)) test(element, classes, id, byClass.get(name));
      test(element, classes, id, byTag.get(element.localName.toLowerCase()));
      visit(element);
    }
  };
  visit(scope);
  return results;
}

/** True when `element` or an ancestor (up to, not including, `stop`) is in `set`. */
export function withinSet(element: Element, set: ReadonlySet<Element>, stop: Element | null = null): boolean {
  for (let current: Element | null = element; current && current !== stop; current = current.parentElement) {
    if (set.has(current)) return true;
  }
  return false;
}
