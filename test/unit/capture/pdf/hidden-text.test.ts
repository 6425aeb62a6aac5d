/**
 * Issue 27, item 3: text a reader of the PDF cannot see was captured and became facts. Each page
 * holds a visible control fact beside hidden variants, each naming another material; only the
 * control may be captured. Every PDF is written here by hand (`writePdf`).
 */
import { describe, expect, it } from 'vitest';
import { capturePdf } from '../../../../src/capture/pdf/capture-pdf';
import { writePdf, type PdfObject } from '../../../support/pdf-writer';

const CONTROL = 'BT /F1 10 Tf 72 700 Td (The band gap of GaN is 3.4 eV.) Tj ET';

interface PageOptions {
  /** Extra page resources, e.g. `/ExtGState << … >>`. */
  resources?: string;
  /** Extra catalog entries, e.g. `/OCProperties << … >>`. */
  catalog?: string;
  /** Objects appended after the fixed ones (numbered from 6). */
  objects?: PdfObject[];
}

/** One page: objects 1 catalog, 2 pages, 3 page, 4 Helvetica, 5 the content stream. */
function pagePdf(content: string, options: PageOptions = {}): Uint8Array {
  return writePdf({
    objects: [
      `<< /Type /Catalog /Pages 2 0 R ${options.catalog ?? ''} >>`,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> ${options.resources ?? ''} >> /Contents 5 0 R >>`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      { dictionary: '', stream: content },
      ...(options.objects ?? []),
    ],
    trailer: '/Root 1 0 R',
  });
}

/** A line of text at height `y` drawn after `setup` (operators inside BT … ET). */
function line(y: number, text: string, setup = ''): string {
  return `BT /F1 10 Tf ${setup} 72 ${y} Td (${text}) Tj ET`;
}

async function capturedText(data: Uint8Array): Promise<{ text: string; warnings: string[] }> {
  const article = await capturePdf(data, {});
  return { text: article.text, warnings: article.warnings };
}

const hiddenVariants: Array<[string, string, PageOptions?]> = [
  ['render mode 3 (invisible)', line(660, 'The band gap of AlN is 6.2 eV.', '3 Tr')],
  ['render mode 7 (clip only)', line(660, 'The band gap of AlN is 6.2 eV.', '7 Tr')],
  ['white text on the white page', line(660, 'The band gap of AlN is 6.2 eV.', '1 1 1 rg')],
  ['white text in gray and CMYK', line(660, 'The band gap of AlN is 6.2 eV.', '1 g 0 0 0 0 k')],
  ['white text on a white rectangle', `1 1 1 rg 60 640 300 40 re f ${line(660, 'The band gap of AlN is 6.2 eV.', '1 1 1 rg')}`],
  ['text coloured like its coloured box', `0 0 1 rg 60 640 300 40 re f ${line(660, 'The band gap of AlN is 6.2 eV.', '0 0 1 rg')}`],
  ['0.1 pt text', 'BT /F1 0.1 Tf 72 660 Td (The band gap of AlN is 6.2 eV.) Tj ET'],
  ['text squeezed to 1 % wide', line(660, 'The band gap of AlN is 6.2 eV.', '1 Tz')],
  ['text off the page', line(660, 'The band gap of AlN is 6.2 eV.', '-900 0 Td')],
  ['text clipped away', `q 0 0 100 100 re W n ${line(660, 'The band gap of AlN is 6.2 eV.')} Q`],
  [
    'fully transparent text',
    `q /Clear gs ${line(660, 'The band gap of AlN is 6.2 eV.')} Q`,
    { resources: '/ExtGState << /Clear << /ca 0 /CA 0 >> >>' },
  ],
  [
    'text on a layer that is switched off',
    `/OC /Hidden BDC ${line(660, 'The band gap of AlN is 6.2 eV.')} EMC`,
    {
      resources: '/Properties << /Hidden 6 0 R >>',
      catalog: '/OCProperties << /OCGs [6 0 R] /D << /Order [6 0 R] /OFF [6 0 R] >> >>',
      objects: ['<< /Type /OCG /Name (hidden) >>'],
    },
  ],
  [
    'invisible text continuing a visible line',
    `BT /F1 10 Tf 72 660 Td (Measured at room temperature.) Tj 3 Tr ( The band gap of AlN is 6.2 eV.) Tj ET`,
  ],
];

describe('hidden PDF text is left out', () => {
  it.each(hiddenVariants)('%s', async (name, hidden, options) => {
    const { text, warnings } = await capturedText(pagePdf(`${CONTROL}\n${hidden}`, options));
    expect(text).toContain('The band gap of GaN is 3.4 eV.');
    expect(text).not.toMatch(/AlN|6\.2/);
    // pdf.js itself drops text off the page, so no warning names it.
    if (name !== 'text off the page') expect(warnings.join(' ')).toMatch(/Left out \d+ characters of text a reader cannot see/);
  });

  it('keeps the visible start of a line whose end is invisible', async () => {
    const content = `${CONTROL}\nBT /F1 10 Tf 72 660 Td (Measured at room temperature.) Tj 3 Tr ( The band gap of AlN is 6.2 eV.) Tj ET`;
    const { text } = await capturedText(pagePdf(content));
    expect(text).toContain('Measured at room temperature.');
  });

  it.each([
    ['white text on a black box', `0 g 60 640 300 40 re f ${line(660, 'The band gap of InN is 0.7 eV.', '1 g')}`],
    [
      'white text on a dark curved shape',
      `0 0 0.4 rg 60 640 m 360 640 l 360 680 l 60 680 300 660 60 640 c f ${line(660, 'The band gap of InN is 0.7 eV.', '1 g')}`,
    ],
    ['light gray text', line(660, 'The band gap of InN is 0.7 eV.', '0.8 g')],
    ['yellow text', line(660, 'The band gap of InN is 0.7 eV.', '1 1 0 rg')],
    ['white fill with a black outline (mode 2)', line(660, 'The band gap of InN is 0.7 eV.', '2 Tr 1 g 0 G')],
    [
      'black text over black curves of a plot',
      `0 g 60 600 m 400 700 l 400 702 l 60 602 l f ${line(660, 'The band gap of InN is 0.7 eV.')}`,
    ],
    ['6 pt text', 'BT /F1 6 Tf 72 660 Td (The band gap of InN is 0.7 eV.) Tj ET'],
    [
      'white text on an image',
      `q 300 40 0 0 60 640 cm /Im1 Do Q ${line(660, 'The band gap of InN is 0.7 eV.', '1 g')}`,
      {
        resources: '/XObject << /Im1 6 0 R >>',
        objects: [
          { dictionary: '/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8', stream: '\x20' },
        ],
      },
    ],
  ] as Array<[string, string, PageOptions?]>)('keeps %s', async (_name, shown, options) => {
    const { text, warnings } = await capturedText(pagePdf(`${CONTROL}\n${shown}`, options));
    expect(text).toContain('The band gap of GaN is 3.4 eV.');
    expect(text).toContain('The band gap of InN is 0.7 eV.');
    expect(warnings.join(' ')).not.toMatch(/Left out/);
  });

  it('keeps an OCR layer: a page whose text is all drawn invisible over a scan', async () => {
    const image = {
      dictionary: '/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8',
      stream: '\x80',
    };
    const ocr = [
      'q 612 0 0 792 0 0 cm /Im1 Do Q',
      'BT 3 Tr /F1 10 Tf 72 700 Td (The band gap of GaN is 3.4 eV.) Tj 0 -14 Td (It was measured by optical absorption at 300 K.) Tj ET',
      // A visible stamp in the margin, as archives add: the page is still an OCR layer.
      'BT /F1 6 Tf 72 30 Td (Downloaded from the archive.) Tj ET',
    ].join('\n');
    const { text, warnings } = await capturedText(pagePdf(ocr, { resources: '/XObject << /Im1 6 0 R >>', objects: [image] }));
    expect(text).toContain('The band gap of GaN is 3.4 eV.');
    expect(text).toContain('It was measured by optical absorption at 300 K.');
    expect(warnings.join(' ')).not.toMatch(/Left out/);
  });

  it('says a PDF whose only text is hidden has no text a reader can see', async () => {
    const error = await capturePdf(pagePdf(line(660, 'The band gap of AlN is 6.2 eV.', '1 g')), {}).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'no-text-layer', message: expect.stringMatching(/no text a reader can see/) });
  });
});
