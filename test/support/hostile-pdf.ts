/**
 * Hostile PDFs for the decode limit (issue 27, item 4): a one-page article whose extra stream
 * inflates to far more than it weighs, in the places pdf.js decodes differently (a page's content
 * stream through the native inflater, the document's XMP metadata through its JavaScript
 * decoders), behind an ASCIIHex filter or RC4 encryption with an empty user password (which
 * pdf.js opens without asking, so a check of the file's own bytes would see no zlib data).
 */
import { createHash } from 'node:crypto';
import { writePdf, zeroFlateStream, type PdfObject } from './pdf-writer';

export interface BombOptions {
  /** Bytes the stream inflates to (whole MiB). */
  decodedBytes: number;
  /** Which stream inflates: a second content stream of the page, or the catalog's /Metadata. */
  where?: 'content' | 'metadata';
  /** Wrap the Flate data in ASCIIHexDecode. */
  hex?: boolean;
  /** Encrypt every stream (Standard security handler, RC4 40-bit, empty user password). */
  encrypted?: boolean;
}

const CONTROL = 'BT /F1 10 Tf 72 700 Td (The band gap of GaN is 3.4 eV.) Tj ET';

/** The PDF bytes: objects 1 catalog, 2 pages, 3 page, 4 font, 5 the control text, 6 the bomb. */
export function bombPdf(options: BombOptions): Uint8Array {
  const where = options.where ?? 'content';
  let data = zeroFlateStream(options.decodedBytes);
  let filter = '/Filter /FlateDecode';
  if (options.hex) {
    data = new TextEncoder().encode(Buffer.from(data).toString('hex') + '>');
    filter = '/Filter [/ASCIIHexDecode /FlateDecode]';
  }
  const contents = where === 'content' ? '[5 0 R 6 0 R]' : '5 0 R';
  const objects: PdfObject[] = [
    `<< /Type /Catalog /Pages 2 0 R ${where === 'metadata' ? '/Metadata 6 0 R' : ''} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents ${contents} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    { dictionary: '', stream: CONTROL },
    { dictionary: `${where === 'metadata' ? '/Type /Metadata /Subtype /XML ' : ''}${filter}`, stream: data },
  ];
  if (!options.encrypted) return writePdf({ objects, trailer: '/Root 1 0 R' });
  const encryption = rc4Encryption();
  objects.push(encryption.dictionary);
  return writePdf({
    objects,
    trailer: `/Root 1 0 R /Encrypt ${objects.length} 0 R /ID [<${encryption.id}> <${encryption.id}>]`,
    streamData: encryption.encrypt,
  });
}

/** PDF 32000-1 §7.6.3.3, Algorithm 2's padding string. */
const PADDING = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const state = Array.from({ length: 256 }, (_, index) => index);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + state[i]! + key[i % key.length]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
  }
  const out = new Uint8Array(data.length);
  for (let index = 0, i = 0, j = 0; index < data.length; index++) {
    i = (i + 1) & 0xff;
    j = (j + state[i]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
    out[index] = data[index]! ^ state[(state[i]! + state[j]!) & 0xff]!;
  }
  return out;
}

const md5 = (...parts: Uint8Array[]): Buffer => createHash('md5').update(Buffer.concat(parts)).digest();

/** Revision 2 of the Standard security handler with empty owner and user passwords (§7.6.3.3–4). */
function rc4Encryption(): { dictionary: string; id: string; encrypt: (objectNumber: number, data: Uint8Array) => Uint8Array } {
  const id = '0123456789abcdef0123456789abcdef';
  const permissions = -44;
  const owner = rc4(md5(PADDING).subarray(0, 5), PADDING);
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(PADDING, owner, p, Buffer.from(id, 'hex')).subarray(0, 5);
  const user = rc4(key, PADDING);
  const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
  return {
    dictionary: `<< /Filter /Standard /V 1 /R 2 /O <${hex(owner)}> /U <${hex(user)}> /P ${permissions} >>`,
    id,
    encrypt: (objectNumber, data) => {
      const objectKey = md5(
        key,
        Buffer.from([objectNumber & 0xff, (objectNumber >> 8) & 0xff, (objectNumber >> 16) & 0xff, 0, 0]),
      ).subarray(0, 10);
      return rc4(objectKey, data);
    },
  };
}
