/**
 * A nesting limit for markup parsed in Node, as browsers have one.
 *
 * Chromium's HTML parser never nests elements deeper than 512 (`kMaximumHTMLParserDOMTreeDepth`):
 * deeper elements are attached higher up, so a page nested 10,000 levels deep becomes a
 * shallow tree with the same text. jsdom has no such limit, and inserting a node into its tree
 * costs time in proportion to the node's depth, so the same page took 15 s to parse (a 125 KB
 * file) and a deeper one as long as anyone would wait. `limitMarkupDepth` gives jsdom the
 * browser's bound before parsing: start and end tags nested deeper than the limit are removed
 * (block tags leave a space, so words do not run together), and the text stays where it was,
 * in order. Real article pages nest at most about 40 deep (the deepest in the shared fixtures
 * is 41), so they are never changed.
 *
 * The nesting is counted lexically, without the HTML tree-construction rules, so it is an
 * estimate: void elements and elements whose end tag may be omitted (`p`, `li`, `td`, …) are not
 * counted, raw text (`<script>`, `<style>`, comments, CDATA) is skipped. Only the depth bound
 * matters here, and a markup the parser would nest deeper than the estimate is rare and, once
 * 512 deep, already pathological.
 */
import { BLOCK_TAGS } from '../html/dom-text';

/** Chromium's `kMaximumHTMLParserDOMTreeDepth` (third_party/blink/renderer/core/html/parser/html_construction_site.cc). */
export const MAX_MARKUP_DEPTH = 512;

const VOID = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Elements whose end tag HTML lets a page omit: counting them would count unclosed `<p>`s as nesting. */
const OPTIONAL_END = new Set([
  'html',
  'head',
  'body',
  'p',
  'li',
  'dt',
  'dd',
  'option',
  'optgroup',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'colgroup',
  'caption',
  'rb',
  'rt',
  'rtc',
  'rp',
]);
/** Elements whose content is text up to their end tag, not markup. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

interface OpenElement {
  name: string;
  /** Removed from the output (nested deeper than the limit), with its end tag. */
  dropped: boolean;
}

/** Where a tag that starts at `from` ends (after its `>`): quotes count only around attribute values, as in the HTML tokenizer. */
function tagEnd(text: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    const character = text[index];
    if (character === '>') return index + 1;
    if (character !== '=') continue;
    let value = index + 1;
    while (value < text.length && /\s/.test(text[value]!)) value += 1;
    const quote = text[value];
    if (quote !== '"' && quote !== "'") continue;
    const close = text.indexOf(quote, value + 1);
    if (close < 0) return text.length;
    index = close;
  }
  return text.length;
}

/** The end of a tag name that starts at `from`. */
function nameEnd(text: string, from: number): number {
  let index = from;
  while (index < text.length && !/[\s/>]/.test(text[index]!)) index += 1;
  return index;
}

const rawTextEnds = new Map<string, RegExp>();

/**
 * `text` with every element nested deeper than `maxDepth` unwrapped (its start and end tags
 * removed, its content kept in place). `type` says how to count: HTML (void and optional-end
 * elements, raw text, `/>` only in SVG and MathML) or XML (every element, `/>` always). Text
 * within the limit is returned unchanged (the same string). One forward scan: linear in the
 * length of `text`, whatever it holds.
 */
export function limitMarkupDepth(text: string, type: 'text/html' | 'application/xml', maxDepth: number = MAX_MARKUP_DEPTH): string {
  const html = type === 'text/html';
  const stack: OpenElement[] = [];
  const openCounts = new Map<string, number>();
  let foreign = 0;
  const parts: string[] = [];
  let copied = 0;
  const remove = (start: number, end: number, name: string): void => {
    parts.push(text.slice(copied, start), BLOCK_TAGS.has(name) ? ' ' : '');
    copied = end;
  };
  const isLetter = (index: number): boolean => /[A-Za-z]/.test(text[index] ?? '');
  let position = text.indexOf('<');
  while (position >= 0 && position < text.length) {
    const start = position;
    let next: number;
    if (text.startsWith('<!--', start)) {
      const close = text.indexOf('-->', start + 4);
      next = close < 0 ? text.length : close + 3;
    } else if (text.startsWith('<![CDATA[', start)) {
      const close = text.indexOf(']]>', start + 9);
      next = close < 0 ? text.length : close + 3;
    } else if (text[start + 1] === '!' || text[start + 1] === '?') {
      const close = text.indexOf('>', start + 2);
      next = close < 0 ? text.length : close + 1;
    } else if (text[start + 1] === '/' && isLetter(start + 2)) {
      const after = nameEnd(text, start + 2);
      next = tagEnd(text, after);
      const name = html ? text.slice(start + 2, after).toLowerCase() : text.slice(start + 2, after);
      if (openCounts.get(name)) {
        // Close everything opened since, as the parser does for an end tag it can match.
        for (let open = stack.pop(); open; open = stack.pop()) {
          openCounts.set(open.name, (openCounts.get(open.name) ?? 1) - 1);
          if (html && (open.name === 'svg' || open.name === 'math')) foreign -= 1;
          if (open.name !== name) continue;
          if (open.dropped) remove(start, next, name);
          break;
        }
      }
    } else if (isLetter(start + 1)) {
      const after = nameEnd(text, start + 1);
      next = tagEnd(text, after);
      const name = html ? text.slice(start + 1, after).toLowerCase() : text.slice(start + 1, after);
      const selfClosing = text[next - 2] === '/' && text[next - 1] === '>' && (!html || foreign > 0);
      if (html && RAW_TEXT.has(name) && !selfClosing) {
        // Its content is text up to its end tag, not markup.
        let end = rawTextEnds.get(name);
        if (!end) rawTextEnds.set(name, (end = new RegExp(`</${name}`, 'gi')));
        end.lastIndex = next;
        next = end.exec(text)?.index ?? text.length;
      } else if (!selfClosing && !(html && (VOID.has(name) || OPTIONAL_END.has(name)))) {
        const dropped = stack.length >= maxDepth;
        if (dropped) remove(start, next, name);
        stack.push({ name, dropped });
        openCounts.set(name, (openCounts.get(name) ?? 0) + 1);
        if (html && (name === 'svg' || name === 'math')) foreign += 1;
      }
    } else {
      next = start + 1;
    }
    position = text.indexOf('<', next);
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}
