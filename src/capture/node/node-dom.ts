/**
 * The DOM implementation for Node (CLI, tests): jsdom.
 *
 * Why jsdom rather than linkedom or happy-dom: it parses HTML with parse5, a complete
 * implementation of the WHATWG HTML tree-construction algorithm, so a saved publisher page
 * becomes the same tree in Node as in Chromium (implied </p>, misnested tables, stray tags) and
 * the same capture code gives the same blocks in both. linkedom (htmlparser2) is faster but not
 * spec-conformant on malformed markup, which publisher pages are full of. jsdom's XML parser
 * (saxes) also reports well-formedness errors as a <parsererror> document, as browsers do.
 * Scripts never run: jsdom executes none unless `runScripts` is set, and we never set it.
 *
 * One difference from Chromium is made up for: browsers bound how deep markup nests (512) and
 * jsdom does not, at a cost quadratic in the depth, so markup is given the browser's bound
 * first (`limitMarkupDepth`; real pages are never changed by it).
 */
import { JSDOM } from 'jsdom';
import type { DomParserLike } from '../dom-parser';
import { limitMarkupDepth } from './markup-depth';

let window: JSDOM['window'] | undefined;

/** A DOMParser backed by jsdom (one shared window, created on first use), nesting no deeper than a browser's. */
export function nodeDomParser(): DomParserLike {
  window ??= new JSDOM('').window;
  const parser = new window.DOMParser() as unknown as DomParserLike;
  return { parseFromString: (text, type) => parser.parseFromString(limitMarkupDepth(text, type), type) };
}
