/**
 * Inline text of publisher XML: a run of mixed content (text, italic, sub/sup, citations,
 * MathML) flattened to one string with the spaces a reader would see.
 *
 * XML has no rendering rules, so word boundaries must be inferred from element boundaries:
 * block-like elements (paragraphs inside captions, table cells, MathML rows, `<break/>`,
 * Elsevier `<ce:hsp/>`) become spaces; sub/superscripts are glued to their base (`Cr2O3`, not
 * `Cr 2 O 3`) even when a pretty-printer put whitespace around them.
 */

import { subtreeSpan } from '../trim-summary';
import { firstChild } from './xml-dom';

/** Elements whose boundaries separate words. */
const SPACED = new Set([
  'p',
  'para',
  'simple-para',
  'title',
  'label',
  'caption',
  'section-title',
  'heading',
  'list-item',
  'list',
  'td',
  'th',
  'entry',
  'tr',
  'row',
  'mtr',
  'mtd',
  'mspace',
  'break',
  'br',
  'hsp',
  'vsp',
  'term',
  'def',
  'def-item',
  'source-text',
  'textfn',
  'note-para',
  'attrib',
]);

/** Elements that carry no readable text (images, alt-text duplicates, links to files). */
const NEVER_TEXT = new Set([
  'alt-text',
  'graphic',
  'inline-graphic',
  'media',
  'object',
  'link',
  'graphic-file',
  'eqn-graphic',
  'annotation',
  'annotation-xml',
  'float-anchor',
  'colspec',
  'spanspec',
]);

/** Sub- and superscripts (JATS `sub`/`sup`, Elsevier `inf`/`sup`). */
const SCRIPTS = new Set(['sub', 'sup', 'inf']);

/** Above this length a TeX alternative is dropped rather than dumped into the text. */
const MAX_TEX_CHARS = 300;

export interface InlineOptions {
  /** Extra `localName`s whose content is dropped (besides images and alt-text). */
  skip?: ReadonlySet<string>;
  /**
   * The source was re-indented by a pretty-printer that put every element on its own line, so
   * whitespace at text-node edges means nothing (the IOP legacy fixture). Text nodes are then
   * trimmed and re-joined by punctuation rules; see `needsSpace`.
   */
  prettyPrinted?: boolean;
  /** Applied to every text node (e.g. to resolve entity names a scraper left escaped). */
  mapText?: (text: string) => string;
}

interface Piece {
  text: string;
  /** Text of a sub/superscript. */
  script: boolean;
  /** A forced word boundary (from a block-like element). */
  boundary?: boolean;
}

/**
 * Flatten the given nodes (an element's child nodes, or a slice of them) to one string.
 * Whitespace is not yet collapsed (the article builder does that), but word boundaries are in
 * place. MathML gives its text content (`E=ħω`), or its `alttext` when it has none; in a JATS
 * `<alternatives>` MathML is preferred over TeX, and TeX longer than 300 characters is dropped.
 */
export function inlineText(nodes: Iterable<Node>, options: InlineOptions = {}): string {
  const pieces: Piece[] = [];
  for (const node of nodes) collect(node, pieces, options, false);
  return options.prettyPrinted ? joinPretty(pieces) : joinPlain(pieces);
}

/** Inline text of one element's content. */
export function elementText(element: Element | undefined, options: InlineOptions = {}): string {
  if (!element) return '';
  const children: Node[] = [];
  for (let child = element.firstChild; child; child = child.nextSibling) children.push(child);
  return inlineText(children, options);
}

/** A node still to read, with what it inherits: inside a sub/superscript, inside MathML. */
interface PendingNode {
  node: Node;
  script: boolean;
  math: boolean;
}

/**
 * Append the pieces of `root` and its subtree, in document order. An explicit stack (nodes to
 * read, and the closing boundary pieces of spaced elements), not recursion: MathML and nested
 * markup can be thousands of levels deep.
 */
