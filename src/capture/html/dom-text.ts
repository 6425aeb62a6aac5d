/**
 * Read-only DOM helpers shared by the HTML capture path. Everything here works on a live page
 * (extension content script) and on a jsdom document (CLI, tests): no `innerText`, no layout or
 * computed style, no mutation. Visibility is judged only from markup (`hidden`,
 * `aria-hidden="true"`, inline `display:none` / `visibility:hidden`), which is what a saved page
 * and a live page have in common.
 */

import { glyphOfImage } from './glyph-images';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** Elements whose content is never article text. */
export const SKIPPED_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'video',
  'audio',
  'button',
  'form',
  'input',
  'select',
  'textarea',
  'option',
  'label',
  'img',
  'picture',
  'map',
  'head',
  'link',
  'meta',
  'nav',
  'aside',
  'footer',
  'dialog',
  'annotation',
  'annotation-xml',
]);

/**
 * Classes of text a reader does not see as such: duplicate renderings of one formula that
 * MathJax leaves next to the visible one (reading them all would repeat every formula two or
 * three times), and screen-reader-only or CSS-hidden helper text.
 */
const UNSEEN_CLASSES =
  /(?:^|\s)(?:MJX_Assistive_MathML|MathJax_Preview|mjx-assistive-mml|sr-only|u-visually-hidden|visually-hidden|hidden)(?:\s|$)/;

/** Tags that start a new block of text in normal flow (CSS `display: block`, list items, tables). */
export const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'ul',
  'html',
  'math-display',
]);

/** The lower-case local name of an element (`DIV` in HTML documents, `div` in XHTML). */
export function tagOf(element: Element): string {
  return element.localName.toLowerCase();
}

/**
 * True when markup alone says the element is not shown: `hidden`, `aria-hidden="true"` (any
 * case: HTML enumerated attribute values are ASCII case-insensitive), inline `display:none`, or
 * content of a closed `<details>` other than its summary.
 */
export function isHiddenByMarkup(element: Element): boolean {
  if (inClosedDetails(element)) return true;
  // Most elements of an article (<p>, <i>, <sub>, <td>) carry no attribute at all.
  if (!element.hasAttributes()) return false;
  if (element.hasAttribute('hidden')) return true;
  const ariaHidden = element.getAttribute('aria-hidden');
  if (ariaHidden !== null && ariaHidden.trim().toLowerCase() === 'true') return true;
  const style = element.getAttribute('style');
  return style !== null && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style);
}

/**
 * True for a node (element or text) directly inside a closed `<details>` that is not its
 * summary: the browser renders only the first `<summary>` child until the reader opens it.
 */
export function inClosedDetails(node: Node): boolean {
  const parent = node.parentElement;
  if (!parent || parent.localName.toLowerCase() !== 'details' || parent.hasAttribute('open')) return false;
  if (!isElement(node) || tagOf(node) !== 'summary') return true;
  let first = parent.firstElementChild;
  while (first && tagOf(first) !== 'summary') first = first.nextElementSibling;
  return first !== node;
}

/** An element the capture never reads: a skipped tag, hidden markup, or a duplicate math rendering. */
export function isIgnorable(element: Element): boolean {
  const tag = tagOf(element);
  if (SKIPPED_TAGS.has(tag)) return true;
  if (isHiddenByMarkup(element)) return true;
  if (!element.hasAttributes()) return false;
  // A class test on the attribute, not `matches()`: this runs for every element visited.
  const classes = element.getAttribute('class');
  return classes !== null && UNSEEN_CLASSES.test(classes);
}

/** True for element nodes (a type guard; `instanceof Element` fails across jsdom windows). */
export function isElement(node: Node): node is Element {
  return node.nodeType === ELEMENT_NODE;
}

/** True for text and CDATA nodes. */
export function isText(node: Node): boolean {
  return node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE;
}

/**
 * The visible text of a subtree as one string, the way a reader sees it: ignorable elements
 * (scripts, hidden markup, buttons, duplicate math) are left out, `<br>` and block boundaries
 * become spaces (or a newline when `lineBreaks` is set, for table cells that hold several
 * lines). `skip` lets the caller leave out more (excluded selectors, nested captions).
 * Whitespace is not collapsed here; `ArticleBuilder` normalizes each block.
 */
export function visibleText(root: Node, skip?: (element: Element) => boolean): string {
  const parts: string[] = [];
  // An explicit stack (nodes to read, and ' ' for the space that closes a block), not
  // recursion: inline markup can be nested thousands of levels deep.
  const stack: (Node | ' ')[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === ' ') {
      parts.push(' ');
      continue;
    }
    if (isText(node)) {
      if (!inClosedDetails(node)) parts.push(node.nodeValue ?? '');
      continue;
    }
    if (!isElement(node)) continue;
    const tag = tagOf(node);
    if (tag === 'img') {
      const glyph = glyphOfImage(node);
      if (glyph) parts.push(glyph);
      continue;
    }
    if (isIgnorable(node) || skip?.(node)) continue;
    if (tag === 'br') {
      parts.push(' ');
      continue;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) {
      parts.push(' ');
      stack.push(' ');
    }
    for (let child = node.lastChild; child; child = child.previousSibling) stack.push(child);
  }
  return parts.join('');
}

/** `visibleText` with whitespace collapsed and trimmed: for metadata, titles and comparisons. */
export function compactText(root: Node, skip?: (element: Element) => boolean): string {
  return visibleText(root, skip).replace(/\s+/g, ' ').trim();
}

/** Heading level 1–6 of an `h1`…`h6` element, else undefined. */
export function headingLevel(element: Element): number | undefined {
  const match = /^h([1-6])$/.exec(tagOf(element));
  return match ? Number(match[1]) : undefined;
}
