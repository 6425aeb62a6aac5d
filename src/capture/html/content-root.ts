/**
 * Finding where the article text is. An adapter names its containers; when none of them is in
 * the page (a redesign, an unknown publisher) the element holding most of the page's paragraph
 * text is used, in the manner of Readability's scoring but far simpler: each `<p>` credits its
 * text length to its parent and half of it to its grandparent, and the best-scored element wins.
 *
 * Paragraph lengths of every element are computed once, bottom-up, in one walk
 * (`ParagraphIndex`): asking each candidate for its paragraphs' `textContent` reads the same
 * text once per enclosing candidate, which is quadratic on deeply nested pages.
 */
import { isHiddenByMarkup, tagOf } from './dom-text';
import { EMPTY_SPAN, joinSpans, spanOf, subtreeSpan, type TrimSummary } from '../trim-summary';
import { outermostMembers } from '../tree-walk';
import { selectAll } from './selector-index';

/** Paragraphs shorter than this are captions, labels or menu items, not body text. */
const MIN_PARAGRAPH_CHARS = 40;
/** A named container must hold at least this share of the page's paragraph text to be trusted. */
const MIN_SHARE = 0.35;

/**
 * Paragraph text of a subtree, computed in one iterative depth-first pass: the trimmed text
 * length of each `<p>` (`textContent.trim().length`, counted when at least 40 characters) and,
 * for every element, the paragraph characters of the `<p>`s below it. Only text inside
 * paragraphs is read, each text node once (a paragraph inside a paragraph is summed from its
 * parts, not read again), so the pass is O(size of the subtree) at any depth.
 */
export class ParagraphIndex {
  private readonly paragraphTotals = new Map<Element, number>();
  private readonly ownLengths = new Map<Element, number>();
  /** Each `<p>` of at least `MIN_PARAGRAPH_CHARS` characters below the root, in document order. */
  readonly paragraphs: Element[] = [];

  constructor(readonly root: Element) {
    // One frame per open element, kept in parallel arrays indexed by depth (no allocation per element).
    const elements: Element[] = [];
    const cursors: (Node | null)[] = [];
    const inParagraph: boolean[] = [];
    const totals: number[] = [];
    const spans: TrimSummary[] = [];
    const paragraphsInOrder: Element[] = [];
    const open = (element: Element, parentInParagraph: boolean): void => {
      const isParagraph = tagOf(element) === 'p';
      if (isParagraph && element !== root) paragraphsInOrder.push(element);
      const reading = parentInParagraph || isParagraph;
      elements.push(element);
      inParagraph.push(reading);
      cursors.push(reading ? element.firstChild : element.firstElementChild);
      totals.push(0);
      spans.push(EMPTY_SPAN);
    };
    open(root, false);
    while (elements.length > 0) {
      const top = elements.length - 1;
      const node = cursors[top] ?? null;
      if (node) {
        const reading = inParagraph[top]!;
        cursors[top] = reading ? node.nextSibling : (node as Element).nextElementSibling;
        if (node.nodeType === 1) open(node as Element, reading);
        else if (node.nodeType === 3 || node.nodeType === 4) spans[top] = joinSpans(spans[top]!, spanOf(node.nodeValue ?? ''));
        continue;
      }
      const element = elements.pop()!;
      cursors.pop();
      const reading = inParagraph.pop()!;
      const total = totals.pop()!;
      const span = spans.pop()!;
      const own = tagOf(element) === 'p' && span.length >= MIN_PARAGRAPH_CHARS ? span.length : 0;
      if (own > 0) this.ownLengths.set(element, own);
      if (total > 0) this.paragraphTotals.set(element, total);
      const parent = elements.length - 1;
      if (parent < 0) continue;
      totals[parent] = totals[parent]! + total + own;
      if (reading && inParagraph[parent]) spans[parent] = joinSpans(spans[parent]!, span);
    }
    for (const paragraph of paragraphsInOrder) if (this.ownLengths.has(paragraph)) this.paragraphs.push(paragraph);
  }

  /** Paragraph characters of the `<p>` elements below `element` (0 outside the indexed subtree). */
  paragraphChars(element: Element): number {
    return this.paragraphTotals.get(element) ?? 0;
  }

  /** The length of `element` as a paragraph: its trimmed text when it is a `<p>` of at least 40 characters, else 0. */
  ownParagraphChars(element: Element): number {
    return this.ownLengths.get(element) ?? 0;
  }
}

/**
 * The element(s) to walk, in document order. Tries each selector of `preferred` (or each set of
 * elements the caller already selected with them) in turn and
 * takes all its (outermost, visible) matches when together they hold a fair share of the page's
 * paragraph text (or the page has almost none, as on a landing page); else the best-scored
 * element; else `<body>` (or the document element for a fragment without one). `isHidden` says
 * which elements the reader cannot see, with their subtrees (markup alone by default): matches
 * inside such an element are not taken. O(size of the page) per selector tried.
 */
export function findContentRoots(
  document: Document,
  preferred: readonly string[] | readonly ReadonlySet<Element>[],
  isHidden: (element: Element) => boolean = isHiddenByMarkup,
): Element[] {
  const fallback = document.body ?? document.documentElement;
  if (!fallback) return [];
  const index = new ParagraphIndex(fallback);
  // A match outside `<body>` (none on real pages) gets an index of its own.
  const paragraphChars = (element: Element): number =>
    fallback.contains(element) ? index.paragraphChars(element) : new ParagraphIndex(element).paragraphChars(element);
  const pageChars = index.paragraphChars(fallback);
  // All selectors are resolved in one walk of the page (or were, by the caller); they are then tried in order.
  const sets = preferred.every((selector) => typeof selector === 'string')
    ? selectAll(document, preferred as readonly string[])
    : (preferred as readonly ReadonlySet<Element>[]);
  for (const found of sets) {
    if (found.size === 0) continue;
    const matches = outermostMembers(document, found, isHidden);
    if (matches.length === 0) continue;
    const chars = matches.reduce((sum, element) => sum + paragraphChars(element), 0);
    const hasText = matches.some((element) => subtreeSpan(element, (span) => span.started).started);
    if (hasText && (pageChars < 500 || chars >= pageChars * MIN_SHARE)) return matches;
  }
  return [bestScoredElement(fallback, index) ?? fallback];
}

/**
 * The element credited with the most paragraph text (Readability-style), or null when there are
 * no paragraphs. `given` is reused when it was built for `root`.
 */
export function bestScoredElement(root: Element, given?: ParagraphIndex): Element | null {
  const index = given?.root === root ? given : new ParagraphIndex(root);
  const scores = new Map<Element, number>();
  for (const paragraph of index.paragraphs) {
    const length = index.ownParagraphChars(paragraph);
    const parent = paragraph.parentElement;
    if (!parent) continue;
    scores.set(parent, (scores.get(parent) ?? 0) + length);
    const grandparent = parent.parentElement;
    if (grandparent) scores.set(grandparent, (scores.get(grandparent) ?? 0) + length / 2);
  }
  let best: Element | null = null;
  let bestScore = 0;
  for (const [element, score] of scores) {
    if (score > bestScore) {
      best = element;
      bestScore = score;
    }
  }
  // Sections split one article into siblings: climb while the parent holds clearly more text.
  while (best && best.parentElement && best !== root) {
    const parent: Element = best.parentElement;
    if (index.paragraphChars(parent) < index.paragraphChars(best) * 1.3) break;
    best = parent;
  }
  return best;
}
