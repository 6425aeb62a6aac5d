/**
 * Which encoding a text file is in, read from its bytes before its declaration (issue 27, item
 * 11): a UTF-8 file that says `encoding="UTF-16"` was decoded as UTF-16 and came out as CJK
 * text. The order follows the WHATWG Encoding standard's "decode" (a byte-order mark wins over
 * any label) and the HTML standard's prescan (a `<meta charset>` naming UTF-16 means UTF-8,
 * since a declaration readable as ASCII cannot be in UTF-16), with byte patterns for what
 * neither covers:
 *
 * 1. A byte-order mark: UTF-8, UTF-16LE or UTF-16BE.
 * 2. UTF-16 without a mark, told by its NUL bytes: text in Latin script stored as UTF-16 has a
 *    NUL in every other byte (odd positions for little-endian, even for big-endian).
 * 3. The declaration (XML `encoding="…"`, HTML `<meta charset>`), read as ASCII in the first
 *    2 KB: a UTF-16 or UTF-32 label there is a contradiction (the bytes have no NULs), so the
 *    file is read as UTF-8; a single-byte Latin label on bytes that are valid UTF-8 and not plain
 *    ASCII is read as UTF-8 (a scraper re-saving a page as UTF-8 keeps its old declaration).
 * 4. Else the declared encoding, or UTF-8 (invalid sequences become U+FFFD, which the binary
 *    check of `captureDocument` counts).
 *
 * Validity is decided by the WHATWG `TextDecoder` with `fatal: true`. Each overruled declaration
 * gives one warning line ("declares UTF-16 but is UTF-8; read as UTF-8").
 */

/** The text of a file, the encoding it was read in (WHATWG name), and a warning when its declaration was overruled. */
export interface DecodedText {
  text: string;
  /** WHATWG encoding name: "utf-8", "utf-16le", "utf-16be", "windows-1252", … */
  encoding: string;
  /** One line, set when the file's declaration or mark was not followed. */
  warning?: string;
}

/** Bytes looked at for the UTF-16 NUL pattern and for the declaration (the HTML prescan reads 1024; XML declarations come first). */
const SNIFF_BYTES = 2048;

/**
 * Share of the odd (or even) bytes that must be NUL, with almost none at the other parity, to
 * read a file without a byte-order mark as UTF-16. Latin-script text in UTF-16 has a NUL high
 * byte for every ASCII character: markup and English prose are ~100 %, a French or German
 * paragraph over 90 %. Random binary data has ~0.4 % NULs at each parity, so it is never taken
 * for text here (and a zero-filled binary has NULs at both parities).
 */
const UTF16_NUL_SHARE = 0.7;
/** At most this share of the other parity may be NUL (a UTF-16 text has a NUL low byte only for U+0100, U+0200, …). */
const UTF16_OTHER_NUL_SHARE = 0.05;

/** Labels of single-byte Latin encodings that a UTF-8 body overrules (see step 3). */
const LATIN_LABEL = /^(?:iso-8859-1|iso8859-1|latin1|l1|windows-1252|cp1252|us-ascii|ascii)$/i;

