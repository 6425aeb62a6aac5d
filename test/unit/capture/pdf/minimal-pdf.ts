/**
 * Hand-written PDFs for tests (no binary fixtures in the repository): one text object per line
 * in Helvetica, an optional info dictionary, optional /Encrypt. Offsets in the xref table are
 * computed, so pdf.js reads the file without falling back to reconstruction.
 */
export interface MinimalPdfLine {
  text: string;
  /** Baseline position in points from the bottom-left corner of a 612×792 page. */
  x: number;
  y: number;
  size?: number;
}

export interface MinimalPdfOptions {
  /** One array of lines per page; an empty array makes a page without text. */
  pages: MinimalPdfLine[][];
  title?: string;
  /** Adds a Standard security handler whose user password is not empty. */
  encrypted?: boolean;
}

function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (character) => `\\${character}`);
}

/** Build the PDF bytes. */
export function minimalPdf(options: MinimalPdfOptions): Uint8Array {
  const objects: string[] = [];
  const pageCount = options.pages.length;
  // 1 catalog, 2 pages, 3 font, then per page: page object + content stream.
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  const kids = options.pages.map((_, index) => `${4 + index * 2} 0 R`).join(' ');
  objects[2] = `<< /Type /Pages /Kids [${kids}] /Count ${pageCount} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  options.pages.forEach((lines, index) => {
    const pageId = 4 + index * 2;
    const content = lines
      .map((line) => `BT /F1 ${line.size ?? 10} Tf ${line.x} ${line.y} Td (${escapePdfString(line.text)}) Tj ET`)
      .join('\n');
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  let infoId: number | undefined;
  if (options.title !== undefined) {
    infoId = objects.length;
    objects[infoId] = `<< /Title (${escapePdfString(options.title)}) /Producer (assay test) >>`;
  }
  let encryptId: number | undefined;
  if (options.encrypted) {
    encryptId = objects.length;
    const filler = 'A1'.repeat(32);
    objects[encryptId] = `<< /Filter /Standard /V 1 /R 2 /O <${filler}> /U <${'B2'.repeat(32)}> /P -44 >>`;
  }
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = body.length;
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefOffset = body.length;
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  const extras = [
    infoId ? `/Info ${infoId} 0 R` : '',
    encryptId ? `/Encrypt ${encryptId} 0 R /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>]` : '',
  ]
    .filter(Boolean)
    .join(' ');
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R ${extras} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}
