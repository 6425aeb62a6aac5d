/**
 * Text of floats: figure and table captions, and table bodies as tab-separated lines. Shared
 * by every XML format because they all use one of two table models: XHTML-like `tr`/`td`/`th`
 * (JATS) or CALS/OASIS `row`/`entry` (Elsevier `ce:table`, ACS/APS `oasis:table`, IOP).
 */
import { walkElements } from '../tree-walk';
import { childElements, firstChild } from './xml-dom';
import { elementText, type InlineOptions } from './inline-text';

const ROWS = ['tr', 'row'];
const CELLS = ['td', 'th', 'entry'];
/** Parts of a table whose rows are not table rows (captions, footnotes). */
const NOT_ROW_CONTAINERS = new Set(['caption', 'label', 'table-wrap-foot', 'table-footnote', 'legend', 'alt-text']);

/**
 * "Label caption" of a figure or table: its `label` child (or the caption's `label`
 * attribute, as IOP writes it) followed by the `caption` child's text. "" when neither exists.
 */
export function captionText(float: Element, options: InlineOptions = {}): string {
  const caption = firstChild(float, 'caption');
  const label = elementText(firstChild(float, 'label'), options).trim() || caption?.getAttribute('label')?.trim() || '';
  const text = elementText(caption, options).trim();
  return [label, text].filter(Boolean).join(' ');
}

/**
 * The cells of a table, one line per row and one tab between cells, in document order (head,
 * body, foot). Spanned cells are not repeated: a reader of the line sees what was printed.
 * Rows inside the caption or footnotes are not table rows and are ignored. "" when the table
 * has no rows (a table given only as an image).
 */
export function tableText(table: Element, options: InlineOptions = {}): string {
  const lines: string[] = [];
  // Iterative: rows are found below any depth of wrappers without recursion.
  walkElements(table, (element) => {
    if (ROWS.includes(element.localName)) {
      const cells = childElements(element, ...CELLS).map((cell) => elementText(cell, options).replace(/\s+/g, ' ').trim());
      if (cells.some(Boolean)) lines.push(cells.join('\t'));
      return false;
    }
    return !NOT_ROW_CONTAINERS.has(element.localName);
  });
  return lines.join('\n');
}
