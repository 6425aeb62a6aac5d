/**
 * A text map of the live page: the visible text of `document.body` as one string, close to what
 * the capture wrote into `Article.text` (blocks separated by a blank line, whitespace runs
 * collapsed to one space, each block trimmed), with the text node and offset behind every
 * character so that any [start, end) of the string becomes a DOM `Range` again.
 *
 * Trade-off: the map is only close to `Article.text`, not equal — the capture leaves out page
 * furniture (navigation, reference lists, per-site exclusions) and writes table cells with tabs,
 * and the live page may have changed since. Quotes are therefore found by their text and
 * context (src/text/anchoring), never by the capture's offsets; whitespace differences cost
 * nothing there (the folded view drops whitespace). This map is deliberately more inclusive than
 * the capture (a `<form>` wrapping a whole page is read): a quote that cannot be found is worse
 * than some extra text around it.
 */
import { BLOCK_TAGS, isHiddenByMarkup, tagOf } from '../capture/html/dom-text';
import { glyphOfImage } from '../capture/html/glyph-images';
import { pageVisibility, type VisibilityJudge } from '../capture/html/visibility';

/** The attribute that marks Assay's own UI host; its subtree is never read. */
export const HIGHLIGHTER_HOST_ATTRIBUTE = 'data-assay-highlighter';

/** Blank line between blocks, as the capture's `ArticleBuilder` writes (`BLOCK_SEPARATOR`). */
const BLOCK_SEPARATOR = '\n\n';

/** Elements whose content is never rendered as selectable page text. */
const SKIPPED_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'link',
  'meta',
  'title',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'video',
  'audio',
  'textarea',
  'input',
  'select',
  'option',
  'datalist',
  'map',
  'annotation',
  'annotation-xml',
]);

/** Duplicate renderings of a formula (MathJax) and screen-reader-only text, as the capture skips them. */
const UNSEEN_CLASSES =
  /(?:^|\s)(?:MJX_Assistive_MathML|MathJax_Preview|mjx-assistive-mml|sr-only|u-visually-hidden|visually-hidden)(?:\s|$)/;

/**
 * One stretch of the page text. A real span maps `text[start, end)` linearly onto
 * `node.data[nodeOffset, nodeOffset + end - start)`; a span with `node: null` is text Assay
 * added (a block separator, a glyph image's character) that no text node holds.
 */
export interface NodeSpan {
  node: Text | null;
  nodeOffset: number;
  start: number;
  end: number;
}

/** The page text, its spans in order, and the way back to the DOM. */
export interface PageText {
  text: string;
  spans: readonly NodeSpan[];
  /**
   * A `Range` over the text nodes behind `text[start, end)`: its ends move inward past added
   * text (separators, glyphs) to the nearest real characters. `null` when no text node lies
   * inside the span or a node changed since the map was built.
   */
  rangeOf(start: number, end: number): Range | null;
}

