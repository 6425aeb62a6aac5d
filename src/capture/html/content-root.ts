/**
 * Finding where the article text is. An adapter names its containers; when none of them is in
 * the page (a redesign, an unknown publisher) the element holding most of the page's paragraph
 * text is used, in the manner of Readability's scoring but far simpler: each `<p>` credits its
 * text length to its parent and half of it to its grandparent, and the best-scored element wins.
 */
import { isHiddenByMarkup } from './dom-text';

/** Paragraphs shorter than this are captions, labels or menu items, not body text. */
const MIN_PARAGRAPH_CHARS = 40;
/** A named container must hold at least this share of the page's paragraph text to be trusted. */
const MIN_SHARE = 0.35;

function paragraphChars(root: Element): number {
  let total = 0;
  for (const paragraph of root.getElementsByTagName('p')) {
    const length = (paragraph.textContent ?? '').trim().length;
    if (length >= MIN_PARAGRAPH_CHARS) total += length;
  }
  return total;
}

/** Drop matches that sit inside another match, so no text is walked twice. */
function outermost(elements: Element[]): Element[] {
  return elements.filter((element) => !elements.some((other) => other !== element && other.contains(element)));
}

/**
 * The element(s) to walk, in document order. Tries each selector of `preferred` in turn and
 * takes all its (outermost, visible) matches when together they hold a fair share of the page's
 * paragraph text (or the page has almost none, as on a landing page); else the best-scored
 * element; else `<body>` (or the document element for a fragment without one). `isHidden` says
 * which matches the reader cannot see (markup alone by default).
 */
export function findContentRoots(
  document: Document,
  preferred: readonly string[],
  isHidden: (element: Element) => boolean = isHiddenByMarkup,
): Element[] {
  const fallback = document.body ?? document.documentElement;
  if (!fallback) return [];
  const pageChars = paragraphChars(fallback);
  for (const selector of preferred) {
    const matches = outermost([...document.querySelectorAll(selector)].filter((element) => !isHidden(element)));
    if (matches.length === 0) continue;
    const chars = matches.reduce((sum, element) => sum + paragraphChars(element), 0);
    const text = matches.reduce((sum, element) => sum + (element.textContent ?? '').trim().length, 0);
    if (text > 0 && (pageChars < 500 || chars >= pageChars * MIN_SHARE)) return matches;
  }
  return [bestScoredElement(fallback) ?? fallback];
}

/** The element credited with the most paragraph text (Readability-style), or null when there are no paragraphs. */
export function bestScoredElement(root: Element): Element | null {
  const scores = new Map<Element, number>();
  for (const paragraph of root.getElementsByTagName('p')) {
    const length = (paragraph.textContent ?? '').trim().length;
    if (length < MIN_PARAGRAPH_CHARS) continue;
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
    if (paragraphChars(parent) < paragraphChars(best) * 1.3) break;
    best = parent;
  }
  return best;
}