function collect(root: Node, pieces: Piece[], options: InlineOptions, rootScript: boolean): void {
  const stack: (PendingNode | Piece)[] = [{ node: root, script: rootScript, math: false }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (!('node' in item)) {
      pieces.push(item);
      continue;
    }
    const { node, script, math } = item;
    if (node.nodeType === 3 || node.nodeType === 4) {
      // MathML whitespace is not content (token text is trimmed, MathML 3 §2.1.7): a re-indented
      // formula must not come out as `U = ∑ i ∑ j`.
      const data = math ? (node as CharacterData).data.trim() : (node as CharacterData).data;
      if (data) pieces.push({ text: options.mapText ? options.mapText(data) : data, script });
      continue;
    }
    if (node.nodeType === 7 && (node as ProcessingInstruction).target === 'TeX') {
      // IOP legacy XML keeps each equation's TeX in a <?TeX …?> instruction beside its image.
      const tex = cleanTex((node as ProcessingInstruction).data);
      if (tex) pieces.push({ text: tex, script });
      continue;
    }
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    const name = element.localName;
    if (NEVER_TEXT.has(name) || options.skip?.has(name)) continue;
    if (name === 'alternatives') {
      const chosen = firstChild(element, 'math') ?? firstChild(element, 'tex-math');
      if (chosen) stack.push({ node: chosen, script, math });
      continue;
    }
    if (name === 'tex-math') {
      const tex = cleanTex(element.textContent ?? '');
      if (tex) pieces.push({ text: tex, script });
      continue;
    }
    // (Stops at the first visible character, so a long formula is not read twice.)
    if (name === 'math' && !subtreeSpan(element, (span) => span.started).started) {
      const alternative = element.getAttribute('alttext');
      if (alternative && alternative.length <= MAX_TEX_CHARS) pieces.push({ text: alternative, script });
      continue;
    }
    const spaced = SPACED.has(name);
    if (spaced) {
      pieces.push({ text: ' ', script, boundary: true });
      stack.push({ text: ' ', script, boundary: true });
    }
    const childScript = script || SCRIPTS.has(name);
    const childMath = math || name === 'math';
    for (let child = element.lastChild; child; child = child.previousSibling)
      stack.push({ node: child, script: childScript, math: childMath });
  }
}

/**
 * The formula inside a PMC-style TeX document (`\documentclass…\begin{document}$$x$$\end{document}`)
 * or an IOP equation (`\begin{equation}\label{eq1} x \end{equation}`).
 */
function cleanTex(raw: string): string {
  const body = /\\begin\{document\}([\s\S]*?)\\end\{document\}/.exec(raw)?.[1] ?? raw;
  const formula = body
    .replace(/\\(?:begin|end)\{equation\*?\}|\\label\{[^}]*\}/g, '')
    .trim()
    .replace(/^\$+|\$+$/g, '')
    .trim();
  return formula.length <= MAX_TEX_CHARS ? formula : '';
}

/**
 * Join for ordinary XML: text nodes keep their own whitespace. Layout whitespace that a
 * pretty-printer put around a sub/superscript (`<italic>T</italic>\n<inf>g</inf>`) is dropped
 * so the symbol stays `Tg`.
 */
function joinPlain(pieces: Piece[]): string {
  let text = '';
  pieces.forEach((piece, index) => {
    if (piece.boundary) {
      text += ' ';
      return;
    }
    const next = pieces[index + 1];
    if (!piece.script && next?.script && !next.boundary && /^\s+$/.test(piece.text)) return;
    text += piece.script ? piece.text.trim() : piece.text;
  });
  return text;
}

function joinPretty(pieces: Piece[]): string {
  let text = '';
  let previous: Piece | undefined;
  let pendingBoundary = false;
  for (const piece of pieces) {
    if (piece.boundary) {
      pendingBoundary = true;
      continue;
    }
    const trimmed = piece.text.trim();
    if (!trimmed) continue;
    const current = { ...piece, text: trimmed };
    if (previous && (pendingBoundary || needsSpace(previous, current))) text += ' ';
    text += trimmed;
    previous = current;
    pendingBoundary = false;
  }
  return text;
}

/**
 * Whether two trimmed text runs of pretty-printed XML were separated by a space in the
 * original. A guess from punctuation: none after an opening bracket, slash or dash, none before
 * closing punctuation or a prime; a sub/superscript is glued to its base, and to what follows
 * when that starts with a capital or digit (`La2/3Ca1/3MnO3`) but not a lower-case word
 * (`MnO3 thin`). Isotope prefixes (`in 57Fe`) come out glued; that is the accepted cost.
 */
function needsSpace(left: Piece, right: Piece): boolean {
  const last = left.text.at(-1) ?? '';
  const first = right.text[0] ?? '';
  if (/[([{/\-–−]/.test(last)) return false;
  if (/[)\]},.;:!?%′″'’/\-–−]/.test(first)) return false;
  if (right.script && !left.script) return false;
  if (left.script && !right.script) return !/[A-Z0-9]/.test(first);
  return true;
}
