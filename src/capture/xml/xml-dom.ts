/**
 * Namespace-agnostic element lookup. Publisher XML binds the same vocabulary to different
 * prefixes and URIs (Elsevier `ce:` under the real URI in the Article Retrieval API, under a
 * placeholder URI in the CONSYN fixture; CALS `entry` with no prefix but the `ce:` namespace),
 * so everything here matches on `localName` only and uses nothing beyond the standard DOM,
 * which jsdom and the browser's DOMParser both provide.
 */

/** Element children of `parent`, optionally only those whose `localName` is in `names`. */
export function childElements(parent: Element, ...names: string[]): Element[] {
  const children = Array.from(parent.children);
  return names.length === 0 ? children : children.filter((child) => names.includes(child.localName));
}

/** First element child whose `localName` is one of `names`, or undefined. */
export function firstChild(parent: Element, ...names: string[]): Element | undefined {
  return Array.from(parent.children).find((child) => names.includes(child.localName));
}

/**
 * Every descendant element of `root`, in document order. Walks `firstElementChild` /
 * `nextElementSibling` rather than `getElementsByTagName('*')`: jsdom's live collection makes
 * the latter quadratic (18 s on a 400 KB MathML-heavy Elsevier file, against milliseconds here).
 */
export function* allDescendants(root: Element | Document): Generator<Element> {
  let element = root.firstElementChild;
  while (element) {
    yield element;
    if (element.firstElementChild) {
      element = element.firstElementChild;
      continue;
    }
    while (element && !element.nextElementSibling) {
      element = element.parentElement;
      if (!element || element === root) return;
    }
    element = element?.nextElementSibling ?? null;
  }
}

/** Every descendant element (document order) whose `localName` is one of `names`. */
export function descendants(root: Element | Document, ...names: string[]): Element[] {
  const found: Element[] = [];
  for (const element of allDescendants(root)) if (names.includes(element.localName)) found.push(element);
  return found;
}

/** First descendant element (document order) whose `localName` is one of `names`, or undefined. */
export function firstDescendant(root: Element | Document, ...names: string[]): Element | undefined {
  for (const element of allDescendants(root)) if (names.includes(element.localName)) return element;
  return undefined;
}

/** Follow a path of `localName`s through element children (`path(front, 'article-meta', 'title-group')`). */
export function childPath(parent: Element | undefined, ...names: string[]): Element | undefined {
  let current = parent;
  for (const name of names) {
    if (!current) return undefined;
    current = firstChild(current, name);
  }
  return current;
}

/** `textContent` with all whitespace runs collapsed to one space and trimmed ("" for a missing element). */
export function plainText(element: Element | undefined): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The first four-digit year 1600–2199 in a date string (`2018-02-24`, `December 2020`), or null. */
export function yearFrom(text: string | null | undefined): number | null {
  const match = /\b(1[6-9]\d\d|20\d\d|21\d\d)\b/.exec(text ?? '');
  return match ? Number(match[1]) : null;
}
