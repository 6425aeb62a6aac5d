/**
 * Text taken from a document is untrusted: a page can put control characters and terminal
 * escape sequences into its title, its author names or its paragraphs, which a terminal would
 * then execute (recolour, retitle the window, move the cursor) when the CLI prints them, and
 * which no reader can see on screen. Every captured string is cleaned here, once: block texts by
 * the article builder (before their offsets are taken), metadata by `ArticleSchema`.
 *
 * Also the length bounds of captured strings, with where each number comes from.
 */
import { z } from 'zod';

/**
 * Terminal escape sequences (ECMA-48): CSI (`ESC [` or the 8-bit U+009B, parameters, a final
 * byte), OSC / DCS / PM / APC / SOS strings (`ESC ]`, `ESC P`, `ESC ^`, `ESC _`, `ESC X` or
 * their 8-bit forms, up to BEL or ST; an unterminated one is taken to be at most 1,024
 * characters long, so a stray `ESC ]` cannot swallow a whole paragraph), and the other `ESC`
 * sequences (intermediate bytes, then a final byte: `ESC c`, `ESC ( B`). Removed whole: removing
 * only the ESC would leave `[31m` in the text.
 */
const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[0-?]{0,64}[ -/]{0,16}[@-~]?|(?:\u001b[\]P^_X]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]{0,1024}(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]{0,16}[0-~]?/g;
/** Controls that separate text (CR, FF, VT, NEL): a space, so the words on either side stay apart. */
const SEPARATING_CONTROL = /[\r\f\v\u0085]/g;
/** Every other C0 control except tab and line feed, DEL, and every C1 control. */
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;

/**
 * `text` without control characters: terminal escape sequences are removed whole, CR, FF, VT
 * and NEL become spaces, every other C0 control (except tab and line feed), DEL and every C1
 * control are removed. Printable text, tabs and line feeds are unchanged.
 */
export function stripControlCharacters(text: string): string {
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCE, '').replace(SEPARATING_CONTROL, ' ').replace(CONTROL, '');
}

/**
 * Length bounds of captured strings, in UTF-16 code units (JavaScript string length). Each is
 * far above what real papers need (measured on the shared fixtures and datasets, noted per
 * bound), so only a broken or hostile document reaches one.
 */
export const CAPTURED_TEXT_LIMITS = {
  /** Longest title in the fixtures: 186 characters; the longest published titles run to ~1,000. */
  title: 2_000,
  /** Longest author entry in the fixtures: 75 (a mis-split list); single names stay under ~100. */
  author: 500,
  /** Author lists reach ~5,200 (ATLAS/CMS papers); 27 at most in the fixtures. */
  authors: 10_000,
  /** Longest journal name in the fixtures: 58; the longest real ones are ~250. */
  journal: 500,
  /** A volume ("127", "A12") or pages ("10709-10716", "e2301234"); anything longer is not one. */
  volume: 100,
  pages: 100,
  /** Longest DOI in the fixtures: 40; SICI-style DOIs run to ~120. No registry DOI comes near 500. */
  doi: 500,
  /** 8 KB, what most HTTP servers accept in a request line; article URLs are ~50–300. */
  url: 8_192,
  /** Adapter ids are words: `generic`, `elsevier-consyn`, `text`. */
  adapter: 64,
  /** Longest heading in the fixtures: 117; a section name is a heading. */
  section: 2_000,
  /**
   * Longest block in the fixtures: 23,228 characters (a README table read as one paragraph);
   * longest real table 4,402. The article builder splits longer runs into several blocks.
   */
  block: 200_000,
  /** A whole article: the longest in the fixtures is 109,057 characters; a 1,000-page book is ~3 million. */
  articleText: 20_000_000,
  /** A warning names a problem in a sentence, or lists page numbers of a long PDF. */
  warning: 10_000,
  warnings: 1_000,
} as const;

/**
 * A captured metadata string (one line: a title, a name, a URL, a warning): control characters
 * stripped (`stripControlCharacters`), whitespace runs collapsed to one space and trimmed (so a
 * stripped control leaves no stray space), then at most `max` characters, with an error that
 * names the field and the bound.
 */
export function capturedString(field: string, max: number) {
  return z
    .string()
    .transform((text) => stripControlCharacters(text).replace(/\s+/g, ' ').trim())
    .pipe(z.string().max(max, `${field} is longer than ${max.toLocaleString('en-US')} characters: not a paper's ${field}`));
}
