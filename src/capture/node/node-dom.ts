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
 */
import { JSDOM } from 'jsdom';
import type { DomParserLike } from '../dom-parser';

let window: JSDOM['window'] | undefined;

/** A DOMParser backed by jsdom; one shared window, created on first use. */
export function nodeDomParser(): DomParserLike {
  window ??= new JSDOM('').window;
  return new window.DOMParser() as unknown as DomParserLike;
}