/** The encoding a WHATWG label names ("UTF-16" → "utf-16le", "latin1" → "windows-1252"), or undefined for a label the standard does not know. */
function whatwgName(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** "UTF-8", "UTF-16LE", "windows-1252": an encoding name as people write it, for warnings. */
function spoken(encoding: string): string {
  return encoding.startsWith('utf-') ? encoding.toUpperCase() : encoding;
}

/** The encoding named by the XML declaration or the HTML `<meta charset>` in `head` (read as ASCII), as written. */
function declaredLabel(head: string): string | undefined {
  return /^<\?xml[^>]*encoding=["']([\w.:-]+)["']/i.exec(head)?.[1] ?? /<meta[^>]+charset=["']?([\w.:-]+)/i.exec(head)?.[1];
}

/** The byte-order mark's encoding and length, if `bytes` starts with one. */
function byteOrderMark(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/** "utf-16le" or "utf-16be" when the first `SNIFF_BYTES` show UTF-16's NUL pattern (`UTF16_NUL_SHARE`), else undefined. */
export function utf16ByNulBytes(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const length = Math.min(bytes.length, SNIFF_BYTES) & ~1;
  if (length < 4) return undefined;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let index = 0; index < length; index += 2) {
    if (bytes[index] === 0) evenNuls += 1;
    if (bytes[index + 1] === 0) oddNuls += 1;
  }
  const pairs = length / 2;
  if (oddNuls >= UTF16_NUL_SHARE * pairs && evenNuls <= UTF16_OTHER_NUL_SHARE * pairs) return 'utf-16le';
  if (evenNuls >= UTF16_NUL_SHARE * pairs && oddNuls <= UTF16_OTHER_NUL_SHARE * pairs) return 'utf-16be';
  return undefined;
}

/** `bytes` as UTF-8 when they are valid UTF-8 (WHATWG `TextDecoder`, `fatal: true`), else undefined. */
function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function decoded(bytes: Uint8Array, encoding: string, warning?: string): DecodedText {
  return { text: new TextDecoder(encoding).decode(bytes), encoding, ...(warning !== undefined && { warning }) };
}

/**
 * Decode a text document's bytes (HTML, XML or plain text) by the steps of the module comment:
 * byte-order mark, UTF-16 NUL pattern, declaration (overruled when the bytes contradict it),
 * UTF-8. Labels are WHATWG Encoding labels, so `ISO-8859-1` decodes as windows-1252, as browsers
 * do; an unknown label is ignored with a warning. A byte-order mark is not part of `text`.
 * Never throws.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const mark = byteOrderMark(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(mark?.length ?? 0, SNIFF_BYTES));
  const label = declaredLabel(head);
  const declared = label === undefined ? undefined : whatwgName(label);
  // "UTF-16" names either byte order; the mark or the NULs say which.
  const sameFamily = (actual: string) => declared === actual || (declared?.startsWith('utf-16') === true && actual.startsWith('utf-16'));
  const overruled = (actual: string, how: string): string | undefined =>
    label === undefined || sameFamily(actual)
      ? undefined
      : `declares ${label} but is ${spoken(actual)} (${how}); read as ${spoken(actual)}`;

  if (mark) return decoded(bytes.subarray(mark.length), mark.encoding, overruled(mark.encoding, 'its byte-order mark says so'));

  const utf16 = utf16ByNulBytes(bytes);
  if (utf16) {
    const warning =
      overruled(utf16, 'every other byte is NUL') ?? `has no byte-order mark, but its bytes are ${spoken(utf16)}; read as ${spoken(utf16)}`;
    return decoded(bytes, utf16, label === undefined || !sameFamily(utf16) ? warning : undefined);
  }

  if (label !== undefined && declared === undefined) {
    const utf8 = strictUtf8(bytes);
    const warning = `declares ${label}, an encoding browsers do not know; read as UTF-8${utf8 === undefined ? ' (some bytes are not valid UTF-8)' : ''}`;
    return utf8 === undefined ? decoded(bytes, 'utf-8', warning) : { text: utf8, encoding: 'utf-8', warning };
  }
  if (declared?.startsWith('utf-16')) {
    // UTF-16 without NULs: the declaration itself was readable as ASCII, so the file is not UTF-16.
    const utf8 = strictUtf8(bytes);
    if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8', warning: `declares ${label} but is UTF-8; read as UTF-8` };
    return decoded(bytes, 'utf-8', `declares ${label} but is not ${label} (no NUL bytes, and not valid UTF-8 either); read as UTF-8`);
  }
  if (label !== undefined && LATIN_LABEL.test(label) && bytes.some((byte) => byte > 0x7f)) {
    const utf8 = strictUtf8(bytes);
    if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8', warning: `declares ${label} but is UTF-8; read as UTF-8` };
  }
  return decoded(bytes, declared ?? 'utf-8');
}
