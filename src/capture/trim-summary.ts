/**
 * `textContent.trim().length` without building `textContent`. The length of a trimmed
 * concatenation is known from a small summary of each piece (whitespace before, between and
 * after its visible characters), and summaries join like strings do, so a subtree's trimmed
 * length is the join of its children's summaries: each text node is read once, where asking
 * `textContent` of every ancestor reads the same text again at every level (quadratic on deep
 * pages). Whitespace is what `String.prototype.trim` removes.
 */

/** What `trim` leaves of a text, in four numbers (not a span of it: no offsets into a text). */
export interface TrimSummary {
  /** True when the text holds a character that `trim` keeps. */
  started: boolean;
  /** Whitespace before the first kept character (all of the text when none is kept). */
  lead: number;
  /** `text.trim().length`. */
  length: number;
  /** Whitespace after the last kept character (0 when none is kept). */
  trail: number;
}

export const EMPTY_SPAN: TrimSummary = { started: false, lead: 0, length: 0, trail: 0 };

/** The summary of one string. */
export function spanOf(text: string): TrimSummary {
  const length = text.trim().length;
  if (length === 0) return { started: false, lead: text.length, length: 0, trail: 0 };
  return { started: true, lead: text.length - text.trimStart().length, length, trail: text.length - text.trimEnd().length };
}

/** The summary of `left + right`. Associative, with `EMPTY_SPAN` as identity. */
export function joinSpans(left: TrimSummary, right: TrimSummary): TrimSummary {
  if (!left.started) return { started: right.started, lead: left.lead + right.lead, length: right.length, trail: right.trail };
  if (!right.started) return { ...left, trail: left.trail + right.lead };
  return { started: true, lead: left.lead, length: left.length + left.trail + right.lead + right.length, trail: right.trail };
}

/** True for text and CDATA nodes: the nodes `textContent` is made of. */
function isTextNode(node: Node): boolean {
  return node.nodeType === 3 || node.nodeType === 4;
}

/**
 * The summary of `root.textContent` (a node's text, comments excluded), stopping early once
 * `stop(span)` holds for the text read so far (pass it to ask "is the trimmed text longer than
 * n?", which then costs only the nodes read before the answer is known). Iterative.
 */
export function subtreeSpan(root: Node, stop: (span: TrimSummary) => boolean = () => false): TrimSummary {
  if (isTextNode(root)) return spanOf(root.nodeValue ?? '');
  let span = EMPTY_SPAN;
  let node: Node | null = root.firstChild;
  while (node) {
    if (isTextNode(node)) {
      span = joinSpans(span, spanOf(node.nodeValue ?? ''));
      if (stop(span)) return span;
    }
    if (node.nodeType === 1 && node.firstChild) {
      node = node.firstChild;
      continue;
    }
    while (node && node !== root && !node.nextSibling) node = node.parentNode;
    node = node && node !== root ? node.nextSibling : null;
  }
  return span;
}
