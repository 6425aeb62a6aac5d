/**
 * A byte-exact PDF writer for tests that need binary streams (Flate data, hostile files): objects
 * are numbered from 1 in the order given, the xref table's offsets are computed, and strings are
 * written as Latin-1 so every byte 0–255 survives. No binary fixtures are committed: each test
 * builds its file with this.
 */
import { deflateRawSync, constants } from 'node:zlib';

/** An object body (`<< … >>`, `[ … ]`, a number), or a stream with its dictionary entries. */
export type PdfObject = string | { dictionary: string; stream: Uint8Array | string };

export interface PdfFile {
  /** Object 1 is first; refer to object i + 1 as `${i + 1} 0 R`. */
  objects: PdfObject[];
  /** Trailer entries besides /Size, e.g. `/Root 1 0 R`. */
  trailer: string;
  /** Applied to each stream's data as written (encryption), given its object number. */
  streamData?: (objectNumber: number, data: Uint8Array) => Uint8Array;
}

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (character) => character.charCodeAt(0) & 0xff);

/** The bytes of `file`, with `/Length` of each stream filled in. */
export function writePdf(file: PdfFile): Uint8Array {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  const push = (bytes: Uint8Array): void => {
    chunks.push(bytes);
    offset += bytes.length;
  };
  push(latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n'));
  const offsets: number[] = [];
  file.objects.forEach((object, index) => {
    offsets.push(offset);
    if (typeof object === 'string') {
      push(latin1(`${index + 1} 0 obj\n${object}\nendobj\n`));
      return;
    }
    const raw = typeof object.stream === 'string' ? latin1(object.stream) : object.stream;
    const data = file.streamData ? file.streamData(index + 1, raw) : raw;
    push(latin1(`${index + 1} 0 obj\n<< ${object.dictionary} /Length ${data.length} >>\nstream\n`));
    push(data);
    push(latin1('\nendstream\nendobj\n'));
  });
  const xref = offset;
  let table = `xref\n0 ${file.objects.length + 1}\n0000000000 65535 f \n`;
  for (const start of offsets) table += `${String(start).padStart(10, '0')} 00000 n \n`;
  push(latin1(`${table}trailer\n<< /Size ${file.objects.length + 1} ${file.trailer} >>\nstartxref\n${xref}\n%%EOF\n`));
  const bytes = new Uint8Array(offset);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * A zlib stream (`/FlateDecode`) that inflates to `decodedBytes` zero bytes, built without ever
 * holding them: one MiB of zeros deflated with a full flush is a self-contained run of blocks, so
 * N copies of it followed by a final empty block inflate to N MiB. About 1 KB per MiB (1 GiB →
 * ~1 MB), the ratio of the 4.7 MB file that inflated to 4.5 GiB. `decodedBytes` is
 * rounded up to whole MiB.
 */
export function zeroFlateStream(decodedBytes: number): Uint8Array {
  const mebibyte = 1024 * 1024;
  const copies = Math.max(1, Math.ceil(decodedBytes / mebibyte));
  const block = deflateRawSync(new Uint8Array(mebibyte), { finishFlush: constants.Z_FULL_FLUSH });
  const last = deflateRawSync(new Uint8Array(0));
  const total = copies * mebibyte;
  // Adler-32 of `total` zeros: a stays 1, b adds 1 per byte.
  const adler = (((total % 65521) << 16) | 1) >>> 0;
  const bytes = new Uint8Array(2 + copies * block.length + last.length + 4);
  bytes.set([0x78, 0x9c], 0);
  for (let index = 0; index < copies; index++) bytes.set(block, 2 + index * block.length);
  bytes.set(last, 2 + copies * block.length);
  new DataView(bytes.buffer).setUint32(bytes.length - 4, adler);
  return bytes;
}
