/**
 * What the body walk recognizes by text or shape rather than by selector: back-matter
 * headings, caption-like headings, labels, bullets, data versus layout tables, and the
 * container a back-matter heading opens. Kept apart from the walk so each rule can be tested
 * on its own.
 */

import { descendantElements, findDescendant } from '../tree-walk';
import { EMPTY_SPAN, joinSpans, subtreeSpan, type TrimSummary } from '../trim-summary';

/** Headings of back matter and page furniture; the section they open is not article text. */
const BACK_MATTER_TITLES = [
  String.raw`references?(?:\s+and\s+notes)?`,
  String.raw`notes\s+and\s+references`,
  String.raw`references\s+cited`,
  'bibliography',
  String.raw`(?:literature|works)\s+cited`,
  String.raw`cited\s+by(?:\s*\(\d+\))?`,
  String.raw`citing\s+(?:literature|articles)`,
  'citations?',
  String.raw`related\s+(?:articles?|content|research)`,
  String.raw`(?:recommended|similar)\s+articles`,
  String.raw`(?:article\s+)?metrics`,
  String.raw`article\s+views`,
  'altmetric',
  String.raw`author\s+information`,
  String.raw`authors?\s+and\s+affiliations`,
  String.raw`authors?[’']\s*affiliations`,
  'affiliations',
  String.raw`copyright(?:\s+information)?`,
  String.raw`about\s+(?:this|the)\s+article`,
  String.raw`rights\s+and\s+permissions`,
  'permissions',
  String.raw`personalised\s+recommendations`,
  String.raw`(?:share|cite)\s+this\s+article`,
  String.raw`(?:additional|article)\s+information`,
  'keywords?',
  String.raw`key\s+words`,
  String.raw`publication\s+history`,
  String.raw`download\s+references?`,
  String.raw`terms\s+(?:&|and)\s+conditions`,
  String.raw`other\s+acs\s+content\s+by\s+these\s+authors`,
  String.raw`view\s+more`,
  'actions',
  String.raw`table\s+of\s+contents`,
  'cookies',
  String.raw`sign\s+in`,
  String.raw`log\s*in`,
];
export const BACK_MATTER_HEADING = new RegExp(String.raw`^(?:[\dIVX]+\.?\s*)?(?:${BACK_MATTER_TITLES.join('|')})\s*:?$`, 'i');
/** "Figure 3: …", "Table 2. …", "Scheme 1" written as a heading: a caption, not a section. */
export const CAPTION_HEADING = /^(?:fig(?:ure)?|table|scheme|chart|graph|plate)\.?\s*[A-Z]?\d+[a-z]?\b/i;
/** Not "Summary": in many articles that is a closing body section. */
export const ABSTRACT_HEADING = /^abstract\s*:?$/i;
/** Runs this short lead the next paragraph instead of standing alone (labels: "a", "(ii)", "Fig."). */
export const MAX_LABEL_CHARS = 4;
/** A `<dt>` term up to this long leads its `<dd>` definition. */
export const MAX_TERM_CHARS = 80;
/** A caption heading that is only its label ("Figure 1"): the caption below repeats it with the text. */
export const BARE_CAPTION_LABEL = /^(?:fig(?:ure)?|table|scheme|chart|graph|plate)\.?\s*[A-Z]?\d+[a-z]?\.?$/i;
/** Whole blocks that are page controls or publisher counters, not article text. */
export const PAGE_CONTROL_TEXT =
  /^(?:download (?:pdf|citation|figure|hi-res image)|view pdf|pdf|open in (?:new tab|viewer)|back to top|this article references \d+ other publications\.?|recommended articles|figure viewer)$/i;
/** List bullets rendered as text. */
export const BULLET = /^[•▪◦●■□►▸–—\-*·]+$/;
/** A table with more than this many characters in one cell is page layout. */
const LAYOUT_CELL_CHARS = 1500;

/**
 * The element a back-matter heading opens, when the markup says so: climbing past wrappers that
 * hold only the heading (`<div class="sectionInfo"><h4>REFERENCES</h4></div>`), the parent whose
 * first child is the heading (or its wrapper) and which holds no other heading of its level.
 * Null when the page is flat (the heading is among the article's paragraphs).
 *
 * "Holds only the heading" means its trimmed text is at most 8 characters longer than the
 * heading's. Each level reads only the text it adds (the wrapper's other children) and stops
 * as soon as the limit is passed, so the climb costs O(text read) however deep the wrappers are.
 */
export function backMatterContainer(heading: Element, level: number): Element | null {
  let span = subtreeSpan(heading);
  const limit = span.length + 8;
  const tooLong = (text: TrimSummary): boolean => text.length > limit;
  let box: Element = heading;
  for (;;) {
    const parent = box.parentElement;
    if (!parent || parent.firstElementChild !== box) return null;
    // The box is the first element child: only text nodes (or comments) come before it.
    let before = EMPTY_SPAN;
    for (let node = parent.firstChild; node && node !== box; node = node.nextSibling) before = joinSpans(before, subtreeSpan(node));
    span = joinSpans(before, span);
    for (let node = box.nextSibling; node && !tooLong(span); node = node.nextSibling) {
      span = joinSpans(
        span,
        subtreeSpan(node, (read) => tooLong(joinSpans(span, read))),
      );
    }
    if (tooLong(span)) return hasOtherHeadings(parent, heading, level) ? null : parent;
    box = parent;
  }
}

/** True when `container` holds a heading of `level` or higher other than `heading` (stops at the first). */
export function hasOtherHeadings(container: Element, heading: Element, level: number): boolean {
  return (
    findDescendant(container, (element) => {
      const match = /^h([1-6])$/.exec(element.localName.toLowerCase());
      return match !== null && Number(match[1]) <= level && element !== heading;
    }) !== undefined
  );
}

/** Elements that make a table page layout when they are inside it. */
const LAYOUT_INSIDE_TABLE = new Set(['table', 'h1', 'h2', 'h3', 'h4', 'section']);

/**
 * A table holds data when at least two of its rows have two or more non-empty cells and it is
 * not page layout. Old publisher pages lay pages out with tables (headings, paragraphs or nested
 * tables inside, or a cell with a long text) and put figures and numbered equations in one-row
 * tables: those are read as ordinary containers instead. One walk of the table, which stops at
 * the first nested table or heading.
 */
export function isDataTable(table: Element): boolean {
  const rows: Element[] = [];
  for (const element of descendantElements(table)) {
    const tag = element.localName.toLowerCase();
    if (LAYOUT_INSIDE_TABLE.has(tag)) return false;
    if (tag === 'tr') rows.push(element);
  }
  let dataRows = 0;
  for (const row of rows) {
    let filled = 0;
    for (let cell = row.firstElementChild; cell; cell = cell.nextElementSibling) {
      const length = subtreeSpan(cell, (read) => read.length > LAYOUT_CELL_CHARS).length;
      if (length > LAYOUT_CELL_CHARS) return false;
      if (length > 0) filled += 1;
    }
    if (filled >= 2) dataRows += 1;
  }
  return dataRows >= 2;
}
