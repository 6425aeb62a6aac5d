import { describe, expect, it } from 'vitest';
import { decodeDocumentBytes, detectDocumentType } from '../../../src/capture/detect-type';

function detect(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return detectDocumentType(bytes, decodeDocumentBytes(bytes));
}

describe('detectDocumentType', () => {
  it.each([
    ['%PDF-1.4\n%âãÏÓ\n1 0 obj', 'pdf'],
    ['<!DOCTYPE html><html><head><title>x</title></head></html>', 'html'],
    ['\n\n  <div class="page-body"><p>Scitation body fragment</p></div>', 'html'],
    ['<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//NLM//DTD JATS" "x.dtd"><article><front><journal-meta/></front></article>', 'xml'],
    [
      '<full-text-retrieval-response xmlns="http://www.elsevier.com/xml/svapi/article/dtd"><coredata/></full-text-retrieval-response>',
      'xml',
    ],
    [
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE article SYSTEM "iopv1_5_2.dtd">\n<html><body><article><article-metadata/></article></body></html>',
      'xml',
    ],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><head/></html>', 'html'],
    ['Band gap of GaN\n\nThe band gap is 3.4 eV.', 'text'],
  ])('%j → %s', (text, expected) => {
    expect(detect(text)).toBe(expected);
  });

  it('decodes a declared ISO-8859-1 file as browsers do', () => {
    const bytes = Uint8Array.from([
      ...new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-1"?><a>'),
      0xc5,
      ...new TextEncoder().encode('</a>'),
    ]);
    expect(decodeDocumentBytes(bytes)).toContain('<a>Å</a>');
  });
});
