/**
 * Resolving long selector lists in one pass over the tree.
 *
 * Adapters describe what to leave out with long lists of simple selectors (`.references`,
 * `#Bib1`, `div.abstract`). Browsers answer `querySelectorAll` for such a list natively and fast,
 * but jsdom's selector engine scans the whole tree once per list item, which cost close to a
 * second per capture on large pages (6,000 elements, 80 items), and a full second per
 * `querySelectorAll` on a 5 MB page. So every list is answered in a single walk (`selectAll`):
 * compound selectors made only of a tag, ids and classes are matched from each element's
 * `class` and `id` attributes read once; others (`a[href^="#top"]`, `.x .y`, `:not()`) are
 * tested with `matches()` on the elements that carry their subject's id, class, tag or
 * attribute. The result is the same set of elements as `querySelectorAll` gives.
 */

import { walkElements } from '../tree-walk';

interface CompoundSelector {
  tag: string | null;
  id: string | null;
  classes: string[];
}

const NO_CLASSES: readonly string[] = [];

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

/** One selector of a list, filed under the key its subject must carry (`#id`, `.class`, a tag, `@attribute`). */
interface IndexedSelector {
  list: number;
  /** Set for tag/id/class compounds, matched here; otherwise `selector` is tested with `matches()`. */
  compound: CompoundSelector | null;
  selector: string;
}

/**
 * The key every element matching `selector` must carry, read from its subject (rightmost
 * compound): `#id`, else `.class`, else the tag, else `@name` of an attribute condition; null
 * when the subject names none of these (`*`, `:first-child`) or is escaped.
 */
export function subjectKey(selector: string, fold: (name: string) => string): string | null {
  let depth = 0;
  let start = 0;
  for (let index = selector.length - 1; index >= 0; index -= 1) {
    const character = selector[index]!;
    if (character === ')' || character === ']') depth += 1;
    else if (character === '(' || character === '[') depth -= 1;
    else if (depth === 0 && /[\s>+~]/.test(character)) {
      start = index + 1;
      break;
    }
  }
  const compound = selector.slice(start);
  if (compound.includes('\\')) return null;
  const attribute = /\[\s*([\w-]+)/.exec(compound.replace(/\((?:[^()]|\([^()]*\))*\)/g, ''));
  const bare = compound.replace(/\((?:[^()]|\([^()]*\))*\)/g, '').replace(/\[[^\]]*\]/g, '');
  const id = /#([\w-]+)/.exec(bare);
  if (id) return `#${fold(id[1]!)}`;
  const className = /\.([\w-]+)/.exec(bare);
  if (className) return `.${fold(className[1]!)}`;
  const tag = /^([a-zA-Z][\w-]*)/.exec(bare);
  if (tag) return tag[1]!.toLowerCase();
  return attribute ? `@${attribute[1]!.toLowerCase()}` : null;
}

/**
 * For each selector list, the set of elements under `scope` (the scope itself excluded, as with
 * `querySelectorAll`) that match it. An empty list gives an empty set.
 *
 * One walk of the scope answers every list: each selector is filed under the key its subject
 * must carry (`subjectKey`), and an element is tested only against the selectors filed under
 * its id, classes, tag and attributes: tag/id/class compounds are matched here, others with
 * `element.matches()`. Only a selector whose subject carries no key (`*`, `:first-child`) costs
 * a `querySelectorAll` of its own.
 */
export function selectAll(scope: Element | Document, lists: readonly string[]): Set<Element>[] {
  const results = lists.map(() => new Set<Element>());
  // In quirks mode (old pages without a doctype) browsers match class names and ids ignoring case.
  const ownerDocument = (scope as Node).ownerDocument ?? (scope as Document);
  const fold = ownerDocument.compatMode === 'BackCompat' ? (name: string) => name.toLowerCase() : (name: string) => name;
  const index = new Map<string, IndexedSelector[]>();
  const attributeNames = new Set<string>();
  lists.forEach((list, listIndex) => {
    for (const selector of splitSelectorList(list)) {
      const compound = parseCompound(selector, fold);
      const key = compound
        ? compound.id
          ? `#${compound.id}`
          : compound.classes[0]
            ? `.${compound.classes[0]}`
            : compound.tag!
        : subjectKey(selector, fold);
      if (key === null) {
        for (const element of scope.querySelectorAll(selector)) results[listIndex]?.add(element);
        continue;
      }
      if (key.startsWith('@')) attributeNames.add(key.slice(1));
      const entries = index.get(key) ?? [];
      entries.push({ list: listIndex, compound, selector });
      index.set(key, entries);
    }
  });
  if (index.size === 0) return results;
  const test = (element: Element, classes: readonly string[], id: string, entries: IndexedSelector[] | undefined): void => {
    for (const { list, compound, selector } of entries ?? []) {
      if (compound) {
        if (compound.tag && compound.tag !== element.localName.toLowerCase()) continue;
        if (compound.id && compound.id !== id) continue;
        if (!compound.classes.every((name) => classes.includes(name))) continue;
      } else if (!element.matches(selector)) continue;
      results[list]?.add(element);
    }
  };
  // One iterative walk (a recursive one overflows the stack on pages nested ~10,000 deep).
  walkElements(scope, (element) => {
    const tagEntries = index.get(element.localName.toLowerCase());
    // Most elements carry no attribute: only their tag can select them.
    if (!element.hasAttributes()) {
      if (tagEntries) test(element, NO_CLASSES, '', tagEntries);
      return true;
    }
    const classAttribute = element.getAttribute('class');
    const classes = classAttribute ? classAttribute.split(/\s+/).filter(Boolean).map(fold) : NO_CLASSES;
    const id = fold(element.getAttribute('id') ?? '');
    if (id) test(element, classes, id, index.get(`#${id}`));
    for (const name of new Set(classes)) test(element, classes, id, index.get(`.${name}`));
    if (tagEntries) test(element, classes, id, tagEntries);
    for (const name of attributeNames) if (element.hasAttribute(name)) test(element, classes, id, index.get(`@${name}`));
    return true;
  });
  return results;
}

/** True when `element` or an ancestor (up to, not including, `stop`) is in `set`. */
export function withinSet(element: Element, set: ReadonlySet<Element>, stop: Element | null = null): boolean {
  for (let current: Element | null = element; current && current !== stop; current = current.parentElement) {
    if (set.has(current)) return true;
  }
  return false;
}
