/**
 * Iterative tree walks shared by the HTML and XML capture paths.
 *
 * Two rules keep capture linear in the size of the page and safe on any nesting depth:
 * - No recursion over the input tree: a page nested 10,000 levels deep (hostile, or a broken
 *   generator) would overflow the call stack. Walks here follow `firstElementChild` /
 *   `nextElementSibling` / `parentElement` links, or keep an explicit stack.
 * - No iteration over live `HTMLCollection`s (`getElementsByTagName`, `children`): in jsdom each
 *   step of such a loop re-reads `length` through the collection's named-property look-up,
 *   which scans the collection, so a loop over n items costs n² (a 2 MB page spent 5 of its 9 s
 *   there). Sibling links cost O(1) per step in jsdom and in browsers.
 */

/** Every descendant element of `root` (not `root` itself), in document order (preorder). */
export function* descendantElements(root: Element | Document): Generator<Element> {
  let element = root.firstElementChild;
  while (element) {
    yield element;
    element = nextInPreorder(element, root, true);
  }
}

/**
 * The element after `element` in a preorder walk of `root`'s subtree, or null at the end.
 * With `descend` false, `element`'s own subtree is skipped.
 */
export function nextInPreorder(element: Element, root: Element | Document, descend: boolean): Element | null {
  if (descend && element.firstElementChild) return element.firstElementChild;
  let current: Element | null = element;
  while (current && current !== root) {
    if (current.nextElementSibling) return current.nextElementSibling;
    current = current.parentElement;
  }
  return null;
}

/**
 * Walk `root`'s descendant elements in document order; `visit(element)` returns false to leave
 * that element's subtree out. Iterative: any depth.
 */
export function walkElements(root: Element | Document, visit: (element: Element) => boolean): void {
  let element = root.firstElementChild;
  while (element) element = nextInPreorder(element, root, visit(element));
}

/** The lower-case local name of an element (`DIV` in HTML documents, `div` in XHTML). */
function tagOf(element: Element): string {
  return element.localName.toLowerCase();
}

/**
 * Descendant elements of `root` whose lower-case local name is one of `tags`, in document
 * order: what `getElementsByTagName` returns, as an array, without the live collection.
 */
export function elementsByTag(root: Element | Document, ...tags: string[]): Element[] {
  const wanted = new Set(tags);
  const found: Element[] = [];
  for (const element of descendantElements(root)) if (wanted.has(tagOf(element))) found.push(element);
  return found;
}

/** The first descendant element of `root` (document order) that passes `test`, or undefined. Stops there. */
export function findDescendant(root: Element | Document, test: (element: Element) => boolean): Element | undefined {
  for (const element of descendantElements(root)) if (test(element)) return element;
  return undefined;
}

/** How many descendant elements of `root` pass `test`, counting no further than `limit`. */
export function countDescendants(root: Element | Document, test: (element: Element) => boolean, limit = Infinity): number {
  let count = 0;
  for (const element of descendantElements(root)) {
    if (test(element)) count += 1;
    if (count >= limit) break;
  }
  return count;
}

/** The element children of `parent`, as an array (a sibling walk, not `children`). */
export function childElementsOf(parent: Element | Document): Element[] {
  const children: Element[] = [];
  for (let child = parent.firstElementChild; child; child = child.nextElementSibling) children.push(child);
  return children;
}

/**
 * The members of `members` that lie under `root` and inside no other member, in document order.
 * Subtrees for which `skip(element)` holds are left out, members in them included. Only the
 * members and their ancestors are looked at (and `skip` asked only of them): the walk from
 * `root` enters no other subtree. O(members' ancestor paths + their siblings), where comparing
 * every pair with `contains()` is quadratic.
 */
export function outermostMembers(
  root: Element | Document,
  members: ReadonlySet<Element>,
  skip: (element: Element) => boolean = () => false,
): Element[] {
  const found: Element[] = [];
  if (members.size === 0) return found;
  const onPath = new Set<Element>();
  for (const member of members) {
    for (let element: Element | null = member; element && !onPath.has(element); element = element.parentElement) onPath.add(element);
  }
  walkElements(root, (element) => {
    if (!onPath.has(element) || skip(element)) return false;
    if (!members.has(element)) return true;
    found.push(element);
    return false;
  });
  return found;
}

/** Remembered answers per element: a `Map` (cheaper to collect) or a `WeakMap`. */
export interface ElementMemo {
  get(element: Element): boolean | undefined;
  set(element: Element, value: boolean): unknown;
}

/**
 * True when some descendant of `root` (not `root` itself) passes `test`. `memo` remembers the
 * answer for every element whose subtree the search settled, so calls on nested elements (a
 * walk asks this of a container and then of each of its children) cost O(size of the tree) in
 * total instead of O(size × depth). Iterative; stops at the first hit.
 */
export function someDescendantMemo(root: Element, test: (element: Element) => boolean, memo: ElementMemo): boolean {
  const known = memo.get(root);
  if (known !== undefined) return known;
  const path: Element[] = [root];
  const next: (Element | null)[] = [root.firstElementChild];
  while (path.length > 0) {
    const top = path.length - 1;
    const child = next[top] ?? null;
    if (!child) {
      memo.set(path[top]!, false);
      path.pop();
      next.pop();
      continue;
    }
    next[top] = child.nextElementSibling;
    const childKnown = memo.get(child);
    if (childKnown === true || test(child)) {
      // Every element on the path holds `child` (or its hit) in its subtree.
      for (const element of path) memo.set(element, true);
      return true;
    }
    if (childKnown === false) continue;
    path.push(child);
    next.push(child.firstElementChild);
  }
  return false;
}
