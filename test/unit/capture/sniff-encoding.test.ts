/**
 * A wrong encoding declaration (issue 27, item 11): a UTF-8 file that declares UTF-16 was read as
 * UTF-16 and captured as CJK text with only "No title line" to say so. The bytes decide, and the
 * overruled declaration is one warning line.
 */
import { describe, expect, it } from 'vitest';
import { captureDocument } from '../../../src/capture/capture-document';
import { nodeDomParser } from '../../../src/capture/node/node-dom';
import { decodeText, utf16ByNulBytes } from '../../../src/capture/sniff-encoding';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const capture = (bytes: Uint8Array) => captureDocument(bytes, { domParser: nodeDomParser() });

const PARAGRAPH = 'The band gap of wurtzite GaN is 3.4 eV at room temperature, measured by photoluminescence on films grown by MOCVD. ';

/** `text` as UTF-16 code units in the given byte order, with no byte-order mark. */
function utf16(text: string, order: 'le' | 'be'): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    bytes[index * 2 + (order === 'le' ? 0 : 1)] = code & 0xff;
    bytes[index * 2 + (order === 'le' ? 1 : 0)] = code >> 8;
  }
  return bytes;
}

describe('decoding a document whose declaration is wrong', () => {
  it('captures a UTF-8 XML file that declares encoding="UTF-16" as UTF-8, with one warning', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-16"?>
<article><front><article-meta><title-group><article-title>Optical gaps of GaN–AlN alloys</article-title></title-group></article-meta></front>
<body><sec><title>Results</title><p>${PARAGRAPH.repeat(3)}</p></sec></body></article>`;
    const article = await capture(encode(xml));
    expect(article.title).toBe('Optical gaps of GaN–AlN alloys');
    expect(article.text).toContain('The band gap of wurtzite GaN is 3.4 eV');
    expect(article.text).not.toMatch(/[\u3400-\u9fff]/u);
    expect(article.warnings[0]).toBe('The file declares UTF-16 but is UTF-8; read as UTF-8.');
  });

  it('captures a UTF-8 HTML page whose meta charset says UTF-16 as UTF-8, with one warning', async () => {
    const html = `<!DOCTYPE html><html><head><meta charset="utf-16"><title>Band gaps of nitrides — 3.4 eV</title>
<meta name="citation_title" content="Band gaps of nitrides"><meta name="citation_doi" content="10.1000/xyz123"></head>
<body><article><h1>Band gaps of nitrides</h1>${`<p>${PARAGRAPH.repeat(4)}</p>`.repeat(6)}</article></body></html>`;
    const article = await capture(encode(html));
    expect(article.text).toContain('wurtzite GaN is 3.4 eV');
    expect(article.warnings).toContain('The file declares utf-16 but is UTF-8; read as UTF-8.');
  });

  it('says so when the bytes are not valid UTF-8 either, and still reads no CJK', () => {
    const bytes = Uint8Array.from([...encode('<?xml version="1.0" encoding="UTF-16"?><a>caf'), 0xe9, ...encode('</a>')]);
    const { text, encoding, warning } = decodeText(bytes);
    expect(encoding).toBe('utf-8');
    expect(text).toContain('<a>caf\uFFFD</a>');
    expect(warning).toBe('declares UTF-16 but is not UTF-16 (no NUL bytes, and not valid UTF-8 either); read as UTF-8');
  });

  it('reads UTF-16 without a byte-order mark by its NUL bytes, in either byte order', async () => {
    const text = `Band gaps of nitrides\n\n${PARAGRAPH.repeat(20)}`;
    expect(utf16ByNulBytes(utf16(text, 'le'))).toBe('utf-16le');
    expect(utf16ByNulBytes(utf16(text, 'be'))).toBe('utf-16be');
    for (const order of ['le', 'be'] as const) {
      const article = await capture(utf16(text, order));
      expect(article.text).toContain('wurtzite GaN is 3.4 eV');
      expect(article.warnings[0]).toBe(
        `The file has no byte-order mark, but its bytes are UTF-16${order.toUpperCase()}; read as UTF-16${order.toUpperCase()}.`,
      );
    }
  });

  it('follows a byte-order mark over a declaration, and warns', () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...encode('<?xml version="1.0" encoding="ISO-8859-1"?><a>Å</a>')]);
    const { text, warning } = decodeText(bytes);
    expect(text).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><a>Å</a>');
    expect(warning).toBe('declares ISO-8859-1 but is UTF-8 (its byte-order mark says so); read as UTF-8');
  });

  it('keeps a true declaration silent: UTF-16 with its mark, ISO-8859-1 that is not UTF-8, plain UTF-8', () => {
    const withMark = Uint8Array.from([0xff, 0xfe, ...utf16('<?xml version="1.0" encoding="UTF-16"?><a>x</a>', 'le')]);
    expect(decodeText(withMark)).toEqual({ text: '<?xml version="1.0" encoding="UTF-16"?><a>x</a>', encoding: 'utf-16le' });
    const latin = Uint8Array.from([...encode('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), 0xc5, ...encode('</a>')]);
    expect(decodeText(latin)).toEqual({ text: '<?xml version="1.0" encoding="ISO-8859-1"?><a>Å</a>', encoding: 'windows-1252' });
    expect(decodeText(encode('<p>GaN 3.4 eV</p>'))).toEqual({ text: '<p>GaN 3.4 eV</p>', encoding: 'utf-8' });
  });

  it('does not take random bytes or a zero-filled file for UTF-16', () => {
    const random = Uint8Array.from({ length: 4096 }, (_, index) => (index * 2654435761) >>> 24);
    expect(utf16ByNulBytes(random)).toBeUndefined();
    expect(utf16ByNulBytes(new Uint8Array(4096))).toBeUndefined();
  });
});
