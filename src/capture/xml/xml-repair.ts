/**
 * Repairs for publisher XML that is well-formed only together with its DTD. Browsers' and
 * jsdom's XML parsers are non-validating and never fetch the DTD, so two things it would have
 * supplied are missing:
 * - namespace declarations: ACS's Atypon XML writes `xlink:href` and leaves `xmlns:xlink` to
 *   the DTD ("unbound namespace prefix");
 * - named entities: the same files write `&ndash;` and `&copy;` ("undefined entity").
 * Both are supplied here, before parsing, exactly as the DTD would have.
 */
import type { DomParserLike } from '../dom-parser';
import { elementsByTag } from '../tree-walk';

/** URIs for prefixes publishers leave to their DTDs; any other missing prefix gets a placeholder URN. */
const KNOWN_NAMESPACES: Record<string, string> = {
  xlink: 'http://www.w3.org/1999/xlink',
  mml: 'http://www.w3.org/1998/Math/MathML',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  ali: 'http://www.niso.org/schemas/ali/1.0/',
  oasis: 'http://www.niso.org/standards/z39-96/ns/oasis-exchange/table',
};

const XML_PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

/**
 * Apply `resolveNamedEntities` and `declareMissingPrefixes`. The DOM parser (HTML mode) is the
 * table of entity names: HTML's named character references include every ISO entity set
 * that journal DTDs import.
 */
export function repairXmlText(text: string, domParser: DomParserLike): string {
  return declareMissingPrefixes(resolveNamedEntities(text, domParser));
}

/**
 * Replace every named entity reference other than XML's five (`&ndash;`) by a numeric
 * character reference (`&#x2013;`), so it parses without the DTD. Names the HTML table does not
 * know are left as they are (the parser then reports the file as unreadable).
 */
export function resolveNamedEntities(text: string, domParser: DomParserLike): string {
  const names = new Set(Array.from(text.matchAll(/&([A-Za-z][A-Za-z0-9]*);/g), (match) => match[1] as string));
  for (const name of XML_PREDEFINED) names.delete(name);
  if (names.size === 0) return text;
  const list = [...names];
  // One HTML parse for all names: each becomes a <p> whose text is the decoded character(s).
  const html = domParser.parseFromString(list.map((name) => `<p>&${name};</p>`).join(''), 'text/html');
  const decoded = elementsByTag(html, 'p').map((paragraph) => paragraph.textContent ?? '');
  const references = new Map<string, string>();
  list.forEach((name, index) => {
    const value = decoded[index];
    if (value && value !== `&${name};`)
      references.set(name, Array.from(value, (character) => `&#x${character.codePointAt(0)?.toString(16)};`).join(''));
  });
  return text.replace(/&([A-Za-z][A-Za-z0-9]*);/g, (whole, name: string) => references.get(name) ?? whole);
}

/**
 * Add an `xmlns:prefix` declaration to the root start tag for every prefix used in an element
 * or attribute name but not declared on the root. A declaration on an inner element does not
 * count (ACS declares `xmlns:xlink` on one `<uri>` and uses `xlink:` everywhere); declaring it
 * again on the root is harmless. The scan is lexical: a prefix seen only in a comment may be
 * declared needlessly, which is also harmless. Text that needs nothing is returned unchanged.
 */
export function declareMissingPrefixes(text: string): string {
  const prologLength = text.length - skipProlog(text).length;
  const root = /^<([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(text.slice(prologLength));
  if (!root) return text;
  const declared = new Set(Array.from((root[2] ?? '').matchAll(/\bxmlns:([\w.-]+)\s*=/g), (match) => match[1]));
  const used = new Set<string>();
  for (const match of text.matchAll(/<\/?([A-Za-z_][\w.-]*):[A-Za-z_]|\s([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*\s*=\s*["']/g)) {
    const prefix = match[1] ?? match[2];
    if (prefix && prefix !== 'xml' && prefix !== 'xmlns') used.add(prefix);
  }
  const missing = [...used].filter((prefix) => !declared.has(prefix));
  if (missing.length === 0) return text;
  const offset = prologLength + 1 + (root[1] ?? '').length;
  const declarations = missing.map((prefix) => ` xmlns:${prefix}="${KNOWN_NAMESPACES[prefix] ?? `urn:undeclared:${prefix}`}"`).join('');
  return text.slice(0, offset) + declarations + text.slice(offset);
}

/** The text after the XML declaration, comments, processing instructions and the DOCTYPE. */
function skipProlog(text: string): string {
  let rest = text;
  for (;;) {
    const trimmed = rest.replace(/^\s+/, '');
    const prolog = /^(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>)/i.exec(trimmed);
    if (!prolog) return trimmed;
    rest = trimmed.slice(prolog[0].length);
  }
}