/** What `readPageText` needs from the page. */
export interface PageTextSource {
  document: Document;
  window: Window;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;
const WHITESPACE = /\s/;
/** Characters the capture deletes (`normalizeBlockText`): soft hyphen, zero-width space and joiners, BOM. */
const INVISIBLE = /[\u00AD\u200B\u200C\u200D\u2060\uFEFF]/;

/** True when the element and its subtree are not read: skipped tags, hidden, or Assay's own UI. */
function isSkipped(element: Element, isHidden: VisibilityJudge): boolean {
  if (SKIPPED_TAGS.has(tagOf(element))) return true;
  if (element.hasAttribute(HIGHLIGHTER_HOST_ATTRIBUTE)) return true;
  if (isHiddenByMarkup(element)) return true;
  const classes = element.getAttribute('class');
  if (classes !== null && UNSEEN_CLASSES.test(classes)) return true;
  // CSS hides what markup does not say (`.collapsed { display: none }`, zero font size…): the
  // capture's own judgement, so that the map holds what the capture read and nothing hidden.
  return isHidden(element);
}

/**
 * Read the visible text of `document.body` into a `PageText` (see the file comment). Skipped:
 * script, style, noscript, template and other non-text elements, elements hidden by markup
 * (`hidden`, `aria-hidden="true"`) or by CSS (`pageVisibility`: computed style on a live page,
 * inline styles and `<style>` rules without layout), MathJax duplicates, and Assay's own host (`data-assay-highlighter`). Block elements
 * (`BLOCK_TAGS` of the capture) separate blocks with a blank line; `<br>` is a space; a glyph
 * image (`glyphOfImage`) adds its character. Linear in the size of the body; never throws. An
 * empty document (no body) gives an empty text.
 */
export function readPageText({ document, window }: PageTextSource): PageText {
  // Computed style on a live page; the page's style rules in jsdom (tests).
  const isHidden = pageVisibility(document, window);
  const spans: NodeSpan[] = [];
  const parts: string[] = [];
  let length = 0;
  // Whitespace seen since the last character written, and where it was (collapsed to one space).
  let pendingSpace: { node: Text; offset: number } | null = null;
  let pendingSpaceVirtual = false;
  let pendingSeparator = false;

  const push = (text: string, node: Text | null, nodeOffset: number): void => {
    const last = spans[spans.length - 1];
    if (node && last && last.node === node && last.nodeOffset + (last.end - last.start) === nodeOffset) {
      last.end += text.length;
    } else {
      spans.push({ node, nodeOffset, start: length, end: length + text.length });
    }
    parts.push(text);
    length += text.length;
  };
  /** Write what is pending before the next visible character: a separator wins over a space. */
  const flushPending = (): void => {
    if (length > 0 && pendingSeparator) push(BLOCK_SEPARATOR, null, 0);
    else if (length > 0 && pendingSpace) push(' ', pendingSpace.node, pendingSpace.offset);
    else if (length > 0 && pendingSpaceVirtual) push(' ', null, 0);
    pendingSeparator = false;
    pendingSpace = null;
    pendingSpaceVirtual = false;
  };
  const readText = (node: Text): void => {
    const data = node.data;
    let runStart = -1;
    for (let index = 0; index < data.length; index += 1) {
      const character = data[index]!;
      const invisible = INVISIBLE.test(character);
      if (invisible || WHITESPACE.test(character)) {
        if (runStart >= 0) push(data.slice(runStart, index), node, runStart);
        runStart = -1;
        if (!invisible && !pendingSpace && !pendingSeparator) pendingSpace = { node, offset: index };
      } else if (runStart < 0) {
        flushPending();
        runStart = index;
      }
    }
    if (runStart >= 0) push(data.slice(runStart), node, runStart);
  };
  const visit = (node: Node): void => {
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) {
      readText(node as Text);
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const element = node as Element;
    const tag = tagOf(element);
    if (tag === 'img') {
      const glyph = glyphOfImage(element);
      if (glyph) {
        flushPending();
        push(glyph, null, 0);
      }
      return;
    }
    if (tag === 'br') {
      if (!pendingSpace && !pendingSeparator) pendingSpaceVirtual = true;
      return;
    }
    if (isSkipped(element, isHidden)) return;
    const block = BLOCK_TAGS.has(tag);
    if (block) pendingSeparator = true;
    for (let child = element.firstChild; child; child = child.nextSibling) visit(child);
    if (block) pendingSeparator = true;
  };

  if (document.body) visit(document.body);
  const text = parts.join('');
  return { text, spans, rangeOf: (start, end) => rangeOver(document, spans, start, end) };
}

/** Index of the first span whose end is past `offset` (binary search; `spans.length` if none). */
function firstSpanEndingAfter(spans: readonly NodeSpan[], offset: number): number {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (spans[middle]!.end <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

function rangeOver(document: Document, spans: readonly NodeSpan[], start: number, end: number): Range | null {
  if (!(end > start)) return null;
  let first = firstSpanEndingAfter(spans, start);
  while (first < spans.length && spans[first]!.node === null) first += 1;
  let last = firstSpanEndingAfter(spans, end - 1);
  if (last >= spans.length) last = spans.length - 1;
  while (last >= 0 && spans[last]!.node === null) last -= 1;
  const startSpan = spans[first];
  const endSpan = spans[last];
  if (!startSpan?.node || !endSpan?.node || first > last || startSpan.start >= end || endSpan.end <= start) return null;
  const startOffset = startSpan.nodeOffset + Math.max(0, start - startSpan.start);
  const endOffset = endSpan.nodeOffset + Math.min(endSpan.end, end) - endSpan.start;
  // A node edited since the map was built may be shorter now: no range rather than a thrown IndexSizeError.
  if (startOffset > startSpan.node.length || endOffset > endSpan.node.length) return null;
  const range = document.createRange();
  range.setStart(startSpan.node, startOffset);
  range.setEnd(endSpan.node, endOffset);
  return range;
}
