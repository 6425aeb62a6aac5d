/**
 * Namespace-agnostic element lookup. Publisher XML binds the same vocabulary to different
 * prefixes and URIs (Elsevier `ce:` under the real URI in the Article Retrieval API, under a
 * placeholder URI in the CONSYN fixture; CALS `entry` with no prefix but the `ce:` namespace),
 * so everything here matches on `localName` only and uses nothing beyond the standard DOM,
 * which jsdom and the browser's DOMParser both provide.
 */
import { stripControlCharacters } from '../../contracts/captured-text';
import { descendantElements } from '../tree-walk';

/** Element children of `parent`, optionally only those whose `localName` is in `names`. */
export function childElements(parent: Element, ...names: string[]): Element[] {
  // A sibling walk: iterating jsdom's live `children` collection is quadratic (see tree-walk.ts).
  const children: Element[] = [];
  for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
    if (names.length === 0 || names.includes(child.localName)) children.push(child);
  }
  return children;
}

/** First element child whose `localName` is one of `names`, or undefined. */
export function firstChild(parent: Element, ...names: string[]): Element | undefined {
  for (let child = parent.firstElementChild; child; child = child.nextElementSibling) if (names.includes(child.localName)) return child;
  return undefined;
}

/** Every descendant element of `root`, in document order (an iterative walk, see `tree-walk.ts`). */
export const allDescendants = descendantElements;

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

/** `textContent` without control characters, whitespace runs collapsed to one space and trimmed ("" for a missing element). */
export function plainText(element: Element | undefined): string {
  return stripControlCharacters(element?.textContent ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first four-digit year 1600–2199 in a date string (`2018-02-24`, `December 2020`), or null. */
export function yearFrom(text: string | null | undefined): number | null {
  const match = /\b(1[6-9]\d\d|20\d\d|21\d\d)\b/.exec(text ?? '');
  return match ? Number(match[1]) : null;
}
